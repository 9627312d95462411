// Package search proposes configurations of a search space: uniformly at random, or by
// the tree-structured Parzen estimator (TPE) from the values of earlier trials.
//
// A Space is a list of parameters, each a list of choices, a float range or an integer
// range, the ranges possibly on a log scale. A point of the space is a []float64 with
// one coordinate per parameter: the index of the choice, or the value itself. Samplers
// draw every point from a generator seeded by the caller, so that the same seed and the
// same history give the same proposals on any machine, whatever the number of workers.
//
// TPE follows the algorithm of Bergstra et al. (2011) with the defaults of Optuna's
// TPESampler: the first StartupTrials proposals are random; afterwards the trials are
// split into the best γ(n) = min(⌈0.1·n⌉, 25) and the rest, each parameter gets a
// Parzen estimator l of the best and g of the rest (truncated Gaussians on the range,
// in log space for a log range and on [lo−½, hi+½] for integers; a weighted histogram
// for choices, each with a prior component), and the proposal is the candidate, out
// of EICandidates drawn from l, that maximises l(x)/g(x).
//
// BracketSizes and Brackets split the trials of a Hyperband search (Li et al. 2018)
// among its brackets of successive halving, in the paper's proportions, by trial
// number and a seeded shuffle within a batch: never by the number of workers.
package search

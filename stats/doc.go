// Package stats holds the significance tests a comparison of clustering methods needs.
//
// Over the restarts of two methods on one dataset: Wilcoxon's signed-rank test of paired
// scores (restarts that share their initialisation), two- or one-sided, as
// scipy.stats.wilcoxon computes it with zero_method="wilcox" and correction=True (see
// WilcoxonTest for tied differences), and a seeded bootstrap confidence interval of a difference of means
// where the scores do not pair. Over datasets (Demšar, "Statistical comparisons of
// classifiers over multiple data sets", JMLR 7, 2006): average ranks with ties averaged,
// Friedman's χ² and Iman and Davenport's F, and Nemenyi's critical difference, whose
// studentized range quantile is computed (not tabulated) for any number of methods.
// The χ², F and normal distributions are gonum's (stat/distuv).
package stats

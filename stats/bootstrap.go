package stats

import (
	"errors"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Interval is a confidence interval [Lo, Hi] of an estimate.
type Interval struct {
	Estimate, Lo, Hi float64
}

// Excludes reports whether v lies outside the interval.
func (c Interval) Excludes(v float64) bool { return v < c.Lo || v > c.Hi }

// BootstrapMeanDiff returns the percentile bootstrap confidence interval, at level
// 1 − alpha, of mean(x) − mean(y) for two independent samples: resamples draws of each
// sample with replacement, the interval the alpha/2 and 1 − alpha/2 empirical quantiles
// (stat.Empirical) of the resampled differences. The draws come from a PCG generator
// seeded with seed, so the interval is the same on every run. It returns an error for an
// empty sample, resamples < 1 or alpha outside (0, 1). Cost O(resamples·(len(x) +
// len(y)) + resamples·log(resamples)).
func BootstrapMeanDiff(x, y []float64, resamples int, alpha float64, seed uint64) (Interval, error) {
	if len(x) == 0 || len(y) == 0 {
		return Interval{}, errors.New("stats: BootstrapMeanDiff: an empty sample")
	}
	if resamples < 1 || !(alpha > 0 && alpha < 1) {
		return Interval{}, errors.New("stats: BootstrapMeanDiff: need resamples ≥ 1 and 0 < alpha < 1")
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e616763)) // "nagc"
	mean := func(s []float64) float64 {
		var sum float64
		for range s {
			sum += s[rng.IntN(len(s))]
		}
		return sum / float64(len(s))
	}
	diffs := make([]float64, resamples)
	for i := range diffs {
		diffs[i] = mean(x) - mean(y)
	}
	slices.Sort(diffs)
	return Interval{
		Estimate: stat.Mean(x, nil) - stat.Mean(y, nil),
		Lo:       stat.Quantile(alpha/2, stat.Empirical, diffs, nil),
		Hi:       stat.Quantile(1-alpha/2, stat.Empirical, diffs, nil),
	}, nil
}

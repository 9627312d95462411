package stats

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MaxExactWilcoxon is the largest number of non-zero differences whose Wilcoxon p-value
// is computed exactly (scipy.stats.wilcoxon's method="auto" bound); above it, and
// whenever differences are tied, the normal approximation is used.
const MaxExactWilcoxon = 50

// Alternative is the alternative hypothesis of a test of paired samples x and y.
type Alternative int8

// Alternatives: x and y differ (either way), x is greater, x is less.
const (
	TwoSided Alternative = iota
	Greater
	Less
)

// WilcoxonResult is the outcome of a Wilcoxon signed-rank test.
type WilcoxonResult struct {
	// Statistic is scipy's: min(W+, W−) for a two-sided test (the smaller sum of the
	// ranks of |x − y| over the positive and over the negative differences), W+ for a
	// one-sided one.
	Statistic float64
	// WPlus and WMinus are the rank sums of the positive and the negative differences.
	WPlus, WMinus float64
	// N is the number of non-zero differences the test ranks; Zeros the number of
	// zero differences it dropped.
	N, Zeros int
	// P is the p-value under the test's alternative.
	P float64
	// Exact is whether P is exact (N ≤ MaxExactWilcoxon, no ties, no zeros); else it
	// is the normal approximation's, and Z its statistic.
	Exact bool
	Z     float64
}

// Wilcoxon is WilcoxonTest with the two-sided alternative.
func Wilcoxon(x, y []float64) (WilcoxonResult, error) { return WilcoxonTest(x, y, TwoSided) }

// WilcoxonTest tests whether the paired differences x[i] − y[i] are symmetric about
// zero against alt, as scipy.stats.wilcoxon(x, y, zero_method="wilcox",
// correction=True, alternative=…) does: zero differences are dropped, |x − y| ranked
// with ties averaged; the p-value is exact (the distribution of W+ by counting; for a
// two-sided test 2·P(W ≤ min(W+, W−)), capped at 1) when there are at most
// MaxExactWilcoxon differences and no zero or tied one, and otherwise the normal
// approximation with the tie correction of the variance and a continuity correction of
// ½. Tied differences take the approximation, as R's wilcox.test does (scipy 1.10's
// "auto" method counts them exactly from truncated rank sums). It returns an error for
// unequal lengths or when every difference is zero. Cost
// O(n log n), plus O(n³) for the exact distribution (n ≤ 50).
func WilcoxonTest(x, y []float64, alt Alternative) (WilcoxonResult, error) {
	if len(x) != len(y) {
		return WilcoxonResult{}, errors.New("stats: Wilcoxon: samples of different lengths")
	}
	var d []float64
	zeros := 0
	for i := range x {
		switch v := x[i] - y[i]; {
		case math.IsNaN(v):
			return WilcoxonResult{}, errors.New("stats: Wilcoxon: NaN in a sample")
		case v == 0:
			zeros++
		default:
			d = append(d, v)
		}
	}
	n := len(d)
	if n == 0 {
		return WilcoxonResult{}, errors.New("stats: Wilcoxon: every difference is zero")
	}
	abs := make([]float64, n)
	for i, v := range d {
		abs[i] = math.Abs(v)
	}
	ranks := Rank(abs)
	res := WilcoxonResult{N: n, Zeros: zeros}
	for i, v := range d {
		if v > 0 {
			res.WPlus += ranks[i]
		} else {
			res.WMinus += ranks[i]
		}
	}
	res.Statistic = math.Min(res.WPlus, res.WMinus)
	if alt != TwoSided {
		res.Statistic = res.WPlus
	}
	ties := tieSizes(abs)
	if n <= MaxExactWilcoxon && zeros == 0 && len(ties) == 0 {
		res.Exact = true
		counts := wilcoxonCounts(n)
		switch w := int(res.WPlus); alt {
		case Greater: // P(W+ ≥ w) = P(W+ ≤ total − w)
			res.P = cumulative(counts, len(counts)-1-w) / math.Ldexp(1, n)
		case Less:
			res.P = cumulative(counts, w) / math.Ldexp(1, n)
		default:
			res.P = wilcoxonExactP(n, int(res.Statistic))
		}
		return res, nil
	}
	fn := float64(n)
	mean := fn * (fn + 1) / 4
	variance := fn * (fn + 1) * (2*fn + 1) / 24
	for _, t := range ties {
		ft := float64(t)
		variance -= ft * (ft*ft - 1) / 48
	}
	cc := 0.0
	switch {
	case alt == Greater:
		cc = 0.5
	case alt == Less:
		cc = -0.5
	case res.Statistic != mean:
		cc = math.Copysign(0.5, res.Statistic-mean)
	}
	res.Z = (res.Statistic - mean - cc) / math.Sqrt(variance)
	switch alt {
	case Greater:
		res.P = distuv.UnitNormal.Survival(res.Z)
	case Less:
		res.P = distuv.UnitNormal.CDF(res.Z)
	default:
		res.P = math.Min(1, 2*distuv.UnitNormal.Survival(math.Abs(res.Z)))
	}
	return res, nil
}

// wilcoxonExactP returns the two-sided exact p-value 2·P(W ≤ w), capped at 1, of the
// signed-rank statistic of n untied non-zero differences: the number of subsets of
// {1, …, n} with sum at most w over 2ⁿ. Cost O(n³).
func wilcoxonExactP(n, w int) float64 {
	counts := wilcoxonCounts(n)
	if 2*w == len(counts)-1 {
		return 1 // the centre of the distribution
	}
	return math.Min(1, 2*cumulative(counts, w)/math.Ldexp(1, n))
}

// wilcoxonCounts returns, for s = 0 … n(n+1)/2, the number of subsets of {1, …, n}
// summing to s: 2ⁿ times the distribution of W+ (exact in float64 for n ≤ 52). Cost
// O(n³).
func wilcoxonCounts(n int) []float64 {
	total := n * (n + 1) / 2
	counts := make([]float64, total+1)
	counts[0] = 1
	for i := 1; i <= n; i++ {
		for s := total; s >= i; s-- {
			counts[s] += counts[s-i]
		}
	}
	return counts
}

// cumulative returns counts[0] + … + counts[w].
func cumulative(counts []float64, w int) float64 {
	var s float64
	for _, c := range counts[:w+1] {
		s += c
	}
	return s
}

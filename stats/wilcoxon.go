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

// WilcoxonResult is the outcome of a two-sided Wilcoxon signed-rank test.
type WilcoxonResult struct {
	// Statistic is min(W+, W−), the smaller sum of the ranks of |x − y| over the
	// positive and over the negative differences (scipy's two-sided statistic).
	Statistic float64
	// WPlus and WMinus are the rank sums of the positive and the negative differences.
	WPlus, WMinus float64
	// N is the number of non-zero differences the test ranks; Zeros the number of
	// zero differences it dropped.
	N, Zeros int
	// P is the two-sided p-value.
	P float64
	// Exact is whether P is exact (N ≤ MaxExactWilcoxon, no ties, no zeros); else it
	// is the normal approximation's, and Z its statistic.
	Exact bool
	Z     float64
}

// Wilcoxon tests whether the paired differences x[i] − y[i] are symmetric about zero
// (two-sided), as scipy.stats.wilcoxon(x, y, zero_method="wilcox", correction=True)
// does: zero differences are dropped, |x − y| ranked with ties averaged; the p-value is
// exact (the distribution of W+ by counting, 2·P(W ≤ min(W+, W−)), capped at 1) when
// there are at most MaxExactWilcoxon differences and no zero or tied one, and otherwise
// the normal approximation with the tie correction of the variance and a continuity
// correction of ½. It returns an error for unequal lengths or when every difference is
// zero. Cost O(n log n), plus O(n³) for the exact distribution (n ≤ 50).
func Wilcoxon(x, y []float64) (WilcoxonResult, error) {
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
	ties := tieSizes(abs)
	if n <= MaxExactWilcoxon && zeros == 0 && len(ties) == 0 {
		res.Exact = true
		res.P = wilcoxonExactP(n, int(res.Statistic))
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
	if res.Statistic != mean {
		cc = math.Copysign(0.5, res.Statistic-mean)
	}
	res.Z = (res.Statistic - mean - cc) / math.Sqrt(variance)
	res.P = math.Min(1, 2*distuv.UnitNormal.Survival(math.Abs(res.Z)))
	return res, nil
}

// wilcoxonExactP returns the two-sided exact p-value 2·P(W ≤ w), capped at 1, of the
// signed-rank statistic of n untied non-zero differences: the number of subsets of
// {1, …, n} with sum at most w over 2ⁿ. Cost O(n³).
func wilcoxonExactP(n, w int) float64 {
	total := n * (n + 1) / 2
	counts := make([]float64, total+1) // counts[s]: subsets of {1…i} summing to s
	counts[0] = 1
	for i := 1; i <= n; i++ {
		for s := total; s >= i; s-- {
			counts[s] += counts[s-i]
		}
	}
	if 2*w == total {
		return 1 // the centre of the distribution
	}
	var le float64
	for s := 0; s <= w; s++ {
		le += counts[s]
	}
	return math.Min(1, 2*le/math.Ldexp(1, n))
}

package stats

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

// NemenyiQ returns q_α of Nemenyi's test for k methods (Demšar 2006, Table 5a): the
// 1 − alpha quantile of the studentized range of k independent standard normal
// variables (infinite degrees of freedom), divided by √2. It is computed, not
// tabulated: P(range ≤ q) = k ∫ φ(z) (Φ(z + q) − Φ(z))^(k−1) dz by Gauss–Legendre
// quadrature, solved for q by bisection to 1e-10. It returns an error for k < 2 or alpha
// outside (0, 1). Cost about 40 bisection steps of a 400-point quadrature.
func NemenyiQ(k int, alpha float64) (float64, error) {
	if k < 2 || !(alpha > 0 && alpha < 1) {
		return 0, errors.New("stats: NemenyiQ needs k ≥ 2 and 0 < alpha < 1")
	}
	lo, hi := 0.0, 20.0
	for hi-lo > 1e-10 {
		mid := (lo + hi) / 2
		if rangeCDF(k, mid) < 1-alpha {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2 / math.Sqrt2, nil
}

// rangeCDF returns P(range of k standard normal variables ≤ q). Cost O(400).
func rangeCDF(k int, q float64) float64 {
	n := distuv.UnitNormal
	f := func(z float64) float64 {
		return n.Prob(z) * math.Pow(n.CDF(z+q)-n.CDF(z), float64(k-1))
	}
	return float64(k) * quad.Fixed(f, -12, 12, 400, quad.Legendre{}, 0)
}

// CriticalDifference returns Nemenyi's critical difference of average ranks for k
// methods over n datasets at level alpha (Demšar 2006, section 3.2.2): q_α·√(k(k+1)/(6n)),
// q_α from NemenyiQ. Two methods whose average ranks differ by at least it perform
// significantly differently. Cost that of NemenyiQ.
func CriticalDifference(k, n int, alpha float64) (float64, error) {
	if n < 1 {
		return 0, errors.New("stats: CriticalDifference needs at least one dataset")
	}
	q, err := NemenyiQ(k, alpha)
	if err != nil {
		return 0, err
	}
	return q * math.Sqrt(float64(k*(k+1))/(6*float64(n))), nil
}

package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// FriedmanResult is the outcome of Friedman's test of k methods over N datasets.
type FriedmanResult struct {
	// N datasets, K methods.
	N, K int
	// AvgRanks are the methods' average ranks over the datasets, 1 the best.
	AvgRanks []float64
	// ChiSq is Friedman's statistic χ²_F and PChiSq its p-value (χ² with K − 1
	// degrees of freedom).
	ChiSq, PChiSq float64
	// F is Iman and Davenport's statistic F_F and PF its p-value (F with K − 1 and
	// (K − 1)(N − 1) degrees of freedom); NaN when χ²_F = N(K − 1) (every dataset
	// ranks the methods alike).
	F, PF float64
}

// AverageRanks ranks the methods (columns) of scores within every dataset (row), 1 for
// the best, ties given the mean of the ranks they span, and returns each method's mean
// rank over the datasets. lowerIsBetter says that the smallest score is the best. Every
// row must have the same length and no NaN. Cost O(N·K log K).
func AverageRanks(scores [][]float64, lowerIsBetter bool) ([]float64, error) {
	if len(scores) == 0 || len(scores[0]) < 2 {
		return nil, errors.New("stats: ranks need at least one dataset and two methods")
	}
	k := len(scores[0])
	avg := make([]float64, k)
	row := make([]float64, k)
	for i, s := range scores {
		if len(s) != k {
			return nil, fmt.Errorf("stats: dataset %d has %d scores, dataset 0 has %d", i, len(s), k)
		}
		for j, v := range s {
			if math.IsNaN(v) {
				return nil, fmt.Errorf("stats: dataset %d: method %d has no score", i, j)
			}
			row[j] = -v
			if lowerIsBetter {
				row[j] = v
			}
		}
		for j, r := range Rank(row) {
			avg[j] += r
		}
	}
	for j := range avg {
		avg[j] /= float64(len(scores))
	}
	return avg, nil
}

// Friedman tests whether k methods, scored on N datasets (scores[dataset][method]),
// perform alike: FriedmanFromRanks of their AverageRanks. Cost O(N·K log K).
func Friedman(scores [][]float64, lowerIsBetter bool) (FriedmanResult, error) {
	avg, err := AverageRanks(scores, lowerIsBetter)
	if err != nil {
		return FriedmanResult{}, err
	}
	return FriedmanFromRanks(avg, len(scores))
}

// FriedmanFromRanks returns Friedman's test of k methods with average ranks avg over n
// datasets, as Demšar (2006, section 3.2.2) states it: χ²_F = 12n/(k(k+1))·(Σ R_j² −
// k(k+1)²/4), without a correction for ties, and Iman and Davenport's F_F = (n − 1)χ²_F
// / (n(k − 1) − χ²_F). It needs n ≥ 2 and k ≥ 2. Cost O(k).
func FriedmanFromRanks(avg []float64, n int) (FriedmanResult, error) {
	if n < 2 || len(avg) < 2 {
		return FriedmanResult{}, errors.New("stats: Friedman needs at least two datasets and two methods")
	}
	fn, k := float64(n), float64(len(avg))
	var sum2 float64
	for _, r := range avg {
		sum2 += r * r
	}
	res := FriedmanResult{N: n, K: len(avg), AvgRanks: avg, F: math.NaN(), PF: math.NaN()}
	res.ChiSq = 12 * fn / (k * (k + 1)) * (sum2 - k*(k+1)*(k+1)/4)
	res.PChiSq = distuv.ChiSquared{K: k - 1}.Survival(res.ChiSq)
	if den := fn*(k-1) - res.ChiSq; den > 1e-12*fn*k {
		res.F = (fn - 1) * res.ChiSq / den
		res.PF = distuv.F{D1: k - 1, D2: (k - 1) * (fn - 1)}.Survival(res.F)
	}
	return res, nil
}

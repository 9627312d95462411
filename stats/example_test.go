package stats_test

import (
	"fmt"

	"github.com/nagc-harness/nagc/stats"
)

// Demšar's (2006) example, from the average ranks he prints for four C4.5 variants on
// 14 data sets: the Friedman test rejects equal performance, and a pair of variants
// differs significantly when their ranks are at least CD apart.
func ExampleFriedmanFromRanks() {
	r, _ := stats.FriedmanFromRanks([]float64{3.143, 2.000, 2.893, 1.964}, 14)
	cd, _ := stats.CriticalDifference(r.K, r.N, 0.05)
	fmt.Printf("χ²_F = %.2f (p = %.3f), F_F = %.2f (p = %.3f), CD = %.2f\n", r.ChiSq, r.PChiSq, r.F, r.PF, cd)
	// Output: χ²_F = 9.28 (p = 0.026), F_F = 3.69 (p = 0.020), CD = 1.25
}

// The example of scipy.stats.wilcoxon's documentation: 15 paired differences, no ties,
// so the p-value is exact.
func ExampleWilcoxon() {
	d := []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75}
	r, _ := stats.Wilcoxon(d, make([]float64, len(d)))
	fmt.Printf("W = %v, p = %.4f, exact %v\n", r.Statistic, r.P, r.Exact)
	// Output: W = 24, p = 0.0413, exact true
}

package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// demsarTable6 is Table 6 of Demšar (2006): the AUC of C4.5, C4.5+m, C4.5+cf and
// C4.5+m+cf on 14 UCI data sets (adult (sample), breast cancer, breast cancer
// wisconsin, cmc, ionosphere, iris, liver disorders, lung cancer, lymphography,
// mushroom, primary tumor, rheum, voting, wine).
var demsarTable6 = [][]float64{
	{0.763, 0.768, 0.771, 0.798}, {0.599, 0.591, 0.590, 0.569}, {0.954, 0.971, 0.968, 0.967},
	{0.628, 0.661, 0.654, 0.657}, {0.882, 0.888, 0.886, 0.898}, {0.936, 0.931, 0.916, 0.931},
	{0.661, 0.668, 0.609, 0.685}, {0.583, 0.583, 0.563, 0.625}, {0.775, 0.838, 0.866, 0.875},
	{1.000, 1.000, 1.000, 1.000}, {0.940, 0.962, 0.965, 0.962}, {0.619, 0.666, 0.614, 0.669},
	{0.972, 0.981, 0.975, 0.975}, {0.957, 0.978, 0.946, 0.970},
}

// TestFriedmanDemsar checks Demšar's worked example (section 3.2.2), from the average
// ranks it prints, 3.143, 2.000, 2.893, 1.964: χ²_F = 9.28; F_F = 3.69, beyond F(3,
// 39)'s critical value 2.85 at α = 0.05; CD = 1.25 at α = 0.05 (q = 2.569) and 1.12 at
// α = 0.10 (q = 2.291), all to the digits printed.
//
// Ranked from the AUCs of its Table 6 as printed, the third and fourth methods get
// 41/14 = 2.929 and 27/14 = 1.929 instead: on one data set the paper ranks them as
// tied, whose printed AUCs differ (a difference of ±0.5/14 each). From these ranks, by
// hand: Σ R² = 5130/196, χ²_F = 8.4·(5130/196 − 25) = 9.857, F_F = 13·χ²_F/(42 − χ²_F)
// = 3.987.
func TestFriedmanDemsar(t *testing.T) {
	r, err := FriedmanFromRanks([]float64{3.143, 2.000, 2.893, 1.964}, 14)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.ChiSq-9.28) > 0.005 || math.Abs(r.F-3.69) > 0.005 || !(r.PF < 0.05) || !(r.PChiSq < 0.05) {
		t.Errorf("χ²_F %.4f F_F %.4f, p %v %v: Demšar 9.28 and 3.69, both significant", r.ChiSq, r.F, r.PChiSq, r.PF)
	}
	if fc := (distuv.F{D1: 3, D2: 39}).Quantile(0.95); math.Abs(fc-2.85) > 0.005 {
		t.Errorf("F(3, 39) critical value %.4f, Demšar 2.85", fc)
	}
	r, err = Friedman(demsarTable6, false)
	if err != nil {
		t.Fatal(err)
	}
	for j, want := range []float64{44.0 / 14, 28.0 / 14, 41.0 / 14, 27.0 / 14} {
		if math.Abs(r.AvgRanks[j]-want) > 1e-12 {
			t.Errorf("average rank of method %d = %.4f, want %.4f", j, r.AvgRanks[j], want)
		}
	}
	if math.Abs(r.ChiSq-8.4*(5130.0/196-25)) > 1e-9 || math.Abs(r.F-3.9867) > 0.0001 || r.N != 14 || r.K != 4 {
		t.Errorf("χ²_F %.4f F_F %.4f N %d K %d, want 9.857, 3.987, 14, 4", r.ChiSq, r.F, r.N, r.K)
	}
	for _, c := range []struct{ alpha, cd float64 }{{0.05, 1.25}, {0.10, 1.12}} {
		cd, err := CriticalDifference(4, 14, c.alpha)
		if err != nil || math.Abs(cd-c.cd) > 0.005 {
			t.Errorf("CD at α = %v: %v (%v), Demšar %v", c.alpha, cd, err, c.cd)
		}
	}
}

// TestFriedmanLower checks that ranking lowest-first turns the ranks over: k + 1 − R.
func TestFriedmanLower(t *testing.T) {
	hi, _ := AverageRanks(demsarTable6, false)
	lo, err := AverageRanks(demsarTable6, true)
	if err != nil {
		t.Fatal(err)
	}
	for j := range hi {
		if math.Abs(hi[j]+lo[j]-5) > 1e-12 {
			t.Errorf("method %d: ranks %v and %v do not sum to k + 1", j, hi[j], lo[j])
		}
	}
}

// TestFriedmanIdentical: every dataset ranks the methods alike, so χ²_F = N(k − 1) and
// F_F is undefined (NaN).
func TestFriedmanIdentical(t *testing.T) {
	r, err := Friedman([][]float64{{3, 2, 1}, {30, 20, 10}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.ChiSq != 4 || !math.IsNaN(r.F) {
		t.Errorf("χ²_F %v F_F %v, want 4 and NaN", r.ChiSq, r.F)
	}
}

func TestFriedmanErrors(t *testing.T) {
	for _, s := range [][][]float64{nil, {{1, 2}}, {{1}, {2}}, {{1, 2}, {1, 2, 3}}, {{1, math.NaN()}, {1, 2}}} {
		if _, err := Friedman(s, false); err == nil {
			t.Errorf("Friedman(%v): no error", s)
		}
	}
}

// TestNemenyiQ checks q_α against Demšar's Table 5(a) (the studentized range statistic
// divided by √2, printed to three decimals, some truncated rather than rounded: hence
// the tolerance), and at k = 20 and 50 against scipy.stats.studentized_range.ppf(1 − α,
// k, inf)/√2 (scipy 1.10.1).
func TestNemenyiQ(t *testing.T) {
	demsar := map[float64][]float64{
		0.05: {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164},
		0.10: {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920},
	}
	for alpha, qs := range demsar {
		for i, want := range qs {
			k := i + 2
			if q, err := NemenyiQ(k, alpha); err != nil || math.Abs(q-want) > 0.001 {
				t.Errorf("q(k = %d, α = %v) = %.4f (%v), Demšar %.3f", k, alpha, q, err, want)
			}
		}
	}
	for _, c := range []struct {
		k        int
		alpha, q float64
	}{{20, 0.05, 3.5437991315177815}, {50, 0.05, 3.9923432900094076}, {50, 0.10, 3.7877496141945874}} {
		if q, _ := NemenyiQ(c.k, c.alpha); math.Abs(q-c.q) > 1e-8 {
			t.Errorf("q(k = %d, α = %v) = %.12f, scipy %.12f", c.k, c.alpha, q, c.q)
		}
	}
	if _, err := NemenyiQ(1, 0.05); err == nil {
		t.Error("k = 1: no error")
	}
}

package metrics

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

const tol = 1e-9

func TestSklearnVectors(t *testing.T) {
	// Reference values from scikit-learn 1.2 adjusted_rand_score and
	// normalized_mutual_info_score.
	for _, tc := range []struct {
		name        string
		truth, pred []int
		ari, nmi    float64
	}{
		{
			name:  "mixed",
			truth: []int{0, 0, 0, 1, 1, 1, 2, 2, 2, 2},
			pred:  []int{0, 0, 1, 1, 1, 2, 2, 2, 0, 0},
			ari:   0.090909090909, nmi: 0.394648371636,
		},
		{
			name:  "swapped",
			truth: []int{0, 0, 1, 1},
			pred:  []int{1, 1, 0, 0},
			ari:   1, nmi: 1,
		},
		{
			name:  "independent",
			truth: []int{0, 0, 0, 0, 1, 1, 1, 1},
			pred:  []int{0, 1, 0, 1, 0, 1, 0, 1},
			ari:   -0.166666666667, nmi: 0,
		},
		{
			name:  "rectangular",
			truth: []int{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3},
			pred:  []int{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3},
			ari:   -0.222222222222, nmi: 0.207518749639,
		},
		// sklearn docstring examples.
		{name: "split", truth: []int{0, 0, 1, 2}, pred: []int{0, 0, 1, 1}, ari: 4.0 / 7, nmi: math.NaN()},
		{name: "anti", truth: []int{0, 0, 1, 1}, pred: []int{0, 1, 0, 1}, ari: -0.5, nmi: 0},
		{name: "all split", truth: []int{0, 0, 0, 0}, pred: []int{0, 1, 2, 3}, ari: 0, nmi: 0},
		// Special cases.
		{name: "empty", truth: []int{}, pred: []int{}, ari: 1, nmi: 1},
		{name: "one element", truth: []int{3}, pred: []int{7}, ari: 1, nmi: 1},
		{name: "single clusters", truth: []int{2, 2, 2}, pred: []int{5, 5, 5}, ari: 1, nmi: 1},
		{name: "singletons", truth: []int{0, 1, 2, 3}, pred: []int{3, 2, 1, 0}, ari: 1, nmi: 1},
		{name: "one vs two", truth: []int{0, 0, 0, 0}, pred: []int{0, 0, 1, 1}, ari: 0, nmi: 0},
	} {
		ari, err := ARI(tc.truth, tc.pred)
		if err != nil {
			t.Fatalf("%s: ARI error: %v", tc.name, err)
		}
		if math.Abs(ari-tc.ari) > tol {
			t.Errorf("%s: ARI = %.12f, want %.12f", tc.name, ari, tc.ari)
		}
		nmi, err := NMI(tc.truth, tc.pred)
		if err != nil {
			t.Fatalf("%s: NMI error: %v", tc.name, err)
		}
		if !math.IsNaN(tc.nmi) && math.Abs(nmi-tc.nmi) > tol {
			t.Errorf("%s: NMI = %.12f, want %.12f", tc.name, nmi, tc.nmi)
		}
	}
}

// naiveARI is the textbook Hubert-Arabie formula over a dense contingency table.
func naiveARI(truth, pred []int) float64 {
	k1, k2 := 0, 0
	for i := range truth {
		k1 = max(k1, truth[i]+1)
		k2 = max(k2, pred[i]+1)
	}
	tab := make([][]float64, k1)
	for i := range tab {
		tab[i] = make([]float64, k2)
	}
	for i := range truth {
		tab[truth[i]][pred[i]]++
	}
	comb2 := func(x float64) float64 { return x * (x - 1) / 2 }
	var index, sa, sb float64
	b := make([]float64, k2)
	for i := range tab {
		var a float64
		for j, v := range tab[i] {
			index += comb2(v)
			a += v
			b[j] += v
		}
		sa += comb2(a)
	}
	for _, v := range b {
		sb += comb2(v)
	}
	expected := sa * sb / comb2(float64(len(truth)))
	maxIndex := (sa + sb) / 2
	return (index - expected) / (maxIndex - expected)
}

// naiveNMI computes MI / mean(H) from probabilities over a dense contingency table.
func naiveNMI(truth, pred []int) float64 {
	n := float64(len(truth))
	joint := map[[2]int]float64{}
	pa := map[int]float64{}
	pb := map[int]float64{}
	for i := range truth {
		joint[[2]int{truth[i], pred[i]}] += 1 / n
		pa[truth[i]] += 1 / n
		pb[pred[i]] += 1 / n
	}
	var mi, ha, hb float64
	for k, p := range joint {
		mi += p * math.Log(p/(pa[k[0]]*pb[k[1]]))
	}
	for _, p := range pa {
		ha -= p * math.Log(p)
	}
	for _, p := range pb {
		hb -= p * math.Log(p)
	}
	return mi / ((ha + hb) / 2)
}

func randomLabels(rnd *rand.Rand, n, k int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = rnd.IntN(k)
	}
	return l
}

func TestARINMIRandom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 2 + rnd.IntN(200)
		truth := randomLabels(rnd, n, 2+rnd.IntN(6))
		pred := randomLabels(rnd, n, 2+rnd.IntN(8))
		// Make sure both labelings have at least two labels.
		truth[0], truth[1] = 0, 1
		pred[0], pred[1] = 0, 1
		ari, err := ARI(truth, pred)
		if err != nil {
			t.Fatal(err)
		}
		if want := naiveARI(truth, pred); math.Abs(ari-want) > tol {
			t.Errorf("trial %d: ARI = %v, want %v", trial, ari, want)
		}
		nmi, err := NMI(truth, pred)
		if err != nil {
			t.Fatal(err)
		}
		if want := naiveNMI(truth, pred); math.Abs(nmi-want) > tol {
			t.Errorf("trial %d: NMI = %v, want %v", trial, nmi, want)
		}
		// Symmetry and invariance under renaming labels to large, sparse values
		// (which exercises the sorting path of label compression).
		rename := func(l []int, f func(int) int) []int {
			out := make([]int, len(l))
			for i, v := range l {
				out[i] = f(v)
			}
			return out
		}
		pred2 := rename(pred, func(v int) int { return 1_000_000_007*(20-v) + 3 })
		truth2 := rename(truth, func(v int) int { return 5 * v })
		for _, pair := range [][2][]int{{pred, truth}, {truth2, pred2}} {
			a2, err := ARI(pair[0], pair[1])
			if err != nil {
				t.Fatal(err)
			}
			n2, err := NMI(pair[0], pair[1])
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(a2-ari) > 1e-12 || math.Abs(n2-nmi) > 1e-12 {
				t.Errorf("trial %d: not invariant: ARI %v vs %v, NMI %v vs %v", trial, a2, ari, n2, nmi)
			}
		}
	}
}

func TestContingency(t *testing.T) {
	c, err := newContingency([]int{5, 5, 2, 2, 5}, []int{9, 1, 1, 1, 9})
	if err != nil {
		t.Fatal(err)
	}
	// Classes {2, 5}, clusters {1, 9}: cells (2,1)=2, (5,1)=1, (5,9)=2.
	want := struct{ ci, cj, nij, a, b []int }{
		[]int{0, 1, 1}, []int{0, 0, 1}, []int{2, 1, 2}, []int{2, 3}, []int{3, 2},
	}
	eq := func(x, y []int) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	if !eq(c.ci, want.ci) || !eq(c.cj, want.cj) || !eq(c.nij, want.nij) || !eq(c.a, want.a) || !eq(c.b, want.b) {
		t.Errorf("contingency = %+v, want %+v", *c, want)
	}
	if !eq(c.classes, []int{2, 5}) || !eq(c.clusters, []int{1, 9}) {
		t.Errorf("labels = %v, %v", c.classes, c.clusters)
	}
}

func TestPairErrors(t *testing.T) {
	fns := map[string]func(a, b []int) (float64, error){
		"ARI": ARI, "NMI": NMI, "Accuracy": Accuracy,
		"Match": func(a, b []int) (float64, error) { _, err := Match(a, b); return 0, err },
	}
	for name, f := range fns {
		for _, tc := range []struct {
			name        string
			truth, pred []int
			length      bool
		}{
			{"length", []int{0, 1, 1}, []int{0, 1}, true},
			{"nil vs one", nil, []int{0}, true},
			{"negative truth", []int{0, -2}, []int{0, 1}, false}, // −1 is Unlabelled
			{"negative pred", []int{0, 1}, []int{-3, 1}, false},
		} {
			_, err := f(tc.truth, tc.pred)
			if err == nil {
				t.Errorf("%s %s: no error", name, tc.name)
				continue
			}
			if tc.length != errors.Is(err, errLength) {
				t.Errorf("%s %s: unexpected error %v", name, tc.name, err)
			}
		}
	}
}

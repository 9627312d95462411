package metrics

import (
	"math"
	"testing"

	"github.com/nagc-harness/nagc/sparse"
)

// TestPartialTruth checks that the label-reading measures of a partly labelled truth
// equal those of the labelled vertices alone, whatever the unlabelled vertices were
// clustered into, and that Evaluate scores the rest on the whole graph.
func TestPartialTruth(t *testing.T) {
	truth := []int{0, Unlabelled, 0, 1, Unlabelled, 1, 2, 2}
	pred := []int{1, 0, 1, 0, 2, 2, 2, 2}
	// The labelled vertices 0, 2, 3, 5, 6, 7: truth 0 0 1 1 2 2, pred 1 1 0 2 2 2.
	subT, subP := []int{0, 0, 1, 1, 2, 2}, []int{1, 1, 0, 2, 2, 2}
	if got := Scored(truth); got != 6 {
		t.Errorf("Scored = %d, want 6", got)
	}
	for name, f := range map[string]func(a, b []int) (float64, error){"ARI": ARI, "NMI": NMI, "Accuracy": Accuracy} {
		got, err := f(truth, pred)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, _ := f(subT, subP)
		if got != want {
			t.Errorf("%s = %v, want %v (the labelled vertices alone)", name, got, want)
		}
		// Changing the clusters of unlabelled vertices changes nothing.
		other := append([]int(nil), pred...)
		other[1], other[4] = 7, 7
		if again, _ := f(truth, other); again != got {
			t.Errorf("%s depends on unlabelled vertices: %v, then %v", name, got, again)
		}
	}
	// Accuracy by hand: classes {0,0}→cluster 1, {1,1}→0 or 2, {2,2}→2: best matching
	// 1→0, 0→1, 2→2 gives 2 + 1 + 2 = 5 of 6.
	if acc, _ := Accuracy(truth, pred); math.Abs(acc-5.0/6) > 1e-15 {
		t.Errorf("Accuracy = %v, want 5/6", acc)
	}
	n := len(truth)
	ptr := make([]int, n+1)
	var ind []int
	var val []float64
	for i := 0; i < n; i++ { // a path 0–1–…–7
		if i > 0 {
			ind, val = append(ind, i-1), append(val, 1)
		}
		if i < n-1 {
			ind, val = append(ind, i+1), append(val, 1)
		}
		ptr[i+1] = len(ind)
	}
	adj, _ := sparse.NewCSR(n, n, ptr, ind, val)
	xs, _ := sparse.NewCSR(n, 1, make([]int, n+1), nil, nil)
	s, err := Evaluate(truth, pred, adj, xs)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := ARI(subT, subP); s.ARI != want || s.ARIConnected != want {
		t.Errorf("Evaluate ARI %v, ARIConnected %v, want %v", s.ARI, s.ARIConnected, want)
	}
	if want, _ := Modularity(adj, pred); s.Modularity != want {
		t.Errorf("Modularity %v, want %v on every vertex", s.Modularity, want)
	}
}

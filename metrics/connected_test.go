package metrics

import (
	"math"
	"slices"
	"testing"

	"github.com/nagc-harness/nagc/sparse"
)

func TestConnected(t *testing.T) {
	// 0–1–2 a path, 3 a self-loop only, 4 an explicit stored zero to 0, 5 no entry.
	adj, err := sparse.NewCSR(6, 6,
		[]int{0, 2, 4, 5, 6, 7, 7},
		[]int{1, 4, 0, 2, 1, 3, 0},
		[]float64{1, 0, 1, 1, 1, 2, 0})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Connected(adj)
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, true, true, false, false, false}; !slices.Equal(got, want) {
		t.Errorf("Connected = %v, want %v", got, want)
	}
	if _, err := Connected(nil); err == nil {
		t.Error("nil adjacency: no error")
	}
	if _, err := Connected(sparse.NewBuilder(2, 3).CSR(sparse.SumDuplicates)); err == nil {
		t.Error("rectangular adjacency: no error")
	}
}

func TestARIConnected(t *testing.T) {
	// Vertices 0, 1, 2 have edges; 3 has a self-loop only and 4 nothing.
	adj := undirected(5, [][2]int{{0, 1}, {1, 2}, {3, 3}})
	noIsolated := undirected(5, [][2]int{{0, 1}, {1, 2}, {3, 4}})
	for _, tc := range []struct {
		name        string
		adj         *sparse.CSR
		truth, pred []int
		want        float64
	}{
		// On {0, 1, 2} the partitions agree; the isolated vertices disagree.
		{"isolated ignored", adj, []int{0, 0, 1, 1, 0}, []int{1, 1, 0, 0, 0}, 1},
		// On {0, 1, 2}: truth (0 0 1), pred (0 1 1). No agreeing pair, Σ C(a,2) =
		// Σ C(b,2) = 1 over C(3,2) = 3 pairs: expected 1/3, max 1, ARI = −1/3 / (2/3).
		{"hand computed", adj, []int{0, 0, 1, 0, 1}, []int{0, 1, 1, 0, 1}, -0.5},
	} {
		got, err := ARIConnected(tc.truth, tc.pred, tc.adj)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(got-tc.want) > tol {
			t.Errorf("%s: ARIConnected = %v, want %v", tc.name, got, tc.want)
		}
		whole, _ := ARI(tc.truth, tc.pred)
		if whole == got {
			t.Errorf("%s: ARIConnected equals the whole-graph ARI %v: isolated vertices not left out", tc.name, whole)
		}
		all, err := ARIConnected(tc.truth, tc.pred, noIsolated)
		if err != nil {
			t.Fatal(err)
		}
		if all != whole {
			t.Errorf("%s: without isolated vertices ARIConnected = %v, want the ARI %v", tc.name, all, whole)
		}
	}
	for _, tc := range []struct {
		name        string
		adj         *sparse.CSR
		truth, pred []int
	}{
		{"nil adjacency", nil, []int{0, 1}, []int{0, 1}},
		{"length", adj, []int{0, 0, 1, 1, 0}, []int{0, 0, 1, 1}},
		{"adjacency size", adj, []int{0, 1}, []int{0, 1}},
		{"negative label", adj, []int{0, 0, 1, 1, 0}, []int{0, -1, 1, 1, 0}},
	} {
		if _, err := ARIConnected(tc.truth, tc.pred, tc.adj); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if got, err := ARIConnected([]int{0, 1}, []int{0, 0}, undirected(2, [][2]int{{0, 0}})); err != nil || got != 1 {
		t.Errorf("every vertex isolated: ARIConnected = %v, %v; want 1 (empty labelings), nil", got, err)
	}
}

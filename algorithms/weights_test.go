package algorithms

import (
	"context"
	"slices"
	"testing"

	"github.com/nagc-harness/nagc/sparse"
)

// TestNAGCIgnoresEdgeWeights checks that NAGC reads a weighted adjacency as its pattern:
// the fit equals, bit for bit, the fit of the 0/1 graph with the same edges.
func TestNAGCIgnoresEdgeWeights(t *testing.T) {
	in, _ := plantedGraph(3, 60, 20, 3, 0.3, 0.02, 0.3, 0.05)
	n, _ := in.Adj.Dims()
	b := sparse.NewBuilder(n, n)
	for i := 0; i < n; i++ {
		cols, _ := in.Adj.Row(i)
		for _, j := range cols {
			w := 1 + float64((i+j)%4) // symmetric weights 1…4
			if err := b.Add(i, j, w); err != nil {
				t.Fatal(err)
			}
		}
	}
	weighted := in
	weighted.Adj = b.CSR(sparse.SumDuplicates)
	if weighted.Adj.Sum() == in.Adj.Sum() {
		t.Fatal("the weighted graph has the 0/1 graph's total weight: the test would not tell")
	}
	for _, rho := range []float64{0.5, 0.9} {
		a := NAGC{Lambda: 0.1, Rho: rho, Init: InitRandom, Iterations: 20}
		want, err := a.Fit(context.Background(), in, 3, 7)
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.Fit(context.Background(), weighted, 3, 7)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Labels, want.Labels) || !slices.Equal(got.Objective, want.Objective) {
			t.Errorf("ρ = %v: the weighted graph's fit differs from its pattern's", rho)
		}
	}
}

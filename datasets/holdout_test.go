package datasets

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/sparse"
)

func TestHoldOutEdges(t *testing.T) {
	g, err := Synthetic(SyntheticConfig{N: 300, M: 40, K1: 3, K2: 3, AvgDegree: 8, PIn: 0.8, AttrPerVertex: 5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	n := g.N()
	// Add self-loops on a few vertices: they must stay in training.
	b := sparse.NewBuilder(n, n)
	for i := 0; i < n; i++ {
		cols, vals := g.Adj.Row(i)
		for k, j := range cols {
			b.Add(i, j, vals[k])
		}
		if i%7 == 0 {
			b.Add(i, i, 1)
		}
	}
	adj := b.CSR(sparse.MaxDuplicates)
	loops, offDiag := 0, 0
	for i := 0; i < n; i++ {
		cols, _ := adj.Row(i)
		for _, j := range cols {
			if i == j {
				loops++
			} else {
				offDiag++
			}
		}
	}
	edges := offDiag / 2
	for _, frac := range []float64{0.1, 0.2, 0.5} {
		t.Run(fmt.Sprint(frac), func(t *testing.T) {
			train, held, err := HoldOutEdges(adj, frac, 11)
			if err != nil {
				t.Fatal(err)
			}
			wantHeld := int(math.Round(frac * float64(edges)))
			if got := held.NNZ(); got != 2*wantHeld {
				t.Errorf("held out %d stored entries, want %d (%d undirected edges)", got, 2*wantHeld, wantHeld)
			}
			if got := train.NNZ(); got != adj.NNZ()-2*wantHeld {
				t.Errorf("training graph has %d stored entries, want %d", got, adj.NNZ()-2*wantHeld)
			}
			for i := 0; i < n; i++ {
				if held.At(i, i) != 0 {
					t.Fatalf("self-loop of %d held out", i)
				}
				cols, vals := adj.Row(i)
				for k, j := range cols {
					tr, he := train.At(i, j), held.At(i, j)
					if (tr == 0) == (he == 0) || tr+he != vals[k] {
						t.Fatalf("entry (%d, %d) = %v: train %v, held out %v; want it in exactly one part", i, j, vals[k], tr, he)
					}
					if held.At(j, i) != he {
						t.Fatalf("held-out graph not symmetric at (%d, %d)", i, j)
					}
				}
			}
			again, heldAgain, err := HoldOutEdges(adj, frac, 11)
			if err != nil {
				t.Fatal(err)
			}
			if !sameCSR(again, train) || !sameCSR(heldAgain, held) {
				t.Error("same seed gave a different split")
			}
			_, other, err := HoldOutEdges(adj, frac, 12)
			if err != nil {
				t.Fatal(err)
			}
			if sameCSR(other, held) {
				t.Error("another seed gave the same split")
			}
		})
	}
}

func sameCSR(a, b *sparse.CSR) bool {
	n, _ := a.Dims()
	if a.NNZ() != b.NNZ() {
		return false
	}
	for i := 0; i < n; i++ {
		ca, va := a.Row(i)
		cb, vb := b.Row(i)
		if len(ca) != len(cb) {
			return false
		}
		for k := range ca {
			if ca[k] != cb[k] || va[k] != vb[k] {
				return false
			}
		}
	}
	return true
}

func TestHoldOutEdgesErrors(t *testing.T) {
	path := func(n int) *sparse.CSR { // a path 0–1–…–(n−1)
		b := sparse.NewBuilder(n, n)
		for i := 0; i+1 < n; i++ {
			b.Add(i, i+1, 1)
			b.Add(i+1, i, 1)
		}
		return b.CSR(sparse.MaxDuplicates)
	}
	asym := sparse.NewBuilder(3, 3)
	asym.Add(0, 1, 1)
	asym.Add(2, 1, 1)
	unequal := sparse.NewBuilder(2, 2)
	unequal.Add(0, 1, 1)
	unequal.Add(1, 0, 2)
	rect := sparse.NewBuilder(2, 3)
	rect.Add(0, 1, 1)
	for _, c := range []struct {
		name string
		adj  *sparse.CSR
		frac float64
		want string
	}{
		{"nil", nil, 0.1, "nil adjacency"},
		{"rectangular", rect.CSR(sparse.MaxDuplicates), 0.1, "want square"},
		{"zero fraction", path(10), 0, "want 0 < fraction < 1"},
		{"whole graph", path(10), 1, "want 0 < fraction < 1"},
		{"NaN", path(10), math.NaN(), "want 0 < fraction < 1"},
		{"nothing held out", path(4), 0.1, "need at least one in each"},
		{"nothing left", path(4), 0.9, "need at least one in each"},
		{"asymmetric pattern", asym.CSR(sparse.MaxDuplicates), 0.5, "not symmetric"},
		{"asymmetric values", unequal.CSR(sparse.MaxDuplicates), 0.5, "not symmetric"},
	} {
		_, _, err := HoldOutEdges(c.adj, c.frac, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

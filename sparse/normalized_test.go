package sparse

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// builderNormalized is the construction of Â that NewLowPassFilter used before
// normalizedWithLoops: the entries through a Builder, then ScaleRows and ScaleColumns.
func builderNormalized(adj *CSR, selfLoop float64) *CSR {
	n := adj.r
	b := NewBuilder(n, n)
	deg := make([]float64, n)
	for i := 0; i < n; i++ {
		cols, vals := adj.Row(i)
		for k, j := range cols {
			if j != i {
				_ = b.Add(i, j, vals[k])
				deg[i] += vals[k]
			}
		}
		if selfLoop > 0 {
			_ = b.Add(i, i, selfLoop)
			deg[i] += selfLoop
		}
	}
	inv := make([]float64, n)
	for i, d := range deg {
		if d > 0 {
			inv[i] = 1 / math.Sqrt(d)
		}
	}
	return b.CSR(SumDuplicates).ScaleRows(inv).ScaleColumns(inv)
}

func equalCSR(a, b *CSR) bool {
	return a.r == b.r && a.c == b.c && slices.Equal(a.ptr, b.ptr) && slices.Equal(a.ind, b.ind) && slices.Equal(a.val, b.val)
}

// symmetricWeighted returns a random symmetric n×n matrix of positive weights, with some
// diagonal entries, and an empty row.
func symmetricWeighted(rng *rand.Rand, n int, density float64) *CSR {
	b := NewBuilder(n, n)
	for i := 1; i < n; i++ {
		for j := i; j < n; j++ {
			if rng.Float64() < density || (i == j && rng.Float64() < 0.3) {
				v := 0.5 + rng.Float64()
				_ = b.Add(i, j, v)
				if i != j {
					_ = b.Add(j, i, v)
				}
			}
		}
	}
	return b.CSR(SumDuplicates)
}

// TestNormalizedWithLoopsBitIdentical checks that the direct, parallel construction of
// Â gives the same entries, bit for bit, as the Builder-based one, with and without
// self-loops, on 1 and 3 threads.
func TestNormalizedWithLoopsBitIdentical(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(3, 4))
	adj := symmetricWeighted(rng, 1500, 0.01)
	for _, w := range []float64{0, 1, 0.25} {
		want := builderNormalized(adj, w)
		for _, th := range []int{1, 3} {
			parallel.SetThreads(th)
			if got := normalizedWithLoops(adj, w); !equalCSR(got, want) {
				t.Errorf("self-loop %v, %d threads: Â differs from the Builder construction", w, th)
			}
		}
	}
}

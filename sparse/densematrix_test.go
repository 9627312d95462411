package sparse

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"
	"gonum.org/v1/gonum/mat"
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

// TestFilterDenseMatchesFilteredCSR checks that FilterDense gives, bit for bit, the CSR,
// the products with and without transpose, and the sums of the CSR of FilteredMatrix
// (F·X by sparse products) that it replaces, for every normalisation, on 1 and 3 threads.
func TestFilterDenseMatchesFilteredCSR(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(5, 6))
	n, m := 900, 40
	adj := symmetricWeighted(rng, n, 0.004)
	x, _ := randomSparse(rng, n, m, 0.05)
	f, err := NewLowPassFilter(adj, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, c := randomDense(rng, m, 7), randomDense(rng, n, 13)
	for _, d := range []*mat.Dense{b, c} { // signs, as the randomised SVD's products have
		for i, raw := 0, d.RawMatrix().Data; i < len(raw); i++ {
			raw[i] = 2*raw[i] - 1
		}
	}
	for _, normBefore := range []bool{false, true} {
		for _, unitRows := range []bool{false, true} {
			xs := x
			if normBefore {
				xs = x.RowNormalized()
			}
			want := NewCSROperator(NewFilteredMatrix(f, xs, unitRows).CSR())
			wb, wc := mat.NewDense(n, 7, nil), mat.NewDense(m, 13, nil)
			want.MulDense(wb, b)
			want.TMulDense(wc, c)
			for _, th := range []int{1, 3} {
				parallel.SetThreads(th)
				got := FilterDense(f, x, normBefore, unitRows)
				gb, gc := mat.NewDense(n, 7, nil), mat.NewDense(m, 13, nil)
				got.MulDense(gb, b)
				got.TMulDense(gc, c)
				if !equalCSR(got.CSR(), want.CSR()) || !mat.Equal(gb, wb) || !mat.Equal(gc, wc) ||
					got.Sum() != want.Sum() || got.SumSq() != want.SumSq() {
					t.Errorf("norm before %v, unit rows %v, %d threads: differs from the CSR of FilteredMatrix", normBefore, unitRows, th)
				}
				parallel.SetThreads(1)
			}
		}
	}
}

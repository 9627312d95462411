package sparse

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// citeseerLike returns a random 0/1 matrix of Citeseer's attribute size (3312×3703 with
// about 105 000 stored entries), the same pattern with random weights, and a random
// symmetric 0/1 adjacency of Citeseer's size (about 9 300 stored entries).
func citeseerLike() (x, xw, adj *CSR) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, m := 3312, 3703
	b := NewBuilder(n, m)
	for t := 0; t < 105165; t++ {
		_ = b.Add(rng.IntN(n), rng.IntN(m), 1)
	}
	x = b.CSR(MaxDuplicates)
	w := make([]float64, x.NNZ())
	for i := range w {
		w[i] = rng.Float64()
	}
	xw = &CSR{r: x.r, c: x.c, ptr: x.ptr, ind: x.ind, val: w}
	g := NewBuilder(n, n)
	for t := 0; t < 4660; t++ {
		i, j := rng.IntN(n), rng.IntN(n)
		_ = g.Add(i, j, 1)
		_ = g.Add(j, i, 1)
	}
	return x, xw, g.CSR(MaxDuplicates)
}

// BenchmarkMulDense times X·V and Xᵀ·F at Citeseer's size on one thread, for 0/1 and for
// weighted values, at NAGC's widths (k1 = 6, k2 = 10) and a wider k = 20.
func BenchmarkMulDense(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	x, xw, _ := citeseerLike()
	rng := rand.New(rand.NewPCG(3, 3))
	for _, c := range []struct {
		name string
		a    *CSR
	}{{"unit", x}, {"unit-T", x.T()}, {"weighted", xw}} {
		for _, k := range []int{6, 10, 20} {
			r, cc := c.a.Dims()
			v := randomDense(rng, cc, k)
			dst := mat.NewDense(r, k, nil)
			b.Run(fmt.Sprintf("%s/k=%d", c.name, k), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					MulDense(dst, c.a, v)
				}
			})
		}
	}
}

// BenchmarkPattern times the edge-masked kernels on a Citeseer-sized adjacency, one thread.
func BenchmarkPattern(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	_, _, adj := citeseerLike()
	n, _ := adj.Dims()
	rng := rand.New(rand.NewPCG(4, 4))
	for _, k := range []int{2, 6, 10} {
		u := randomDense(rng, n, k)
		sum, gram := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
		b.Run(fmt.Sprintf("PatternGramMul/k=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				PatternGramMul(gram, adj, u)
			}
		})
		b.Run(fmt.Sprintf("PatternSumGramMul/k=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				PatternSumGramMul(sum, gram, adj, u)
			}
		})
		b.Run(fmt.Sprintf("PatternDots/k=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_, _ = PatternDots(adj, u)
			}
		})
	}
}

// BenchmarkPatternSumGramDotsArxiv times NAGC's edge pass (AU, (UUᵀ⊙W)U and the sums of
// zᵢⱼ) at the shape of ogbn-arxiv (169,343 vertices, about 1.17 M stored entries, random
// pattern) with k = 40 on one thread.
func BenchmarkPatternSumGramDotsArxiv(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(26, 1))
	n, k := 169_343, 40
	g := NewBuilder(n, n)
	for t := 0; t < 585_000; t++ {
		i, j := rng.IntN(n), rng.IntN(n)
		_ = g.Add(i, j, 1)
		_ = g.Add(j, i, 1)
	}
	adj := g.CSR(MaxDuplicates)
	u := randomDense(rng, n, k)
	sum, gram := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = PatternSumGramDots(sum, gram, adj, u)
	}
}

// BenchmarkPatternSumGramDotsProducts16 times NAGC's edge pass at a 16th of the
// ogbn-products shape (153,064 vertices, about 7.7 M stored entries, degree 50, a
// random pattern) with k = 47, on 1 and 2 threads. U (57 MB) is larger than the
// last-level cache, so each neighbour row comes from memory, as at the full shape. The
// k = 24 case reads half the bytes a neighbour (188 of 376), as a float32 U at k = 47
// would: how the pass's time follows the bytes it reads (docs/performance.md, "float32").
func BenchmarkPatternSumGramDotsProducts16(b *testing.B) {
	if testing.Short() {
		b.Skip("a 7.7 M-entry graph")
	}
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(26, 47))
	n := 153_064
	adj := randomDegreeGraph(b, rng, n, 50, false)
	for _, k := range []int{47, 24} {
		u := randomDense(rng, n, k)
		sum, gram := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
		for _, threads := range []int{1, 2} {
			name := fmt.Sprintf("threads=%d", threads)
			if k != 47 {
				name = fmt.Sprintf("k=%d/threads=%d", k, threads)
			}
			b.Run(name, func(b *testing.B) {
				parallel.SetThreads(threads)
				for i := 0; i < b.N; i++ {
					_, _ = PatternSumGramDots(sum, gram, adj, u)
				}
			})
		}
	}
}

// randomDegreeGraph returns an n×n CSR whose every row holds deg column indices drawn
// uniformly (duplicates merged, so slightly fewer), all 1 or, when weighted, uniform in
// [0, 1) as the entries of a normalized adjacency are.
func randomDegreeGraph(b *testing.B, rng *rand.Rand, n, deg int, weighted bool) *CSR {
	ptr, ind := make([]int, n+1), make([]int, 0, n*deg)
	for i := 0; i < n; i++ {
		row := ind[len(ind):][:deg]
		for d := range row {
			row[d] = rng.IntN(n)
		}
		slices.Sort(row)
		ind = append(ind, slices.Compact(row)...)
		ptr[i+1] = len(ind)
	}
	val := slices.Repeat([]float64{1}, len(ind))
	if weighted {
		for p := range val {
			val[p] = rng.Float64()
		}
	}
	adj, err := NewCSR(n, n, ptr, ind, val)
	if err != nil {
		b.Fatal(err)
	}
	return adj
}

// BenchmarkMulDenseProducts4 times the graph filter's product Â·B at a quarter of the
// ogbn-products shape (612,257 vertices, about 30.6 M stored entries, degree 50, a random
// pattern, weighted values), on 1 and 2 threads, for the two shapes of B the filter
// gathers from: n×16 contiguous (the filter of a dense X, 16 columns at a time: 78 MB)
// and 32 columns of an n×100 matrix (a strided block of columns: rows 800 bytes
// apart, 490 MB). Both are larger than the last-level cache, so each neighbour row comes
// from memory, as at the full shape (a 16th of the shape's n×16 would fit in it).
func BenchmarkMulDenseProducts4(b *testing.B) {
	if testing.Short() {
		b.Skip("a 30.6 M-entry graph")
	}
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(26, 100))
	n := 612_257
	adj := randomDegreeGraph(b, rng, n, 50, true)
	for _, c := range []struct {
		name      string
		k, stride int
	}{{"k=16", 16, 16}, {"k=32/stride=100", 32, 100}} {
		src := randomDense(rng, n, c.stride).Slice(0, n, 0, c.k).(*mat.Dense)
		dst := mat.NewDense(n, c.k, nil)
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", c.name, threads), func(b *testing.B) {
				parallel.SetThreads(threads)
				for i := 0; i < b.N; i++ {
					MulDense(dst, adj, src)
				}
			})
		}
	}
}

package algorithms

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/sparse"
)

// shapeGraph returns a planted graph of the given shape, as issue 26's numpy script
// writes them: labels uniform over k classes, about deg/2 edge draws per vertex of which
// a share h stays in the vertex's class, and dense attributes |class mean + N(0, 1)|
// (means uniform in [0, 2)) stored as a CSR with every entry present.
func shapeGraph(n, deg, m, k int, h float64, seed uint64) (adj, x *sparse.CSR, truth []int) {
	rng := newRand(seed)
	truth = make([]int, n)
	members := make([][]int, k)
	for i := range truth {
		truth[i] = rng.IntN(k)
		members[truth[i]] = append(members[truth[i]], i)
	}
	b := sparse.NewBuilder(n, n)
	for i := 0; i < n; i++ {
		for d := 0; d < deg/2; d++ {
			j := rng.IntN(n)
			if rng.Float64() < h {
				c := members[truth[i]]
				j = c[rng.IntN(len(c))]
			}
			if j != i {
				_ = b.Add(i, j, 1)
				_ = b.Add(j, i, 1)
			}
		}
	}
	adj = b.CSR(sparse.MaxDuplicates)
	means := make([]float64, k*m)
	for i := range means {
		means[i] = 2 * rng.Float64()
	}
	ptr, ind, val := make([]int, n+1), make([]int, n*m), make([]float64, n*m)
	for i := 0; i < n; i++ {
		ptr[i+1] = (i + 1) * m
		for j := 0; j < m; j++ {
			ind[i*m+j] = j
			val[i*m+j] = math.Abs(means[truth[i]*m+j]+rng.NormFloat64()) + 1e-3
		}
	}
	x, err := sparse.NewCSR(n, m, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return adj, x, truth
}

// Shapes of issue 26 (scaled by the benchmark where noted).
var benchShapes = []struct {
	name         string
	n, deg, m, k int
	h            float64
}{
	{"1e5", 100_000, 14, 128, 40, 0.65},
	{"arxiv", 169_343, 14, 128, 40, 0.65},
}

// BenchmarkNAGCStepShape times one NAGC iteration (Step and Objective, random factors,
// λ = 0.01, ρ = 0.75, k1 = k2 = k) at the shapes of issue 26 on 1 and 2 kernel threads.
func BenchmarkNAGCStepShape(b *testing.B) {
	for _, sh := range benchShapes {
		adj, x, _ := shapeGraph(sh.n, sh.deg, sh.m, sh.k, sh.h, 1)
		op := sparse.NewCSROperator(x)
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", sh.name, threads), func(b *testing.B) {
				defer parallel.SetThreads(parallel.SetThreads(threads))
				benchSteps(b, randomSolver(adj, op, sh.k, sh.k, 0.01, 0.75))
			})
		}
	}
}

// BenchmarkNAGCStepProductsShape times one NAGC iteration (Step and Objective, random
// factors, λ = 0.01, ρ = 0.75, k1 = k2 = 47) at a sixteenth of the ogbn-products shape
// (153,064 vertices, about 50 stored adjacency entries a vertex, h 0.81) with its 100
// attributes dense and float32, as products' are, on 1 and 2 kernel threads: the dense
// products (X·V, Xᵀf(UH) and the n×47 by 47×47 ones) at the width they have there.
func BenchmarkNAGCStepProductsShape(b *testing.B) {
	const n, m, k = 2_449_029 / 16, 100, 47
	adj, xs, _ := shapeGraph(n, 50, m, k, 0.81, 1)
	x32 := make([]float32, 0, n*m)
	for i := 0; i < n; i++ { // every entry of a row is stored, in column order
		_, vals := xs.Row(i)
		for _, v := range vals {
			x32 = append(x32, float32(v))
		}
	}
	x := dense.NewMatrix32(n, m, x32)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			defer parallel.SetThreads(parallel.SetThreads(threads))
			benchSteps(b, randomSolver(adj, x, k, k, 0.01, 0.75))
		})
	}
}

// BenchmarkNAGCFitShape times a 10-iteration NAGC fit from random factors at the
// shapes of issue 26 on 1 and 2 kernel threads.
func BenchmarkNAGCFitShape(b *testing.B) {
	for _, sh := range benchShapes {
		adj, x, _ := shapeGraph(sh.n, sh.deg, sh.m, sh.k, sh.h, 1)
		in := Input{Adj: adj, X: x}
		a := NAGC{Lambda: 0.01, Rho: 0.75, Init: InitRandom, Iterations: 10}
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", sh.name, threads), func(b *testing.B) {
				defer parallel.SetThreads(parallel.SetThreads(threads))
				for i := 0; i < b.N; i++ {
					if _, err := a.Fit(context.Background(), in, sh.k, 1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// peakHeap runs fn and returns the peak of the live heap it added: the largest heap in
// use sampled every millisecond, less the heap in use before. The collector runs at
// GOGC = 1 meanwhile, so between collections a sample holds garbage of at most 1 % of
// the whole heap (base and fit), the slack, which is returned too. A sample taken while
// a collection is marking can hold more: what the fit frees during the mark stays
// counted until the next cycle. Measurements can therefore only overstate the peak, and
// by an amount that depends on when the collector ran (minMeasuredPeak).
func peakHeap(fn func()) (peak, slack uint64) {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var top uint64
	var mu sync.Mutex
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var s runtime.MemStats
		for {
			runtime.ReadMemStats(&s)
			mu.Lock()
			top = max(top, s.HeapAlloc)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	fn()
	runtime.ReadMemStats(&ms)
	close(done)
	wg.Wait()
	top = max(top, ms.HeapAlloc)
	slack = top / 100
	if top < base {
		return 0, slack
	}
	return top - base, slack
}

// BenchmarkSGCKMeansShape times one SGC k-means fit (rank 32, one k-means start) at
// fractions of the ogbn-products shape (2,449,029 vertices, about 50 stored adjacency
// entries a vertex, 100 dense attributes, 47 classes, h 0.81): a quarter at the default
// p = 16, and a sixteenth at p = 2 (the memory of the filtered attributes does not depend
// on p), and reports the peak live heap of the fit ("peak-MB", GOGC 5 while it runs).
func BenchmarkSGCKMeansShape(b *testing.B) {
	for _, c := range []struct {
		name    string
		frac, p int
	}{{"products-16th/p=2", 16, 2}, {"products-quarter/p=16", 4, 16}} {
		b.Run(c.name, func(b *testing.B) {
			adj, x, _ := shapeGraph(2_449_029/c.frac, 50, 100, 47, 0.81, 1)
			in := Input{Adj: adj, X: x}
			m := SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: c.p}, Rank: 32, NInit: 1}
			defer parallel.SetThreads(parallel.SetThreads(1))
			for i := 0; i < b.N; i++ {
				var err error
				peak, _ := peakHeap(func() { _, err = m.Fit(context.Background(), in, 47, 1) })
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(peak)/1e6, "peak-MB")
			}
		})
	}
}

// BenchmarkKMeansArxivCSR times the kmeans method (scikit-learn's protocol: n_init 10,
// max_iter 300, tol 1e-4) on the arxiv shape's attributes stored as a CSR holding every
// entry, which it clusters as dense float64 rows (info "rows"), on 1 and 2 threads, and
// reports the ARI against the planted classes. Its yardstick is scikit-learn's KMeans on
// the same values as a scipy CSR (scripts/kmeans_sklearn.py fit --csr; docs/kmeans.md).
func BenchmarkKMeansArxivCSR(b *testing.B) {
	sh := benchShapes[1]
	_, x, truth := shapeGraph(sh.n, sh.deg, sh.m, sh.k, sh.h, 1)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			defer parallel.SetThreads(parallel.SetThreads(threads))
			var res *Result
			for i := 0; i < b.N; i++ {
				var err error
				if res, err = (KMeans{}).Fit(context.Background(), Input{X: x}, sh.k, 1); err != nil {
					b.Fatal(err)
				}
			}
			if res.Info["rows"][:5] != "dense" {
				b.Fatalf("rows %q, want dense", res.Info["rows"])
			}
			ari, _ := metrics.ARI(truth, res.Labels)
			b.ReportMetric(ari, "ARI")
		})
	}
}

package algorithms

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/internal/testenv"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/sparse"
)

// benchGraph loads a paper dataset for a benchmark, skipping where the data is missing
// (failing under NAGC_REQUIRE_DATA=1, see testenv).
func benchGraph(b *testing.B, name string) *datasets.Graph {
	b.Helper()
	g, err := datasets.Load(name)
	if errors.Is(err, datasets.ErrNotFound) {
		testenv.Missing(b, "the "+name+" dataset", testenv.FetchHint)
	}
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkNAGCFit times one 100-iteration NAGC fit (random initialisation, so that only
// the updates and the objective are timed) at k2 = 10, λ = 0.01, ρ = 0.95.
func BenchmarkNAGCFit(b *testing.B) {
	for _, name := range datasets.PaperNames() {
		b.Run(name, func(b *testing.B) {
			g := benchGraph(b, name)
			in := Input{Adj: g.Adj, X: g.X}
			a := NAGC{K2: 10, Lambda: 0.01, Rho: 0.95, Init: InitRandom}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := a.Fit(context.Background(), in, g.K(), uint64(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNAGCKMeansInit times the authors' k-means initialisation (two k-means fits of
// 10 starts each) at k2 = 10.
func BenchmarkNAGCKMeansInit(b *testing.B) {
	for _, name := range datasets.PaperNames() {
		b.Run(name, func(b *testing.B) {
			g := benchGraph(b, name)
			for i := 0; i < b.N; i++ {
				if _, _, _, err := KMeansFactors(attrtest.Sparse(g.X), g.K(), 10, newRand(uint64(i))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNAGCStep times one NAGC iteration (Step and Objective) at k2 = 10, λ = 0.01,
// ρ = 0.95 from a random initialisation, on one thread, and reports allocations (there
// should be none).
func BenchmarkNAGCStep(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	for _, name := range datasets.PaperNames() {
		b.Run(name, func(b *testing.B) {
			g := benchGraph(b, name)
			s := randomSolver(g.Adj, sparse.NewCSROperator(attrtest.Sparse(g.X)), g.K(), 10, 0.01, 0.95)
			b.ReportAllocs()
			benchSteps(b, s)
		})
	}
}

// BenchmarkNAGCStepThreads times one NAGC iteration on Citeseer with the kernels on 1, 2
// and 4 threads.
func BenchmarkNAGCStepThreads(b *testing.B) {
	g := benchGraph(b, "citeseer")
	for _, threads := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			defer parallel.SetThreads(parallel.SetThreads(threads))
			benchSteps(b, randomSolver(g.Adj, sparse.NewCSROperator(attrtest.Sparse(g.X)), g.K(), 10, 0.01, 0.95))
		})
	}
}

// TestNAGCStepAllocatesNothing checks that an iteration (Step and Objective) allocates
// nothing on one thread, for both U rules.
func TestNAGCStepAllocatesNothing(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := newRand(5)
	adj, x := randomGraph(rng, 300, 40, 0.03, 0.1)
	for _, rho := range []float64{0.5, 0.9} {
		s := NewNAGCSolver(adj, x, uniformDense(300, 3, rng), uniformDense(40, 10, rng), uniformDense(3, 10, rng), 0.1, rho)
		if allocs := testing.AllocsPerRun(5, func() { s.Step(); _ = s.Objective() }); allocs != 0 {
			t.Errorf("ρ = %v: %v allocations per iteration, want 0", rho, allocs)
		}
	}
}

// TestNAGCThreadsBitIdentical checks that the factors and objective after a few
// iterations are the same bits on 1 and on several kernel threads.
func TestNAGCThreadsBitIdentical(t *testing.T) {
	rng := newRand(6)
	n, m, k1, k2 := 700, 60, 4, 7
	adj, x := randomGraph(rng, n, m, 0.01, 0.1)
	u, v, h := uniformDense(n, k1, rng), uniformDense(m, k2, rng), uniformDense(k1, k2, rng)
	run := func(threads int) (*NAGCSolver, float64) {
		defer parallel.SetThreads(parallel.SetThreads(threads))
		s := NewNAGCSolver(adj, x, mat.DenseCopyOf(u), mat.DenseCopyOf(v), mat.DenseCopyOf(h), 0.3, 0.8)
		var obj float64
		for it := 0; it < 5; it++ {
			s.Step()
			obj = s.Objective()
		}
		return s, obj
	}
	s1, o1 := run(1)
	for _, threads := range []int{2, 5} {
		s, o := run(threads)
		if !mat.Equal(s.U, s1.U) || !mat.Equal(s.V, s1.V) || !mat.Equal(s.H, s1.H) || o != o1 {
			t.Errorf("%d threads: factors or objective differ from 1 thread", threads)
		}
	}
}

// BenchmarkNAGCFilteredStep times one NAGC iteration on graph-filtered attributes (p = 8,
// rows L2-normalised after filtering; k2 = k1, λ = 100, ρ = 0.95, random factors, one
// thread) with the filtered matrix stored ("stored", F·X formed once: on Cora 90 % of its
// entries are non-zero) and as FilteredOperator gives it to NAGC ("nagc": implicit
// products R·F·(X·B), except on polblog, whose 7 columns are cheaper stored).
func BenchmarkNAGCFilteredStep(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	for _, name := range datasets.PaperNames() {
		g := benchGraph(b, name)
		in := Input{Adj: g.Adj, X: g.X, Cache: NewCache()}
		o := GraphFilterOptions{P: 8, NormAfter: true}
		op, err := FilteredOperator(in, o)
		if err != nil {
			b.Fatal(err)
		}
		stored, err := FilteredAttributes(in, o)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			kind string
			x    sparse.Operator
		}{{"stored", sparse.NewCSROperator(stored)}, {"nagc", op}} {
			b.Run(name+"/"+c.kind, func(b *testing.B) {
				benchSteps(b, randomSolver(g.Adj, c.x, g.K(), g.K(), 100, 0.95))
			})
		}
	}
}

// randomSolver returns a NAGC solver on adj and x from uniform random factors (seed 1)
// with k1 vertex and k2 attribute clusters.
func randomSolver(adj *sparse.CSR, x sparse.Operator, k1, k2 int, lambda, rho float64) *NAGCSolver {
	rng := newRand(1)
	n, m := x.Dims()
	return NewNAGCSolverOp(adj, x, uniformDense(n, k1, rng), uniformDense(m, k2, rng), uniformDense(k1, k2, rng), lambda, rho)
}

// benchSteps times b.N iterations (Step and Objective) of s.
func benchSteps(b *testing.B, s *NAGCSolver) {
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Step()
		_ = s.Objective()
	}
}

// BenchmarkNAGCCiteseerFit times issue 16's reference fit: one 100-iteration NAGC fit of
// Citeseer at k1 = k2 = 6, λ = 0.01, ρ = 0.995, random initialisation, one thread (the
// setting of ../shared/bench/nagc_scipy_ref.py citeseer 6 6 0.01 0.995).
func BenchmarkNAGCCiteseerFit(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	g := benchGraph(b, "citeseer")
	in := Input{Adj: g.Adj, X: g.X}
	a := NAGC{K2: 6, Lambda: 0.01, Rho: 0.995, Init: InitRandom}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := a.Fit(context.Background(), in, g.K(), uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

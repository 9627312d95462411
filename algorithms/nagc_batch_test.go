package algorithms

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// batchFixture returns fits of one graph that FitBatch must reproduce bit for bit: a λ×ρ
// grid from the k-means and the random start, both U rules, fits that differ from grid
// points only in their iterations (fewer, more, the default, the same, and without the
// objective), a fit on a second adjacency (a held-out fit's situation), two fits whose
// objective turns NaN mid-way, fits whose options are rejected, a graph-filtered pair, a
// fit of another k2 and a method that is not NAGC.
func batchFixture() []BatchFit {
	rng := newRand(21)
	n, m, k2 := 150, 30, 4
	adj, x := randomGraph(rng, n, m, 0.04, 0.15)
	adj2, _ := randomGraph(rng, n, m, 0.03, 0.15)
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % 3
	}
	in := Input{Adj: adj, X: x, Truth: truth, Cache: NewCache()}
	held := Input{Adj: adj2, X: x, Truth: truth, Cache: NewCache()}
	var fits []BatchFit
	for _, init := range []string{InitKMeans, InitRandom} {
		for _, lambda := range []float64{0, 1e-3, 1, 100} {
			for _, rho := range []float64{0.5, 0.8, 0.995} {
				fits = append(fits, BatchFit{NAGC{K2: k2, Lambda: lambda, Rho: rho, Iterations: 12, Init: init}, in})
			}
		}
	}
	quiet := in
	quiet.NoObjective = true
	for _, t := range []int{5, 0, 12, 3} {
		fits = append(fits,
			BatchFit{NAGC{K2: k2, Lambda: 1, Rho: 0.8, Iterations: t, Init: InitKMeans}, in},
			BatchFit{NAGC{K2: k2, Lambda: 1e-3, Rho: 0.5, Iterations: t + 1, Init: InitRandom}, quiet},
		)
	}
	big := uniformDense(n, 3, rng)
	big.Scale(1e100, big)
	fits = append(fits,
		BatchFit{NAGC{K2: k2, Lambda: 0.1, Rho: 0.9, Iterations: 12, Init: InitKMeans}, held},
		BatchFit{NAGC{K2: k2, Lambda: 0, Rho: 0.9, Iterations: 12, InitU: big, InitV: uniformDense(m, k2, rng), InitH: uniformDense(3, k2, rng)}, in},
		BatchFit{NAGC{K2: k2, Lambda: 1.7e308, Rho: 0.9, Iterations: 12, Init: InitRandom}, in},
		BatchFit{NAGC{K2: k2, Lambda: 0.1, Rho: 2, Iterations: 12}, in},
		BatchFit{NAGC{K2: k2, Lambda: 0.1, Rho: 0.9, Iterations: 12, Init: InitKMeansMedianARI}, Input{Adj: adj, X: x}},
		BatchFit{NAGC{K2: k2, Lambda: 0.1, Rho: 0.9, Iterations: 12, Init: InitKMeansMedianARI}, in},
		BatchFit{NAGC{K2: k2, Lambda: 1, Rho: 0.9, Iterations: 12, Init: InitRandom, Filter: GraphFilterOptions{P: 2}}, in},
		BatchFit{NAGC{K2: k2, Lambda: 10, Rho: 0.5, Iterations: 12, Init: InitRandom, Filter: GraphFilterOptions{P: 2}}, in},
		BatchFit{NAGC{K2: 5, Lambda: 1, Rho: 0.9, Iterations: 12, Init: InitRandom}, in},
		BatchFit{NMF{Iterations: 5}, in},
	)
	return fits
}

// sameFit reports how got differs from want (a result of Fit alone), bit for bit.
func sameFit(want, got *Result, wantErr, gotErr error) error {
	if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
		return fmt.Errorf("error %v, want %v", gotErr, wantErr)
	}
	if wantErr != nil {
		return nil
	}
	if len(got.Objective) != len(want.Objective) || got.Iterations != want.Iterations {
		return fmt.Errorf("%d objectives after %d iterations, want %d after %d", len(got.Objective), got.Iterations, len(want.Objective), want.Iterations)
	}
	for i, o := range want.Objective {
		if math.Float64bits(o) != math.Float64bits(got.Objective[i]) {
			return fmt.Errorf("objective %d is %v, want %v", i, got.Objective[i], o)
		}
	}
	for i, l := range want.Labels {
		if got.Labels[i] != l {
			return fmt.Errorf("vertex %d in cluster %d, want %d", i, got.Labels[i], l)
		}
	}
	for name, f := range want.Factors {
		g := got.Factors[name]
		wr, gr := f.RawMatrix(), g.RawMatrix()
		for i, v := range wr.Data {
			if math.Float64bits(v) != math.Float64bits(gr.Data[i]) {
				return fmt.Errorf("factor %s entry %d is %v, want %v", name, i, gr.Data[i], v)
			}
		}
	}
	for k, v := range want.Info {
		if got.Info[k] != v {
			return fmt.Errorf("info %s = %q, want %q", k, got.Info[k], v)
		}
	}
	return nil
}

// TestFitBatchEqualsSeparateFits checks that fitting in lockstep changes no bit of any
// fit's objective curve, factors, labels or error, for several batch sizes and kernel
// thread counts, with members that diverge or are rejected among them.
func TestFitBatchEqualsSeparateFits(t *testing.T) {
	fits := batchFixture()
	ctx := context.Background()
	want := make([]*Result, len(fits))
	wantErr := make([]error, len(fits))
	for i, f := range fits {
		want[i], wantErr[i] = f.Method.Fit(ctx, f.In, 3, 7)
	}
	// The fixture must hold what it claims: NaN objectives mid-way, rejected options.
	nanAt := func(r *Result) int {
		for i, o := range r.Objective {
			if math.IsNaN(o) {
				return i
			}
		}
		return -1
	}
	nf := len(fits)
	if nanAt(want[nf-9]) < 1 || nanAt(want[nf-8]) < 1 || wantErr[nf-7] == nil || wantErr[nf-6] == nil || wantErr[nf-5] != nil {
		t.Fatalf("fixture: NaN at %d and %d, errors %v, %v, %v", nanAt(want[nf-9]), nanAt(want[nf-8]), wantErr[nf-7], wantErr[nf-6], wantErr[nf-5])
	}
	for _, threads := range []int{1, 2} {
		for _, size := range []int{1, 2, 5, 13, len(fits)} {
			func() {
				defer parallel.SetThreads(parallel.SetThreads(threads))
				for lo := 0; lo < len(fits); lo += size {
					hi := min(lo+size, len(fits))
					res, errs := FitBatch(ctx, 3, 7, fits[lo:hi])
					for j := range res {
						if err := sameFit(want[lo+j], res[j], wantErr[lo+j], errs[j]); err != nil {
							t.Errorf("threads %d, batch size %d, fit %d: %v", threads, size, lo+j, err)
						}
					}
				}
			}()
		}
	}
}

// lambdaFits returns a random graph (n vertices, m attributes, edge and attribute
// probabilities pE, pX, drawn from seed) with a cache, and three NAGC fits of it at
// λ = 0.01, 1, 100 (k2 = 3, ρ = 0.9, t iterations, k-means start).
func lambdaFits(seed uint64, n, m int, pE, pX float64, t int) (Input, []BatchFit) {
	adj, x := randomGraph(newRand(seed), n, m, pE, pX)
	in := Input{Adj: adj, X: x, Cache: NewCache()}
	var fits []BatchFit
	for _, lambda := range []float64{0.01, 1, 100} {
		fits = append(fits, BatchFit{NAGC{K2: 3, Lambda: lambda, Rho: 0.9, Iterations: t}, in})
	}
	return in, fits
}

// TestFitBatchReportsSizeAndCache checks the timing fields of a batch: every NAGC fit of
// one key reports the batch's size, and the k-means start is marked cached for every fit
// but the first.
func TestFitBatchReportsSizeAndCache(t *testing.T) {
	in, fits := lambdaFits(22, 100, 20, 0.05, 0.2, 5)
	res, errs := FitBatch(context.Background(), 3, 1, fits)
	for i, r := range res {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if r.BatchSize != 3 || r.InitCached != (i > 0) || r.FitTime <= 0 || r.InitTime <= 0 {
			t.Errorf("fit %d: batch size %d, cached %v, fit %v, init %v; want 3, %v, > 0, > 0", i, r.BatchSize, r.InitCached, r.FitTime, r.InitTime, i > 0)
		}
	}
	r, err := NAGC{K2: 3, Iterations: 5, Init: InitRandom}.Fit(context.Background(), in, 3, 1)
	if err != nil || r.BatchSize != 1 || r.InitCached {
		t.Errorf("random start alone: batch size %d, cached %v, error %v; want 1, false", r.BatchSize, r.InitCached, err)
	}
}

// TestFitBatchReadsShorterFitsOff checks that fits differing only in their iterations
// are one fit: the shorter ones say which fit they were read off and when, and each has
// its own copy of what it returns.
func TestFitBatchReadsShorterFitsOff(t *testing.T) {
	_, fits := lambdaFits(24, 100, 20, 0.05, 0.2, 10)
	long := fits[1]
	var chain []BatchFit
	for _, it := range []int{3, 10, 7, 10} {
		f := long
		f.Method = NAGC{K2: 3, Lambda: 1, Rho: 0.9, Iterations: it}
		chain = append(chain, f)
	}
	chain = append(chain, fits[0])
	ctx := context.Background()
	res, errs := FitBatch(ctx, 3, 1, chain)
	for i, f := range chain {
		want, err := f.Method.Fit(ctx, f.In, 3, 1)
		if err := sameFit(want, res[i], err, errs[i]); err != nil {
			t.Fatalf("fit %d: %v", i, err)
		}
	}
	for i, want := range []int{10, 0, 10, 0, 0} {
		if res[i].PrefixOf != want {
			t.Errorf("fit %d (%d iterations): read off %d iterations, want %d", i, res[i].Iterations, res[i].PrefixOf, want)
		}
	}
	if !(res[0].FitTime <= res[2].FitTime && res[2].FitTime <= res[1].FitTime) {
		t.Errorf("fit times %v (3 iterations), %v (7), %v (10): want increasing", res[0].FitTime, res[2].FitTime, res[1].FitTime)
	}
	// The two fits of 10 iterations and the shorter ones share no memory.
	before := res[3].Factors["U"].At(0, 0)
	res[1].Factors["U"].Set(0, 0, -1)
	res[1].Objective[0] = -1
	res[0].Factors["V"].Set(0, 0, -1)
	if res[3].Factors["U"].At(0, 0) != before || res[3].Objective[0] == -1 || res[2].Factors["V"].At(0, 0) == -1 {
		t.Error("fits of one chain share their factors or loss curve")
	}
}

// cancelAfter is a context whose Err turns to Canceled after n calls.
type cancelAfter struct {
	context.Context
	n int
}

func (c *cancelAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestFitBatchCancelledMidway checks that a batch cancelled between iterations returns
// the context's error for every fit, as a fit alone does.
func TestFitBatchCancelledMidway(t *testing.T) {
	rng := newRand(23)
	adj, x := randomGraph(rng, 80, 20, 0.05, 0.2)
	in := Input{Adj: adj, X: x}
	fits := []BatchFit{
		{NAGC{K2: 3, Lambda: 0.1, Rho: 0.9, Iterations: 10, Init: InitRandom}, in},
		{NAGC{K2: 3, Lambda: 1, Rho: 0.5, Iterations: 10, Init: InitRandom}, in},
	}
	_, err := fits[0].Method.Fit(&cancelAfter{context.Background(), 4}, in, 2, 1)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("fit alone: %v, want cancelled", err)
	}
	res, errs := FitBatch(&cancelAfter{context.Background(), 4}, 2, 1, fits)
	for i := range fits {
		if res[i] != nil || !errors.Is(errs[i], context.Canceled) {
			t.Errorf("fit %d: %v, want cancelled", i, errs[i])
		}
	}
}

// ExampleFitBatch fits a λ grid of NAGC in lockstep: one pass over the attributes per
// product serves all three fits, and each fit's result equals what it gets alone.
func ExampleFitBatch() {
	in, fits := lambdaFits(24, 60, 12, 0.08, 0.3, 20)
	res, errs := FitBatch(context.Background(), 2, 1, fits)
	for i, r := range res {
		alone, _ := fits[i].Method.Fit(context.Background(), in, 2, 1)
		fmt.Println(errs[i], r.BatchSize, mat.Equal(r.Factors["U"], alone.Factors["U"]))
	}
	// Output:
	// <nil> 3 true
	// <nil> 3 true
	// <nil> 3 true
}

// Package bench measures how fast the clustering methods run and how their fit time grows
// with the input.
//
// It reports the median wall time of a fit and of one iteration over repeated runs, the
// peak heap during a fit (from the Go runtime's own accounting), and the growth exponent
// of fit time in the input size |E| + nnz(X) over a series of synthetic graphs. It reads
// graphs and runs methods; it records nothing in a results folder (see package
// experiments for that).
package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/parallel"
	clmetrics "github.com/nagc-harness/nagc/metrics"
)

// Case is one graph to time methods on.
type Case struct {
	Name  string
	Graph *datasets.Graph
	// Synthetic marks a graph of the growth series (fitted for the exponent).
	Synthetic bool
}

// Method is one method to time, with its options.
type Method struct {
	Name   string         // label in the output, e.g. "nagc"
	Algo   string         // registry name
	Params map[string]any // options (NAGC: k2, lambda, rho, init, iterations)
}

// Result is the timing of one method on one graph at one thread count.
type Result struct {
	Case, Method string
	// Threads is the thread setting of the fits.
	Threads  int
	N, Edges int
	NNZX     int
	// Work is |E| + nnz(X), the size the per-iteration cost is linear in.
	Work int
	// Seconds holds every repetition's fit time; Median is their median.
	Seconds []float64
	Median  float64
	// PerIteration is Median divided by the iterations the fit ran (NaN if none).
	PerIteration float64
	Iterations   int
	// MultiplyAdds is the multiply-adds one iteration needs (the method's
	// algorithms.EstimateIterationWork; NaN for methods whose work is not counted), and PerNanosecond the multiply-adds per
	// nanosecond achieved at the median: MultiplyAdds / PerIteration, in ns.
	MultiplyAdds, PerNanosecond float64
	// PeakHeapBytes is the largest live heap seen during the fits (the graph included).
	PeakHeapBytes uint64
	Synthetic     bool
	Err           string
}

// Options control a benchmark.
type Options struct {
	Repeats int // fits per method and graph; the median is reported (default 3)
	// Threads are the thread settings to time each method at (default 1: one core; a
	// count below 1 is every core). With several, the repetitions take them in turn (the
	// first repetition at each, then the second, …) so that a machine whose speed drifts
	// over minutes slows all alike, and Speedups compares them pair by pair.
	Threads []int
	// Progress, when set, is called after each method/graph pair.
	Progress func(r Result)
}

// Run times every method on every case. A method that fails on a case is reported with
// its error and the benchmark goes on. It stops early when ctx is cancelled.
func Run(ctx context.Context, cases []Case, methods []Method, opt Options) ([]Result, error) {
	if opt.Repeats < 1 {
		opt.Repeats = 3
	}
	if len(opt.Threads) == 0 {
		opt.Threads = []int{1}
	}
	opt.Threads = slices.Clone(opt.Threads)
	for i, t := range opt.Threads {
		if t < 1 {
			opt.Threads[i] = runtime.GOMAXPROCS(0)
		}
	}
	defer parallel.SetThreads(parallel.Threads())
	var out []Result
	for _, c := range cases {
		for _, m := range methods {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			for _, r := range timeOne(ctx, c, m, opt) {
				out = append(out, r)
				if opt.Progress != nil {
					opt.Progress(r)
				}
			}
		}
	}
	return out, nil
}

// timeOne times method m on case c at each of opt.Threads, the repetitions in turn, and
// returns a Result per thread setting.
func timeOne(ctx context.Context, c Case, m Method, opt Options) []Result {
	g := c.Graph
	out := make([]Result, len(opt.Threads))
	for i, t := range opt.Threads {
		r := Result{Case: c.Name, Method: m.Name, Threads: t, N: g.N(), Edges: g.Edges(), Synthetic: c.Synthetic}
		r.NNZX = g.AttributeNNZ()
		r.Work = r.Edges + r.NNZX
		r.PerIteration, r.Median, r.PerNanosecond, r.MultiplyAdds = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		out[i] = r
	}
	fail := func(err error) []Result {
		for i := range out {
			out[i].Err = err.Error()
		}
		return out
	}
	method, err := algorithms.New(m.Algo, m.Params)
	if err != nil {
		return fail(err)
	}
	in := algorithms.Input{Adj: g.Adj, X: g.X, Truth: g.Labels}
	madds := math.NaN()
	if g.HasAttributes() && g.Adj != nil {
		madds, _ = algorithms.EstimateIterationWork(method, algorithms.InputShape(in, g.K()))
	}
	if err := algorithms.CheckMemory(method, in, g.K(), 1); err != nil {
		return fail(err) // over the budget (--max-memory): refused before it allocates
	}
	stopPeak := watchPeakHeap()
fits:
	for rep := 0; rep < opt.Repeats; rep++ {
		for i, t := range opt.Threads {
			parallel.SetThreads(t)
			runtime.GC()
			res, err := method.Fit(ctx, in, g.K(), uint64(rep+1))
			if err != nil {
				fail(err)
				break fits
			}
			out[i].Seconds = append(out[i].Seconds, res.FitTime.Seconds())
			out[i].Iterations = res.Iterations
		}
	}
	peak := stopPeak()
	for i := range out {
		r := &out[i]
		r.PeakHeapBytes, r.MultiplyAdds = peak, madds
		if r.Err != "" || len(r.Seconds) == 0 {
			continue
		}
		r.Median = clmetrics.Median(r.Seconds)
		if r.Iterations > 0 {
			r.PerIteration = r.Median / float64(r.Iterations)
			r.PerNanosecond = r.MultiplyAdds / (r.PerIteration * 1e9)
		}
	}
	return out
}

// watchPeakHeap samples the live heap every 20 ms until the returned function is
// called, which returns the largest value seen. It wakes seldom: each wake takes a core
// from the fit it watches, and a fit that uses every core then waits at each split for
// the goroutine it displaced. A fit takes its memory at its start and holds it, so the
// plateau is still seen.
func watchPeakHeap() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	read := func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
		}
	}
	read()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				read()
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		read()
		return peak.Load()
	}
}

// GrowthExponent fits log(seconds) = a + b·log(work) by least squares over the finished
// synthetic results of one method at one thread setting (0: any) and returns b (1 means
// linear growth). It needs at least two sizes.
func GrowthExponent(results []Result, method string, threads int) (float64, error) {
	var xs, ys []float64
	for _, r := range results {
		if r.Method == method && (threads == 0 || r.Threads == threads) && r.Synthetic && r.Err == "" && r.Median > 0 {
			xs = append(xs, math.Log(float64(r.Work)))
			ys = append(ys, math.Log(r.Median))
		}
	}
	if len(xs) < 2 {
		return math.NaN(), errors.New("bench: fewer than two synthetic sizes to fit")
	}
	_, b := stat.LinearRegression(xs, ys, nil, false)
	return b, nil
}

// SyntheticSeries returns the growth series graphs: n vertices for each n in sizes,
// average degree 10, m = 1000 attributes, 20 non-zero attributes per vertex, k1 = k2 =
// 10 (10 vertex and attribute clusters), seeded.
func SyntheticSeries(sizes []int, seed uint64) ([]Case, error) {
	return syntheticSeries(sizes, seed)
}

// ShapeCase returns the bench case of a planted graph of a given shape (datasets.Shape):
// shape is a name of datasets.Shapes (arxiv, products, …) optionally followed by
// ",key=value" overrides, as in "arxiv,n=50000". The case is named after the shape. Cost:
// datasets.SyntheticShape.
func ShapeCase(shape string) (Case, error) {
	s, err := datasets.ParseShape("synthetic:" + shape)
	if err != nil {
		return Case{}, fmt.Errorf("bench: --shape: %w", err)
	}
	g, err := datasets.SyntheticShape(s)
	if err != nil {
		return Case{}, fmt.Errorf("bench: --shape: %w", err)
	}
	name := "synthetic:" + shape
	g.Name = name
	return Case{Name: name, Graph: g}, nil
}

func syntheticSeries(sizes []int, seed uint64) ([]Case, error) {
	var cases []Case
	for _, n := range sizes {
		cfg := datasets.SyntheticConfig{
			N: n, M: 1000, K1: 10, K2: 10,
			AvgDegree: 10, PIn: 0.8, AttrPerVertex: 20, AttrSignal: 0.6, Seed: seed,
		}
		g, err := datasets.Synthetic(cfg)
		if err != nil {
			return nil, fmt.Errorf("bench: synthetic n=%d: %w", n, err)
		}
		g.Name = fmt.Sprintf("synthetic-%d", n)
		cases = append(cases, Case{Name: g.Name, Graph: g, Synthetic: true})
	}
	return cases, nil
}

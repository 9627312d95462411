package algorithms

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/datasets"
	densem "github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/internal/attrtest"
)

// cancelCase is a fit TestFitStopsWhenCancelled cancels: a registered method with options
// that make it run well past the cancellation on a graph of n vertices, so that the
// cancellation lands in the loop named by phase.
type cancelCase struct {
	name   string
	params map[string]any
	n      int
	phase  string // the loop the cancellation is meant to land in (for the log)
	dense  bool   // the attributes as a dense float32 matrix (Input.X)
}

// cancelCases covers every registered method at least once (the test checks it), and the
// library loops behind them: graph-filter powers, the randomised SVD, k-means starts.
var cancelCases = []cancelCase{
	{"nagc", nil, 20000, "k-means start", false},
	{"nagc", map[string]any{"init": InitSGC, "p": 40}, 20000, "graph filter, SVD, k-means start", false},
	{"nagc", map[string]any{"init": InitRandom, "iterations": 100000}, 20000, "iterations", false},
	{"kmeans", map[string]any{"n_init": 1000}, 20000, "Lloyd iterations", false},
	{"sgc-kmeans", map[string]any{"p": 400}, 20000, "filter powers, SVD", false},
	{"sgc-kmeans", map[string]any{"p": 3, "rank": 0}, 20000, "sparse filter powers (ApplyCSR)", false},
	{"metis", nil, 200000, "gpmetis", false},
	{"bagc", map[string]any{"max_sweeps": 100000, "tol": 1e-300, "restarts": 1000}, 20000, "sweeps", false}, // tol 0 means the default 1e-6: a fit that converged in 110 ms once raced the cancellation
	{"nmf", map[string]any{"iterations": 100000}, 20000, "iterations", false},
	{"nmf", map[string]any{"p": 400}, 20000, "graph filter", false},
	{"snmf", map[string]any{"iterations": 100000}, 20000, "iterations", false},
	{"jwnmf", map[string]any{"iterations": 100000}, 20000, "k-means start, iterations", false},
	{"sa-cluster", map[string]any{"max_iter": 100000}, 2000, "iterations", false},
	{"inc-cluster", map[string]any{"max_iter": 100000}, 2000, "iterations", false},
	{"paican", map[string]any{"max_iter": 100000, "tol": 1e-300}, 20000, "spectral start, iterations", false},
	{"nagc", nil, 20000, "dense k-means start", true},
	{"kmeans", map[string]any{"n_init": 1000}, 20000, "dense Lloyd iterations", true},
	{"sgc-kmeans", map[string]any{"p": 400}, 20000, "dense filter powers, SVD", true},
	{"sgc-kmeans", map[string]any{"p": 400, "rank": 0}, 20000, "dense filter powers", true},
}

// cancelGraphs holds the test graphs by vertex count, built once.
var cancelGraphs sync.Map

// cancelGraph returns a synthetic graph of n vertices, degree 10, 500 attributes (20 per
// vertex) and 10 clusters, with a Cache of its own; with dense, its attributes as a dense
// float32 matrix.
func cancelGraph(t *testing.T, n int, dense bool) Input {
	if in, ok := cancelGraphs.Load(n); ok {
		in := in.(Input)
		in.Cache = NewCache()
		if dense {
			r, c := in.X.Dims()
			x := make([]float32, r*c)
			for i := 0; i < r; i++ {
				cols, vals := attrtest.Sparse(in.X).Row(i)
				for p, j := range cols {
					x[i*c+j] = float32(vals[p])
				}
			}
			in.X = densem.NewMatrix32(r, c, x)
		}
		return in
	}
	g, err := datasets.Synthetic(datasets.SyntheticConfig{N: n, M: 500, K1: 10, K2: 10,
		AvgDegree: 10, PIn: 0.8, AttrPerVertex: 20, AttrSignal: 0.7, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Adj: g.Adj, X: g.X, Truth: g.Labels, Cache: NewCache()}
	cancelGraphs.Store(n, in)
	return cancelGraph(t, n, dense)
}

// countdownContext is a context that cancels itself at its n-th poll (a call of Done or
// Err), counting the polls after that: a fit given it is cancelled at the same point of
// its work on any machine, however loaded, and how many more times it looks at the
// context before returning tells whether it stopped there. Once cancelled, Err returns
// err (context.Canceled, or context.DeadlineExceeded to stand for a deadline).
type countdownContext struct {
	context.Context
	cancel      context.CancelFunc
	err         error
	left, after atomic.Int64
	// last and gap are the time of the last poll and the longest time between two polls
	// before the cancellation, in nanoseconds: how long the fit may work without looking
	// (for the log only: times depend on the machine).
	last, gap atomic.Int64
}

func newCountdown(n int64, err error) *countdownContext {
	ctx, cancel := context.WithCancel(context.Background())
	c := &countdownContext{Context: ctx, cancel: cancel, err: err}
	c.left.Store(n)
	c.last.Store(time.Now().UnixNano())
	return c
}

func (c *countdownContext) poll() {
	left := c.left.Add(-1)
	if left >= 0 {
		now := time.Now().UnixNano()
		gap := now - c.last.Swap(now)
		for g := c.gap.Load(); gap > g && !c.gap.CompareAndSwap(g, gap); g = c.gap.Load() {
		}
	}
	switch {
	case left == 0:
		c.cancel()
	case left < 0:
		c.after.Add(1)
	}
}

func (c *countdownContext) Done() <-chan struct{} { c.poll(); return c.Context.Done() }

func (c *countdownContext) Err() error {
	c.poll()
	if c.Context.Err() != nil {
		return c.err
	}
	return nil
}

// maxPollsAfterCancel bounds the polls of a cancelled fit on its way out (each loop and
// worker it unwinds may look at the context once or twice): a fit that went on working
// after the cancellation, looking at the context every step, exceeds it by far.
const maxPollsAfterCancel = 64

// TestFitStopsWhenCancelled checks that every registered method returns an error wrapping
// context.Canceled when its context is cancelled: before the fit starts, and at the 20th
// time the fit looks at its context, into it (each case with a Cache of its own, so
// that the cancellation lands in the case's loop, not past a value an earlier case
// cached), and that it then stops, looking at the context at most maxPollsAfterCancel
// more times. The cancellation is counted, not timed (countdownContext), so a loaded
// machine cannot move it; the longest time the fit worked without looking is logged.
func TestFitStopsWhenCancelled(t *testing.T) {
	const k, at = 10, 20
	covered := map[string]bool{}
	for _, c := range cancelCases {
		covered[c.name] = true
	}
	for _, name := range Names() {
		if !covered[name] {
			t.Errorf("method %s has no case in cancelCases", name)
		}
	}
	for _, c := range cancelCases {
		t.Run(c.name+"/"+c.phase, func(t *testing.T) {
			if c.name == "metis" {
				requireGPMetis(t)
			}
			m, err := New(c.name, c.params)
			if err != nil {
				t.Fatal(err)
			}
			in := cancelGraph(t, c.n, c.dense)

			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err = m.Fit(ctx, in, k, 1); !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled before the fit: error %v, want context.Canceled", err)
			}

			if testing.Short() {
				return
			}
			if c.name == "metis" {
				// gpmetis runs in a process of its own, which exec ends on the first
				// Done: no loop of nagc's to count polls in.
				return
			}
			cd := newCountdown(at, context.Canceled)
			defer cd.cancel()
			_, err = m.Fit(cd, in, k, 1)
			if cd.left.Load() > 0 {
				t.Fatalf("the fit ended after %d polls of its context, before its cancellation at poll %d: error %v", at-cd.left.Load(), at, err)
			}
			t.Logf("%s (%s, n = %d): %d polls after the cancellation; at most %v between two polls before it", c.name, c.phase, c.n, cd.after.Load(), time.Duration(cd.gap.Load()))
			if !errors.Is(err, context.Canceled) || cd.after.Load() > maxPollsAfterCancel {
				t.Errorf("cancelled at poll %d: error %v after %d more polls, want context.Canceled within %d", at, err, cd.after.Load(), maxPollsAfterCancel)
			}
		})
	}
}

// TestCacheForgetsCancellation checks that a computation that failed with a context's
// error is run again by the next Do, while any other error is cached like a value.
func TestCacheForgetsCancellation(t *testing.T) {
	for _, tc := range []struct {
		err  error
		runs int // computations run by two Do calls
	}{
		{context.Canceled, 2},
		{fmt.Errorf("filter: %w", context.DeadlineExceeded), 2},
		{errors.New("bad input"), 1},
		{nil, 1},
	} {
		c, runs := NewCache(), 0
		for range 2 {
			_, err := c.Do("key", func() (any, error) { runs++; return runs, tc.err })
			if err != tc.err {
				t.Errorf("%v: Do returned error %v", tc.err, err)
			}
		}
		if runs != tc.runs {
			t.Errorf("%v: two Do calls ran the computation %d times, want %d", tc.err, runs, tc.runs)
		}
	}
}

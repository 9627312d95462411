package algorithms

import (
	"context"
	"errors"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// TestNAGCReportsProgress checks that a NAGC fit tells the context's Progress of every
// iteration, in order, and that its result does not depend on being watched.
func TestNAGCReportsProgress(t *testing.T) {
	rng := newRand(8)
	adj, x := randomGraph(rng, 200, 30, 0.03, 0.1)
	in := Input{Adj: adj, X: x}
	a := NAGC{Lambda: 0.1, Rho: 0.8, Init: InitRandom, Iterations: 7}
	var got []int
	ctx := WithProgress(context.Background(), func(phase string, done, total int) {
		if phase != "nagc iterations" || total != 7 {
			t.Errorf("progress %q %d/%d, want nagc iterations of 7", phase, done, total)
		}
		got = append(got, done)
	})
	watched, err := a.Fit(ctx, in, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 7 || got[0] != 1 || got[6] != 7 {
		t.Errorf("progress reports %v, want 1…7", got)
	}
	plain, _ := a.Fit(context.Background(), in, 3, 1)
	if watched.Objective[6] != plain.Objective[6] {
		t.Errorf("objective %v watched, %v not", watched.Objective[6], plain.Objective[6])
	}
}

// TestFitsStopOnContext checks, at a mid shape (20,000 vertices, 64 dense attributes, 10
// classes), that a fit given a cancelled context returns its error at its first look at
// it, and that a NAGC fit of many iterations whose deadline passes while it runs (at its
// 20th look at the context: countdownContext, so that no clock or load decides where)
// returns the deadline's error without looking again more than a few times.
func TestFitsStopOnContext(t *testing.T) {
	if testing.Short() {
		t.Skip("a mid-size graph")
	}
	adj, x, _ := shapeGraph(20_000, 10, 64, 10, 0.7, 5)
	in := Input{Adj: adj, X: x}
	for _, m := range []Method{
		NAGC{Lambda: 0.01, Rho: 0.75},
		SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: DefaultSGCOrder}, Rank: DefaultSGCRank},
	} {
		cancelled := newCountdown(1, context.Canceled)
		_, err := m.Fit(cancelled, in, 10, 1)
		if !errors.Is(err, context.Canceled) || cancelled.after.Load() > maxPollsAfterCancel {
			t.Errorf("%s with a cancelled context: %v after %d more looks at it, want context.Canceled at once", m.Name(), err, cancelled.after.Load())
		}
	}
	deadline := newCountdown(20, context.DeadlineExceeded)
	_, err := NAGC{Lambda: 0.01, Rho: 0.75, Init: InitRandom, Iterations: 100_000}.Fit(deadline, in, 10, 1)
	if deadline.left.Load() > 0 || !errors.Is(err, context.DeadlineExceeded) || deadline.after.Load() > maxPollsAfterCancel {
		t.Errorf("nagc past its deadline: %v after %d more looks at the context (deadline reached: %v), want the deadline's error at once",
			err, deadline.after.Load(), deadline.left.Load() <= 0)
	}
}

// TestFitsThreadsBitIdentical checks that whole fits (NAGC from its k-means start, with
// and without the graph filter, and SGC k-means) give the same labels, objective and
// factors, bit for bit, on 1 and 2 kernel threads, on a graph large enough for every
// kernel to split its work (9,000 vertices).
func TestFitsThreadsBitIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("fits at 9,000 vertices")
	}
	adj, x, _ := shapeGraph(9_000, 10, 32, 6, 0.7, 9)
	for _, m := range []Method{
		NAGC{Lambda: 0.01, Rho: 0.75, Iterations: 5},
		NAGC{Lambda: 1, Rho: 0.5, Init: InitRandom, Iterations: 5, Filter: GraphFilterOptions{P: 4, NormAfter: true}},
		SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: 4}, Rank: 8, NInit: 2},
	} {
		fit := func(threads int) *Result {
			defer parallel.SetThreads(parallel.SetThreads(threads))
			r, err := m.Fit(context.Background(), Input{Adj: adj, X: x}, 6, 1)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		one, two := fit(1), fit(2)
		same := slices.Equal(one.Labels, two.Labels) && slices.Equal(one.Objective, two.Objective)
		for name, f := range one.Factors {
			same = same && mat.Equal(f, two.Factors[name])
		}
		if !same {
			t.Errorf("%s %+v: 1 and 2 threads differ", m.Name(), m)
		}
	}
}

package parallel

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// TestRunOnEachTaskOnce checks that every task runs exactly once, for any number of
// workers and tasks.
func TestRunOnEachTaskOnce(t *testing.T) {
	for _, tasks := range []int{0, 1, 2, 7, 100} {
		for _, workers := range []int{0, 1, 2, 5, 200} {
			count := make([]atomic.Int32, tasks)
			RunOn(tasks, workers, func(b int) { count[b].Add(1) })
			for b := range count {
				if c := count[b].Load(); c != 1 {
					t.Fatalf("tasks %d, workers %d: task %d ran %d times", tasks, workers, b, c)
				}
			}
		}
	}
}

// TestBlocksCoverRows checks that Blocks covers [0, n) with disjoint blocks of the size
// asked.
func TestBlocksCoverRows(t *testing.T) {
	for _, tc := range []struct{ n, size int }{{0, 4}, {1, 4}, {4, 4}, {5, 4}, {1000, 128}} {
		seen := make([]atomic.Int32, tc.n)
		Blocks(tc.n, tc.size, 3, func(lo, hi int) {
			if lo%tc.size != 0 || hi-lo > tc.size || hi <= lo {
				t.Errorf("n %d size %d: block [%d, %d)", tc.n, tc.size, lo, hi)
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n %d size %d: row %d covered %d times", tc.n, tc.size, i, c)
			}
		}
	}
}

// TestGrainMeasuredOnce checks that a grain lies within its bounds, is measured once, and
// runs its kernel only then.
func TestGrainMeasuredOnce(t *testing.T) {
	var runs int
	x := make([]float64, 1<<14)
	g := NewGrain(len(x), func() {
		runs++
		for i := range x {
			x[i] = x[i]*0.5 + 1
		}
	})
	m := g.Min()
	if m < minGrain || m > maxGrain {
		t.Fatalf("grain %d outside [%d, %d]", m, minGrain, maxGrain)
	}
	after := runs
	if again := g.Min(); again != m || runs != after {
		t.Fatalf("measured twice: %d then %d (%d runs, then %d)", m, again, after, runs)
	}
	t.Logf("grain of a scaled add on this machine: %d elements (fork-join %v)", m, forkJoin())
}

// TestGrainWorkers checks the number of goroutines a call is given: one on one thread,
// for one task or for less than two grains of work, otherwise bounded by the grains, the
// tasks and the threads.
func TestGrainWorkers(t *testing.T) {
	g := NewGrain(1, func() {})
	g.once.Do(func() {}) // a grain fixed for the test
	g.min = 1000
	for _, tc := range []struct{ threads, tasks, work, want int }{
		{1, 100, 1e9, 1},
		{4, 1, 1e9, 1},
		{4, 100, 1999, 1},
		{4, 100, 2000, 2},
		{4, 100, 3500, 3},
		{4, 100, 1e9, 4},
		{4, 3, 1e9, 3},
		{4, 100, 10, 1},
	} {
		t.Run(fmt.Sprint(tc), func(t *testing.T) {
			defer SetThreads(SetThreads(tc.threads))
			if got := g.Workers(tc.tasks, tc.work); got != tc.want {
				t.Fatalf("Workers(%d, %d) on %d threads = %d, want %d", tc.tasks, tc.work, tc.threads, got, tc.want)
			}
			defer SetSplitAlways(SetSplitAlways(true))
			if got, want := g.Workers(tc.tasks, tc.work), min(tc.threads, tc.tasks); got != want {
				t.Fatalf("split always: Workers(%d, %d) on %d threads = %d, want %d", tc.tasks, tc.work, tc.threads, got, want)
			}
		})
	}
}

// TestPoolRunsEveryTask checks that a pool runs every task of every phase once, on
// workers it names, and reuses its goroutines across phases.
func TestPoolRunsEveryTask(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		p := NewPool(workers)
		for _, tasks := range []int{0, 1, 5, 64} {
			count := make([]atomic.Int32, tasks)
			var bad atomic.Bool
			p.Run(tasks, func(w, b int) {
				if w < 0 || w >= p.Workers() {
					bad.Store(true)
				}
				count[b].Add(1)
			})
			if bad.Load() {
				t.Fatalf("workers %d: a task ran on a worker outside [0, %d)", workers, p.Workers())
			}
			for b := range count {
				if c := count[b].Load(); c != 1 {
					t.Fatalf("workers %d, tasks %d: task %d ran %d times", workers, tasks, b, c)
				}
			}
		}
		p.Close()
	}
}

func ExampleGrain() {
	scale := func(x []float64) {
		for i := range x {
			x[i] = 2*x[i] + 1
		}
	}
	probe := make([]float64, 1<<12)
	g := NewGrain(len(probe), func() { scale(probe) }) // the grain of scale, in elements
	defer SetThreads(SetThreads(2))
	x := make([]float64, 1<<16)
	// Blocks of 1024 elements, on as many goroutines as 2¹⁶ elements of work pay for.
	Blocks(len(x), 1024, g.Workers(len(x)/1024, len(x)), func(lo, hi int) { scale(x[lo:hi]) })
	fmt.Println(x[0], x[len(x)-1])
	// Output: 1 1
}

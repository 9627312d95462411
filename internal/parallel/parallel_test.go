package parallel

import (
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
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
	defer func(h func() int) { freeCoresHook = h }(freeCoresHook)
	freeCoresHook = func() int { return 0 } // the load not known: no bound
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

// TestGrainWorkersFreeCores checks that a split takes no more goroutines than other
// processes left cores, one at least, unless every split is forced.
func TestGrainWorkersFreeCores(t *testing.T) {
	g := NewGrain(1, func() {})
	g.once.Do(func() {})
	g.min = 1000
	defer SetThreads(SetThreads(4))
	defer func(h func() int) { freeCoresHook = h }(freeCoresHook)
	for _, tc := range []struct{ free, want int }{{0, 4}, {1, 1}, {2, 2}, {3, 3}, {8, 4}} {
		freeCoresHook = func() int { return tc.free }
		if got := g.Workers(100, 1e9); got != tc.want {
			t.Errorf("%d cores free: Workers = %d, want %d", tc.free, got, tc.want)
		}
	}
	freeCoresHook = func() int { return 1 }
	defer SetSplitAlways(SetSplitAlways(true))
	if got := g.Workers(100, 1e9); got != 4 {
		t.Errorf("split always, 1 core free: Workers = %d, want 4", got)
	}
}

// TestCoresLeft checks the cores left by other processes against hand-computed windows.
func TestCoresLeft(t *testing.T) {
	for _, tc := range []struct {
		name        string
		cores       int
		busy, total uint64
		self, wall  time.Duration
		want        int
	}{
		{"quiet, this process on both cores", 2, 200, 200, 2 * time.Second, time.Second, 2},
		{"quiet, this process on one", 2, 100, 200, time.Second, time.Second, 2},
		{"an idle machine", 2, 1, 200, 0, time.Second, 2},
		{"others on 1.5 cores", 2, 200, 200, time.Second / 2, time.Second, 1},
		{"others on 0.6 of a core", 2, 160, 200, time.Second, time.Second, 1},
		{"others on 0.4 of a core", 2, 140, 200, time.Second, time.Second, 2},
		{"others on every core", 2, 200, 200, 0, time.Second, 1},
		{"others on 5 of 8 cores", 8, 700, 800, 2 * time.Second, time.Second, 3},
		{"no ticks", 2, 0, 0, 0, time.Second, 0},
	} {
		if got := coresLeft(tc.cores, tc.busy, tc.total, tc.self, tc.wall); got != tc.want {
			t.Errorf("%s: %d cores left, want %d", tc.name, got, tc.want)
		}
	}
}

// TestParseCPULine checks the busy and total ticks read from a line of /proc/stat:
// user + nice + system + irq + softirq + steal, and those with idle and iowait.
func TestParseCPULine(t *testing.T) {
	line := "cpu  2480245 1038238 444792 446995 28099 0 2640 7363 5 6\ncpu0 1 2 3 4 5 6 7 8 9 10\n"
	busy, total, ok := parseCPULine([]byte(line))
	if !ok || busy != 2480245+1038238+444792+2640+7363 || total != busy+446995+28099 {
		t.Errorf("busy %d, total %d, ok %v", busy, total, ok)
	}
	if _, _, ok := parseCPULine([]byte("intr 1 2 3\n")); ok {
		t.Error("a line other than cpu read as the cpu line")
	}
}

// TestRefreshLoad checks the estimate before a window (from the runnable threads of a
// /proc/loadavg written by the test) and after one (from two readings of a /proc/stat
// written by the test: the machine busy for 4/5 of its ticks in the window, this process
// almost idle), and that this system's /proc/stat and /proc/loadavg, where it has them,
// read.
func TestRefreshLoad(t *testing.T) {
	load.mu.Lock()
	defer load.mu.Unlock()
	stat, tried, at, busy, total, self, free := load.stat, load.tried, load.at, load.busy, load.total, load.self, load.free.Load()
	defer func() {
		load.stat, load.tried, load.at, load.busy, load.total, load.self = stat, tried, at, busy, total, self
		load.free.Store(free)
	}()
	f, err := os.Create(t.TempDir() + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	write := func(line string) {
		if err := f.Truncate(0); err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte(line), 0); err != nil {
			t.Fatal(err)
		}
	}
	load.stat, load.tried, load.at = f, true, time.Time{}
	avg := t.TempDir() + "/loadavg"
	if err := os.WriteFile(avg, []byte("1.50 1.20 0.90 3/180 4242\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(p string) { loadavgPath = p }(loadavgPath)
	loadavgPath = avg
	cores := runtime.NumCPU()
	t0 := time.Now()
	write("cpu  100 0 0 100 0 0 0 0 0 0\n")
	refreshLoad(t0)
	if got, want := int(load.free.Load()), max(1, cores-2); got != want {
		t.Errorf("before a window, 3 threads runnable: %d cores free, want %d", got, want)
	}
	write("cpu  400 0 100 200 0 0 0 0 0 0\n") // 400 more busy ticks of 500
	refreshLoad(t0.Add(time.Second))
	want := max(1, int(float64(cores)-float64(cores)*0.8+0.5))
	if got := int(load.free.Load()); got != want {
		t.Errorf("%d cores free, want %d", got, want)
	}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		if _, _, ok := parseCPULine(b); !ok {
			t.Errorf("/proc/stat: no cpu line in %.80q", b)
		}
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if _, ok := parseRunnable(b); !ok {
			t.Errorf("/proc/loadavg: no runnable threads in %q", b)
		}
	}
	for _, bad := range []string{"", "1.0 1.0 1.0", "1.0 1.0 1.0 x/10 5", "1.0 1.0 1.0 12 5"} {
		if n, ok := parseRunnable([]byte(bad)); ok {
			t.Errorf("%q read as %d runnable threads", bad, n)
		}
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

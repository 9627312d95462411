package parallel

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds of a measured grain, in units of work, and how many fork-joins' worth of work
// a task must hold.
const (
	minGrain   = 1 << 12
	maxGrain   = 1 << 22
	forkFactor = 8
)

// forkJoin is the time of a fork and join of two goroutines, measured once per process:
// RunOn of two tasks on two workers, the first of which waits until the second has
// started, each try after forkPause of work on the calling goroutine, so that the time
// includes waking a parked thread, as the split of a kernel that follows serial work
// does. It is the second longest of 7 tries, as a try whose helper thread has not yet
// parked is far quicker: back to back, with the helper's thread still spinning, a
// fork-join takes about 0.5 µs against 8–24 µs on a 2-core virtual machine, where
// kernels split on the smaller figure made a Citeseer fit slower on two threads than on
// one. The pause spins rather than sleeps: a sleep that short lasts about a millisecond
// on Linux, ten of them a hundredth of a second of every process.
var forkJoin = sync.OnceValue(func() time.Duration {
	d := make([]time.Duration, 7)
	for i := range d {
		for t := time.Now(); time.Since(t) < forkPause; {
		}
		t := time.Now()
		var started atomic.Bool
		RunOn(2, 2, func(task int) {
			if task == 1 {
				started.Store(true)
				return
			}
			for !started.Load() {
				runtime.Gosched()
			}
		})
		d[i] = time.Since(t)
	}
	slices.Sort(d)
	return d[len(d)-2]
})

// forkPause is the pause before each timed fork-join of forkJoin: long enough for the
// Go runtime to park a thread left idle (it spins for a few tens of microseconds first),
// short enough that the measurement, inside the first fit that splits, costs about 1.5
// milliseconds.
const forkPause = 200 * time.Microsecond

// median returns the median time of tries calls of fn.
func median(tries int, fn func()) time.Duration {
	d := make([]time.Duration, tries)
	for i := range d {
		t := time.Now()
		fn()
		d[i] = time.Since(t)
	}
	slices.Sort(d)
	return d[tries/2]
}

// A Grain is the least work, in a kernel's units, worth a goroutine of its own on this
// machine. Its zero value is not usable: make one with NewGrain.
type Grain struct {
	units int
	run   func()
	once  sync.Once
	min   int
	long  time.Duration // a call that takes this long on one goroutine always splits (Split)

	learnt learnt // what Split learns from the calls it times
}

// NewGrain returns the grain of a kernel whose run does units of work serially (a
// representative call of about 10⁴–10⁶ units, allocating nothing). run is timed, with the
// fork-join cost, the first time Min is called.
func NewGrain(units int, run func()) *Grain { return &Grain{units: units, run: run} }

// Min returns the grain: forkFactor fork-joins' worth of work, within [2¹², 2²²] units.
// It is measured once, in about a millisecond.
func (g *Grain) Min() int {
	g.once.Do(func() {
		g.run() // warm the caches and the code
		perUnit := float64(median(5, g.run)) / float64(g.units)
		g.min, g.long = maxGrain, longCall*forkJoin()
		if perUnit > 0 {
			g.min = int(min(max(forkFactor*float64(forkJoin())/perUnit, minGrain), maxGrain))
		}
	})
	return g.min
}

// Workers returns how many goroutines a call of tasks tasks and work units of work in
// all should run on: one where there is one thread, one task or less than two grains of
// work, otherwise as many as it has grains, tasks and threads, and no more than the
// cores other processes have left free over the last fraction of a second (freeCores):
// a split waits for its slowest goroutine, and one that shares a core with another
// busy process makes the call slower than one goroutine would.
func (g *Grain) Workers(tasks, work int) int {
	t := Threads()
	switch {
	case t <= 1 || tasks <= 1:
		return 1
	case splitAlways.Load():
		return min(t, tasks)
	case work < 2*g.Min():
		return 1
	}
	if free := freeCores(); free > 0 {
		t = min(t, free)
	}
	return min(t, tasks, work/g.Min())
}

var splitAlways atomic.Bool

// SetSplitAlways makes every grain split any work with at least two tasks over all the
// threads (on), or weigh it again (off), and returns the previous setting. Tests use it
// to check that results do not depend on the split on problems too small to be split
// otherwise.
func SetSplitAlways(on bool) bool { return splitAlways.Swap(on) }

// Run calls fn(0), …, fn(tasks−1) on the goroutines g.Split(tasks, work) chooses.
func (g *Grain) Run(tasks, work int, fn func(task int)) {
	s := g.Split(tasks, work)
	RunOn(tasks, s.Workers, fn)
	s.Done()
}

// Serial reports whether a call of tasks tasks and work units runs on the calling
// goroutine alone.
func (g *Grain) Serial(tasks, work int) bool { return g.Workers(tasks, work) == 1 }

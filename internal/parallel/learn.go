package parallel

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds of what a Grain learns from the calls it times.
const (
	// learnGrains: a call of less work than this many grains learns whether its split
	// pays; a larger one always splits.
	learnGrains = 32
	// learnTrials: the calls of each kind (serial, split) timed before the choice.
	learnTrials = 6
	// splitGain: a split is kept when its median time is at most this share of the serial
	// median.
	splitGain = 0.9
	// learnSlots: the distinct amounts of work a Grain learns about.
	learnSlots = 64
	// relearnAfter: the calls run the chosen way before the choice is learned again (the
	// machine's load or the data may have changed, or noise misled the trials).
	relearnAfter = 1000
	// longCall: a call that takes this many fork-joins on one goroutine splits without
	// more trials. Its split saves far more than the fork-join costs; a split that timed
	// slower than it in trials met a passing load (other processes, the machine's host),
	// which freeCores follows, and would keep the call on one goroutine long after.
	longCall = 64
)

// now is the clock Split reads (a variable for tests).
var now = time.Now

// learning is what a Grain has learnt of the calls of one amount of work.
type learning struct {
	work atomic.Int64 // the calls' work; 0: the slot is free
	// choice packs the goroutines the choice was learned for (high 32 bits) and the
	// choice (low 32 bits): 1 serial, the goroutines themselves to split, 0 still
	// learning.
	choice atomic.Int64
	used   atomic.Int64 // calls run the chosen way since the choice

	// Guarded by learnt.mu.
	workers         int // the split being tried
	calls           int // trial calls handed out
	serial, split   [learnTrials]time.Duration
	nSerial, nSplit int
}

// learnt is the Grain's state of learning: its slots, and the lock of their trials.
type learnt struct {
	mu    sync.Mutex
	slots [learnSlots]learning
}

// A Split is how many goroutines one call runs on (Workers), as Grain.Split chose them.
// Done must be called when the call's work is done.
type Split struct {
	Workers int
	g       *Grain
	slot    *learning // nil: not a trial
	tried   int       // the split the trial is for
	start   time.Time
}

// Split returns the goroutines a call of tasks tasks and work units runs on. It is
// Workers, except for a call of less than learnGrains grains of work that Workers would
// split: there the measured grain is least sure of the answer (it times a fork-join and
// a kernel on data in the cache, not a split of the caller's own data in its cache), so
// the Grain learns from the calls themselves. The first 2·learnTrials calls of each
// amount of work alternate in pairs between one goroutine and Workers' split, timed
// from Split to Done; then the split is kept only where its median time is at most
// splitGain of the serial one, or as soon as one serial call takes longCall fork-joins.
// A kernel whose work repeats every iteration (NAGC's, the k-means steps) so runs each
// call the faster way after a dozen calls, and learns again after relearnAfter calls.
// Nothing is allocated; a call that is not a trial costs an atomic load and add more
// than Workers.
func (g *Grain) Split(tasks, work int) Split {
	w := g.Workers(tasks, work)
	if w == 1 || splitAlways.Load() || work >= learnGrains*g.Min() {
		return Split{Workers: w}
	}
	l := g.learnt.slot(work)
	if l == nil {
		return Split{Workers: w}
	}
	if c := l.choice.Load(); int(c>>32) == w && int32(c) != 0 && l.used.Add(1) <= relearnAfter {
		return Split{Workers: int(int32(c))}
	}
	g.learnt.mu.Lock()
	if c := l.choice.Load(); l.workers != w || int32(c) != 0 && l.used.Load() > relearnAfter {
		l.workers, l.calls, l.nSerial, l.nSplit = w, 0, 0, 0
		l.choice.Store(0)
		l.used.Store(0)
	}
	trial := l.calls
	l.calls++
	g.learnt.mu.Unlock()
	s := Split{Workers: w, g: g, slot: l, tried: w}
	if trial/2%2 == 0 { // pairs, so that two call sites of one work that alternate each try both
		s.Workers = 1
	}
	s.start = now()
	return s
}

// Done records the time of a trial call; for any other call it does nothing.
func (s Split) Done() {
	if s.slot == nil {
		return
	}
	d := now().Sub(s.start)
	g, l := s.g, s.slot
	g.learnt.mu.Lock()
	defer g.learnt.mu.Unlock()
	if l.workers != s.tried || l.choice.Load() != 0 {
		return // the threads changed, or another trial completed the choice
	}
	switch {
	case s.Workers == 1 && d >= g.long:
		l.choose(l.workers)
		return
	case s.Workers == 1 && l.nSerial < learnTrials:
		l.serial[l.nSerial] = d
		l.nSerial++
	case s.Workers > 1 && l.nSplit < learnTrials:
		l.split[l.nSplit] = d
		l.nSplit++
	}
	if l.nSerial < learnTrials || l.nSplit < learnTrials {
		return
	}
	choice := 1
	if float64(medianOf(l.split)) <= splitGain*float64(medianOf(l.serial)) {
		choice = l.workers
	}
	l.choose(choice)
}

// choose ends the trials of l with choice (1 or l.workers); learnt.mu is held.
func (l *learning) choose(choice int) { l.choice.Store(int64(l.workers)<<32 | int64(choice)) }

// medianOf returns the median of d (the upper one of an even count).
func medianOf(d [learnTrials]time.Duration) time.Duration {
	slices.Sort(d[:])
	return d[learnTrials/2]
}

// slot returns the slot of work, claiming a free one for it; nil when every slot holds
// another work.
func (t *learnt) slot(work int) *learning {
	h := int((uint64(work) * 0x9E3779B97F4A7C15) >> 58) // 6 bits: learnSlots
	for i := range learnSlots {
		l := &t.slots[(h+i)%learnSlots]
		if l.work.Load() == 0 {
			t.mu.Lock()
			if l.work.Load() == 0 {
				l.work.Store(int64(work))
			}
			t.mu.Unlock()
		}
		if l.work.Load() == int64(work) {
			return l
		}
	}
	return nil
}

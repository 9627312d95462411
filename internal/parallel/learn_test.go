package parallel

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// fixedGrain returns a Grain of 1000 units whose load is not known (no bound on the
// goroutines), on threads threads; the returned function restores the settings.
func fixedGrain(threads int) (*Grain, func()) {
	g := NewGrain(1, func() {})
	g.once.Do(func() {})
	g.min, g.long = 1000, time.Hour
	h := freeCoresHook
	freeCoresHook = func() int { return 0 }
	old := SetThreads(threads)
	return g, func() { freeCoresHook = h; SetThreads(old) }
}

// fakeClock makes Split's clock advance only when the test says; the returned function
// restores the real clock.
func fakeClock() (advance func(time.Duration), restore func()) {
	t := time.Unix(0, 0)
	now = func() time.Time { return t }
	return func(d time.Duration) { t = t.Add(d) }, func() { now = time.Now }
}

// TestSplitLearns checks the choice a Grain learns from timed calls of one work: the split
// is kept when its median is at most splitGain of the serial median, the trials
// alternate in pairs, and once chosen every call runs the chosen way untimed.
func TestSplitLearns(t *testing.T) {
	for _, tc := range []struct {
		serial, split time.Duration
		want          int
	}{
		{100 * time.Microsecond, 150 * time.Microsecond, 1}, // the split costs more than it saves
		{100 * time.Microsecond, 95 * time.Microsecond, 1},  // saves too little
		{100 * time.Microsecond, 90 * time.Microsecond, 2},  // saves splitGain's share
		{100 * time.Microsecond, 55 * time.Microsecond, 2},
	} {
		t.Run(fmt.Sprint(tc.serial, tc.split), func(t *testing.T) {
			g, restore := fixedGrain(2)
			defer restore()
			advance, restoreClock := fakeClock()
			defer restoreClock()
			var kinds []int
			for range 2 * learnTrials {
				s := g.Split(100, 5000)
				if s.slot == nil {
					t.Fatalf("call %d is not a trial", len(kinds))
				}
				kinds = append(kinds, s.Workers)
				// One call far slower than the others: the median ignores it.
				if len(kinds) == 1 {
					advance(time.Second)
				}
				if s.Workers == 1 {
					advance(tc.serial)
				} else {
					advance(tc.split)
				}
				s.Done()
			}
			for i, w := range kinds {
				if want := []int{1, 2}[i/2%2]; w != want {
					t.Fatalf("trial %d ran on %d goroutines, want %d (trials %v)", i, w, want, kinds)
				}
			}
			for range 3 {
				s := g.Split(100, 5000)
				if s.slot != nil || s.Workers != tc.want {
					t.Fatalf("after the trials: Workers %d (trial %v), want %d untimed", s.Workers, s.slot != nil, tc.want)
				}
				s.Done()
			}
			// Another work learns apart.
			if s := g.Split(100, 6000); s.slot == nil {
				t.Fatalf("a call of another work is not a trial")
			}
		})
	}
}

// TestSplitLongCall checks that a serial trial of at least the Grain's long call ends the
// trials with the split, whatever the split trials took.
func TestSplitLongCall(t *testing.T) {
	g, restore := fixedGrain(2)
	defer restore()
	g.long = time.Millisecond
	advance, restoreClock := fakeClock()
	defer restoreClock()
	for call := 0; ; call++ {
		s := g.Split(100, 5000)
		if s.slot == nil {
			if s.Workers != 2 || call != 5 {
				t.Fatalf("untimed after %d calls on %d goroutines, want after 5 (the third serial) on 2", call, s.Workers)
			}
			break
		}
		if s.Workers == 1 {
			advance(time.Duration(call+1) * 300 * time.Microsecond) // the third serial trial takes 1.5 ms
		} else {
			advance(10 * time.Millisecond) // the split trials are slow: no matter
		}
		s.Done()
	}
}

// TestSplitTwoSites checks that two call sites of the same work, called in turn, each
// try both ways.
func TestSplitTwoSites(t *testing.T) {
	g, restore := fixedGrain(2)
	defer restore()
	tried := [2]map[int]int{{}, {}}
	for call := range 2 * learnTrials {
		s := g.Split(100, 5000)
		tried[call%2][s.Workers]++
		s.Done()
	}
	for site, m := range tried {
		if m[1] != learnTrials/2 || m[2] != learnTrials/2 {
			t.Errorf("site %d tried %v, want %d calls of each", site, m, learnTrials/2)
		}
	}
}

// TestSplitNotLearned checks the calls that are never trials: those Workers runs on one
// goroutine, those of at least learnGrains grains, forced splits, and calls of a work no
// slot is left for.
func TestSplitNotLearned(t *testing.T) {
	g, restore := fixedGrain(2)
	defer restore()
	for _, tc := range []struct {
		work, want int
	}{{1999, 1}, {learnGrains * 1000, 2}, {1e9, 2}} {
		if s := g.Split(100, tc.work); s.slot != nil || s.Workers != tc.want {
			t.Errorf("work %d: Workers %d (trial %v), want %d untimed", tc.work, s.Workers, s.slot != nil, tc.want)
		}
	}
	func() {
		defer SetSplitAlways(SetSplitAlways(true))
		if s := g.Split(100, 5000); s.slot != nil || s.Workers != 2 {
			t.Errorf("split always: Workers %d (trial %v), want 2 untimed", s.Workers, s.slot != nil)
		}
	}()
	for work := 2000; work < 2000+learnSlots; work++ {
		g.Split(100, work).Done()
	}
	if s := g.Split(100, 3000); s.slot != nil || s.Workers != 2 {
		t.Errorf("slots full: Workers %d (trial %v), want Workers' 2 untimed", s.Workers, s.slot != nil)
	}
}

// TestSplitRelearns checks that a choice is learned again after relearnAfter calls, and
// when the threads allow another split.
func TestSplitRelearns(t *testing.T) {
	g, restore := fixedGrain(2)
	defer restore()
	advance, restoreClock := fakeClock()
	defer restoreClock()
	learn := func(splitCost time.Duration) {
		for range 2 * learnTrials {
			s := g.Split(100, 5000)
			if s.Workers == 1 {
				advance(100 * time.Microsecond)
			} else {
				advance(splitCost)
			}
			s.Done()
		}
	}
	learn(200 * time.Microsecond)
	if s := g.Split(100, 5000); s.Workers != 1 || s.slot != nil {
		t.Fatalf("on 2 threads: Workers %d (trial %v), want 1 untimed", s.Workers, s.slot != nil)
	}
	for range relearnAfter - 1 {
		if s := g.Split(100, 5000); s.slot != nil {
			t.Fatalf("a trial before relearnAfter calls")
		}
	}
	if s := g.Split(100, 5000); s.slot == nil {
		t.Fatalf("no trial after relearnAfter calls")
	}
	learn(30 * time.Microsecond) // the trial above is left without Done: the choice is still made
	if s := g.Split(100, 5000); s.Workers != 2 || s.slot != nil {
		t.Fatalf("learned again on 2 threads: Workers %d (trial %v), want 2 untimed", s.Workers, s.slot != nil)
	}
	SetThreads(4)
	s := g.Split(100, 5000)
	if s.slot == nil {
		t.Fatalf("on 4 threads: not a trial, want the 4-way split learned anew")
	}
	s.Done()
	learn(30 * time.Microsecond)
	if s := g.Split(100, 5000); s.Workers != 4 || s.slot != nil {
		t.Fatalf("on 4 threads: Workers %d (trial %v), want 4 untimed", s.Workers, s.slot != nil)
	}
}

// TestSplitConcurrent runs trials from several goroutines at once (for the race detector)
// and checks that a choice is made.
func TestSplitConcurrent(t *testing.T) {
	g, restore := fixedGrain(2)
	defer restore()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 4 * learnTrials {
				s := g.Split(100, 5000)
				s.Done()
			}
		})
	}
	wg.Wait()
	if c := g.learnt.slot(5000).choice.Load(); int32(c) == 0 {
		t.Fatalf("no choice after %d calls", 16*learnTrials)
	}
}

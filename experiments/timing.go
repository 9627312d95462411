package experiments

import (
	"context"
	"runtime"
	"time"

	"github.com/nagc-harness/nagc/algorithms"
)

// A config with timing: true (Config.Timing) times fits by the paper's runtime protocol:
// one fit at a time, each paying for its own initialisation, which is timed apart from
// the iterations. Execute then runs one worker with batches of one (in the order of
// interleaveRestarts, as for every config), and before each fit timedInput gives the run
// an input of its own and startApart computes, timed, the initialisation of a method that
// would otherwise count it in its fit time.

// timedInput returns in with a cache of its own, so that a fit timed alone computes its
// initialisation itself instead of finding it computed by an earlier run of the same
// restart (the sweep shares k-means starts between grid points, which makes a fit's
// init_seconds depend on the order runs were executed in). It also collects the garbage
// of the previous fit, so that no collection it owes lands in this fit's time.
func timedInput(in algorithms.Input) algorithms.Input {
	in.Cache = algorithms.NewCache()
	runtime.GC()
	return in
}

// startApart computes into in.Cache, and times, the initialisation of a run whose method
// counts it in its fit time (Result.FitTime) instead of timing it apart, so that the
// record's fit_seconds covers the iterations alone, as NAGC's does, and its
// init_seconds the initialisation: the methods that are algorithms.StartPrecomputer
// (JWNMF with its default k-means start); the fit then finds it in in.Cache. It
// reports false for every other run (NAGC times its own initialisation apart; BAGC,
// METIS and the others have none to take out), and for a run whose initialisation
// failed (the fit then reports the same error, kept by the cache).
func startApart(ctx context.Context, r Run, in algorithms.Input) (time.Duration, bool) {
	m, err := algorithms.New(r.Algorithm, r.Params)
	if err != nil {
		return 0, false
	}
	p, ok := m.(algorithms.StartPrecomputer)
	if !ok {
		return 0, false
	}
	start := time.Now()
	if did, err := p.PrecomputeStart(ctx, in, r.K1, r.Seed); !did || err != nil {
		return 0, false
	}
	return time.Since(start), true
}

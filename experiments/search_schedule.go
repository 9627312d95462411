package experiments

import (
	"container/heap"
	"iter"
	"slices"
	"sync"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/results"
)

// activeSearch is a search that runTogether runs: its rungs as a pulled sequence
// (searchTask.execute suspended at each rung until its fits are recorded) and the fits
// of its current rung not yet recorded.
type activeSearch struct {
	t       *searchTask
	next    func() ([]searchJob, bool)
	stop    func()
	err     error // what execute returned
	pending int
	done    bool
}

// readyFit is a fit waiting for a worker: its search, its job, its estimated cost
// (jobCost) and its place in the order the fits became ready.
type readyFit struct {
	s    *activeSearch
	j    searchJob
	cost float64
	seq  int
}

// readyFits is a heap of the fits waiting for a worker, the largest cost on top, ties
// to the one ready first.
type readyFits []readyFit

func (h readyFits) Len() int { return len(h) }
func (h readyFits) Less(a, b int) bool {
	if h[a].cost != h[b].cost {
		return h[a].cost > h[b].cost
	}
	return h[a].seq < h[b].seq
}
func (h readyFits) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *readyFits) Push(x any)   { *h = append(*h, x.(readyFit)) }
func (h *readyFits) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// fitDone is a fit a worker finished: its record, nil when cancelled.
type fitDone struct {
	f   readyFit
	rec *results.Record
}

// kernelThreads returns the threads the kernels of each fit use when concurrent fits
// are running or waiting on workers: the workers they leave idle shared among them (the
// last fit of a dataset's searches uses every worker's core), at least 1. Records are
// the same for any count (TestSearchKernelThreads pins it through this variable).
var kernelThreads = func(workers, concurrent int) int { return max(1, workers/max(concurrent, 1)) }

// onSearchFitStart, when set (by tests), is called as runTogether hands the fit of job
// j, of estimated cost cost, to a worker, with the jobs then running (j among them).
var onSearchFitStart func(j searchJob, cost float64, running []searchJob)

// runTogether runs the searches tasks (of one dataset) at once on opt.Workers workers,
// recording their fits. Every search goes rung after rung as execute says; the fits of
// the rungs of all of them that are ready wait in one queue, handed out largest
// estimated cost first (jobCost; ties to the one ready first), so that the long fits
// start while short ones are left to fill the other workers, and a worker whose search
// waits for the end of a rung takes another search's fit. The bookkeeping (records,
// cuts, proposals) runs in the caller's goroutine, one search at a time; the workers
// only fit. What runs and every record are the same in any order: a rung is cut only
// once all its fits are recorded. It sets env.stopped when it could not finish them all
// (the limit, or ctx), and returns the first error of recording or of a search. A
// failed fit is recorded and counts as finished: runs are deterministic, so it would
// fail again.
func (env *searchEnv) runTogether(tasks []*searchTask) error {
	workers := max(env.opt.Workers, 1)
	total := 0
	for _, t := range tasks {
		total += t.totalRuns()
	}
	env.concurrent = max(min(workers, total), 1)
	var (
		ready  readyFits
		seq    int
		failed error
	)
	// take asks s for its next rung with fits to make and queues them.
	take := func(s *activeSearch) {
		for !s.done && !env.stopped && failed == nil {
			jobs, ok := s.next()
			if !ok {
				s.done, failed = true, s.err
				return
			}
			todo := env.unrecorded(jobs)
			for _, j := range todo {
				heap.Push(&ready, readyFit{s: s, j: j, cost: env.jobCost(s.t, j), seq: seq})
				seq++
			}
			if s.pending = len(todo); s.pending > 0 {
				return
			}
		}
	}
	work := make(chan readyFit, workers) // at most workers fits are handed out at once
	finished := make(chan fitDone)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				finished <- fitDone{f, env.fit(f.s.t, f.j)}
			}
		}()
	}
	searches := make([]*activeSearch, len(tasks))
	for i, t := range tasks {
		s := &activeSearch{t: t}
		s.next, s.stop = iter.Pull(iter.Seq[[]searchJob](func(yield func([]searchJob) bool) { s.err = t.execute(env, yield) }))
		searches[i] = s
		take(s)
	}
	var running []searchJob
	// handOut gives the idle workers the fits waiting, largest first.
	handOut := func() {
		for len(running) < workers && ready.Len() > 0 && env.ctx.Err() == nil && failed == nil {
			f := heap.Pop(&ready).(readyFit)
			running = append(running, f.j)
			parallel.SetThreads(kernelThreads(workers, len(running)+ready.Len()))
			if onSearchFitStart != nil {
				onSearchFitStart(f.j, f.cost, running)
			}
			work <- f
		}
	}
	for {
		handOut()
		if len(running) == 0 {
			break
		}
		d := <-finished
		running = slices.DeleteFunc(running, func(j searchJob) bool { return j.run.ID == d.f.j.run.ID })
		// The idle worker takes the next fit before the record is written.
		handOut()
		if len(running) > 0 && ready.Len() == 0 { // a worker left idle lends its core
			parallel.SetThreads(kernelThreads(workers, len(running)))
		}
		if d.rec != nil && failed == nil {
			if failed = env.record(d.rec); failed == nil {
				env.latest[d.rec.RunID] = d.rec
			}
		}
		if d.f.s.pending--; d.f.s.pending == 0 && env.ctx.Err() == nil {
			take(d.f.s)
		}
	}
	close(work)
	wg.Wait()
	if env.ctx.Err() != nil || failed != nil {
		env.stopped = true
	}
	for _, s := range searches {
		s.stop() // a search waiting on a rung returns (its yield returns false)
	}
	return failed
}

// jobCost returns the estimated cost of job j of search t, which orders the fits
// handed out (no time prediction): the multiply-adds (algorithms.EstimateWork) of its
// fit, twice with holdout (its held-out fit); for a fit continued from the previous
// rung, those of the iterations it adds, where the method estimates an iteration's.
// Cost O(1).
func (env *searchEnv) jobCost(t *searchTask, j searchJob) float64 {
	shape := algorithms.InputShape(env.inputs[t.ds.Name], t.ds.K1)
	fits := 1.0
	if env.cfg.Holdout > 0 {
		fits = 2
	}
	if its, ok := j.run.Params["iterations"].(int); ok && j.prev != nil {
		if m, err := algorithms.New(j.run.Algorithm, j.run.Params); err == nil {
			if w, ok := algorithms.EstimateIterationWork(m, shape); ok {
				return fits * float64(its-j.prevIters) * w
			}
		}
	}
	return fits * fitCost(j.run.Algorithm, j.run.Params, shape)
}

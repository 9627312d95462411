package experiments

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/results"
)

// runPool executes the jobs todo on opt.Workers workers, batched (see batches), and hands
// each finished run's record to record, one at a time in the caller's goroutine. With
// several workers the batches are split into their own and their held-out fits
// (splitTasks) and handed out longest first (longestFirst). After record's first error
// it discards the records that follow and returns that error once the workers are done.
// Cancelling ctx stops handing out batches; runs in flight return no record.
func runPool(ctx context.Context, cfg *Config, opt Options, p *sweepPlan, todo []job, record func(*results.Record) error) error {
	// Kernels run single-threaded: the pool parallelises across runs.
	defer parallel.SetThreads(parallel.SetThreads(1))
	if opt.Batch < 1 {
		opt.Batch = DefaultBatch
	}
	pl := newPool(cfg, opt, p)
	all := batches(todo, pl.inputs, opt.Batch, !cfg.Timing)
	pl.count(all)
	// One worker (a timing config's too) keeps the plan's order, in which its records are
	// written; its order changes nothing else.
	several := opt.Workers > 1 && !cfg.Timing
	tasks := splitTasks(all, several && cfg.Holdout > 0 && opt.Batch == 1)
	// No more workers than tasks: a worker without one would count, in every fit's
	// memory check, as a fit running beside it.
	if n := max(len(tasks), 1); opt.Workers > n {
		opt.Workers, pl.opt.Workers = n, n
	}
	if several {
		longestFirst(tasks, inputShapes(pl.inputs), opt.Workers, cfg.Holdout > 0)
	}
	queue := make(chan task)
	finished := make(chan *results.Record)
	var wg sync.WaitGroup
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range queue {
				pl.run(ctx, t, finished)
			}
		}()
	}
	go func() {
		defer close(queue)
		for _, t := range tasks {
			select {
			case queue <- t:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(finished) }()

	var err error
	for rec := range finished {
		if err == nil {
			err = record(rec)
		}
	}
	return err
}

// task is what a worker executes: a whole batch (executeBatch), or one part of a batch
// split in two, its runs' own fits or their held-out fits (split then holds what the two
// parts share).
type task struct {
	batch []job
	part  fitPart // mainFits or heldOutFits for a part; allFits for a whole batch
	split *splitBatch
}

// splitBatch is what the two parts of a split batch share: the batch's fits, prepared by
// the part that starts first, and the parts still running; the part that finishes last
// scores the runs.
type splitBatch struct {
	once sync.Once
	bf   *batchFits
	left atomic.Int32
}

// splitTasks returns the tasks of the batches all, in their order: with split, a batch
// that has fits of its own and held-out fits to make becomes two tasks, its own fits then
// its held-out fits, which two workers may execute at once (a run's held-out fit does not
// wait for its own, nor for the same start computed on the other input); every other
// batch is one task. The fits, and so the records, are the same either way.
func splitTasks(all [][]job, split bool) []task {
	tasks := make([]task, 0, len(all))
	for _, b := range all {
		own := slices.ContainsFunc(b, func(j job) bool { return j.prior == nil })
		if !split || !own {
			tasks = append(tasks, task{batch: b, part: allFits})
			continue
		}
		s := &splitBatch{}
		s.left.Store(2)
		tasks = append(tasks, task{batch: b, part: mainFits, split: s}, task{batch: b, part: heldOutFits, split: s})
	}
	return tasks
}

// pool is what the workers of runPool share: each dataset's input and cache, the
// held-out splits, and the batches left per dataset and per held-out split.
type pool struct {
	cfg    *Config
	opt    Options
	graphs map[string]*datasets.Graph
	caches map[string]*algorithms.Cache
	inputs map[string]algorithms.Input
	splits *algorithms.Cache // held-out splits, one per dataset and run seed
	// left counts the batches to do, by dataset and by held-out split: a dataset's caches
	// (its k-means starts, filtered attributes and embeddings, and its held-out splits
	// with theirs) are dropped once its last batch is done, so that the memory of a sweep
	// peaks at that of its largest dataset, not of all of them.
	left map[string]*atomic.Int64
}

// newPool returns the pool of the sweep plan p: an input with its own cache per dataset.
func newPool(cfg *Config, opt Options, p *sweepPlan) *pool {
	pl := &pool{cfg: cfg, opt: opt, graphs: p.graphs, caches: map[string]*algorithms.Cache{},
		inputs: map[string]algorithms.Input{}, splits: algorithms.NewCache(), left: map[string]*atomic.Int64{}}
	for d := range p.graphs {
		pl.caches[d] = newDatasetCache()
	}
	for d, g := range p.graphs {
		pl.inputs[d] = algorithms.Input{Adj: g.Adj, X: g.X, Truth: g.Labels, Cache: pl.caches[d]}
	}
	return pl
}

// count sets the batches left of each dataset and held-out split to those of all.
func (pl *pool) count(all [][]job) {
	for _, b := range all {
		for _, k := range []string{b[0].Dataset, heldOutPrefix(b[0].Dataset, b[0].Seed)} {
			if pl.left[k] == nil {
				pl.left[k] = &atomic.Int64{}
			}
			pl.left[k].Add(1)
		}
	}
}

// run executes task t and sends the records of its batch, once the batch is done, to
// results: a whole batch with executeBatch (a timing config's run timed alone, its
// initialisation apart: startApart); a part of a split batch by fitting its part, the part
// that finishes last scoring the batch's runs. It then drops the held-out split and the
// dataset's caches that no batch left needs.
func (pl *pool) run(ctx context.Context, t task, finished chan<- *results.Record) {
	b := t.batch
	d := b[0].Dataset
	in := pl.inputs[d]
	if t.split != nil {
		s := t.split
		s.once.Do(func() { s.bf = prepareBatch(b, pl.graphs[d], in, pl.cfg, pl.splits, pl.opt.Workers) })
		s.bf.fit(ctx, b[0].K1, b[0].Seed, t.part)
		if s.left.Add(-1) > 0 {
			return // the other part finishes the batch
		}
		for _, rec := range s.bf.records(ctx, b, in, pl.cfg) {
			if rec != nil { // nil: cancelled
				finished <- rec
			}
		}
		pl.batchDone(b)
		return
	}
	var initApart time.Duration
	apart := false
	if pl.cfg.Timing { // batches of one (opt.Batch is 1)
		in = timedInput(in)
		initApart, apart = startApart(ctx, b[0].Run, in)
	}
	for _, rec := range executeBatch(ctx, b, pl.graphs[d], in, pl.cfg, pl.splits, pl.opt.Batch > 1, pl.opt.Workers) {
		if rec == nil { // cancelled
			continue
		}
		if apart && rec.Status == results.StatusDone {
			rec.InitSeconds = initApart.Seconds()
		}
		finished <- rec
	}
	pl.batchDone(b)
}

// batchDone counts batch b done, dropping the held-out split and the dataset's caches
// once no batch left needs them.
func (pl *pool) batchDone(b []job) {
	d := b[0].Dataset
	if pl.left[heldOutPrefix(d, b[0].Seed)].Add(-1) == 0 {
		pl.splits.Forget(heldOutPrefix(d, b[0].Seed))
	}
	if pl.left[d].Add(-1) == 0 {
		pl.caches[d].Forget("")
	}
}

// batches cuts the jobs into the units the workers execute. With chain, jobs of one
// dataset and seed whose runs differ only in their number of iterations form a chain,
// executed as one fit that the shorter ones are read off (see algorithms.FitBatch; a
// timing config's runs are timed alone, so it does not chain them). With size > 1, chains
// whose methods are algorithms.BatchFitter with equal non-empty BatchKey (of the chain's
// first job) form a group, cut in job order into batches of at most size chains; every
// other chain is a batch of its own. Batches come in the order of their first job, so
// the split depends on the jobs, size and chain alone.
func batches(todo []job, inputs map[string]algorithms.Input, size int, chain bool) [][]job {
	var units [][]job
	open := map[string]int{} // chain key → index in units
	for _, j := range todo {
		if chain {
			key := chainKey(j)
			if i, ok := open[key]; ok {
				units[i] = append(units[i], j)
				continue
			}
			open[key] = len(units)
		}
		units = append(units, []job{j})
	}
	var out [][]job
	filled := map[string]int{} // group key → index in out of its batch being filled
	chains := map[int]int{}    // index in out → chains in it
	for _, u := range units {
		j, key := u[0], ""
		if size > 1 {
			if m, err := algorithms.New(j.Algorithm, j.Params); err == nil {
				if b, ok := m.(algorithms.BatchFitter); ok {
					if k := b.BatchKey(inputs[j.Dataset], j.K1); k != "" {
						key = fmt.Sprintf("%s\x00%d\x00%s", j.Dataset, j.Seed, k)
					}
				}
			}
		}
		if i, ok := filled[key]; ok && key != "" && chains[i] < size {
			out[i] = append(out[i], u...)
			chains[i]++
			continue
		}
		filled[key] = len(out)
		chains[len(out)] = 1
		out = append(out, u)
	}
	return out
}

// chainKey returns what a job shares with the jobs it may chain with: its dataset, seed,
// algorithm and parameters other than iterations.
func chainKey(j job) string {
	p := maps.Clone(j.Params)
	delete(p, "iterations")
	return fmt.Sprintf("%s\x00%d\x00%s\x00%s", j.Dataset, j.Seed, j.Algorithm, canonicalParams(p))
}

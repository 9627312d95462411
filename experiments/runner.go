package experiments

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/sparse"
)

// Options control one execution of a config.
type Options struct {
	// ResultsDir is the folder records are appended to (created if missing).
	ResultsDir string
	// Workers is the number of runs executed at once; < 1 means all cores. A config with
	// timing: true (Config.Timing) runs one at a time whatever it says.
	Workers int
	// Shard and Shards select a deterministic 1/Shards slice of the runs (Shard is
	// 0-based). Shards ≤ 1 runs everything.
	Shard, Shards int
	// Progress receives progress reports (nil: none).
	Progress Progress
	// Warn, when set, is told each warning of the readers about the config's datasets
	// (what looks misread: an unsymmetric adjacency, a header row, shifted label ids),
	// once per dataset and warning, before any run starts.
	Warn func(dataset, warning string)
	// Loaded, when set, is given the load report of each of the config's datasets once
	// it is read (and then Warn is not called: the report holds the warnings).
	Loaded func(dataset string, report *datasets.LoadReport)
	// Limit, when positive, stops after that many runs have been executed (for tests and
	// trial runs); the sweep can be resumed later.
	Limit int
	// Batch is the largest number of runs a worker fits together in lockstep (see
	// algorithms.BatchFitter): runs of one dataset and restart whose method batches them
	// (NAGC grid points of equal k2 and iterations, whatever λ, ρ and initialisation)
	// share their passes over the attributes, held-out fits included. Records are the
	// same for any batch size, timings aside. < 1 means DefaultBatch; 1 fits every run
	// on its own (always, for a config with timing: true). Memory grows with the batch: about 2·B fits' factors and work buffers
	// plus 4·(n + m)·B·k2 floats of shared products per worker.
	Batch int
}

// DefaultBatch is the batch size Execute uses when Options.Batch is not set: 1, every
// run on its own. Measured on this project's 2-core machine (the 60 λ×ρ points of one
// restart at k2 = k1 on Citeseer and Cora, held-out fits included, 2 workers), lockstep
// batches of 60 took 1.7–1.8× the wall time and 1.5–1.7× the CPU time of single runs
// (pure-Go and AVX2 kernels alike), with 12× the memory: the products with X are bound by the gathers from each fit's own factors,
// not by reading X, so sharing the pass saves little, and a batch's factors no longer
// stay in cache between the phases of an iteration. Batches pay only where reading X
// dominates; records are the same either way.
const DefaultBatch = 1

// Progress is told about the sweep as it goes.
type Progress interface {
	Start(total, done int)
	Finished(r *Record)
	Stop()
}

// Summary counts what one execution did.
type Summary struct {
	Total, Skipped, Done, Failed int
	Sweep                        string
	Elapsed                      time.Duration
	Interrupted                  bool
	// Failures holds the distinct errors of the failed runs, in the order first seen,
	// each with how many runs it ended and one of them (at most maxFailureKinds).
	Failures []Failure
}

// Failure is one distinct error of a sweep's failed runs.
type Failure struct {
	Error   string // the error, as recorded
	Runs    int    // how many runs ended with it
	Example string // one of them: dataset, row and parameters
}

// maxFailureKinds bounds Summary.Failures.
const maxFailureKinds = 5

// noteFailure counts rec's error among the distinct failures.
func (s *Summary) noteFailure(rec *Record) {
	for i := range s.Failures {
		if s.Failures[i].Error == rec.Error {
			s.Failures[i].Runs++
			return
		}
	}
	if len(s.Failures) < maxFailureKinds {
		s.Failures = append(s.Failures, Failure{Error: rec.Error, Runs: 1,
			Example: fmt.Sprintf("%s, %s %s restart %d", rec.Dataset, strings.Join(rec.Methods, "/"), rec.GridPoint(), rec.Restart)})
	}
}

// Execute runs every run of cfg that the results folder does not yet hold as done,
// appending one record per finished run. It loads each dataset once, runs on a worker
// pool, records failed runs and goes on, and stops cleanly when ctx is cancelled (runs in
// flight are abandoned, finished ones are already on disk). Running it again resumes.
//
// It plans the runs (planSweep), finds those the folder lacks (resumeJobs), records the
// sweep's provenance (newProvenance) and executes them on the pool (runPool).
func Execute(ctx context.Context, cfg *Config, opt Options) (*Summary, error) {
	start := time.Now()
	if opt.Workers < 1 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Timing { // the paper's runtime protocol: one fit at a time (see timing.go)
		opt.Workers, opt.Batch = 1, 1
	}
	if opt.Shards > 1 && (opt.Shard < 0 || opt.Shard >= opt.Shards) {
		return nil, fmt.Errorf("shard %d of %d", opt.Shard+1, opt.Shards)
	}
	p, err := planSweep(cfg, opt)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opt.ResultsDir, 0o755); err != nil {
		return nil, err
	}
	runsPath := filepath.Join(opt.ResultsDir, RunsFile)
	todo, err := resumeJobs(runsPath, p.runs, cfg.Holdout)
	if err != nil {
		return nil, err
	}
	interleaveRestarts(todo, opt.Workers)
	sum := &Summary{Total: len(p.runs), Skipped: len(p.runs) - len(todo), Sweep: newSweepID()}
	if opt.Limit > 0 && len(todo) > opt.Limit {
		todo = todo[:opt.Limit]
	}
	prov := newProvenance(cfg, opt, p, sum.Sweep, start, len(todo))
	if err := appendFile(filepath.Join(opt.ResultsDir, SweepsFile), prov); err != nil {
		return nil, err
	}
	out, err := os.OpenFile(runsPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	if opt.Progress != nil {
		opt.Progress.Start(len(p.runs), sum.Skipped)
		defer opt.Progress.Stop()
	}
	writeErr := runPool(ctx, cfg, opt, p, todo, func(rec *Record) error {
		rec.Sweep = sum.Sweep
		if err := appendJSONLine(out, rec); err != nil {
			return fmt.Errorf("%s: %w", runsPath, err)
		}
		if rec.Status == StatusDone {
			sum.Done++
		} else {
			sum.Failed++
			sum.noteFailure(rec)
		}
		if opt.Progress != nil {
			opt.Progress.Finished(rec)
		}
		return nil
	})
	if err := out.Sync(); err != nil && writeErr == nil {
		writeErr = err
	}
	sum.Elapsed = time.Since(start)
	sum.Interrupted = ctx.Err() != nil
	return sum, writeErr
}

// sweepPlan is what a sweep executes: its datasets, loaded once, and its runs.
type sweepPlan struct {
	loaded []*LoadedDataset
	graphs map[string]*datasets.Graph // by dataset name
	// runs are the runs of opt's shard; total counts the config's runs, every shard's.
	runs  []Run
	total int
}

// planSweep loads the datasets of cfg (telling opt.Warn the readers' warnings) and
// expands the config into the runs of opt's shard.
func planSweep(cfg *Config, opt Options) (*sweepPlan, error) {
	loaded, err := LoadDatasets(cfg)
	if err != nil {
		return nil, err
	}
	if opt.Loaded != nil {
		for _, ld := range loaded {
			rep := ld.Report
			if rep == nil {
				rep = datasets.NewLoadReport(ld.Graph, "synthetic")
			}
			opt.Loaded(ld.Name, rep)
		}
	} else if opt.Warn != nil {
		for _, ld := range loaded {
			if ld.Report != nil {
				for _, w := range ld.Report.Warnings {
					opt.Warn(ld.Name, w)
				}
			}
		}
	}
	graphs := map[string]*datasets.Graph{}
	for _, ld := range loaded {
		graphs[ld.Name] = ld.Graph
	}
	runs, err := cfg.ExpandLoaded(loaded)
	if err != nil {
		return nil, err
	}
	return &sweepPlan{loaded: loaded, graphs: graphs, runs: Shard(runs, opt.Shard, opt.Shards), total: len(runs)}, nil
}

// resumeJobs reads the records of runsPath (dropping a line torn by a crash mid-write)
// and returns the jobs of runs not yet done, in the order of runs. A run is done when its
// latest record is done and has the held-out fit of fraction holdout; a done record
// lacking it becomes a job that makes only that fit (its own fit is kept).
func resumeJobs(runsPath string, runs []Run, holdout float64) ([]job, error) {
	recs, torn, err := ReadRecords(runsPath)
	if err != nil {
		return nil, err
	}
	if torn { // a crash mid-write: drop the partial line before appending
		if _, err := repairTorn(runsPath); err != nil {
			return nil, err
		}
	}
	done := map[string]bool{}
	prior := map[string]*Record{}
	for i := range recs {
		r := &recs[i]
		done[r.RunID] = r.Status == StatusDone && hasHeldOut(r, holdout)
		delete(prior, r.RunID)
		if r.Status == StatusDone && !done[r.RunID] {
			prior[r.RunID] = r
		}
	}
	var todo []job
	for _, r := range runs {
		if !done[r.ID] {
			todo = append(todo, job{Run: r, prior: prior[r.ID]})
		}
	}
	return todo, nil
}

// newProvenance describes the sweep sweep of cfg started at start, with toDo runs to
// execute: the config, the code, the machine and the datasets.
func newProvenance(cfg *Config, opt Options, p *sweepPlan, sweep string, start time.Time, toDo int) Provenance {
	shard := "1/1"
	if opt.Shards > 1 {
		shard = fmt.Sprintf("%d/%d", opt.Shard+1, opt.Shards)
	}
	prov := Provenance{
		Sweep: sweep, Config: cfg.File, ConfigHash: cfg.Hash, Name: cfg.Name,
		GitCommit: gitCommit(), GoVersion: runtime.Version(), Host: hostname(), CPU: cpuModel(),
		Started: start.UTC(), Workers: opt.Workers, Shard: shard, RunsTotal: p.total, RunsToDo: toDo,
		Compare: cfg.Compare, Timing: cfg.Timing, Figures: cfg.Figures,
	}
	for _, ld := range p.loaded {
		st := ld.Graph.Stats()
		st.Name, st.K = ld.Name, ld.K1 // for a graph without labels, the config's k1
		prov.Datasets = append(prov.Datasets, st)
		prov.Sources = append(prov.Sources, DatasetSource{Name: ld.Name, Identity: ld.Identity, K1: ld.K1, Spec: ld.Spec, Load: ld.Report})
	}
	return prov
}

// runPool executes the jobs todo on opt.Workers workers, batched (see batches), and
// hands each finished run's record to record, one at a time in the caller's goroutine.
// After record's first error it discards the records that follow and returns that
// error once the workers are done. Cancelling ctx stops handing out batches; runs in
// flight return no record.
func runPool(ctx context.Context, cfg *Config, opt Options, p *sweepPlan, todo []job, record func(*Record) error) error {
	// Kernels run single-threaded: the pool parallelises across runs.
	defer sparse.SetThreads(sparse.SetThreads(1))
	if opt.Batch < 1 {
		opt.Batch = DefaultBatch
	}
	pl := newPool(cfg, opt, p)
	all := batches(todo, pl.inputs, opt.Batch, !cfg.Timing)
	pl.count(all)
	jobs := make(chan []job)
	results := make(chan *Record)
	var wg sync.WaitGroup
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range jobs {
				pl.run(ctx, b, results)
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, b := range all {
			select {
			case jobs <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	var err error
	for rec := range results {
		if err == nil {
			err = record(rec)
		}
	}
	return err
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
		pl.caches[d] = algorithms.NewCache()
	}
	for d, g := range p.graphs {
		pl.inputs[d] = algorithms.Input{Adj: g.Adj, X: g.X, XDense: g.XDense, Truth: g.Labels, Cache: pl.caches[d]}
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

// run executes batch b (executeBatch) and sends its records to results: a timing
// config's run is timed alone, its initialisation apart (startApart). It then drops the
// held-out split and the dataset's caches that no batch left needs.
func (pl *pool) run(ctx context.Context, b []job, results chan<- *Record) {
	d := b[0].Dataset
	in := pl.inputs[d]
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
		if apart && rec.Status == StatusDone {
			rec.InitSeconds = initApart.Seconds()
		}
		results <- rec
	}
	if pl.left[heldOutPrefix(d, b[0].Seed)].Add(-1) == 0 {
		pl.splits.Forget(heldOutPrefix(d, b[0].Seed))
	}
	if pl.left[d].Add(-1) == 0 {
		pl.caches[d].Forget("")
	}
}

// job is a run to execute; prior, when set, is its done record, which lacks only the
// held-out fit.
type job struct {
	Run
	prior *Record
}

// hasHeldOut reports whether r carries the held-out fit of fraction holdout (always true
// for holdout 0).
func hasHeldOut(r *Record, holdout float64) bool {
	if holdout == 0 {
		return true
	}
	_, ok := r.Metrics[MetricHeldOut]
	return ok && r.Holdout == holdout
}

// heldOutPrefix is the start of the cache keys of the held-out splits of dataset for run
// seed runSeed (one split per fraction held out).
func heldOutPrefix(dataset string, runSeed uint64) string {
	return fmt.Sprintf("%s\x00%d\x00", dataset, HeldOutSeed(runSeed))
}

// heldOutInput is a dataset with part of its edges held out: the input the method is
// fitted on and the held-out edges it is scored on.
type heldOutInput struct {
	in   algorithms.Input
	test *sparse.CSR
}

// HeldOutSeed returns the seed of the held-out split used with run seed seed: all grid
// points of one restart share the split.
func HeldOutSeed(seed uint64) uint64 {
	h := sha256.New()
	fmt.Fprintf(h, "nagc-holdout\x00%d", seed)
	return binary.LittleEndian.Uint64(h.Sum(nil))
}

// heldOutSplit draws the split of g's edges that the held-out fit of a run with seed
// runSeed uses, and the key that identifies it among a sweep's splits.
func heldOutSplit(g *datasets.Graph, dataset string, holdout float64, runSeed uint64) (key string, split func() (train, test *sparse.CSR, err error)) {
	seed := HeldOutSeed(runSeed)
	return fmt.Sprintf("%s%v", heldOutPrefix(dataset, runSeed), holdout), func() (*sparse.CSR, *sparse.CSR, error) {
		return datasets.HoldOutEdges(g.Adj, holdout, seed)
	}
}

// interleaveRestarts orders runs by dataset, then by groups of `group` restarts (0…group−1,
// then group…2·group−1, …), keeping the config's order within a group: row, grid point,
// restart. Execute does this for every config with group = the number of workers:
// records do not depend on the order; a restart's held-out split (with the filtered
// attributes and embeddings its cache holds) can be dropped once its runs are done,
// instead of every restart's staying in memory to the dataset's end; and the workers,
// taking runs in turn, mostly work on different restarts, so that one seldom waits for
// a start or filtered matrix the other is computing. A timing config runs one worker,
// so its rows are timed side by side, restart after restart, and a change in the
// machine's load while they run (another process starting or stopping) falls on every
// row alike rather than on the rows timed last.
func interleaveRestarts(todo []job, group int) {
	group = max(group, 1)
	dataset := map[string]int{}
	for _, j := range todo {
		if _, ok := dataset[j.Dataset]; !ok {
			dataset[j.Dataset] = len(dataset)
		}
	}
	sort.SliceStable(todo, func(a, b int) bool {
		if da, db := dataset[todo[a].Dataset], dataset[todo[b].Dataset]; da != db {
			return da < db
		}
		return todo[a].Restart/group < todo[b].Restart/group
	})
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

// present returns the entries of idx that are not −1.
func present(idx []int) []int {
	var out []int
	for _, i := range idx {
		if i >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// executeBatch executes the jobs of one batch (one dataset and seed; see batches): the
// fits of the runs without a record and, when the config holds edges out, every run's
// held-out fit are given to algorithms.FitBatch (all together in lockstep, else by input:
// the batch is then one chain of fits that differ only in their iterations), then each
// run is scored as if it had run alone. It returns each job's record, nil where ctx was
// cancelled.
// Each fit's estimated peak memory, times the workers that may run such fits at once
// (concurrent), is checked against the memory budget first: a fit that would not fit
// is recorded as failed with the refusal, without allocating.
func executeBatch(ctx context.Context, batch []job, g *datasets.Graph, in algorithms.Input, cfg *Config, splits *algorithms.Cache, lockstep bool, concurrent int) []*Record {
	var sp *heldOutInput
	var splitErr error
	if cfg.Holdout > 0 {
		sp, splitErr = heldOutOf(g, batch[0], cfg.Holdout, splits)
	}
	bf := newBatchFits(batch, in, sp, concurrent)
	bf.fit(ctx, batch[0].K1, batch[0].Seed, lockstep)
	recs := make([]*Record, len(batch))
	if ctx.Err() != nil {
		return recs
	}
	for i, j := range batch {
		recs[i] = bf.record(i, j, in, cfg, sp, splitErr)
	}
	return recs
}

// heldOutOf returns the held-out split of g (fraction holdout) that the runs of j's
// dataset and seed share, drawn once per sweep (splits caches it) with the input the
// held-out fits are fitted on.
func heldOutOf(g *datasets.Graph, j job, holdout float64, splits *algorithms.Cache) (*heldOutInput, error) {
	key, split := heldOutSplit(g, j.Dataset, holdout, j.Seed)
	v, err := splits.Do(key, func() (any, error) {
		train, test, err := split()
		if err != nil {
			return nil, err
		}
		// Only the held-out fit's labels are scored: no objective after each iteration.
		hin := algorithms.Input{Adj: train, X: g.X, XDense: g.XDense, Truth: g.Labels, Cache: algorithms.NewCache(), NoObjective: true}
		return &heldOutInput{in: hin, test: test}, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*heldOutInput), nil
}

// batchFits are the fits of one batch: for job i, its own fit fits[mainFit[i]] (−1 when
// it has a record already) and its held-out fit fits[heldFit[i]] (−1 without held-out
// split), or the error methodErr[i] of building its method or checking its memory;
// res and errs receive the fits' results.
type batchFits struct {
	fits             []algorithms.BatchFit
	mainFit, heldFit []int
	methodErr        []error
	res              []*algorithms.Result
	errs             []error
}

// newBatchFits builds the fits of the jobs of batch on in and, with sp, on its held-out
// input, checking each fit's memory for concurrent workers (algorithms.CheckMemory).
func newBatchFits(batch []job, in algorithms.Input, sp *heldOutInput, concurrent int) *batchFits {
	bf := &batchFits{mainFit: make([]int, len(batch)), heldFit: make([]int, len(batch)), methodErr: make([]error, len(batch))}
	for i, j := range batch {
		bf.mainFit[i], bf.heldFit[i] = -1, -1
		m, err := algorithms.New(j.Algorithm, j.Params)
		if err == nil {
			err = algorithms.CheckMemory(m, in, j.K1, concurrent)
		}
		if err != nil {
			bf.methodErr[i] = err
			continue
		}
		if j.prior == nil {
			bf.mainFit[i] = len(bf.fits)
			bf.fits = append(bf.fits, algorithms.BatchFit{Method: m, In: in})
		}
		if sp != nil {
			bf.heldFit[i] = len(bf.fits)
			bf.fits = append(bf.fits, algorithms.BatchFit{Method: m, In: sp.in})
		}
	}
	return bf
}

// fit runs the fits through algorithms.FitBatch with k1 clusters and seed: all of them
// together in lockstep; else the batch is one chain (see batches), whose main fits go
// together and its held-out fits together, each set one fit that the shorter ones are
// read off. A panic fails every fit of its call.
func (bf *batchFits) fit(ctx context.Context, k1 int, seed uint64, lockstep bool) {
	var calls [][]int
	if lockstep {
		calls = [][]int{make([]int, len(bf.fits))}
		for i := range bf.fits {
			calls[0][i] = i
		}
	} else {
		calls = [][]int{present(bf.mainFit), present(bf.heldFit)}
	}
	bf.res, bf.errs = make([]*algorithms.Result, len(bf.fits)), make([]error, len(bf.fits))
	for _, idx := range calls {
		if len(idx) == 0 {
			continue
		}
		sub := make([]algorithms.BatchFit, len(idx))
		for n, f := range idx {
			sub[n] = bf.fits[f]
		}
		if p := recovered(func() {
			r, e := algorithms.FitBatch(ctx, k1, seed, sub)
			for n, f := range idx {
				bf.res[f], bf.errs[f] = r[n], e[n]
			}
		}); p != nil {
			for _, f := range idx {
				bf.res[f], bf.errs[f] = nil, p
			}
		}
	}
}

// record returns the record of job j, the batch's i-th: its prior record, or its fit
// scored on in (scoreFit), with the held-out fit's score (scoreHeldOut on sp) when the
// config holds edges out; a failed fit, method or split (splitErr) fails the record.
func (bf *batchFits) record(i int, j job, in algorithms.Input, cfg *Config, sp *heldOutInput, splitErr error) *Record {
	var rec *Record
	switch {
	case j.prior != nil:
		cp := *j.prior
		cp.Metrics = maps.Clone(j.prior.Metrics)
		rec = &cp
	case bf.methodErr[i] != nil:
		rec = newRecord(j.Run).markFailed(bf.methodErr[i])
	default:
		rec = newRecord(j.Run)
		f := bf.mainFit[i]
		if p := recovered(func() { rec = scoreFit(rec, bf.res[f], bf.errs[f], in, cfg.Metrics) }); p != nil {
			rec.markFailed(p)
		}
	}
	if rec.Status != StatusDone || cfg.Holdout <= 0 {
		return rec
	}
	switch {
	case splitErr != nil:
		rec.markFailed(fmt.Errorf("held-out fit: %w", splitErr))
	case bf.methodErr[i] != nil:
		rec.markFailed(fmt.Errorf("held-out fit: %w", bf.methodErr[i]))
	default:
		f := bf.heldFit[i]
		if p := recovered(func() { scoreHeldOut(rec, bf.res[f], bf.errs[f], sp.test, cfg.Holdout) }); p != nil {
			rec.markFailed(fmt.Errorf("held-out fit: %w", p))
		}
	}
	return rec
}

// recovered runs fn and returns the panic it raised, as an error with its stack, or nil.
func recovered(fn func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	fn()
	return nil
}

// scoreHeldOut adds to rec the held-out fit's result: the clustering's modularity on the
// held-out edges test (MetricHeldOut), or marks rec failed.
func scoreHeldOut(rec *Record, res *algorithms.Result, err error, test *sparse.CSR, holdout float64) {
	fail := func(err error) { rec.markFailed(fmt.Errorf("held-out fit: %w", err)) }
	if err != nil {
		fail(err)
		return
	}
	q, err := metrics.Modularity(test, res.Labels)
	if err != nil {
		fail(err)
		return
	}
	if math.IsNaN(q) || math.IsInf(q, 0) {
		fail(fmt.Errorf("metric %s is %v", MetricHeldOut, q))
		return
	}
	rec.Metrics[MetricHeldOut] = q
	rec.Holdout = holdout
	rec.HeldOutLabels = EncodeLabels(res.Labels)
	rec.Finished = time.Now().UTC()
}

// markFailed turns rec into the record of a failed run (no metrics, no loss curve) and
// returns it.
func (rec *Record) markFailed(err error) *Record {
	rec.Status, rec.Error = StatusFailed, err.Error()
	rec.Metrics, rec.Objective, rec.FinalObjective, rec.Flags = nil, nil, nil, nil
	rec.Finished = time.Now().UTC()
	return rec
}

// newRecord returns the record of run r before its fit.
func newRecord(r Run) *Record {
	return &Record{
		RunID: r.ID, Dataset: r.Dataset, Methods: r.Methods, Algorithm: r.Algorithm,
		Params: r.Params, K1: r.K1, Restart: r.Restart, Seed: r.Seed, TimedAlone: r.TimedAlone,
	}
}

// execute fits one run on its own and scores it. It returns nil when ctx was cancelled
// mid-run.
func execute(ctx context.Context, r Run, in algorithms.Input, want []string) *Record {
	return executeBatch(ctx, []job{{Run: r}}, nil, in, &Config{Metrics: want}, nil, false, 1)[0]
}

// scoreFit fills rec from the result of its fit (res, err) on in: timings, loss curve,
// the metrics want and the labels; or marks it failed. It returns rec.
func scoreFit(rec *Record, res *algorithms.Result, err error, in algorithms.Input, want []string) *Record {
	fail := rec.markFailed
	if err != nil {
		return fail(err)
	}
	rec.Iterations = res.Iterations
	rec.FitSeconds = res.FitTime.Seconds()
	rec.InitSeconds = res.InitTime.Seconds()
	rec.InitCached = res.InitCached
	rec.BatchSize = res.BatchSize
	rec.PrefixOf = res.PrefixOf
	rec.Info = res.Info
	if len(res.Objective) > 0 {
		for _, v := range res.Objective {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fail(fmt.Errorf("objective diverged (%v)", v))
			}
		}
		rec.Objective = res.Objective
		last := res.Objective[len(res.Objective)-1]
		rec.FinalObjective = &last
	}
	scored := in.X
	if in.XDense != nil { // the attribute measures read sparse rows: left out for dense ones
		scored = datasets.NoColumns(in.N())
	}
	scores, err := metrics.Evaluate(in.Truth, res.Labels, in.Adj, scored)
	if err != nil {
		return fail(err)
	}
	all := scores.Named()
	rec.Metrics = map[string]float64{}
	for _, k := range want {
		v, ok := all[k]
		if !ok {
			continue // a label-reading metric of a graph without labels: absent, not 0
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fail(fmt.Errorf("metric %s is %v", k, v))
		}
		rec.Metrics[k] = v
	}
	flagged, err := flagMetrics(in.Truth, res.Labels, res.Flags, slices.Contains(want, "ari"))
	if err != nil {
		return fail(err)
	}
	for k, v := range flagged {
		rec.Metrics[k] = v
	}
	if len(res.Flags) > 0 {
		rec.Flags = make(map[string]string, len(res.Flags))
		for name, mask := range res.Flags {
			rec.Flags[name] = EncodeFlags(mask)
		}
	}
	rec.Labels = EncodeLabels(res.Labels)
	rec.Status = StatusDone
	rec.Finished = time.Now().UTC()
	return rec
}

func appendFile(path string, v any) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if err := appendJSONLine(f, v); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func newSweepID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "unknown"
	}
	return h
}

// cpuModel returns the processor model and core count, for the runtime table.
func cpuModel() string {
	model := runtime.GOARCH
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "model name") {
				if _, v, ok := strings.Cut(line, ":"); ok {
					model = strings.TrimSpace(v)
				}
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d cores", model, runtime.NumCPU())
}

// ErrInterrupted is returned by callers when a sweep stopped on a signal.
var ErrInterrupted = errors.New("interrupted: finished runs are recorded; run the same command again to resume")

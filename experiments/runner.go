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
	"strings"
	"sync"
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
	// Workers is the number of runs executed at once; < 1 means all cores.
	Workers int
	// Shard and Shards select a deterministic 1/Shards slice of the runs (Shard is
	// 0-based). Shards ≤ 1 runs everything.
	Shard, Shards int
	// Progress receives progress reports (nil: none).
	Progress Progress
	// Limit, when positive, stops after that many runs have been executed (for tests and
	// trial runs); the sweep can be resumed later.
	Limit int
}

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
func Execute(ctx context.Context, cfg *Config, opt Options) (*Summary, error) {
	start := time.Now()
	if opt.Workers < 1 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Shards > 1 && (opt.Shard < 0 || opt.Shard >= opt.Shards) {
		return nil, fmt.Errorf("shard %d of %d", opt.Shard+1, opt.Shards)
	}
	loaded, err := LoadDatasets(cfg)
	if err != nil {
		return nil, err
	}
	graphs := map[string]*datasets.Graph{}
	for _, ld := range loaded {
		graphs[ld.Name] = ld.Graph
	}
	runs, err := cfg.ExpandLoaded(loaded)
	if err != nil {
		return nil, err
	}
	total := len(runs)
	runs = Shard(runs, opt.Shard, opt.Shards)

	if err := os.MkdirAll(opt.ResultsDir, 0o755); err != nil {
		return nil, err
	}
	runsPath := filepath.Join(opt.ResultsDir, RunsFile)
	recs, torn, err := ReadRecords(runsPath)
	if err != nil {
		return nil, err
	}
	if torn { // a crash mid-write: drop the partial line before appending
		if _, err := repairTorn(runsPath); err != nil {
			return nil, err
		}
	}
	// A run is done when its latest record is done and has the held-out fit the config
	// asks for; a done record lacking it gets only that fit (its own fit is kept).
	done := map[string]bool{}
	prior := map[string]*Record{}
	for i := range recs {
		r := &recs[i]
		done[r.RunID] = r.Status == StatusDone && hasHeldOut(r, cfg.Holdout)
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
	sum := &Summary{Total: len(runs), Skipped: len(runs) - len(todo), Sweep: newSweepID()}
	if opt.Limit > 0 && len(todo) > opt.Limit {
		todo = todo[:opt.Limit]
	}

	shard := "1/1"
	if opt.Shards > 1 {
		shard = fmt.Sprintf("%d/%d", opt.Shard+1, opt.Shards)
	}
	prov := Provenance{
		Sweep: sum.Sweep, Config: cfg.File, ConfigHash: cfg.Hash, Name: cfg.Name,
		GitCommit: gitCommit(), GoVersion: runtime.Version(), Host: hostname(), CPU: cpuModel(),
		Started: start.UTC(), Workers: opt.Workers, Shard: shard, RunsTotal: total, RunsToDo: len(todo),
		Compare: cfg.Compare,
	}
	for _, ld := range loaded {
		st := ld.Graph.Stats()
		st.Name, st.K = ld.Name, ld.K1 // for a graph without labels, the config's k1
		prov.Datasets = append(prov.Datasets, st)
		prov.Sources = append(prov.Sources, DatasetSource{Name: ld.Name, Identity: ld.Identity, K1: ld.K1, Spec: ld.Spec})
	}
	if err := appendFile(filepath.Join(opt.ResultsDir, SweepsFile), prov); err != nil {
		return nil, err
	}
	out, err := os.OpenFile(runsPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer out.Close()

	// Kernels run single-threaded: the pool parallelises across runs.
	defer sparse.SetThreads(sparse.SetThreads(1))
	caches := map[string]*algorithms.Cache{}
	for d := range graphs {
		caches[d] = algorithms.NewCache()
	}
	splits := algorithms.NewCache() // held-out splits, one per dataset and run seed
	if opt.Progress != nil {
		opt.Progress.Start(len(runs), sum.Skipped)
		defer opt.Progress.Stop()
	}

	jobs := make(chan job)
	results := make(chan *Record)
	var wg sync.WaitGroup
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				r := j.Run
				g := graphs[r.Dataset]
				in := algorithms.Input{Adj: g.Adj, X: g.X, Truth: g.Labels, Cache: caches[r.Dataset]}
				rec := j.prior
				if rec == nil {
					rec = execute(ctx, r, in, cfg.Metrics)
				} else {
					cp := *rec
					cp.Metrics = maps.Clone(rec.Metrics)
					rec = &cp
				}
				if rec != nil && rec.Status == StatusDone && cfg.Holdout > 0 {
					rec = executeHeldOut(ctx, r, rec, g, cfg.Holdout, splits)
				}
				if rec == nil { // cancelled
					continue
				}
				rec.Sweep = sum.Sweep
				results <- rec
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, r := range todo {
			select {
			case jobs <- r:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	var writeErr error
	for rec := range results {
		if writeErr != nil {
			continue
		}
		if err := appendJSONLine(out, rec); err != nil {
			writeErr = fmt.Errorf("%s: %w", runsPath, err)
			continue
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
	}
	if err := out.Sync(); err != nil && writeErr == nil {
		writeErr = err
	}
	sum.Elapsed = time.Since(start)
	sum.Interrupted = ctx.Err() != nil
	return sum, writeErr
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
	return fmt.Sprintf("%s/%v/%d", dataset, holdout, seed), func() (*sparse.CSR, *sparse.CSR, error) {
		return datasets.HoldOutEdges(g.Adj, holdout, seed)
	}
}

// executeHeldOut fits run r again on g with the fraction holdout of its edges held out and
// adds the clustering's modularity on the held-out edges to rec (MetricHeldOut), or marks
// rec failed. splits caches the split and the preprocessing of each (dataset, seed). It
// returns nil when ctx was cancelled mid-run.
func executeHeldOut(ctx context.Context, r Run, rec *Record, g *datasets.Graph, holdout float64, splits *algorithms.Cache) (out *Record) {
	fail := func(err error) *Record { return rec.markFailed(fmt.Errorf("held-out fit: %w", err)) }
	defer func() {
		if p := recover(); p != nil {
			out = fail(fmt.Errorf("panic: %v\n%s", p, debug.Stack()))
		}
	}()
	key, split := heldOutSplit(g, r.Dataset, holdout, r.Seed)
	v, err := splits.Do(key, func() (any, error) {
		train, test, err := split()
		if err != nil {
			return nil, err
		}
		in := algorithms.Input{Adj: train, X: g.X, Truth: g.Labels, Cache: algorithms.NewCache()}
		return &heldOutInput{in: in, test: test}, nil
	})
	if err != nil {
		return fail(err)
	}
	sp := v.(*heldOutInput)
	m, err := algorithms.New(r.Algorithm, r.Params)
	if err != nil {
		return fail(err)
	}
	res, err := m.Fit(ctx, sp.in, r.K1, r.Seed)
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fail(err)
	}
	q, err := metrics.Modularity(sp.test, res.Labels)
	if err != nil {
		return fail(err)
	}
	if math.IsNaN(q) || math.IsInf(q, 0) {
		return fail(fmt.Errorf("metric %s is %v", MetricHeldOut, q))
	}
	rec.Metrics[MetricHeldOut] = q
	rec.Holdout = holdout
	rec.HeldOutLabels = EncodeLabels(res.Labels)
	rec.Finished = time.Now().UTC()
	return rec
}

// markFailed turns rec into the record of a failed run (no metrics, no loss curve) and
// returns it.
func (rec *Record) markFailed(err error) *Record {
	rec.Status, rec.Error = StatusFailed, err.Error()
	rec.Metrics, rec.Objective, rec.FinalObjective = nil, nil, nil
	rec.Finished = time.Now().UTC()
	return rec
}

// execute fits one run and scores it. It returns nil when ctx was cancelled mid-run.
func execute(ctx context.Context, r Run, in algorithms.Input, want []string) (rec *Record) {
	rec = &Record{
		RunID: r.ID, Dataset: r.Dataset, Methods: r.Methods, Algorithm: r.Algorithm,
		Params: r.Params, K1: r.K1, Restart: r.Restart, Seed: r.Seed,
	}
	fail := rec.markFailed
	defer func() {
		if p := recover(); p != nil {
			rec = fail(fmt.Errorf("panic: %v\n%s", p, debug.Stack()))
		}
	}()
	m, err := algorithms.New(r.Algorithm, r.Params)
	if err != nil {
		return fail(err)
	}
	res, err := m.Fit(ctx, in, r.K1, r.Seed)
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fail(err)
	}
	rec.Iterations = res.Iterations
	rec.FitSeconds = res.FitTime.Seconds()
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
	scores, err := metrics.Evaluate(in.Truth, res.Labels, in.Adj, in.X)
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

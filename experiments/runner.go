package experiments

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/results"
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
	// SeveralK1 records runs of several numbers of clusters into one folder on purpose
	// (auto's choice of k): a recorded run of another k1 than the config's is then not
	// refused as another population of its row (see checkPopulations).
	SeveralK1 bool
	// chain, when set, makes the execution a share of a chained sweep (ExecuteShare).
	chain *rungShare
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
	Finished(r *results.Record)
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
func (s *Summary) noteFailure(rec *results.Record) {
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
	if err := checkPopulations(cfg, p.all, opt.ResultsDir, opt.SeveralK1); err != nil {
		return nil, err
	}
	runsPath := filepath.Join(opt.ResultsDir, results.RunsFile)
	todo, err := resumeJobs(runsPath, p.runs, cfg.Holdout)
	if err != nil {
		return nil, err
	}
	if opt.chain != nil {
		todo = opt.chain.unrecordedRuns(todo)
	}
	for i := range todo {
		todo[i].resultsDir = opt.ResultsDir
	}
	interleaveRestarts(todo, opt.Workers)
	// A search's runs count as a grid's: those of its plan in this slice, and those of
	// them recorded.
	searchTotal, searchDone := searchRunCounts(p, opt, runsPath)
	if opt.chain != nil {
		if searchTotal, searchDone, err = shareSearchCounts(ctx, cfg, opt, p, runsPath); err != nil {
			return nil, err
		}
	}
	sum := &Summary{Total: len(p.runs) + searchTotal, Skipped: len(p.runs) - len(todo) + searchDone, Sweep: newSweepID()}
	if opt.Limit > 0 && len(todo) > opt.Limit {
		todo = todo[:opt.Limit]
	}
	prov := newProvenance(cfg, opt, p, sum.Sweep, start, len(todo))
	if err := appendFile(filepath.Join(opt.ResultsDir, results.SweepsFile), prov); err != nil {
		return nil, err
	}
	out, err := os.OpenFile(runsPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	if opt.Progress != nil {
		opt.Progress.Start(sum.Total, sum.Skipped)
		defer opt.Progress.Stop()
	}
	write := func(rec *results.Record) error {
		rec.Sweep, rec.Config = sum.Sweep, cfg.ShortName()
		if err := results.AppendLine(out, rec); err != nil {
			return fmt.Errorf("%s: %w", runsPath, err)
		}
		return nil
	}
	record := func(rec *results.Record) error {
		if err := write(rec); err != nil {
			return err
		}
		if rec.Status == results.StatusDone {
			sum.Done++
		} else {
			sum.Failed++
			sum.noteFailure(rec)
		}
		if opt.Progress != nil {
			opt.Progress.Finished(rec)
		}
		return nil
	}
	writeErr := runPool(ctx, cfg, opt, p, todo, record)
	if left := opt.Limit - len(todo); writeErr == nil && ctx.Err() == nil && (opt.Limit <= 0 || left > 0) {
		if opt.Limit <= 0 {
			left = -1
		}
		writeErr = runSearches(ctx, cfg, opt, p, left, record, write)
	}
	if err := out.Sync(); err != nil && writeErr == nil {
		writeErr = err
	}
	sum.Elapsed = time.Since(start)
	sum.Interrupted = ctx.Err() != nil
	return sum, writeErr
}

// appendFile appends v as one JSON line to the file at path, creating it if missing.
func appendFile(path string, v any) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if err := results.AppendLine(f, v); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ErrInterrupted is returned by callers when a sweep stopped on a signal.
var ErrInterrupted = errors.New("interrupted: finished runs are recorded; run the same command again to resume")

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/runbar"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/slurm"
)

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const usageLine = "run CONFIG|NAME [--results DIR] [--workers N] [--shard I/N|auto] [--limit N] [--batch B] [--dry-run]\n\nCONFIG is a YAML file; NAME a shipped config (`nagc configs list`)"
	fs := newFlagSet("run", usageLine, stderr)
	resultsDir := fs.String("results", "", "results folder (default results/<config name>, and results/<config name>/shards/I-of-N for --shard I/N)")
	workers := fs.Int("workers", 0, "runs executed at once (default: $SLURM_CPUS_PER_TASK in a Slurm job, else all cores)")
	shard := fs.String("shard", "", "run only slice I of N (1 ≤ I ≤ N), for sharing a sweep between machines, each into its own results folder;\n\"auto\" takes I and N from the Slurm job array this runs in")
	limit := fs.Int("limit", 0, "stop after this many runs (resume later)")
	batch := fs.Int("batch", 0, fmt.Sprintf("runs of one dataset and restart fitted together in lockstep (same records for any value; default %d)", experiments.DefaultBatch))
	precision := fs.String("precision", "", "precision of the rows whose method has the option (nagc, kmeans, sgc-kmeans): default (float64) or fast (float32 with FMA; recorded, so other grid points); replaces the config's precision")
	from := fs.String("from", "", "with --shard: run only what the chained results folder `DIR` lacks, every search's current rung split among the shards (the tasks of nagc slurm --rungs)")
	dryRun := fs.Bool("dry-run", false, "print what each search of the config executes (rungs, fits, iterations) and run nothing")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the sweep to `FILE` (read it with: go tool pprof FILE)")
	in := addInputFlags(fs)
	arg, err := parseOneArg(fs, args)
	if err != nil {
		return err
	}
	if err := in.apply(); err != nil {
		return err
	}
	if *workers < 0 {
		return fmt.Errorf("--workers %d: give the number of runs to execute at once, or 0 for one per core", *workers)
	}
	if *limit < 0 {
		return fmt.Errorf("--limit %d: give the number of runs after which to stop, or 0 for no limit", *limit)
	}
	cfg, err := experiments.OpenConfig(arg)
	if err != nil {
		return err
	}
	if err := experiments.WritePrograms(stdout, cfg); err != nil {
		return err
	}
	if len(cfg.Programs()) > 0 {
		if recs, err := results.Load(*resultsDir); err == nil { // none yet: nothing to compare
			if err := experiments.WriteProgramChanges(stdout, cfg, recs); err != nil {
				return err
			}
		}
	}
	if *precision != "" {
		if err := cfg.SetPrecision(*precision); err != nil {
			return fmt.Errorf("--precision %q: give default or fast", *precision)
		}
	}
	in.configure(cfg)
	if *dryRun {
		return writeDryRun(stdout, cfg)
	}
	if b, _ := memory.ParseSize(cfg.MaxMemory); b > 0 && *in.maxMemory == "" {
		setMemoryBudget(b) // the config's max_memory, where --max-memory does not override it
	}
	opt := experiments.Options{ResultsDir: *resultsDir, Workers: *workers, Limit: *limit, Batch: *batch}
	if opt.Workers == 0 {
		opt.Workers = slurm.CPUsPerTask(os.Getenv)
	}
	if *shard != "" {
		if opt.Shard, opt.Shards, err = slurm.ParseShard(*shard, os.Getenv); err != nil {
			return err
		}
	}
	if *from != "" && opt.Shards == 0 {
		return fmt.Errorf("--from %s: give the share with --shard I/N", *from)
	}
	if cfg.Timing && opt.Shards > 1 {
		return fmt.Errorf("%s sets timing: true: its fits are timed one at a time on one machine, so it is not split into shards; run it without --shard", cfg.File)
	}
	if opt.ResultsDir == "" {
		opt.ResultsDir = filepath.Join("results", cfg.ShortName())
		if opt.Shards > 1 { // each shard its own folder: one writer per folder
			opt.ResultsDir = results.ShardDir(opt.ResultsDir, opt.Shard+1, opt.Shards)
		}
	}
	lock, err := results.LockAppend(opt.ResultsDir)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if cfg.Timing {
		fmt.Fprintf(stdout, "%s sets timing: true: its runs execute one at a time (whatever --workers and --batch say), each computing its own initialisation, to time them\n", cfg.File)
	}
	opt.Progress = runbar.PauseAfter(ctx, runbar.New(stderr), os.Getenv, stderr)
	opt.Loaded = func(_ string, rep *datasets.LoadReport) { in.report(stderr, rep) }
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	sum, err := executeOrShare(ctx, cfg, opt, *from)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d runs in this slice, %d already recorded, %d done, %d failed, in %s → %s\n",
		cfg.File, sum.Total, sum.Skipped, sum.Done, sum.Failed, sum.Elapsed.Round(time.Millisecond), opt.ResultsDir)
	return sum.Err()
}

// startCPUProfile starts writing a CPU profile to path and returns the function that
// stops it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

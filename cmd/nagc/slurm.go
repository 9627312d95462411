package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/slurm"
)

const slurmUsage = "slurm CONFIG --results DIR --tasks N [--cpus-per-task C] [--time T] [--mem M] [--partition P] [--account A] [--submit [--hold]|--resubmit]"

func runSlurm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("slurm", slurmUsage, stderr)
	results := fs.String("results", "", "results folder: shard I records into DIR/shards/I-of-N, the merge into DIR (required)")
	tasks := fs.Int("tasks", 0, "array tasks, one shard each (required)")
	cpus := fs.Int("cpus-per-task", 1, "CPUs of each task, and its nagc workers")
	timeLimit := fs.String("time", "", "time limit of each task, as sbatch --time takes it (e.g. 2:00:00); a task stopped by it is resumed by --resubmit")
	mem := fs.String("mem", "", "memory of each task, as sbatch --mem takes it (e.g. 4G)")
	partition := fs.String("partition", "", "Slurm partition (default: the cluster's)")
	account := fs.String("account", "", "Slurm account to charge")
	name := fs.String("job-name", "", "name of the jobs in the queue (default nagc-<config name>)")
	submit := fs.Bool("submit", false, "submit the array and the merge job with sbatch")
	hold := fs.Bool("hold", false, "with --submit: submit both jobs held (sbatch --hold), to start them with scontrol release JOBID")
	resubmit := fs.Bool("resubmit", false, "submit only the tasks whose shard is unfinished, and a new merge job; --time, --mem, --cpus-per-task, --partition or --account given with it override the first submission's")
	arg, err := parseOneArg(fs, args)
	if err != nil {
		return err
	}
	if *results == "" || (*submit && *resubmit) {
		fs.Usage()
		return errUsage
	}
	if *resubmit && *tasks == 0 {
		if *tasks, err = shardCount(*results, 0); err != nil {
			return err
		}
	}
	if *tasks == 0 {
		fs.Usage()
		return errUsage
	}
	cfg, err := experiments.OpenConfig(arg)
	if err != nil {
		return err
	}
	if cfg.Timing && *tasks > 1 {
		return fmt.Errorf("%s sets timing: true: its fits are timed one at a time on one machine, so it is not split into tasks; "+
			"run it with nagc run (or --tasks 1)", cfg.File)
	}
	job := &slurm.Job{Name: *name, Tasks: *tasks, CPUsPerTask: *cpus, Time: *timeLimit, Mem: *mem, Partition: *partition, Account: *account}
	if job.Name == "" {
		job.Name = "nagc-" + configName(cfg, arg)
	}
	if job.Nagc, err = os.Executable(); err != nil {
		return fmt.Errorf("cannot find the nagc program the tasks should run: %w", err)
	}
	if job.Config, err = filepath.Abs(arg); err != nil {
		return err
	}
	if _, err := os.Stat(arg); err != nil {
		job.Config = arg // a shipped config (OpenConfig found it): the tasks' nagc has it too
	}
	if job.Results, err = filepath.Abs(*results); err != nil {
		return err
	}
	if *resubmit {
		// The scripts of the first submission stay; options given now override theirs.
		if _, err := os.Stat(filepath.Join(job.Results, slurm.Dir, slurm.ArrayScript)); err != nil {
			return fmt.Errorf("%s holds no earlier submission to complete: submit with --submit first", *results)
		}
		if err := job.Check(); err != nil {
			return err
		}
		var opts []string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "cpus-per-task", "time", "mem", "partition", "account":
				opts = append(opts, "--"+f.Name+"="+f.Value.String())
			}
		})
		return resubmitSlurm(ctx, job, cfg, opts, stdout)
	}
	array, merge, err := job.Write()
	if err != nil {
		return err
	}
	switch {
	case *submit:
		var held []string
		if *hold {
			held = []string{"--hold"}
		}
		id, err := job.Submit(ctx, "array", array, held...)
		if err != nil {
			return err
		}
		mid, err := job.Submit(ctx, "merge", merge, append(held, "--dependency=afterok:"+id)...)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "submitted job array %s (%d tasks) and merge job %s (runs when every task has succeeded)\n", id, job.Tasks, mid)
		if *hold {
			fmt.Fprintf(stdout, "both are held: start them with scontrol release %s %s\n", id, mid)
		}
		fmt.Fprintf(stdout, "follow it: squeue --jobs %s,%s; nagc status %s --results %s\n", id, mid, arg, *results)
		return nil
	}
	fmt.Fprintf(stdout, "wrote %s (%d tasks) and %s; submit them with\n", array, job.Tasks, merge)
	fmt.Fprintf(stdout, "  nagc slurm %s --results %s --tasks %d --submit\nor by hand:\n", arg, *results, job.Tasks)
	fmt.Fprintf(stdout, "  jid=$(sbatch --parsable %s) && sbatch --dependency=afterok:$jid %s\n", array, merge)
	return nil
}

// configName names a config: its name, else its file's base name.
func configName(cfg *experiments.Config, path string) string {
	if cfg.Name != "" {
		return cfg.Name
	}
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// resubmitSlurm submits the tasks of job whose shard has missing runs and a new merge job
// after them, cancelling the merge job left waiting for the earlier tasks. It refuses
// while tasks of an earlier submission are queued or running.
func resubmitSlurm(ctx context.Context, job *slurm.Job, cfg *experiments.Config, opts []string, stdout io.Writer) error {
	counts, err := experiments.ShardCounts(job.Results)
	if err != nil {
		return err
	}
	if len(counts) > 0 && !slices.Contains(counts, job.Tasks) {
		return fmt.Errorf("%s holds shards of %v tasks, not %d: pass the --tasks of the first submission", filepath.Join(job.Results, experiments.ShardsDir), counts, job.Tasks)
	}
	arrays, err := job.Jobs("array")
	if err != nil {
		return err
	}
	for _, id := range arrays {
		q, err := slurm.Queued(ctx, id)
		if err != nil {
			return err
		}
		if len(q) > 0 {
			return fmt.Errorf("job %s still has tasks in the queue: %s; wait for them (or cancel them: scancel %s), then resubmit", id, strings.Join(q, ", "), id)
		}
	}
	runs, err := experiments.Plan(cfg)
	if err != nil {
		return err
	}
	st, err := experiments.StatusOf(cfg, runs, job.Results, job.Tasks)
	if err != nil {
		return err
	}
	var todo []int
	for _, s := range st.Shards {
		if s.Holder != nil {
			return fmt.Errorf("shard %d/%d is being recorded by %s: wait for it, or stop it, then resubmit", s.Shard, s.Shards, shardState(s))
		}
		if s.Missing > 0 {
			todo = append(todo, s.Shard)
		}
	}
	merges, err := job.Jobs("merge")
	if err != nil {
		return err
	}
	for _, id := range merges {
		if q, err := slurm.Queued(ctx, id); err == nil && len(q) > 0 {
			if err := slurm.Cancel(ctx, id); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "cancelled merge job %s, which waited for the earlier tasks\n", id)
		}
	}
	merge := filepath.Join(job.Results, slurm.Dir, slurm.MergeScript)
	var mergeOpts []string // the merge job runs on one CPU
	for _, o := range opts {
		if !strings.HasPrefix(o, "--cpus-per-task=") {
			mergeOpts = append(mergeOpts, o)
		}
	}
	if len(todo) == 0 {
		if st.Merged == st.Done {
			fmt.Fprintf(stdout, "nothing to resubmit: all %d runs are recorded and merged into %s\n", st.Expected, job.Results)
			return nil
		}
		mid, err := job.Submit(ctx, "merge", merge, mergeOpts...)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "every shard is finished; submitted merge job %s\n", mid)
		return nil
	}
	list := slurm.Tasks(todo)
	id, err := job.Submit(ctx, "array", filepath.Join(job.Results, slurm.Dir, slurm.ArrayScript), append(opts, "--array="+list)...)
	if err != nil {
		return err
	}
	mid, err := job.Submit(ctx, "merge", merge, append(mergeOpts, "--dependency=afterok:"+id)...)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "resubmitted tasks %s of %d (%d runs missing) as job %s, and merge job %s after them\n", list, job.Tasks, st.Missing, id, mid)
	return nil
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"

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
	if err := experiments.WritePrograms(stdout, cfg); err != nil {
		return err
	}
	if cfg.Timing && *tasks > 1 {
		return fmt.Errorf("%s sets timing: true: its fits are timed one at a time on one machine, so it is not split into tasks; "+
			"run it with nagc run (or --tasks 1)", cfg.File)
	}
	job := &slurm.Job{Name: *name, Tasks: *tasks, CPUsPerTask: *cpus, Time: *timeLimit, Mem: *mem, Partition: *partition, Account: *account}
	if err := job.Locate(cfg, arg, *results); err != nil {
		return err
	}
	if *resubmit {
		// The scripts of the first submission stay; options given now override theirs.
		if !slurm.Submitted(job.Results) {
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
	if *submit {
		return submitSlurm(ctx, job, array, merge, *hold, arg, *results, stdout)
	}
	fmt.Fprintf(stdout, "wrote %s (%d tasks) and %s; submit them with\n", array, job.Tasks, merge)
	fmt.Fprintf(stdout, "  nagc slurm %s --results %s --tasks %d --submit\nor by hand:\n", arg, *results, job.Tasks)
	fmt.Fprintf(stdout, "  jid=$(sbatch --parsable %s) && sbatch %s %s\n", array, slurm.MergeAfter("$jid"), merge)
	return nil
}

// submitSlurm submits the array script and, after it, the merge script of job (both held
// with hold) and says how to follow them.
func submitSlurm(ctx context.Context, job *slurm.Job, array, merge string, hold bool, arg, results string, stdout io.Writer) error {
	var held []string
	if hold {
		held = []string{"--hold"}
	}
	id, err := job.Submit(ctx, "array", array, held...)
	if err != nil {
		return err
	}
	mid, err := job.Submit(ctx, "merge", merge, append(held, slurm.MergeAfter(id))...)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "submitted job array %s (%d tasks) and merge job %s (runs when every task has ended: it merges a complete sweep, or says what is missing)\n", id, job.Tasks, mid)
	if hold {
		fmt.Fprintf(stdout, "both are held: start them with scontrol release %s %s\n", id, mid)
	}
	fmt.Fprintf(stdout, "follow it: squeue --jobs %s,%s; nagc status %s --results %s\n", id, mid, arg, results)
	return nil
}

// resubmitSlurm completes an earlier submission of job (slurm.Resubmit) and says what it did.
func resubmitSlurm(ctx context.Context, job *slurm.Job, cfg *experiments.Config, opts []string, stdout io.Writer) error {
	r, err := slurm.Resubmit(ctx, job, cfg, opts)
	for _, id := range r.CancelledMerges {
		fmt.Fprintf(stdout, "cancelled merge job %s of an earlier submission\n", id)
	}
	switch {
	case err != nil:
		return err
	case r.Tasks != "":
		unfinished := ""
		if r.Searches > 0 {
			unfinished = fmt.Sprintf(", %d searches unfinished", r.Searches)
		}
		fmt.Fprintf(stdout, "%d of %d runs are recorded (%d done, %d failed), %d missing%s: resubmitted tasks %s of %d as job %s, and merge job %s after them\n",
			r.Done+r.Failed, r.Expected, r.Done, r.Failed, r.Missing, unfinished, r.Tasks, job.Tasks, r.Array, r.Merge)
	case r.Merge != "":
		fmt.Fprintf(stdout, "every shard is finished (%d runs: %d done, %d failed), %d merged into %s: submitted merge job %s\n",
			r.Expected, r.Done, r.Failed, r.Merged, job.Results, r.Merge)
	default:
		fmt.Fprintf(stdout, "nothing to resubmit: all %d runs are recorded (%d done, %d failed) and merged into %s\n", r.Expected, r.Done, r.Failed, job.Results)
	}
	return nil
}

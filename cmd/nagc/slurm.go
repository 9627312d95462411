package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/slurm"
)

const slurmUsage = "slurm CONFIG --results DIR --tasks N [--cpus-per-task C] [--time T] [--mem M] [--partition P] [--account A] [--submit [--hold]|--resubmit] [--rungs [--step]]"

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
	rungs := fs.Bool("rungs", false, "run the sweep as a chain of arrays, each splitting every search's current rung among its tasks, with a step job after each that submits the next (--submit again resumes a stopped chain)")
	step := fs.Bool("step", false, "with --rungs: run one step of the chain now (what its step job runs): merge the last array, submit the next")
	arg, err := parseOneArg(fs, args)
	if err != nil {
		return err
	}
	if *results == "" || (*submit && *resubmit) {
		fs.Usage()
		return errUsage
	}
	if *resubmit && !*rungs && slurm.ChainSubmitted(*results) && !slurm.Submitted(*results) {
		return fmt.Errorf("%s holds a chain of arrays: resume it with --rungs --submit", *results)
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
	if *rungs || *step {
		if *resubmit {
			return fmt.Errorf("--rungs: a chain is resumed with --submit, not --resubmit")
		}
		return runSlurmRungs(ctx, job, cfg, arg, *results, *submit, *hold, *step, stdout, stderr)
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
		r, err := slurm.Resubmit(ctx, job, cfg, opts)
		if err != nil {
			r.WriteCancelled(stdout)
			return err
		}
		return r.WriteText(stdout, job)
	}
	array, merge, err := job.Write()
	if err != nil {
		return err
	}
	if !*submit {
		return job.WriteWritten(stdout, array, merge, arg, *results)
	}
	id, mid, err := job.SubmitAll(ctx, array, merge, *hold)
	if err != nil {
		return err
	}
	return job.WriteSubmitted(stdout, id, mid, *hold, arg, *results)
}

package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/slurm"
)

// executeOrShare executes cfg as opt says, or, with from set, share opt.Shard of
// opt.Shards of what the chained results folder from lacks (experiments.ExecuteShare),
// reading from under its read lock.
func executeOrShare(ctx context.Context, cfg *experiments.Config, opt experiments.Options, from string) (*experiments.Summary, error) {
	if from == "" {
		return experiments.Execute(ctx, cfg, opt)
	}
	lock, err := results.LockRead(from)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	return experiments.ExecuteShare(ctx, cfg, opt, from)
}

// runSlurmRungs is `nagc slurm --rungs`: it writes the scripts of a chain of arrays
// (and submits its first step job with submit), or, with step, runs one step of the
// chain (slurm.Step) and renders the report once the sweep is complete.
func runSlurmRungs(ctx context.Context, job *slurm.Job, cfg *experiments.Config, config, resultsDir string, submit, hold, step bool, stdout, stderr io.Writer) error {
	if step {
		r, err := slurm.Step(ctx, job, cfg, os.Getenv("SLURM_JOB_ID"))
		if len(r.Merged) > 0 {
			fmt.Fprintf(stdout, "merged arrays %v of the chain (%d records) into %s\n", r.Merged, r.Recorded, job.Results)
		}
		if err != nil {
			return err
		}
		if r.State.Complete() {
			fmt.Fprintf(stdout, "the sweep is complete in %s: rendering its report\n", job.Results)
			return runReport(ctx, []string{job.Results}, stdout, stderr)
		}
		_, err = fmt.Fprintf(stdout, "%d grid runs and %d fits of %d searches' current rungs left: submitted array %d (%d tasks) as job %s, and step job %s after it\n",
			r.State.Grid, r.State.Fits, r.State.Searches, r.Array, r.Tasks, r.ArrayID, r.StepID)
		return err
	}
	stepScript, err := job.WriteRungs()
	if err != nil {
		return err
	}
	if !submit {
		_, err := fmt.Fprintf(stdout, "wrote %s (a chain of arrays of at most %d tasks, each splitting the searches' current rungs) and its step job %s; submit them with\n"+
			"  nagc slurm %s --results %s --tasks %d --rungs --submit\nor by hand:\n  sbatch %s\n",
			job.Results+"/"+slurm.Dir+"/"+slurm.RungsScript, job.Tasks, stepScript, config, resultsDir, job.Tasks, stepScript)
		return err
	}
	id, err := job.SubmitRungs(ctx, stepScript, hold)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "submitted step job %s: it submits the chain's arrays (at most %d tasks each), one after another, until the sweep is complete\n", id, job.Tasks)
	if hold {
		fmt.Fprintf(stdout, "it is held: start it with scontrol release %s\n", id)
	}
	_, err = fmt.Fprintf(stdout, "follow it: squeue --name %s,%s-step; nagc status %s --results %s\n", job.Name, job.Name, config, resultsDir)
	return err
}

// writeChainStatus is nagc status of a chain of arrays in resultsDir: the sweep's
// progress across the arrays merged and the one running, then the chain's jobs.
func writeChainStatus(ctx context.Context, w io.Writer, cfg *experiments.Config, config, resultsDir string) error {
	complete, err := experiments.WriteChainStatus(w, cfg, config, resultsDir, slurm.ChainDirs(resultsDir))
	if err != nil {
		return err
	}
	job := &slurm.Job{Tasks: slurm.ChainTasks(resultsDir)}
	if err := job.Locate(cfg, config, resultsDir); err != nil {
		return err
	}
	return job.WriteChainJobs(ctx, w, complete)
}

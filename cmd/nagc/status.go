package main

import (
	"context"
	"io"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/slurm"
)

const statusUsage = "status CONFIG --results DIR [--tasks N]"

func runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("status", statusUsage, stderr)
	results := fs.String("results", "", "results folder of the sweep (required)")
	tasks := fs.Int("tasks", 0, "number of shards (default: found under DIR/shards)")
	arg, err := parseOneArg(fs, args)
	if err != nil {
		return err
	}
	if *results == "" {
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
	if slurm.ChainSubmitted(*results) {
		return writeChainStatus(ctx, stdout, cfg, arg, *results)
	}
	n, err := shardCount(*results, *tasks)
	if err != nil {
		return err
	}
	return experiments.WriteSweepStatus(stdout, cfg, arg, *results, n, slurm.Submitted(*results))
}

// shardCount returns the shard count of the sweep in dir: tasks when positive, else the
// one count found under dir/shards (results.ShardCount).
func shardCount(dir string, tasks int) (int, error) {
	if tasks > 0 {
		return tasks, nil
	}
	return results.ShardCount(dir)
}

package main

import (
	"context"
	"fmt"
	"io"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

const scoreUsage = "score CONFIG --results DIR --row NAME --files 'PATH/{dataset}-{restart}.tsv'"

// runScore records clusterings made elsewhere as runs of a named row (experiments.Score).
func runScore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("score", scoreUsage, stderr)
	resultsDir := fs.String("results", "", "results folder to record the runs in (required)")
	row := fs.String("row", "", "the name the clusterings are reported under (required)")
	files := fs.String("files", "", "each clustering's file, one 'id<TAB>cluster' line a vertex; {dataset} and {restart} stand for a dataset's name and the restart (required)")
	arg, err := parseOneArg(fs, args)
	if err != nil {
		return err
	}
	if *resultsDir == "" || *row == "" || *files == "" {
		fs.Usage()
		return errUsage
	}
	cfg, err := experiments.OpenConfig(arg)
	if err != nil {
		return err
	}
	lock, err := results.LockAppend(*resultsDir)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	sum, err := experiments.Score(cfg, experiments.ScoreOptions{ResultsDir: *resultsDir, Row: *row, Files: *files})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "recorded %d clusterings as runs of %s in %s\n", sum.Done, *row, *resultsDir)
	return nil
}

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
)

// writeDryRun prints what each search of cfg executes (`nagc run --dry-run`): its rungs,
// fits and iterations, with its held-out fits, and the restarts they are spread over. It loads cfg's datasets and runs nothing.
func writeDryRun(w io.Writer, cfg *experiments.Config) error {
	costs, err := experiments.SearchCosts(cfg)
	if err != nil {
		return err
	}
	if len(costs) == 0 {
		fmt.Fprintf(w, "%s has no search: its grid runs are what `nagc status` lists\n", cfg.File)
		return nil
	}
	for _, c := range costs {
		rungs := make([]string, len(c.Rungs))
		for i, r := range c.Rungs {
			rungs[i] = fmt.Sprint(r)
		}
		batches := fmt.Sprintf("%d batches", c.Batches)
		if c.Batches == 1 {
			batches = "one batch"
		}
		fmt.Fprintf(w, "search %s on %s: %d trials in %s, rungs at %s iterations: %d fits, %d iterations",
			c.Row, c.Dataset, c.Trials, batches, strings.Join(rungs, ", "), c.Fits, c.Iterations)
		if c.Holdout > 0 {
			fmt.Fprintf(w, ", each fit with its held-out fit (holdout %g): %d fits, %d iterations in all", c.Holdout, 2*c.Fits, 2*c.Iterations)
		}
		fmt.Fprintf(w, "; over %d restarts\n", c.Restarts)
	}
	return nil
}

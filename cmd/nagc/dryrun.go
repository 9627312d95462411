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
		fmt.Fprintf(w, "search %s on %s: %d trials in %s, rungs at %s iterations: ", c.Row, c.Dataset, c.Trials, batches, strings.Join(rungs, ", "))
		switch {
		case c.Holdout == 0:
			fmt.Fprintf(w, "%d fits, %d iterations", c.Fits, c.Iterations)
		case c.Fits == c.HeldOutFits:
			fmt.Fprintf(w, "%d fits, %d iterations, each fit with its held-out fit (holdout %g): %d fits, %d iterations in all",
				c.Fits, c.Iterations, c.Holdout, 2*c.Fits, c.Iterations+c.HeldOutIterations)
		default:
			fmt.Fprintf(w, "%d held-out fits (holdout %g), %d iterations, and %d fits of the whole graph at the last rung, %d iterations: %d fits, %d iterations in all",
				c.HeldOutFits, c.Holdout, c.HeldOutIterations, c.Fits, c.Iterations, c.Fits+c.HeldOutFits, c.Iterations+c.HeldOutIterations)
		}
		fmt.Fprintf(w, "; over %d restarts\n", c.Restarts)
	}
	return nil
}

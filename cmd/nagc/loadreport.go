package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/memory"
)

// inputFlags are the flags every command that reads a graph shares: --quiet (no load
// report on stderr), --allow-dropped (accept a graph whose files drop more than 1 % of
// their lines for unknown ids) and --max-memory (the budget sizes read from files and
// fits' estimates are checked against).
type inputFlags struct {
	quiet, allowDropped *bool
	maxMemory           *string
}

// addInputFlags registers --quiet, --allow-dropped and --max-memory on fs.
func addInputFlags(fs *flag.FlagSet) *inputFlags {
	return &inputFlags{
		quiet:        fs.Bool("quiet", false, "do not print the load report (sizes, dropped lines, notes, warnings) on stderr"),
		allowDropped: fs.Bool("allow-dropped", false, fmt.Sprintf("read a graph even when more than %g%% of its edge or label lines name ids that are not vertices (by default such a load fails)", 100*datasets.MaxDroppedShare)),
		maxMemory:    fs.String("max-memory", "", "memory budget, e.g. 8GB or 512MiB (default and at most: the machine's available memory and the limits of the job's cgroups); files and fits that would need more are refused before allocating"),
	}
}

// apply sets the memory budget from --max-memory (when given).
func (f *inputFlags) apply() error {
	if *f.maxMemory == "" {
		return nil
	}
	b, err := memory.ParseSize(*f.maxMemory)
	if err != nil {
		return fmt.Errorf("--max-memory: %w", err)
	}
	setMemoryBudget(b)
	return nil
}

// report prints the load report of a graph on w as "load: " lines, unless --quiet.
func (f *inputFlags) report(w io.Writer, rep *datasets.LoadReport) {
	if rep == nil || f != nil && *f.quiet {
		return
	}
	rep.WriteText(w)
}

// configure applies --allow-dropped to every dataset of cfg.
func (f *inputFlags) configure(cfg *experiments.Config) {
	if *f.allowDropped {
		for i := range cfg.Datasets {
			cfg.Datasets[i].AllowDropped = true
		}
	}
}

// loadGraph returns a loader of named datasets (for the report's layout figure) that
// prints each graph's load report on w, unless --quiet, and honours --allow-dropped.
func (f *inputFlags) loadGraph(w io.Writer) func(name string) (*datasets.Graph, error) {
	return func(name string) (*datasets.Graph, error) {
		g, rep, err := datasets.LoadSpec(datasets.Spec{Path: name, AllowDropped: *f.allowDropped})
		if err != nil {
			return nil, err
		}
		f.report(w, rep)
		return g, nil
	}
}

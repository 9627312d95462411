package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

const mergeUsage = "merge --out DIR [--config CONFIG] [--allow-incomplete] SRC…"

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("merge", mergeUsage, stderr)
	out := fs.String("out", "", "folder receiving the merged results (its own records take part)")
	config := fs.String("config", "", "config whose runs must all be recorded (default: the configs the sources' sweeps record)")
	allow := fs.Bool("allow-incomplete", false, "merge even when runs are missing (a source never started, a shard stopped)")
	srcs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *out == "" || len(srcs) == 0 {
		fs.Usage()
		return errUsage
	}
	var present []string
	for _, src := range srcs {
		if _, err := os.Stat(filepath.Join(src, results.RunsFile)); err == nil || !*allow {
			present = append(present, src)
		} else {
			fmt.Fprintf(stderr, "note: %s holds no runs: left out\n", src)
		}
	}
	gaps, err := experiments.MergeGaps(*config, *out, present)
	if err != nil {
		return err
	}
	if len(gaps) > 0 && !*allow {
		return fmt.Errorf("refusing to merge an incomplete sweep:\n  %s\n`nagc status CONFIG --results DIR` shows what is left; --allow-incomplete merges anyway", strings.Join(gaps, "\n  "))
	}
	n, err := results.Merge(*out, present)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merged %d runs from %s into %s\n", n, strings.Join(present, ", "), *out)
	for _, g := range gaps {
		fmt.Fprintln(stderr, "note: incomplete:", g)
	}
	return nil
}

const summaryUsage = "results summary DIR [--rule modularity|two-view|heldout|objective|ari] [--format text|csv|json]"

func runResults(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "rescore" {
		return runRescore(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "summary" {
		w := stderr
		if isHelp(args) {
			w = stdout
		}
		fmt.Fprintln(w, "usage: nagc "+summaryUsage+"\n       nagc results rescore DIR [--data DIR]")
		if w == stdout {
			return nil
		}
		return errUsage
	}
	fs := newFlagSet("results summary", summaryUsage, stderr)
	rule := fs.String("rule", results.SelectModularity, "selection rule shown beside the paper's (modularity, two-view, heldout, objective: label-free; ari reads the labels)")
	format := fs.String("format", "text", "output format: text, csv or json")
	arg, err := parseOneArg(fs, args[1:])
	if err != nil {
		return err
	}
	if *format != "text" && *format != "csv" && *format != "json" {
		return fmt.Errorf("--format %s: unknown format (known: text, csv, json)", *format)
	}
	sum, err := results.SummarizeDir(arg, *rule)
	if err != nil {
		return err
	}
	switch *format {
	case "csv":
		return results.WriteSummaryCSV(stdout, sum.Selections)
	case "json":
		return results.WriteSummaryJSON(stdout, sum.Selections)
	}
	return sum.WriteText(stdout)
}

// runRescore recomputes the metrics of recorded runs from their labels (see
// experiments.Rescore).
func runRescore(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("results rescore", "results rescore DIR [--data DIR]", stderr)
	data := fs.String("data", "", "where to look, by name, for a dataset whose recorded path (sweeps.jsonl) is gone: the only place then looked (default: $NAGC_DATA, the download folder, ../shared/datasets beside a checkout); a dataset still at its recorded path is read from there")
	arg, err := parseOneArg(fs, args)
	if err != nil {
		return err
	}
	restore, err := setDataFolder(*data)
	if err != nil {
		return err
	}
	defer restore()
	n, err := experiments.Rescore(arg, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "rescored %d runs in %s (metrics: %s; %s where a held-out fit is recorded)\n", n, arg, strings.Join(results.AllMetrics, ", "), results.MetricHeldOut)
	return nil
}

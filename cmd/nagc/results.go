package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/report"
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
		if _, err := os.Stat(filepath.Join(src, experiments.RunsFile)); err == nil || !*allow {
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
	n, err := experiments.Merge(*out, present)
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
	rule := fs.String("rule", experiments.SelectModularity, "selection rule shown beside the paper's (modularity, two-view, heldout, objective: label-free; ari reads the labels)")
	format := fs.String("format", "text", "output format: text, csv or json")
	arg, err := parseOneArg(fs, args[1:])
	if err != nil {
		return err
	}
	if *format != "text" && *format != "csv" && *format != "json" {
		return fmt.Errorf("--format %s: unknown format (known: text, csv, json)", *format)
	}
	lock, err := experiments.LockRead(arg)
	if err != nil {
		return err
	}
	recs, err := experiments.LoadResults(arg)
	lock.Unlock()
	if err != nil {
		return err
	}
	points := experiments.Aggregate(recs)
	labeled := experiments.Labeled(points)
	var rules []string
	if len(labeled) > 0 && *rule != experiments.SelectARI {
		rules = append(rules, experiments.SelectARI)
	}
	if *rule == experiments.SelectARI && len(labeled) == 0 {
		return fmt.Errorf("--rule ari: no run in %s recorded ARI (the datasets have no labels); use a label-free rule: modularity, two-view, heldout or objective", arg)
	}
	rules = append(rules, *rule)
	sel, err := experiments.Summarize(points, rules)
	if err != nil {
		return err
	}
	provs, err := experiments.ReadProvenance(arg)
	if err != nil {
		return err
	}
	cov := experiments.LabelCoverage(provs)
	experiments.SetCoverage(sel, cov)
	switch *format {
	case "csv":
		return experiments.WriteSummaryCSV(stdout, sel)
	case "json":
		return experiments.WriteSummaryJSON(stdout, sel)
	}
	return printSummary(stdout, arg, recs, points, labeled, cov, rules, sel)
}

// printSummary prints the selections sel of the results folder arg for people: the
// rules, the datasets without labels, the fits timed alone left out, and one line per
// dataset, row and rule.
func printSummary(stdout io.Writer, arg string, recs []experiments.Record, points []*experiments.PointStats,
	labeled map[string]bool, cov map[string]experiments.Coverage, rules []string, sel []experiments.Selection) error {
	timed := 0
	for _, r := range recs {
		if r.TimedAlone {
			timed++
		}
	}
	if len(points) == 0 && timed > 0 {
		fmt.Fprintf(stdout, "%s holds only fits timed alone (%d, from a config with timing: true) and no sweep, so there is no grid point to select. Their median fit and initialisation times are in the report: nagc report %s\n", arg, timed, arg)
		return nil
	}
	for _, r := range rules {
		fmt.Fprintf(stdout, "rule %s: %s\n", r, report.RuleText(r))
	}
	var unlabeled []string
	for _, p := range points {
		if !labeled[p.Dataset] && !slices.Contains(unlabeled, p.Dataset) {
			unlabeled = append(unlabeled, p.Dataset)
		}
	}
	if len(unlabeled) > 0 {
		fmt.Fprintf(stdout, "no labels on %s (no ARI recorded): only label-free rules select there\n", strings.Join(unlabeled, ", "))
	}
	var partial []string
	for _, p := range points {
		if c := cov[p.Dataset]; c.Partial() && !slices.Contains(partial, p.Dataset) {
			partial = append(partial, p.Dataset)
			fmt.Fprintf(stdout, "%s labels %d of its %d vertices: ARI, NMI, accuracy and matching score those %d; modularity scores all\n",
				p.Dataset, c.Labeled, c.N, c.Labeled)
		}
	}
	if timed > 0 {
		fmt.Fprintf(stdout, "%d fits timed alone (a config with timing: true) are left out: they are timed one at a time, not part of the sweep; the report's table of fit times reads them (nagc report %s).\n", timed, arg)
	}
	fmt.Fprintf(stdout, "Mean ± population std over restarts.\n\n")
	flagged := false // a column for the ARI over unflagged vertices, when a method flags vertices
	for _, s := range sel {
		if s.Point != nil {
			_, ok := s.Point.Mean[experiments.MetricUnflaggedShare]
			flagged = flagged || ok
		}
	}
	if flagged {
		fmt.Fprintf(stdout, "ARI unflagged: the ARI over the vertices the method does not flag as anomalous (PAICAN's protocol), with their mean share; ARI is over all vertices.\n\n")
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	head := "dataset\tmethod\trule\tARI\tmodularity\trestarts\tparams\t"
	if flagged {
		head += "ARI unflagged (share)\t"
	}
	fmt.Fprintln(tw, head)
	for _, s := range sel {
		p := s.Point
		if p == nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t— (%s)\t\t\t\t\n", s.Dataset, s.Method, ruleLabel(s.Rule, nil), s.Missing)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t", p.Dataset, p.Method, ruleLabel(s.Rule, p), meanStd(p, "ari"),
			meanStd(p, "modularity"), restarts(p), experiments.FormatParams(p.Params))
		if share, ok := p.Mean[experiments.MetricUnflaggedShare]; ok {
			fmt.Fprintf(tw, "%s (%.1f%%)\t", meanStd(p, experiments.MetricARIUnflagged), 100*share)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// ruleLabel names a rule in a summary's rows, saying whether it, or the point it chose
// (nil: none), reads the labels.
func ruleLabel(rule string, p *experiments.PointStats) string {
	switch {
	case experiments.ReadsLabels(rule):
		return rule + " (reads labels)"
	case p != nil && p.ReadsLabels():
		return rule + " (the row's initialisation reads labels)"
	}
	return rule + " (label-free)"
}

func meanStd(p *experiments.PointStats, metric string) string {
	if p.Runs == 0 {
		return "— (all failed)"
	}
	m, ok := p.Mean[metric]
	s := p.Std[metric]
	if !ok || math.IsNaN(m) {
		return "—"
	}
	return fmt.Sprintf("%.3f ± %.3f", m, s)
}

func restarts(p *experiments.PointStats) string {
	if p.Failed > 0 {
		return fmt.Sprintf("%d (+%d failed)", p.Runs, p.Failed)
	}
	return fmt.Sprint(p.Runs)
}

// runRescore recomputes the metrics of recorded runs from their labels (see
// experiments.Rescore).
func runRescore(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("results rescore", "results rescore DIR [--data DIR]", stderr)
	data := fs.String("data", "", "folder holding the named datasets (overrides $NAGC_DATA)")
	arg, err := parseOneArg(fs, args)
	if err != nil {
		return err
	}
	if err := setDataFolder(*data); err != nil {
		return err
	}
	n, err := experiments.Rescore(arg, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "rescored %d runs in %s (metrics: %s; %s where a held-out fit is recorded)\n", n, arg, strings.Join(experiments.AllMetrics, ", "), experiments.MetricHeldOut)
	return nil
}

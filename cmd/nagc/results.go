package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
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
	gaps, err := mergeGaps(*config, *out, present)
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

// mergeGaps checks that the folders dst and srcs together record every run of config
// (of every config their sweeps record when config is ""), and describes what they lack,
// one line per config.
func mergeGaps(config, dst string, srcs []string) ([]string, error) {
	configs := []string{config}
	if config == "" {
		configs = nil
		seen := map[string]bool{}
		for _, dir := range append([]string{dst}, srcs...) {
			prov, err := experiments.ReadProvenance(dir)
			if err != nil {
				return nil, err
			}
			for _, p := range prov {
				if !seen[p.Config] {
					seen[p.Config] = true
					configs = append(configs, p.Config)
				}
			}
		}
	}
	dirs := append([]string{dst}, srcs...)
	var gaps []string
	for _, c := range configs {
		cfg, err := experiments.OpenConfig(c)
		if err != nil {
			return nil, fmt.Errorf("checking that the sweep is complete: %w (pass --config CONFIG, or --allow-incomplete)", err)
		}
		runs, err := experiments.Plan(cfg)
		if err != nil {
			return nil, err
		}
		st, err := experiments.StatusIn(cfg, runs, dirs)
		if err != nil {
			return nil, err
		}
		if st.Missing == 0 {
			continue
		}
		r := st.MissingRuns[0]
		gaps = append(gaps, fmt.Sprintf("%s: %d of %d runs are not recorded (%d done, %d failed), among them run %s (%s, %s %s, restart %d)",
			c, st.Missing, st.Expected, st.Done, st.Failed, r.ID, r.Dataset, r.Algorithm, r.GridPoint(), r.Restart))
	}
	return gaps, nil
}

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
	switch *format {
	case "csv":
		return summaryCSV(stdout, sel)
	case "json":
		return summaryJSON(stdout, sel)
	}
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
		if !labeled[p.Dataset] && !containsString(unlabeled, p.Dataset) {
			unlabeled = append(unlabeled, p.Dataset)
		}
	}
	if len(unlabeled) > 0 {
		fmt.Fprintf(stdout, "no labels (no ARI recorded) on %s: only the label-free rule selects there\n", strings.Join(unlabeled, ", "))
	}
	if timed > 0 {
		fmt.Fprintf(stdout, "%d fits timed alone (a config with timing: true) are left out: they are timed one at a time, not part of the sweep; the report's table of fit times reads them (nagc report %s).\n", timed, arg)
	}
	fmt.Fprintf(stdout, "Mean ± population std over restarts.\n\n")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "dataset\tmethod\trule\tARI\tmodularity\trestarts\tparams\t")
	for _, s := range sel {
		p := s.Point
		if p == nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t— (%s)\t\t\t\t\n", s.Dataset, s.Method, ruleLabel(s.Rule, nil), s.Missing)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", p.Dataset, p.Method, ruleLabel(s.Rule, p), meanStd(p, "ari"),
			meanStd(p, "modularity"), restarts(p), experiments.FormatParams(p.Params))
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

// readsLabels reports whether a selection reads the labels, by its rule or its point.
func readsLabels(rule string, p *experiments.PointStats) bool {
	return experiments.ReadsLabels(rule) || (p != nil && p.ReadsLabels())
}

func containsString(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// summaryMetrics lists the metrics of a selection's point in a fixed order: the
// recorded ones of experiments.AllMetrics, then the held-out score.
func summaryMetrics(p *experiments.PointStats) []string {
	var out []string
	for _, m := range append(append([]string{}, experiments.AllMetrics...), experiments.MetricHeldOut) {
		if _, ok := p.Mean[m]; ok {
			out = append(out, m)
		}
	}
	return out
}

// summaryCSV writes the selections as tidy CSV: one line per dataset, method, rule and
// metric (mean, population std and number of finished restarts).
func summaryCSV(w io.Writer, sel []experiments.Selection) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"dataset", "method", "rule", "reads_labels", "params", "metric", "mean", "std", "n", "failed"})
	for _, s := range sel {
		p := s.Point
		if p == nil {
			continue
		}
		for _, m := range summaryMetrics(p) {
			cw.Write([]string{p.Dataset, p.Method, s.Rule, strconv.FormatBool(readsLabels(s.Rule, p)), experiments.FormatParams(p.Params), m,
				strconv.FormatFloat(p.Mean[m], 'g', -1, 64), strconv.FormatFloat(p.Std[m], 'g', -1, 64),
				strconv.Itoa(p.Runs), strconv.Itoa(p.Failed)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// summaryJSON writes the selections as a JSON array.
func summaryJSON(w io.Writer, sel []experiments.Selection) error {
	type stat struct {
		Mean float64 `json:"mean"`
		Std  float64 `json:"std"`
	}
	type row struct {
		Dataset     string          `json:"dataset"`
		Method      string          `json:"method"`
		Rule        string          `json:"rule"`
		ReadsLabels bool            `json:"reads_labels"`
		Params      map[string]any  `json:"params,omitempty"`
		Runs        int             `json:"runs"`
		Failed      int             `json:"failed"`
		Metrics     map[string]stat `json:"metrics,omitempty"`
		Missing     string          `json:"missing,omitempty"`
	}
	rows := make([]row, 0, len(sel))
	for _, s := range sel {
		p := s.Point
		if p == nil {
			rows = append(rows, row{Dataset: s.Dataset, Method: s.Method, Rule: s.Rule, ReadsLabels: experiments.ReadsLabels(s.Rule), Missing: s.Missing})
			continue
		}
		r := row{Dataset: p.Dataset, Method: p.Method, Rule: s.Rule, ReadsLabels: readsLabels(s.Rule, p),
			Params: p.Params, Runs: p.Runs, Failed: p.Failed, Metrics: map[string]stat{}}
		for _, m := range summaryMetrics(p) {
			r.Metrics[m] = stat{p.Mean[m], p.Std[m]}
		}
		rows = append(rows, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
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

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/nagc-harness/nagc/experiments"
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
		cfg, err := experiments.LoadConfig(c)
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
		fmt.Fprintln(stderr, "usage: nagc results summary DIR [--rule modularity|two-view|heldout|objective]\n       nagc results rescore DIR [--data DIR]")
		return errUsage
	}
	fs := newFlagSet("results summary", "results summary DIR [--rule modularity|two-view|heldout|objective]", stderr)
	rule := fs.String("rule", experiments.SelectModularity, "label-free selection rule shown beside the paper's (modularity, two-view, heldout or objective)")
	arg, err := parseOneArg(fs, args[1:])
	if err != nil {
		return err
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
	paper, err := experiments.Best(points, experiments.SelectARI)
	if err != nil {
		return err
	}
	free, err := experiments.Best(points, *rule)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Selection: 'paper' = grid point with the best mean ARI over restarts (reads the labels, as the paper does);\n")
	fmt.Fprintf(stdout, "'label-free' = best mean %s (reads no labels). ARI mean ± std (population std) over restarts.\n\n", *rule)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "dataset\tmethod\tpaper rule ARI\trestarts\tparams\tlabel-free ARI\tparams\t")
	type cell struct{ d, m string }
	chosen := map[cell]*experiments.PointStats{}
	for _, f := range free {
		chosen[cell{f.Dataset, f.Method}] = f
	}
	for _, p := range paper {
		freeARI, freeParams := "— (no "+experiments.MetricHeldOut+")", ""
		if f := chosen[cell{p.Dataset, p.Method}]; f != nil {
			freeARI, freeParams = meanStd(f, "ari"), params(f)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", p.Dataset, p.Method, meanStd(p, "ari"),
			restarts(p), params(p), freeARI, freeParams)
	}
	return tw.Flush()
}

func meanStd(p *experiments.PointStats, metric string) string {
	if p.Runs == 0 {
		return "— (all failed)"
	}
	m, s := p.Mean[metric], p.Std[metric]
	if math.IsNaN(m) {
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

// params prints a grid point's parameters compactly, in sorted order (iterations too:
// a grid may choose it).
func params(p *experiments.PointStats) string {
	keys := make([]string, 0, len(p.Params))
	for k := range p.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, p.Params[k])
	}
	return strings.Join(parts, " ")
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

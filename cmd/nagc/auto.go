package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/nagc-harness/nagc/auto"
	"github.com/nagc-harness/nagc/internal/runbar"
)

const autoUsage = "auto --data GRAPH [--k1 K] [--budget quick|standard|thorough] [--out DIR] [--seed S] [--workers N] [--format F] [--features FILE] [--labels none|column|FILE]"

// runAuto clusters a graph without reading its labels: a fixed candidate set chosen by
// held-out modularity (package auto, docs/auto.md).
func runAuto(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("auto", autoUsage, stderr)
	gf := addGraphFlags(fs, "", "; read only after the choice, to report the ARI")
	k1 := fs.Int("k1", 0, fmt.Sprintf("number of clusters (default: chosen from %d…%d by held-out modularity; never from the labels)", auto.K1Min, auto.K1Max))
	budget := fs.String("budget", "standard", "candidate set: "+strings.Join(auto.Budgets, ", ")+" (configs auto-quick, auto-standard, auto-thorough)")
	out := fs.String("out", "", "output folder (default: auto-NAME in the working folder); running again resumes its recorded runs")
	seed := fs.Uint64("seed", 1, "base seed of every run")
	workers := fs.Int("workers", 0, "runs at once (default: all cores)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("unexpected argument %q (give the graph as --data %s)", pos[0], pos[0])
	}
	if err := checkK1Flag(fs, 2, fmt.Sprintf("leave --k1 out to choose it from %d…%d by held-out modularity", auto.K1Min, auto.K1Max)); err != nil {
		return err
	}
	if *gf.data == "" {
		fmt.Fprintln(stderr, "nagc auto: --data is required: the graph to cluster")
		fs.Usage()
		return errUsage
	}
	if !slices.Contains(auto.Budgets, *budget) {
		return fmt.Errorf("--budget %s: unknown budget (known: %s)", *budget, strings.Join(auto.Budgets, ", "))
	}
	if *seed == 0 {
		return fmt.Errorf("--seed 0: seeds start at 1")
	}
	g, _, err := gf.load(stderr)
	if err != nil {
		return err
	}
	if *k1 > g.N() {
		return fmt.Errorf("--k1 %d: more clusters than the %d vertices of %s", *k1, g.N(), g.Name)
	}
	dir := *out
	if dir == "" {
		dir = "auto-" + g.Name
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	res, err := auto.Run(ctx, auto.Options{Graph: g, K1: *k1, Budget: *budget, OutDir: dir, Seed: *seed,
		Workers: *workers, Progress: runbar.New(stderr)})
	if err != nil {
		return err
	}
	if err := res.Write(dir, g); err != nil {
		return err
	}
	res.Report(stdout)
	fmt.Fprintf(stdout, "\nwritten: %s (id<TAB>cluster), %s, %s in %s\n", auto.ClustersFile, auto.ChoiceFile, auto.ReportFile, dir)
	return nil
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/bench"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/cliflag"
)

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const usageLine = "bench [--data NAME,…] [--features FILE] [--labels …] [--sizes N,…] [--shape arxiv|products|…] [--methods nagc,…|all] [--repeats R] [--threads T,…] [--out DIR]"
	fs := newFlagSet("bench", usageLine, stderr)
	data := fs.String("data", "webkb,citeseer,cora,polblog", "the graphs to time, comma-separated: names, or files and folders as cluster's --data takes them ('none' for only the synthetic series); of the default, the paper's four, missing ones are skipped; a graph named here that cannot be read is an error")
	sizes := fs.String("sizes", "1000,10000,100000", "vertex counts of the synthetic growth series (degree 10, m = 1000, 20 attributes per vertex); 'none' to skip")
	methodList := fs.String("methods", "nagc", "methods to time, comma-separated, or 'all'")
	repeats := fs.Int("repeats", 3, "fits per method and graph (the median is reported)")
	threads := fs.String("threads", "1", "threads of the kernels (0 = all cores); several, comma-separated (1,2), time each method at each, the fits in turn, and print how much faster each is than the first")
	iterations := fs.Int("iterations", 100, "iterations of the iterative methods")
	out := fs.String("out", filepath.Join("results", "bench"), "folder for bench.csv and growth.png/.pdf")
	read := addReadFlags(fs, "")
	in := addInputFlags(fs)
	shape := fs.String("shape", "", "time a planted graph of this shape instead ("+strings.Join(datasets.ShapeNames(), ", ")+
		"; overrides as in arxiv,n=50000,m=64): --data and --sizes then default to none")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := in.apply(); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if *shape != "" {
		if !given["data"] {
			*data = "none"
		}
		if !given["sizes"] {
			*sizes = "none"
		}
	}
	if len(pos) > 0 {
		return fmt.Errorf("unexpected argument %q", pos[0])
	}
	spec := bench.CaseSpec{Data: *data, DataGiven: given["data"], Sizes: *sizes, Shape: *shape,
		AllowDropped: *in.allowDropped, Loaded: func(rep *datasets.LoadReport) { in.report(stderr, rep) },
		Skipped: func(name string, err error) { fmt.Fprintf(stderr, "bench: skipping %s: %v\n", name, err) }}
	if read.given() {
		if !given["data"] || strings.Contains(*data, ",") {
			return errors.New("--format, --features, --feature-layout and --labels say how to read one graph: name it alone with --data")
		}
		spec.Read = func(path string) datasets.Spec { return read.spec(path, *in.allowDropped) }
	}
	threadList, err := parseThreadList(*threads)
	if err != nil {
		return err
	}
	methods, err := bench.Methods(*methodList, *iterations)
	if err != nil {
		return err
	}
	cases, err := bench.Cases(spec)
	if err != nil {
		return err
	}
	bench.WriteTableHeader(stdout)
	progress := func(r bench.Result) { bench.WriteTableRow(stdout, r) }
	fitCtx, clearBar := withFitProgress(ctx, stderr)
	results, err := bench.Run(fitCtx, cases, methods, bench.Options{Repeats: *repeats, Threads: threadList, Progress: progress})
	clearBar()
	if err != nil {
		return err
	}
	for _, s := range bench.Speedups(results) {
		bench.WriteSpeedup(stdout, s)
	}
	var settings []int // the thread settings timed, as resolved
	for _, r := range results {
		if !slices.Contains(settings, r.Threads) {
			settings = append(settings, r.Threads)
		}
	}
	for _, m := range methods {
		for _, t := range settings {
			label := m.Name
			if len(settings) > 1 {
				label = m.Name + " on " + bench.ThreadsName(t)
			}
			if b, err := bench.GrowthExponent(results, m.Name, t); err == nil {
				fmt.Fprintf(stdout, "%s: fitted growth exponent of fit time in |E| + nnz(X): %.2f\n", label, b)
			}
		}
	}
	if err := bench.WriteFiles(*out, results); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(*out, bench.CSVFile))
	return nil
}

// parseThreadList reads --threads: thread counts, comma-separated, 0 for every core.
func parseThreadList(list string) ([]int, error) {
	var out []int
	for _, f := range cliflag.List(list) {
		t, err := strconv.Atoi(f)
		if err != nil || t < 0 {
			return nil, fmt.Errorf("--threads: %q is not a thread count (a whole number, 0 for every core)", f)
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, errors.New("--threads: no thread count given (a whole number, 0 for every core)")
	}
	return out, nil
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/bench"
	"github.com/nagc-harness/nagc/datasets"
)

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const usageLine = "bench [--data NAME,…] [--sizes N,…] [--shape arxiv|products|…] [--methods nagc,…|all] [--repeats R] [--threads T] [--out DIR]"
	fs := newFlagSet("bench", usageLine, stderr)
	data := fs.String("data", "webkb,citeseer,cora,polblog", "datasets to time (names or LINQS folders; 'none' for only the synthetic series); missing ones are skipped")
	sizes := fs.String("sizes", "1000,10000,100000", "vertex counts of the synthetic growth series (degree 10, m = 1000, 20 attributes per vertex); 'none' to skip")
	methodList := fs.String("methods", "nagc", "methods to time, comma-separated, or 'all'")
	repeats := fs.Int("repeats", 3, "fits per method and graph (the median is reported)")
	threads := fs.Int("threads", 1, "threads of the sparse kernels (0 = all cores)")
	iterations := fs.Int("iterations", 100, "iterations of the iterative methods")
	out := fs.String("out", filepath.Join("results", "bench"), "folder for bench.csv and growth.png/.pdf")
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
	if *shape != "" {
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
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
	methods, err := benchMethods(*methodList, *iterations)
	if err != nil {
		return err
	}
	var cases []bench.Case
	if *data != "none" {
		for _, name := range strings.Split(*data, ",") {
			g, rep, err := datasets.LoadSpec(datasets.Spec{Path: strings.TrimSpace(name), AllowDropped: *in.allowDropped})
			if err != nil {
				fmt.Fprintf(stderr, "bench: skipping %s: %v\n", name, err)
				continue
			}
			in.report(stderr, rep)
			cases = append(cases, bench.Case{Name: g.Name, Graph: g})
		}
	}
	if *sizes != "none" {
		var ns []int
		for _, s := range strings.Split(*sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 10 {
				return fmt.Errorf("--sizes: %q is not a vertex count ≥ 10", s)
			}
			ns = append(ns, n)
		}
		series, err := bench.SyntheticSeries(ns, 1)
		if err != nil {
			return err
		}
		cases = append(cases, series...)
	}
	if *shape != "" {
		c, err := bench.ShapeCase(*shape)
		if err != nil {
			return err
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		return fmt.Errorf("nothing to time")
	}
	if *threads == 0 {
		*threads = -1
	}
	const row = "%-18s %-7s %9s %12s %14s %18s %15s %15s %15s\n"
	fmt.Fprintf(stdout, row, "graph", "method", "n", "|E|+nnz(X)", "median fit (s)", "per iteration (ms)", "madds/iteration", "madds/ns", "peak heap (MiB)")
	progress := func(r bench.Result) {
		if r.Err != "" {
			fmt.Fprintf(stdout, "%-18s %-7s %9d %12d error: %s\n", r.Case, r.Method, r.N, r.Work, r.Err)
			return
		}
		fmt.Fprintf(stdout, row, r.Case, r.Method, strconv.Itoa(r.N), strconv.Itoa(r.Work),
			strconv.FormatFloat(r.Median, 'f', 3, 64), strconv.FormatFloat(1000*r.PerIteration, 'f', 3, 64),
			formatCount(r.MultiplyAdds), formatCount(r.PerNanosecond),
			strconv.FormatFloat(float64(r.PeakHeapBytes)/(1<<20), 'f', 0, 64))
	}
	fitCtx, clearBar := withFitProgress(ctx, stderr)
	results, err := bench.Run(fitCtx, cases, methods, bench.Options{Repeats: *repeats, Threads: *threads, Progress: progress})
	clearBar()
	if err != nil {
		return err
	}
	for _, m := range methods {
		if b, err := bench.GrowthExponent(results, m.Name); err == nil {
			fmt.Fprintf(stdout, "%s: fitted growth exponent of fit time in |E| + nnz(X): %.2f\n", m.Name, b)
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(*out, "bench.csv"))
	if err != nil {
		return err
	}
	if err := bench.WriteCSV(f, results); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	for _, ext := range []string{"png", "pdf"} {
		if err := bench.PlotGrowth(filepath.Join(*out, "growth."+ext), results); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(*out, "bench.csv"))
	return nil
}

// formatCount prints a count with three significant digits, "-" when it is not known.
func formatCount(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// benchMethods returns the methods to time: NAGC at k2 = k1, λ = 0.01, ρ = 0.95 with
// random initialisation (so only the iterations are timed); the baselines at defaults.
func benchMethods(list string, iterations int) ([]bench.Method, error) {
	names := strings.Split(list, ",")
	if list == "all" {
		names = algorithms.Names()
	}
	var out []bench.Method
	for _, n := range names {
		n = strings.TrimSpace(n)
		params := map[string]any{}
		switch n {
		case "nagc":
			params = map[string]any{"lambda": 0.01, "rho": 0.95, "init": "random", "iterations": iterations}
		case "jwnmf", "snmf", "nmf":
			params = map[string]any{"iterations": iterations}
			if n == "jwnmf" {
				params["init"] = "random"
			}
		}
		if _, err := algorithms.New(n, params); err != nil {
			return nil, err
		}
		out = append(out, bench.Method{Name: n, Algo: n, Params: params})
	}
	return out, nil
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/nagc-harness/nagc/datasets"
)

func runDatasets(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "fetch" {
		return runFetch(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "where" {
		return runWhere(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "synth" {
		return runSynth(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "stats" {
		w := stderr
		if isHelp(args) {
			w = stdout
		}
		fmt.Fprintln(w, "usage: nagc datasets stats [graph flags of cluster] [--json] [NAME|PATH…]   n, edges, m, k1, nnz(X), density, self-loops, isolated vertices, dropped edges, and the load report")
		fmt.Fprintln(w, "       nagc datasets fetch NAME…|all [--dir DIR]               download the paper's datasets (default into $NAGC_DATA or ~/.cache/nagc/datasets)")
		fmt.Fprintln(w, "       nagc datasets where [NAME…]                             the places datasets are looked up in, and where each named one is found")
		fmt.Fprintln(w, "       nagc datasets synth --shape arxiv|products|… [--n --edges --m --k --homophily --dense] --out FILE.npz")
		fmt.Fprintln(w, "                                                               write a planted graph of a given shape")
		if w == stdout {
			return nil
		}
		return errUsage
	}
	return runStats(args[1:], stdout, stderr)
}

// runStats implements `nagc datasets stats`: the graph flags of cluster (--data names a
// graph as it does there; a folder of named datasets still works as their root), then
// one row (or JSON object) per graph, with the load report on stderr.
func runStats(args []string, stdout, stderr io.Writer) error {
	const usage = "datasets stats [--data NAME|PATH] [--format F] [--features FILE] [--feature-layout L] [--labels none|column|FILE] [--allow-dropped] [--max-memory SIZE] [--quiet] [--json] [NAME|PATH…]"
	fs := newFlagSet("datasets stats", usage, stderr)
	gf := addGraphFlags(fs, "", "")
	fs.Lookup("data").Usage += "; or a folder of datasets: then the graphs in it (or the NAMEs given) are read from it alone, and a folder holding no graph is an error"
	asJSON := fs.Bool("json", false, "print one JSON object per dataset, with its load report")
	names, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := gf.apply(); err != nil {
		return err
	}
	if d := *gf.data; d != "" {
		if datasets.IsDataRoot(d) {
			restore, err := setDataRoot(d, &names)
			if err != nil {
				return err
			}
			defer restore()
			if len(names) == 0 {
				if names = datasets.DatasetsIn(d); len(names) == 0 {
					return noGraphIn(d)
				}
			}
		} else {
			names = append([]string{d}, names...)
		}
	}
	if len(names) == 0 {
		names = datasets.PaperNames()
	}
	var stats []datasets.Stats
	for _, name := range names {
		*gf.data = name
		g, rep, err := gf.load(stderr)
		if err != nil {
			return err
		}
		s := g.Stats()
		if !*asJSON {
			stats = append(stats, s)
			continue
		}
		if err := datasets.WriteStatsJSON(stdout, s, rep); err != nil {
			return err
		}
	}
	if *asJSON {
		return nil
	}
	return datasets.WriteStatsTable(stdout, stats)
}

// runWhere implements `nagc datasets where [NAME…]`: the search path, then the folder of
// each named dataset (default: the paper's four). It fails when one is not found.
func runWhere(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("datasets where", "datasets where [--data DIR] [NAME…]", stderr)
	names, restore, err := parseDatasetNames(fs, args)
	if err != nil {
		return err
	}
	defer restore()
	fmt.Fprintln(stdout, "datasets are looked up by name in:")
	for _, p := range datasets.SearchPath() {
		fmt.Fprintf(stdout, "  %s (%s)\n", p.Dir, p.Why)
	}
	missing := 0
	for _, name := range names {
		if name == "synthetic" {
			fmt.Fprintf(stdout, "%s: built in\n", name)
			continue
		}
		dir, err := datasets.Locate(name)
		if err != nil {
			missing++
			fmt.Fprintf(stdout, "%s: not found\n", name)
			continue
		}
		fmt.Fprintf(stdout, "%s: %s\n", name, dir)
	}
	if missing > 0 {
		return fmt.Errorf("%d of %d datasets not found: `nagc datasets fetch all` downloads the paper's four", missing, len(names))
	}
	return nil
}

// parseDatasetNames adds --data to fs, parses args and returns the datasets named (the
// paper's four when none is), with --data applied (see setDataRoot) until restore.
func parseDatasetNames(fs *flag.FlagSet, args []string) (names []string, restore func(), err error) {
	data := fs.String("data", "", "the folder holding the named datasets, the only place they are looked for (default: $NAGC_DATA, the download folder, ../shared/datasets beside a checkout)")
	if names, err = parseFlags(fs, args); err != nil {
		return nil, nil, err
	}
	restore = func() {}
	if *data != "" {
		if restore, err = setDataRoot(*data, &names); err != nil {
			return nil, nil, err
		}
	}
	if len(names) == 0 {
		names = datasets.PaperNames()
	}
	return names, restore, nil
}

// runSynth implements `nagc datasets synth`: a planted graph of a given shape
// (datasets.SyntheticShape) written as .npz.
func runSynth(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("datasets synth", "datasets synth --shape NAME [--n N] [--edges E|--degree D] [--m M] [--k K] [--homophily H] [--dense=true|false] [--signed] [--noise S] [--seed S] --out FILE.npz", stderr)
	shape := fs.String("shape", "", "named shape whose values the other flags override: "+strings.Join(datasets.ShapeNames(), ", ")+" (none: give --n, --edges, --m, --k)")
	n := fs.Int("n", 0, "vertices")
	edges := fs.Int("edges", 0, "undirected edges drawn")
	degree := fs.Float64("degree", 0, "mean degree (sets the edges to n·degree/2)")
	m := fs.Int("m", 0, "attribute columns")
	k := fs.Int("k", 0, "classes")
	h := fs.Float64("homophily", 0, "share of each vertex's edges inside its class, 0 … 1")
	denseAttr := fs.Bool("dense", true, "dense float32 attributes |class mean + Gaussian noise| (false: sparse 0/1)")
	signed := fs.Bool("signed", false, "dense float32 attributes class mean + Gaussian noise, with their signs (as embeddings)")
	noise := fs.Float64("noise", 0, "standard deviation of the dense attributes' noise (class means have 1)")
	seed := fs.Uint64("seed", 0, "random seed (default the shape's, 1)")
	out := fs.String("out", "", "the .npz file to write (required)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 || *out == "" {
		fs.Usage()
		return errUsage
	}
	s := datasets.Shape{Name: *shape, N: *n, Edges: *edges, Degree: *degree, M: *m, K: *k, Homophily: *h, Noise: *noise, Seed: *seed}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "dense" {
			s.Attributes = map[bool]string{true: "dense", false: "sparse"}[*denseAttr]
		}
	})
	if *signed {
		s.Attributes = "signed"
	}
	return datasets.WriteShape(stdout, *out, s)
}

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/nagc-harness/nagc/datasets"
)

func runDatasets(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "fetch" {
		return runFetch(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "where" {
		return runWhere(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "stats" {
		w := stderr
		if isHelp(args) {
			w = stdout
		}
		fmt.Fprintln(w, "usage: nagc datasets stats [graph flags of cluster] [--json] [NAME|PATH…]   n, edges, m, k1, nnz(X), density, self-loops, dangling edges, and the load report")
		fmt.Fprintln(w, "       nagc datasets fetch NAME…|all [--dir DIR]               download the paper's datasets (default into $NAGC_DATA or ~/.cache/nagc/datasets)")
		fmt.Fprintln(w, "       nagc datasets where [NAME…]                             the places datasets are looked up in, and where each named one is found")
		if w == stdout {
			return nil
		}
		return errUsage
	}
	return runStats(args[1:], stdout, stderr)
}

// statsOutput is one line of `nagc datasets stats --json`.
type statsOutput struct {
	datasets.Stats
	Load *datasets.LoadReport `json:"load_report"`
}

// runStats implements `nagc datasets stats`: the graph flags of cluster (--data names a
// graph as it does there; a folder of named datasets still works as their root), then
// one row (or JSON object) per graph, with the load report on stderr.
func runStats(args []string, stdout, stderr io.Writer) error {
	const usage = "datasets stats [--data NAME|PATH] [--format F] [--features FILE] [--feature-layout L] [--labels none|column|FILE] [--allow-dropped] [--max-memory SIZE] [--quiet] [--json] [NAME|PATH…]"
	fs := newFlagSet("datasets stats", usage, stderr)
	gf := addGraphFlags(fs, "", "")
	asJSON := fs.Bool("json", false, "print one JSON object per dataset, with its load report")
	names, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := gf.apply(); err != nil {
		return err
	}
	if d := *gf.data; d != "" {
		if isDataRoot(d) {
			if err := setDataRoot(d, &names); err != nil {
				return err
			}
		} else {
			names = append([]string{d}, names...)
		}
	}
	if len(names) == 0 {
		names = datasets.PaperNames()
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	if !*asJSON {
		fmt.Fprintln(tw, "dataset\tn\tedges\tm\tk1\tlabelled\tnnz(X)\tdensity %\tself-loops\tdangling\t")
	}
	for _, name := range names {
		*gf.data = name
		g, rep, err := gf.load(stderr)
		if err != nil {
			return err
		}
		s := g.Stats()
		if *asJSON {
			b, err := json.Marshal(statsOutput{Stats: s, Load: rep})
			if err != nil {
				return err
			}
			fmt.Fprintln(stdout, string(b))
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.2f\t%d\t%d\t\n",
			s.Name, s.N, s.Edges, s.M, s.K, s.Labeled, s.NNZX, 100*s.Density, s.SelfLoops, s.Dangling)
	}
	return tw.Flush()
}

// isDataRoot reports whether --data dir of `datasets stats` names a folder of named
// datasets (as $NAGC_DATA does) rather than one graph: a folder holding none of the files
// a graph folder holds.
func isDataRoot(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	for _, pat := range []string{"*.content", "edges.*", "adj.mtx", "adjacency.mtx", "*.npz"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) > 0 {
			return false
		}
	}
	return true
}

// runWhere implements `nagc datasets where [NAME…]`: the search path, then the folder of
// each named dataset (default: the paper's four). It fails when one is not found.
func runWhere(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("datasets where", "datasets where [--data DIR] [NAME…]", stderr)
	names, err := parseDatasetNames(fs, args)
	if err != nil {
		return err
	}
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
// paper's four when none is), with --data applied (see setDataRoot).
func parseDatasetNames(fs *flag.FlagSet, args []string) ([]string, error) {
	data := fs.String("data", "", "folder holding the named datasets (overrides $NAGC_DATA)")
	names, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if *data != "" {
		if err := setDataRoot(*data, &names); err != nil {
			return nil, err
		}
	}
	if len(names) == 0 {
		names = datasets.PaperNames()
	}
	return names, nil
}

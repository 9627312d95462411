package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
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
		fmt.Fprintln(w, "usage: nagc datasets stats [--data DIR] [--json] [NAME|DIR…]   n, edges, m, k1, nnz(X), density, self-loops, dangling edges")
		fmt.Fprintln(w, "       nagc datasets fetch NAME…|all [--dir DIR]               download the paper's datasets (default into $NAGC_DATA or ~/.cache/nagc/datasets)")
		fmt.Fprintln(w, "       nagc datasets where [NAME…]                             the places datasets are looked up in, and where each named one is found")
		if w == stdout {
			return nil
		}
		return errUsage
	}
	fs := newFlagSet("datasets stats", "datasets stats [--data DIR] [--json] [NAME|DIR…]", stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per dataset")
	names, err := parseDatasetNames(fs, args[1:])
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	if !*asJSON {
		fmt.Fprintln(tw, "dataset\tn\tedges\tm\tk1\tnnz(X)\tdensity %\tself-loops\tdangling\t")
	}
	for _, name := range names {
		g, rep, err := datasets.LoadSpec(datasets.Spec{Path: name})
		if err != nil {
			return err
		}
		if rep != nil && !*asJSON {
			for _, line := range append(rep.Notes, rep.Warnings...) {
				fmt.Fprintf(stderr, "%s: %s\n", g.Name, line)
			}
			for _, d := range rep.Dropped {
				fmt.Fprintf(stderr, "%s: dropped %d× %s (%s)\n", g.Name, d.Count, d.Reason, d.File)
			}
		}
		s := g.Stats()
		if *asJSON {
			b, _ := json.Marshal(s)
			fmt.Fprintln(stdout, string(b))
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.2f\t%d\t%d\t\n",
			s.Name, s.N, s.Edges, s.M, s.K, s.NNZX, 100*s.Density, s.SelfLoops, s.Dangling)
	}
	return tw.Flush()
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

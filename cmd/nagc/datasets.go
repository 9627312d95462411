package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/nagc-harness/nagc/datasets"
)

func runDatasets(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "fetch" {
		return runFetch(ctx, args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "stats" {
		fmt.Fprintln(stderr, "usage: nagc datasets stats [--data DIR] [--json] [NAME|DIR…]")
		fmt.Fprintln(stderr, "       nagc datasets fetch NAME…|all [--dir DIR]")
		return errUsage
	}
	fs := newFlagSet("datasets stats", "datasets stats [--data DIR] [--json] [NAME|DIR…]", stderr)
	data := fs.String("data", "", "folder holding the named datasets (overrides $NAGC_DATA)")
	asJSON := fs.Bool("json", false, "print one JSON object per dataset")
	names, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if *data != "" {
		if err := setDataRoot(*data, &names); err != nil {
			return err
		}
	}
	if len(names) == 0 {
		names = datasets.PaperNames()
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	if !*asJSON {
		fmt.Fprintln(tw, "dataset\tn\tedges\tm\tk1\tnnz(X)\tdensity %\tself-loops\tdangling\t")
	}
	for _, name := range names {
		g, err := datasets.Load(name)
		if err != nil {
			return err
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

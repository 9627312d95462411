package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/nagc-harness/nagc/datasets"
)

// runFetch implements `nagc datasets fetch NAME… [--dir DIR]`.
func runFetch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const usageLine = "datasets fetch NAME…|all [--dir DIR]"
	fs := newFlagSet("datasets fetch", usageLine, stderr)
	dir := fs.String("dir", "", "folder to create the dataset folders in (default: $NAGC_DATA, else nagc/datasets in your cache folder, e.g. ~/.cache/nagc/datasets)")
	base := fs.String("base-url", "", "download from this server (a mirror) instead of the public sources, keeping their paths")
	names, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		fs.Usage()
		fmt.Fprintf(stderr, "\ndatasets: %s, or all\n", strings.Join(datasets.PaperNames(), ", "))
		return errUsage
	}
	if len(names) == 1 && names[0] == "all" {
		names = datasets.PaperNames()
	}
	opt := datasets.FetchOptions{Dir: *dir, BaseURL: *base, Log: stderr}
	for _, name := range names {
		res, err := datasets.Fetch(ctx, name, opt)
		if err != nil {
			return err
		}
		s := res.Stats
		state := "fetched"
		if res.Present {
			state = "already present"
		}
		fmt.Fprintf(stdout, "%s: %s in %s (n=%d, edges=%d, m=%d, k1=%d)\n", name, state, res.Dir, s.N, s.Edges, s.M, s.K)
	}
	return nil
}

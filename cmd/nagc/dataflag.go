package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/nagc-harness/nagc/datasets"
)

// setDataRoot makes dir, the folder a --data flag names, the one place where datasets
// named by a bare name are looked up: no look-up falls back to $NAGC_DATA, the download
// folder or the checkout's shared folder. A LINQS folder itself becomes the only dataset
// when none is named. It returns the function that restores the search path.
func setDataRoot(dir string, names *[]string) (restore func(), err error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return func() {}, fmt.Errorf("--data %s: not a folder", dir)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.content")); len(m) > 0 && len(*names) == 0 {
		*names = []string{dir}
	}
	return datasets.SearchOnly(dir), nil
}

// setDataFolder applies a --data flag naming the folder that holds the named datasets
// (nothing for ""), as setDataRoot does; a folder that is itself one dataset is an error.
func setDataFolder(data string) (restore func(), err error) {
	if data == "" {
		return func() {}, nil
	}
	var names []string
	restore, err = setDataRoot(data, &names)
	if err == nil && len(names) > 0 {
		restore()
		return func() {}, fmt.Errorf("--data %s: want the folder holding the dataset folders (webkb, cora, …), not one dataset", data)
	}
	return restore, err
}

// noGraphIn is the error of a --data folder that holds no graph: neither a graph's own
// files nor folders of datasets.
func noGraphIn(dir string) error {
	return fmt.Errorf("--data %s: found no graph there: no graph files (a LINQS .content, edges.csv/.tsv/.txt, adj.mtx, an .npz, an OGB raw/edge.csv.gz) and no folder holding one (such as webkb, cora)", dir)
}

// checkK1Flag refuses a --k1 given below min (0 is not a number of clusters, nor a way to
// ask for the default, which omitting the flag gives), saying how to ask for the default.
func checkK1Flag(fs *flag.FlagSet, min int, howDefault string) error {
	f := fs.Lookup("k1")
	given := false
	fs.Visit(func(v *flag.Flag) { given = given || v.Name == "k1" })
	if k, err := strconv.Atoi(f.Value.String()); given && err == nil && k < min {
		return fmt.Errorf("--k1 %d: the number of clusters must be at least %d; %s", k, min, howDefault)
	}
	return nil
}

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/datasets"
)

// TestDataNamesOneThing checks that a folder named by --data is the graph or the one
// place datasets are looked up, in every command that takes --data: a folder holding no
// graph is an error saying so, never the paper's graphs found elsewhere.
func TestDataNamesOneThing(t *testing.T) {
	t.Setenv(datasets.DataVar, "/work/shared/datasets") // where the paper's graphs may be: never looked at below
	empty := t.TempDir()
	root := t.TempDir()
	if err := os.Rename(twoTriangles(t, false), filepath.Join(root, "mine")); err != nil {
		t.Fatal(err)
	}
	before := datasets.SearchPath()
	for _, c := range []struct {
		args []string
		want string // in stderr, with a non-zero exit
	}{
		{[]string{"datasets", "stats", "--data", empty}, "found no graph there"},
		{[]string{"datasets", "stats", "--data", empty, "cora"}, `no dataset "cora"; looked in:` + "\n  " + filepath.Join(empty, "cora") + " (--data)\n  cora (the working folder)"},
		{[]string{"datasets", "where", "--data", empty}, "4 of 4 datasets not found"},
		{[]string{"cluster", "--data", empty, "--method", "metis"}, "cannot tell the format of this folder"},
		{[]string{"auto", "--data", empty}, "cannot tell the format of this folder"},
		{[]string{"bench", "--data", empty, "--sizes", "none"}, "--data " + empty},
		{[]string{"results", "rescore", t.TempDir(), "--data", filepath.Join(empty, "none")}, "not a folder"},
	} {
		code, _, stderr := cli(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("nagc %s: exit %d, stderr %q; want an error with %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
		if !slices.Equal(datasets.SearchPath(), before) {
			t.Errorf("nagc %s left the search path at %v", strings.Join(c.args, " "), datasets.SearchPath())
		}
	}
	code, stdout, stderr := cli(t, "datasets", "stats", "--data", root, "--quiet")
	if code != 0 || !strings.Contains(stdout, "mine") || strings.Contains(stdout, "cora") {
		t.Errorf("datasets stats --data a folder of one dataset: exit %d, stdout %q, stderr %q; want that dataset alone", code, stdout, stderr)
	}
	code, stdout, _ = cli(t, "datasets", "where", "--data", root, "mine")
	if code != 0 || !strings.Contains(stdout, "mine: "+filepath.Join(root, "mine")) || strings.Contains(stdout, "$NAGC_DATA") {
		t.Errorf("datasets where --data: exit %d, stdout %q; want only the folder given", code, stdout)
	}
}

// TestK1ZeroIsRefused checks that --k1 0 (or below) is refused, saying how to ask for the
// default, rather than silently meaning the number of classes.
func TestK1ZeroIsRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cluster", "--data", "synthetic", "--k1", "0"}, "--k1 0: the number of clusters must be at least 1; leave --k1 out for the number of classes"},
		{[]string{"cluster", "--data", "synthetic", "--k1", "-3"}, "--k1 -3: the number of clusters must be at least 1"},
		{[]string{"auto", "--data", "synthetic", "--k1", "0"}, "--k1 0: the number of clusters must be at least 2; leave --k1 out to choose it"},
	} {
		code, _, stderr := cli(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("nagc %s: exit %d, stderr %q; want %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}

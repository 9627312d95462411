package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/auto"
)

// TestAutoOwnGraph runs nagc auto on a graph of one's own without labels, with and
// without --k1, and checks what it writes.
func TestAutoOwnGraph(t *testing.T) {
	chdirOwnGraph(t)
	for _, args := range [][]string{
		{"auto", "--data", "mine", "--k1", "2", "--budget", "quick", "--workers", "2"},
		{"auto", "--data", "mine", "--budget", "quick", "--out", "chosen-k", "--workers", "2"},
	} {
		code, stdout, stderr := cli(t, args...)
		if code != 0 {
			t.Fatalf("nagc %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
		for _, want := range []string{auto.Version, "chosen: ", "runner-up: ", "mean pairwise ARI"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("nagc %s: output lacks %q:\n%s", strings.Join(args, " "), want, stdout)
			}
		}
		if strings.Contains(stdout, "ARI against") {
			t.Errorf("an ARI reported for a graph without labels:\n%s", stdout)
		}
		out := "auto-mine"
		if len(args) == 7 {
			out = "chosen-k"
			if !strings.Contains(stdout, "k1 curve") {
				t.Errorf("no k1 curve:\n%s", stdout)
			}
		}
		tsv, err := os.ReadFile(filepath.Join(out, "clusters.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Split(strings.TrimSpace(string(tsv)), "\n"); len(lines) != 20 || !strings.HasPrefix(lines[0], "n0_0\t") {
			t.Errorf("clusters.tsv:\n%s", tsv)
		}
		for _, f := range []string{"choice.json", "report.md"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestAutoErrors: a bad command line gets an error in the user's words.
func TestAutoErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"auto"}, 2, "--data is required: the graph to cluster"},
		{[]string{"auto", "--data", "synthetic", "--budget", "huge"}, 1, "--budget huge: unknown budget (known: quick, standard, thorough)"},
		{[]string{"auto", "--data", "synthetic", "--k1", "1"}, 1, "--k1 1: the number of clusters must be at least 2"},
		{[]string{"auto", "--data", "synthetic", "--k1", "9999"}, 1, "--k1 9999: more clusters than the 600 vertices of synthetic"},
		{[]string{"auto", "--data", "synthetic", "--seed", "0"}, 1, "--seed 0: seeds start at 1"},
		{[]string{"auto", "--data", "no/such/graph"}, 1, "no/such/graph"},
		{[]string{"auto", "cora"}, 1, `unexpected argument "cora" (give the graph as --data cora)`},
	} {
		code, _, stderr := cli(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("nagc %s: exit %d, %q; want %d, %q", strings.Join(tc.args, " "), code, stderr, tc.code, tc.want)
		}
	}
}

package main

import (
	"os"
	"strings"
	"testing"
)

// TestRunDryRun checks that `nagc run --dry-run` prints each search's rungs, fits and
// iterations (with its held-out fits) as the engine plans them, writes no results
// folder, and says so for a config without a search.
func TestRunDryRun(t *testing.T) {
	t.Chdir(t.TempDir())
	search := "name: d\nseed: 1\nrestarts: 3\niterations: 27\nholdout: 0.2\ndatasets: [synthetic]\n" +
		"search: {sampler: random, trials: 9, batch: 9, rule: heldout, prune: halving, min_iterations: 3, eta: 3, first_restarts: 1}\n" +
		"methods:\n  - {name: P, algorithm: nagc, space: {lambda: {log: [1.0e-4, 10]}}}\n"
	grid := "name: g\nseed: 1\nrestarts: 1\niterations: 5\ndatasets: [synthetic]\nmethods:\n  - {name: P, algorithm: nagc}\n"
	for _, f := range []struct{ name, text string }{{"d.yaml", search}, {"g.yaml", grid}} {
		if err := os.WriteFile(f.name, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Held out: 9 trials × 1 restart × 3 iterations (27); 3 trials × 3 restarts, 1
	// continued by 6 and 2 new with 9 (72); 1 trial × 3 restarts continued by 18 (54).
	// The whole graph (whole_graph last_rung, rule heldout's default): 3 fits of 27 at
	// the last rung; with every_rung, the held-out fits' twins.
	wantLast := "search P on synthetic: 9 trials in one batch, rungs at 3, 9, 27 iterations: 21 held-out fits (holdout 0.2), 153 iterations, " +
		"and 3 fits of the whole graph at the last rung, 81 iterations: 24 fits, 234 iterations in all; over 3 restarts"
	wantEvery := "search P on synthetic: 9 trials in one batch, rungs at 3, 9, 27 iterations: 21 fits, 153 iterations, " +
		"each fit with its held-out fit (holdout 0.2): 42 fits, 306 iterations in all; over 3 restarts"
	every := strings.Replace(search, "first_restarts: 1}", "first_restarts: 1, whole_graph: every_rung}", 1)
	if err := os.WriteFile("e.yaml", []byte(every), 0o644); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{"d.yaml": wantLast, "e.yaml": wantEvery} {
		code, stdout, stderr := cli(t, "run", file, "--results", "r", "--dry-run", "--quiet")
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("%s: exit %d; stdout %q, stderr %q; want %q", file, code, stdout, stderr, want)
		}
	}
	if _, err := os.Stat("r"); !os.IsNotExist(err) {
		t.Errorf("--dry-run made the results folder (%v)", err)
	}
	code, stdout, _ := cli(t, "run", "g.yaml", "--dry-run", "--quiet")
	if code != 0 || !strings.Contains(stdout, "g.yaml has no search") {
		t.Errorf("grid config: exit %d, %q", code, stdout)
	}
}

package experiments

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// TestPopulationsNotPooled records one config into a folder and checks which configs with
// a row of the same name may record into it after: the same config (resumed) and one
// whose grid and restarts grew may; one with other restarts, iterations, options or seed
// is refused before anything is recorded, the error naming the row, each key with its
// recorded and its new value, and the config file that recorded the runs. A row of
// another name is never refused.
func TestPopulationsNotPooled(t *testing.T) {
	const first = "name: first\nseed: 1\nrestarts: 3\niterations: 5\ndatasets: [synthetic]\nmethods:\n  - name: KM\n    algorithm: kmeans\n    grid:\n      n_init: [1, 2]\n  - name: S\n    algorithm: snmf\n"
	dir := t.TempDir()
	config := func(name, text string) *Config {
		t.Helper()
		path := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := LoadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	resDir := filepath.Join(dir, "results")
	run := func(cfg *Config) error {
		_, err := Execute(context.Background(), cfg, Options{ResultsDir: resDir, Workers: 1})
		return err
	}
	a := config("a", first)
	if err := run(a); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text string
		want       []string // "" want: accepted
	}{
		{"same", first, nil},
		{"other-row", strings.Replace(strings.Replace(first, "name: KM", "name: KM2", 1), "[1, 2]", "[1, 3]", 1), nil},
		{"fewer-restarts", strings.Replace(first, "restarts: 3", "restarts: 2", 1), []string{`row "KM" on synthetic`, "restarts 3 → 2", "a.yaml"}},
		{"iterations", strings.Replace(first, "iterations: 5", "iterations: 7", 1), []string{`row "S" on synthetic: iterations 5 → 7`, "a.yaml"}},
		{"options", strings.Replace(first, "    grid:\n", "    options: {tol: 0.001}\n    grid:\n", 1), []string{"tol (unset) → 0.001"}},
		{"grid", strings.Replace(first, "[1, 2]", "[1, 3]", 1), []string{"n_init 2 → one of 1, 3"}},
		{"seed", strings.Replace(first, "seed: 1", "seed: 2", 1), []string{"seed"}},
		{"more", strings.Replace(strings.Replace(first, "[1, 2]", "[1, 2, 3]", 1), "restarts: 3", "restarts: 4", 1), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := os.ReadFile(filepath.Join(resDir, results.RunsFile))
			err := run(config(tc.name, tc.text))
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted: its runs would be pooled with the first config's")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if after, _ := os.ReadFile(filepath.Join(resDir, results.RunsFile)); string(after) != string(before) {
				t.Error("the refused config recorded runs")
			}
		})
	}
	// After the grown config, the first is narrower than the folder: refused.
	if err := run(a); err == nil || !strings.Contains(err.Error(), "restarts 4 → 3") || !strings.Contains(err.Error(), "more.yaml") {
		t.Errorf("the first config after a wider one: %v, want restarts 4 → 3 recorded by more.yaml", err)
	}
}

// TestMergeRefusesAnotherPopulation checks that merging, for a config, a folder that
// another config with a row of the same name recorded into is refused, naming what
// differs, while the config's own folder merges.
func TestMergeRefusesAnotherPopulation(t *testing.T) {
	text := "name: m\nseed: 1\nrestarts: 2\ndatasets: [synthetic]\nmethods:\n  - name: KM\n    algorithm: kmeans\n"
	a := mustLoad(t, text)
	b := mustLoad(t, strings.Replace(text, "restarts: 2", "restarts: 3", 1))
	dirA, dirB, dst := t.TempDir(), t.TempDir(), t.TempDir()
	for _, c := range []struct {
		cfg *Config
		dir string
	}{{a, dirA}, {b, dirB}} {
		if _, err := Execute(context.Background(), c.cfg, Options{ResultsDir: c.dir, Workers: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if gaps, err := MergeGaps(a.File, dst, []string{dirA}); err != nil || len(gaps) != 0 {
		t.Errorf("merging the config's own folder: gaps %v, %v", gaps, err)
	}
	if _, err := MergeGaps(a.File, dst, []string{dirA, dirB}); err == nil || !strings.Contains(err.Error(), "restarts 3 → 2") {
		t.Errorf("merging another config's folder: %v, want restarts 3 → 2", err)
	}
}

package render

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/experiments"

	"github.com/nagc-harness/nagc/datasets"
	recorded "github.com/nagc-harness/nagc/results"
)

// The report of a results folder holding a search and a grid of the same method: the
// search's section with its best-so-far (against iterations and seconds) and rung
// figures (the grid's best as a line), its trials table and the table "search against
// grid" in every format, one line per trial with its outcome, and the
// share of the grid's iterations.
func TestSearchReport(t *testing.T) {
	const config = `name: s
seed: 3
restarts: 2
iterations: 27
metrics: [ari, modularity]
datasets: [synthetic]
search: {sampler: tpe, trials: 12, batch: 6, rule: modularity, prune: halving, min_iterations: 3, first_restarts: 1}
methods:
  - name: S
    algorithm: nagc
    space:
      lambda: {log: [1.0e-4, 10]}
      rho: [0.5, 0.95]
  - name: G
    algorithm: nagc
    grid:
      lambda: [1.0e-2, 1]
      rho: [0.5, 0.95]
`
	dir := sweepOf(t, config, 2)
	out := filepath.Join(t.TempDir(), "rep")
	if _, err := Generate(Options{ResultsDir: dir, OutDir: out, Figures: []string{FormatPNG}, NoPaper: true,
		LoadGraph: func(string) (*datasets.Graph, error) { return nil, errors.New("no data") }}, nil); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"search_best_synthetic_s.png", "search_rungs_synthetic_s.png", "search_trials_synthetic_s.md",
		"search_trials_synthetic_s.tex", "search_trials_synthetic_s.csv", "search_best_seconds_synthetic_s.png", "search_slices_synthetic_s.png",
		"search_parallel_synthetic_s.png",
		"search_grid_synthetic_s.md", "search_grid_synthetic_s.tex", "search_grid_synthetic_s.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "REPORT.md"))
	for _, want := range []string{"## Searches", "### S on synthetic (rule modularity)", "12 trials: 2 completed the last rung, 10 cut",
		"The grid of G on the same dataset ran 216 iterations", "| grid | G |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	table, _ := os.ReadFile(filepath.Join(out, "search_trials_synthetic_s.md"))
	if n, c := strings.Count(string(table), "| completed |"), strings.Count(string(table), "| cut |"); n != 2 || c != 10 || strings.Contains(string(table), "bracket") {
		t.Errorf("trials table: %d completed, %d cut\n%s", n, c, table)
	}

	// Hyperband: the trials table says each trial's bracket; every trial is completed
	// or cut.
	dir = sweepOf(t, strings.Replace(config, "prune: halving", "prune: hyperband", 1), 2)
	out = filepath.Join(t.TempDir(), "rep")
	if _, err := Generate(Options{ResultsDir: dir, OutDir: out, Figures: []string{FormatPNG}, NoPaper: true,
		LoadGraph: func(string) (*datasets.Graph, error) { return nil, errors.New("no data") }}, nil); err != nil {
		t.Fatal(err)
	}
	table, _ = os.ReadFile(filepath.Join(out, "search_trials_synthetic_s.md"))
	n, c := strings.Count(string(table), "| completed |"), strings.Count(string(table), "| cut |")
	if !strings.Contains(string(table), "| bracket | rung |") || n+c != 12 || n < 3 {
		t.Errorf("Hyperband's trials table: %d completed, %d cut\n%s", n, c, table)
	}
}

// A search under rule heldout with a grid beside it: the section counts the held-out
// copies' iterations and the runs that fitted only them (whole_graph last_rung), and the
// table "search against grid" counts held-out iterations on both sides and says how.
func TestSearchReportHeldOut(t *testing.T) {
	const config = `name: h
seed: 3
restarts: 2
iterations: 27
holdout: 0.2
metrics: [ari, modularity]
datasets: [synthetic]
search: {sampler: random, trials: 6, batch: 6, rule: heldout, prune: halving, min_iterations: 3, first_restarts: 1}
methods:
  - name: S
    algorithm: nagc
    space:
      lambda: {log: [1.0e-4, 10]}
  - name: G
    algorithm: nagc
    grid:
      lambda: [1.0e-2, 1]
`
	dir := sweepOf(t, config, 2)
	out := filepath.Join(t.TempDir(), "rep")
	if _, err := Generate(Options{ResultsDir: dir, OutDir: out, Figures: []string{FormatPNG}, NoPaper: true,
		LoadGraph: func(string) (*datasets.Graph, error) { return nil, errors.New("no data") }}, nil); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(out, "REPORT.md"))
	// Held out: 6 trials × 1 restart × 3 iterations (18); 2 trials × 2 restarts, one
	// continued by 6 and one new with 9 (30); 1 trial × 2 restarts continued by 18 (36).
	// The whole graph: that trial at the last rung, 2 restarts × 27. The grid: 2 points
	// × 2 restarts × 27, twice (held out).
	for _, want := range []string{"6 trials: 1 completed the last rung, 5 cut; 12 runs ran 138 iterations in all: " +
		"84 on held-out copies of the graph, 54 on the whole graph (10 runs, before the last rung, fitted only the held-out copy their rule reads).",
		"The grid of G on the same dataset ran 216 iterations (the search: 63.9 % of them)",
		"Held-out fits count their iterations; their seconds are recorded by a search's fits only"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	table, _ := os.ReadFile(filepath.Join(out, "search_grid_synthetic_s.md"))
	if !strings.Contains(string(table), "| 4 | 216 |") || !strings.Contains(string(table), "| 12 | 138 |") {
		t.Errorf("search against grid: want the grid's 216 iterations and the search's 138\n%s", table)
	}
}

// The rows table never calls a label-free rule's choice among the trials of a search by
// ARI label-free: it says that a search by the labels kept them.
func TestSearchByLabelsRowsTable(t *testing.T) {
	const config = `seed: 3
restarts: 1
iterations: 9
metrics: [ari, modularity]
datasets: [synthetic]
methods:
  - name: S
    algorithm: nagc
    space: {lambda: {log: [1.0e-4, 10]}}
    search: {sampler: random, trials: 3, rule: ari}
`
	recs, err := recorded.Load(sweepOf(t, config, 1))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewResults(recs, nil, nil, recorded.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	if md := RowsTable(r, "synthetic").Markdown(); !strings.Contains(md, "| S | best modularity (but a search by the labels kept its trials) |") {
		t.Errorf("rows table calls the choice among an ARI search's trials label-free:\n%s", md)
	}
}

// sweepOf runs the config text on workers workers into a new results folder and returns
// the folder.
func sweepOf(t *testing.T, config string, workers int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := experiments.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := experiments.Execute(context.Background(), cfg, experiments.Options{ResultsDir: dir, Workers: workers}); err != nil {
		t.Fatal(err)
	}
	return dir
}

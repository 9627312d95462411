package auto

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

func TestRungRatio(t *testing.T) {
	for _, tc := range []struct {
		its  []int
		want int // 0: an error
	}{
		{[]int{10, 30}, 3},
		{[]int{5, 10, 20}, 2},
		{[]int{10, 30, 60}, 0},
		{[]int{10, 15}, 0},
		{[]int{30, 10}, 0},
		{[]int{10}, 0},
		{[]int{0, 10}, 0},
	} {
		got, err := rungRatio(tc.its)
		if got != tc.want || (err != nil) != (tc.want == 0) {
			t.Errorf("rungRatio(%v) = %d, %v; want %d", tc.its, got, err, tc.want)
		}
	}
}

// TestPresetHalvingRow: a candidate row whose grid lists iterations {10, 30} (standard,
// thorough) becomes a search pruned by halving with those rungs, its other grid keys
// the space; the quick budget's rows are not pruned.
func TestPresetHalvingRow(t *testing.T) {
	for _, b := range Budgets {
		cfg, _, err := LoadBudget(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cfg.Methods {
			s := m.Search
			_, spaceIts := m.Space["iterations"]
			it := m.Options["iterations"]
			switch {
			case b != "quick" && m.Name.Value == "Prop. + filter":
				if s.Prune != experiments.PruneHalving || s.MinIterations != 10 || s.Eta != 3 || it.Value != "30" || spaceIts {
					t.Errorf("budget %s, row %s: prune %s, min_iterations %d, eta %d, iterations %q (in the space: %v); want halving 10 → 30",
						b, m.Name.Value, s.Prune, s.MinIterations, s.Eta, it.Value, spaceIts)
				}
			case s.Prune != experiments.PruneNone:
				t.Errorf("budget %s, row %s: prune %s, want none", b, m.Name.Value, s.Prune)
			}
		}
	}
}

// pointScores returns "mean sd runs" of the held-out modularity of every point of the
// records recs on dataset graph, by "row settings".
func pointScores(recs []results.Record) map[string]string {
	out := map[string]string{}
	for _, ps := range results.Aggregate(recs) {
		if ps.Dataset == "graph" {
			out[ps.Method+" "+results.FormatParams(ps.Params)] = fmt.Sprintf("%v %v %d",
				ps.Mean[results.MetricHeldOut], ps.Std[results.MetricHeldOut], ps.Runs)
		}
	}
	return out
}

// gridScores runs the candidate rows of the shipped config of budget b as the grid they
// are written as (what auto v2 ran) on the label-free copy of g with k1 clusters, and
// returns their points' scores (pointScores).
func gridScores(t *testing.T, g *datasets.Graph, b string, k1 int) map[string]string {
	t.Helper()
	cfg, err := experiments.OpenConfig("auto-" + b)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Methods = slices.DeleteFunc(cfg.Methods, func(m experiments.MethodSpec) bool { return strings.HasPrefix(m.Name.Value, KSelectionRow) })
	dir := t.TempDir()
	graphDir := filepath.Join(dir, "graph")
	if err := WriteUnlabeled(graphDir, g); err != nil {
		t.Fatal(err)
	}
	cfg.Datasets = []experiments.DatasetEntry{{Name: "graph", Path: graphDir, Format: UnlabeledFormat(g), Labels: "none", K1: k1}}
	runs := filepath.Join(dir, "runs")
	if err := execute(context.Background(), cfg, experiments.Options{ResultsDir: runs, Workers: 2, SeveralK1: true}); err != nil {
		t.Fatal(err)
	}
	recs, err := results.Load(runs)
	if err != nil {
		t.Fatal(err)
	}
	return pointScores(recs)
}

// candidateScores returns the scores of res's candidates as pointScores does.
func candidateScores(res *Result) map[string]string {
	out := map[string]string{}
	for _, c := range res.Candidates {
		out[c.Method+" "+results.FormatParams(c.Params)] = fmt.Sprintf("%v %v %d", c.Score, c.SD, c.Runs)
	}
	return out
}

// TestPresetAgainstGrid: the searches of the quick budget fit every point of its grid,
// to the same held-out scores bit for bit as the grid's runs, so the choice is the
// grid's; those of the standard budget fit every point at 10 iterations and continue
// the best third by held-out modularity to 30, each scoring as the grid's straight fit
// of that length, and no other.
func TestPresetAgainstGrid(t *testing.T) {
	g := synthetic(t, 3, 5)
	for _, b := range []string{"quick", "standard"} {
		res, err := Run(context.Background(), Options{Graph: g, K1: 3, Budget: b, OutDir: t.TempDir(), Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		got, grid := candidateScores(res), gridScores(t, g, b, 3)
		for key, s := range got {
			if grid[key] != s {
				t.Errorf("budget %s: %s scores %s, the grid's %q", b, key, s, grid[key])
			}
		}
		var missing, at10 []string
		for key := range grid {
			if _, ok := got[key]; !ok {
				missing = append(missing, key)
			}
			if strings.HasPrefix(key, "Prop. + filter") && strings.Contains(key, "iterations=10") {
				at10 = append(at10, key)
			}
		}
		if b == "quick" {
			if len(missing) > 0 || len(got) != 8 {
				t.Errorf("quick: %d candidates, %d of the grid's points not fitted: %v", len(got), len(missing), missing)
			}
			continue
		}
		// standard: the best ⌊18/3⌋ = 6 of the 18 points at 10 iterations go on to 30
		// (ties to the earlier trial): none cut scores above one that went on.
		if len(at10) != 18 || len(missing) != 12 {
			t.Errorf("standard: %d points at 10 iterations, %d of the grid's points not fitted; want 18 and 12", len(at10), len(missing))
		}
		lowestKept := math.Inf(1)
		for _, key := range at10 {
			if _, ok := got[at30(key)]; ok {
				lowestKept = min(lowestKept, res.scoreOf(key))
			}
		}
		for _, key := range missing {
			if !strings.Contains(key, "iterations=30") {
				t.Errorf("standard: %s not fitted", key)
			} else if s := res.scoreOf(strings.Replace(key, "iterations=30", "iterations=10", 1)); s > lowestKept {
				t.Errorf("standard: %s cut at 10 iterations with %v, above %v that went on", key, s, lowestKept)
			}
		}
	}
}

// at30 returns the key of point key continued to 30 iterations.
func at30(key string) string { return strings.Replace(key, "iterations=10", "iterations=30", 1) }

// scoreOf returns the score of the candidate "row settings".
func (r *Result) scoreOf(key string) float64 {
	for _, c := range r.Candidates {
		if c.Method+" "+results.FormatParams(c.Params) == key {
			return c.Score
		}
	}
	return 0
}

// TestPresetRecordsResume: auto's runs are a search's records (trial, rung, rule
// heldout), and running it again in the same folder fits nothing new and chooses the
// same.
func TestPresetRecordsResume(t *testing.T) {
	g := synthetic(t, 3, 5)
	dir := t.TempDir()
	opt := Options{Graph: g, K1: 3, Budget: "standard", OutDir: dir, Workers: 2}
	first, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(CandidatesDir(dir, "standard", 1, 3), results.RunsFile)
	before, err := os.ReadFile(runs)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(runs)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Errorf("running again appended %d bytes of records", len(after)-len(before))
	}
	if fmt.Sprint(scores(first)) != fmt.Sprint(scores(again)) {
		t.Errorf("running again chose differently:\n%v\n%v", scores(first), scores(again))
	}
	recs, _, err := results.ReadRecords(runs)
	if err != nil {
		t.Fatal(err)
	}
	cut := 0
	for _, r := range recs {
		if r.Search == nil || r.Search.Rule != results.SelectHeldOut || r.Search.Trial < 1 {
			t.Fatalf("record %s is not a search's under rule heldout: %+v", r.RunID, r.Search)
		}
		if r.Search.Cut {
			cut++
		}
	}
	if cut != 12*3 { // 12 of standard's 18 "Prop. + filter" points, 3 restarts each
		t.Errorf("%d records cut, want 36", cut)
	}
}

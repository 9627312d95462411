package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/results"
)

const smallConfig = `name: small
seed: 7
restarts: 2
iterations: 15
datasets: [synthetic]
methods:
  - name: "Prop."
    algorithm: nagc
    options: {init: kmeans}
    grid:
      lambda: [1.0e-2, 1]
      k2: [k1, 4, 6]
      rho: [0.5, 0.9]
  - name: "Prop. (w/o PU)"
    algorithm: nagc
    options: {init: kmeans, rho: 0.5}
    grid:
      lambda: [1.0e-2, 1]
      k2: [k1, 4, 6]
  - name: "k-means"
    algorithm: kmeans
`

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func mustLoad(t *testing.T, text string) *Config {
	t.Helper()
	cfg, err := LoadConfig(writeConfig(t, text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestConfigErrors(t *testing.T) {
	base := "datasets: [synthetic]\nmethods:\n  - name: P\n    algorithm: nagc\n"
	for _, tc := range []struct {
		name, text string
		line       int
		want       string
	}{
		{"unknown top key", "restart: 5\n" + base, 1, "config.yaml:1: unknown key 'restart' (did you mean 'restarts'?)"},
		{"wrong type", "restarts: many\n" + base, 1, "restarts: want a whole number, got 'many'"},
		{"typo in a method", "datasets: [synthetic]\nmethods:\n  - name: P\n    algoritm: nagc\n", 4, "unknown key 'algoritm' (did you mean 'algorithm'?)"},
		{"several faults", "sed: 1\nrestart: 2\n" + base, 1, "config.yaml:2: unknown key 'restart'"},
		{"list for a number", "restarts: [2]\n" + base, 1, "config.yaml:1: restarts: want a whole number, got a list"},
		// On a line with several keys the message names its own; no other key is put before it.
		{"key of a one-line dataset", "datasets:\n  - {name: mine, edges: e.csv}\nmethods:\n  - name: P\n    algorithm: nagc\n", 2, "config.yaml:2: unknown dataset key 'edges'"},
		{"key of a one-line method", "datasets: [synthetic]\nmethods:\n  - {name: P, algorithm: nagc, iterations: [3]}\n", 3, "config.yaml:3: unknown key 'iterations'"},
		{"datasets not a list", "datasets: synthetic\nmethods:\n  - name: P\n    algorithm: nagc\n", 1, "datasets: want a list such as [a, b], got 'synthetic'"},
		{"option value misspelt", base + "    options: {init: kmean}\n", 5, `init "kmean" is not one of random, kmeans, kmeans-median-ari, sgc (did you mean 'kmeans'?)`},
		{"rho zero", base + "    options: {rho: 0}\n", 5, "rho = 0 gives the graph's edges no weight"},
		{"rho above 1", base + "    grid:\n      rho: [0.5, 1.5]\n", 6, "rho: ρ must be a number in [0, 1]"},
		{"rho negative option", base + "    options: {rho: -0.1}\n", 5, "rho"},
		{"negative lambda", base + "    grid:\n      lambda: [-1]\n", 6, "lambda: λ must be a finite number ≥ 0"},
		{"empty grid", base + "    grid:\n      lambda: []\n", 6, "lambda: empty grid"},
		{"grid not a list", base + "    grid:\n      lambda: 3\n", 6, "must be a list"},
		{"unknown method", "datasets: [synthetic]\nmethods:\n  - name: P\n    algorithm: spectral\n", 4, "unknown method \"spectral\""},
		{"unknown option", base + "    options: {lamda: 1}\n", 5, "nagc has no option lamda (did you mean 'lambda'?)"},
		{"option wrong type", base + "    options: {k2: many}\n", 5, "k2: must be a positive integer (or k1 for k2), got many"},
		{"unknown method key", "datasets: [synthetic]\nmethods:\n  - name: P\n    algorithm: nagc\n    grids: {}\n", 5, "unknown key 'grids' (did you mean 'grid'?)"},
		{"no datasets", "methods:\n  - name: P\n    algorithm: nagc\n", 0, "no datasets"},
		{"no methods", "datasets: [synthetic]\n", 0, "no methods"},
		{"duplicate name", base + "  - name: P\n    algorithm: kmeans\n", 5, "used twice"},
		{"duplicate name on a dataset", "datasets: [synthetic, webkb]\nmethods:\n  - name: P\n    algorithm: nagc\n    datasets: [webkb]\n  - name: P\n    algorithm: kmeans\n", 6, "used twice for dataset webkb"},
		{"unknown metric", "metrics: [purity]\n" + base, 1, "unknown metric"},
		{"holdout of 1", "holdout: 1\n" + base, 1, "holdout: must be a fraction of the edges in [0, 1)"},
		{"negative holdout", base + "holdout: -0.1\n", 5, "holdout: must be a fraction"},
		{"k2 not integer", base + "    grid:\n      k2: [2.5]\n", 6, "positive integer"},
		{"empty file", "", 0, "empty config"},
		{"max_memory unit", "max_memory: 12 apples\n" + base, 1, "max_memory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.text)
			_, err := LoadConfig(path)
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			if !strings.Contains(msg, path) || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q: want file name and %q", msg, tc.want)
			}
			if ce, ok := err.(*ConfigError); !ok || ce.Line != tc.line {
				t.Errorf("error %q: want line %d", msg, tc.line)
			}
			for _, w := range []string{"experiments.", "results.", "algorithms.", "!!", "unmarshal", "float64", "uint64", "posString", "not found in type"} {
				if strings.Contains(msg, w) {
					t.Errorf("error %q speaks Go or YAML (%q)", msg, w)
				}
			}
		})
	}
}

func TestExpandCounts(t *testing.T) {
	cfg := mustLoad(t, smallConfig)
	// k1 = 4 on the default synthetic graph: k2 ∈ {k1, 4, 6} = {4, 6}.
	runs, err := cfg.Expand(map[string]int{"synthetic": 4})
	if err != nil {
		t.Fatal(err)
	}
	// Prop.: 2 λ × 2 k2 × 2 ρ = 8 points; w/o PU: 4 points, all shared with Prop.'s ρ = 0.5;
	// k-means: 1 point. 9 points × 2 restarts.
	if len(runs) != 18 {
		t.Fatalf("%d runs, want 18", len(runs))
	}
	shared := 0
	for _, r := range runs {
		if len(r.Methods) == 2 {
			shared++
			if r.Params["rho"] != 0.5 {
				t.Errorf("shared run at ρ = %v", r.Params["rho"])
			}
		}
		if r.Algorithm == "nagc" && r.Params["iterations"] != 15 {
			t.Errorf("iterations not passed: %v", r.Params)
		}
		if r.Seed != RunSeed(7, "synthetic", r.Restart) {
			t.Error("seed not derived from base seed, dataset and restart")
		}
	}
	if shared != 8 {
		t.Errorf("%d shared runs, want 8", shared)
	}
	// With k1 = 6, k2 ∈ {6, 4, 6} collapses to 2 values as well; with k1 = 3, 3 values.
	runs3, _ := cfg.Expand(map[string]int{"synthetic": 3})
	if len(runs3) != 2*(12+1) {
		t.Errorf("k1=3: %d runs, want 26", len(runs3))
	}
	ids := map[string]bool{}
	for _, r := range runs3 {
		if ids[r.ID] {
			t.Fatalf("duplicate id %s", r.ID)
		}
		ids[r.ID] = true
	}
	// Shards partition the runs.
	var union []string
	for i := 0; i < 3; i++ {
		for _, r := range shardRuns(runs3, i, 3) {
			union = append(union, r.ID)
		}
	}
	if len(union) != len(runs3) {
		t.Errorf("3 shards hold %d runs of %d", len(union), len(runs3))
	}
}

func TestPaperConfigLoads(t *testing.T) {
	cfg, err := LoadConfig(filepath.Join("..", "configs", "paper.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	k1 := map[string]int{"webkb": 4, "citeseer": 6, "cora": 7, "polblog": 2}
	runs, err := cfg.Expand(k1)
	if err != nil {
		t.Fatal(err)
	}
	// Per dataset: Prop. 12 λ × |k2| × 5 ρ, Prop.* the same, JWNMF and JWNMF* 12 each,
	// five single-point baselines, the authors' init at one stated setting; w/o PU shares
	// Prop.'s ρ = 0.5 runs.
	want := 0
	for _, k := range k1 {
		k2 := map[int]bool{k: true, 5: true, 7: true, 10: true, 15: true, 20: true}
		want += 5 * (2*12*len(k2)*5 + 2*12 + 5 + 1)
	}
	if len(runs) != want {
		t.Errorf("paper config: %d runs, want %d", len(runs), want)
	}
	// The committed report reads every metric and the held-out fits of both configs.
	if !slices.Equal(cfg.Metrics, results.AllMetrics) || cfg.Holdout != 0.2 {
		t.Errorf("paper config: metrics %v, holdout %v; want all metrics and 0.2", cfg.Metrics, cfg.Holdout)
	}
	for _, name := range []string{"quick.yaml", "baselines.yaml", "discussed.yaml"} {
		if _, err := LoadConfig(filepath.Join("..", "configs", name)); err != nil {
			t.Error(err)
		}
	}
	filtered, err := LoadConfig(filepath.Join("..", "configs", "filtered.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err = filtered.Expand(k1)
	if err != nil {
		t.Fatal(err)
	}
	// Per dataset: Prop. + filter 2 inits × 6 p × 7 λ × 2 ρ × 3 t (k2 = k1), NMF + filter
	// 5 p × 2 inits, SGC k-means 6 p × 3 ranks × 2 normalisations; five restarts.
	if want := 4 * 5 * (2*6*7*2*3 + 5*2 + 6*3*2); len(runs) != want {
		t.Errorf("filtered config: %d runs, want %d", len(runs), want)
	}
	if !slices.Equal(filtered.Metrics, results.AllMetrics) || filtered.Holdout != 0.2 {
		t.Errorf("filtered config: metrics %v, holdout %v; want all metrics and 0.2", filtered.Metrics, filtered.Holdout)
	}
}

// metricRecords returns the records of a results folder reduced to what must not depend
// on scheduling: run id, parameters, seed, status, metrics, iterations, objective.
func metricRecords(t *testing.T, dir string) []string {
	t.Helper()
	recs, torn, err := results.ReadRecords(filepath.Join(dir, results.RunsFile))
	if err != nil || torn {
		t.Fatalf("%s: %v (torn %v)", dir, err, torn)
	}
	var out []string
	for _, r := range recs {
		b, _ := json.Marshal([]any{r.RunID, r.Dataset, r.Methods, r.Algorithm, r.Params, r.Seed,
			r.Restart, r.Status, r.Metrics, r.Iterations, r.FinalObjective, r.Objective})
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out
}

func TestDeterministicAcrossWorkersAndShards(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a sweep four times")
	}
	cfg := mustLoad(t, smallConfig)
	ctx := context.Background()
	one, four := t.TempDir(), t.TempDir()
	if _, err := Execute(ctx, cfg, Options{ResultsDir: one, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := Execute(ctx, cfg, Options{ResultsDir: four, Workers: 4}); err != nil {
		t.Fatal(err)
	}
	a, b := metricRecords(t, one), metricRecords(t, four)
	if len(a) != 18 || !reflect.DeepEqual(a, b) {
		t.Fatalf("1 worker and 4 workers differ (%d vs %d records)", len(a), len(b))
	}
	var shards []string
	for i := 0; i < 3; i++ {
		d := t.TempDir()
		if _, err := Execute(ctx, cfg, Options{ResultsDir: d, Workers: 2, Shard: i, Shards: 3}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, d)
	}
	merged := t.TempDir()
	n, err := results.Merge(merged, shards)
	if err != nil || n != 18 {
		t.Fatalf("merge: %d runs, %v", n, err)
	}
	if c := metricRecords(t, merged); !reflect.DeepEqual(a, c) {
		t.Error("3 shards merged differ from one run")
	}
	// Merging a conflicting duplicate is refused.
	bad := t.TempDir()
	recs, _, _ := results.ReadRecords(filepath.Join(one, results.RunsFile))
	recs[0].Metrics["ari"] += 0.5
	if err := results.RewriteRecords(filepath.Join(bad, results.RunsFile), recs[:1]); err != nil {
		t.Fatal(err)
	}
	if _, err := results.Merge(t.TempDir(), []string{one, bad}); err == nil || !strings.Contains(err.Error(), "conflicting") {
		t.Errorf("conflicting duplicate merged: %v", err)
	}
}

func TestResumeAfterTornLine(t *testing.T) {
	cfg := mustLoad(t, smallConfig)
	ctx := context.Background()
	dir := t.TempDir()
	sum, err := Execute(ctx, cfg, Options{ResultsDir: dir, Workers: 2, Limit: 7})
	if err != nil || sum.Done != 7 {
		t.Fatalf("first part: %+v, %v", sum, err)
	}
	path := filepath.Join(dir, results.RunsFile)
	before, _, _ := results.ReadRecords(path)
	// Simulate a crash mid-write: half a line at the end.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"run_id":"deadbeef","sta`)
	f.Close()
	if _, torn, err := results.ReadRecords(path); err != nil || !torn {
		t.Fatalf("torn line not detected: torn=%v err=%v", torn, err)
	}
	sum, err = Execute(ctx, cfg, Options{ResultsDir: dir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != 7 || sum.Done != 11 {
		t.Errorf("resume: skipped %d, ran %d; want 7 and 11", sum.Skipped, sum.Done)
	}
	after, torn, err := results.ReadRecords(path)
	if err != nil || torn || len(after) != 18 {
		t.Fatalf("after resume: %d records, torn %v, %v", len(after), torn, err)
	}
	for i := range before {
		if !reflect.DeepEqual(before[i], after[i]) {
			t.Errorf("record %d changed on resume", i)
		}
	}
	seen := map[string]bool{}
	for _, r := range after {
		if seen[r.RunID] {
			t.Errorf("run %s recorded twice", r.RunID)
		}
		seen[r.RunID] = true
	}
	// A third run has nothing left to do.
	sum, _ = Execute(ctx, cfg, Options{ResultsDir: dir})
	if sum.Done+sum.Failed != 0 || sum.Skipped != 18 {
		t.Errorf("third run: %+v", sum)
	}
	prov, _ := results.ReadProvenance(dir)
	if len(prov) != 3 || prov[0].ConfigHash != cfg.Hash || prov[0].GoVersion == "" {
		t.Errorf("provenance: %+v", prov)
	}
}

func TestFailedRunRecordedAndSweepGoesOn(t *testing.T) {
	// k2 = 700 > n = 600: NAGC fails; k-means still runs.
	cfg := mustLoad(t, `datasets: [synthetic]
methods:
  - name: bad
    algorithm: nagc
    options: {k2: 700, iterations: 3}
  - name: good
    algorithm: kmeans
`)
	dir := t.TempDir()
	sum, err := Execute(context.Background(), cfg, Options{ResultsDir: dir, Workers: 1}) // one worker: records in config order
	if err != nil || sum.Failed != 1 || sum.Done != 1 {
		t.Fatalf("%+v %v", sum, err)
	}
	recs, _ := results.Load(dir)
	points := results.Aggregate(recs)
	best, _ := results.Best(points, results.SelectARI)
	if best[0].Runs != 0 || best[0].Failed != 1 || !strings.Contains(best[0].Errors[0], "k2") {
		t.Errorf("failed point: %+v", best[0])
	}
	if best[1].Runs != 1 || best[1].Mean["ari"] <= 0 {
		t.Errorf("good point: %+v", best[1])
	}
}

func TestRescoreAddsMetricWithoutRerunning(t *testing.T) {
	cfg := mustLoad(t, `datasets: [synthetic]
restarts: 2
methods:
  - name: km
    algorithm: kmeans
  - name: bad
    algorithm: nagc
    options: {k2: 700, iterations: 3}
`)
	dir := t.TempDir()
	if _, err := Execute(context.Background(), cfg, Options{ResultsDir: dir}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, results.RunsFile)
	orig, _, _ := results.ReadRecords(path)
	// Records made before attr_modularity existed: drop it.
	old := make([]results.Record, len(orig))
	for i, r := range orig {
		old[i] = r
		old[i].Metrics = map[string]float64{}
		for k, v := range r.Metrics {
			if k != "attr_modularity" {
				old[i].Metrics[k] = v
			}
		}
	}
	if err := results.RewriteRecords(path, old); err != nil {
		t.Fatal(err)
	}
	n, err := Rescore(dir, nil)
	if err != nil || n != 2 {
		t.Fatalf("rescored %d (%v), want the 2 finished runs", n, err)
	}
	got, _, _ := results.ReadRecords(path)
	for i := range got {
		if !reflect.DeepEqual(got[i].Metrics, orig[i].Metrics) || got[i].Labels != orig[i].Labels {
			t.Errorf("run %s: rescored metrics %v, recorded at run time %v", got[i].RunID, got[i].Metrics, orig[i].Metrics)
		}
	}
	// A recorded metric that the data does not reproduce stops it, file untouched.
	for i := range got {
		if got[i].Status == results.StatusDone {
			got[i].Metrics["modularity"] += 0.01
			break
		}
	}
	if err := results.RewriteRecords(path, got); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	if _, err := Rescore(dir, nil); err == nil || !strings.Contains(err.Error(), "modularity") {
		t.Errorf("tampered modularity: error %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a failed rescore changed the runs file")
	}
}

// TestMaxMemoryRefusesFits checks that a sweep run under a budget below its fits'
// estimates records them as failed with the refusal, and that max_memory is read.
func TestMaxMemoryRefusesFits(t *testing.T) {
	cfg := mustLoad(t, "max_memory: 2GB\ndatasets: [synthetic]\nmethods:\n  - name: P\n    algorithm: nagc\n    options: {init: random, iterations: 2}\n")
	if cfg.MaxMemory != "2GB" {
		t.Fatalf("max_memory read as %q", cfg.MaxMemory)
	}
	defer memory.SetLimit(0)
	memory.SetLimit(1000)
	dir := t.TempDir()
	sum, err := Execute(context.Background(), cfg, Options{ResultsDir: dir, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != sum.Total || sum.Total == 0 {
		t.Fatalf("%d of %d runs failed under a 1 kB budget, want all", sum.Failed, sum.Total)
	}
	recs, _, err := results.ReadRecords(filepath.Join(dir, results.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 || !strings.Contains(recs[0].Error, "more than the 1.0 kB budget") {
		t.Errorf("record error %q, want the refusal", recs[0].Error)
	}
}

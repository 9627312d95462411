package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// orderConfig lists a cheap row (k-means) before two NAGC rows, so that two or more
// workers, handed the costliest runs first, finish a NAGC run before any k-means one;
// and two datasets, the larger first.
const orderConfig = `name: order
seed: 3
restarts: 2
iterations: 5
datasets:
  - synthetic
  - {name: small, synthetic: {n: 240, edges: 900, m: 40, k: 3, seed: 5}}
methods:
  - name: km
    algorithm: kmeans
  - name: P
    algorithm: nagc
    options: {init: kmeans}
    grid: {lambda: [1.0e-2, 1]}
  - name: "P*"
    algorithm: nagc
    options: {init: random}
`

// TestRowsInConfigOrder runs one config with 1, 2 and 3 workers, interrupted by --limit
// and resumed, and in three shards merged in reverse order, and checks that Aggregate
// and the report's tables list datasets, rows and grid points alike: in the config's
// order, whatever order the runs finished in.
func TestRowsInConfigOrder(t *testing.T) {
	cfgPath := filepath.Join(t.TempDir(), "order.yaml")
	if err := os.WriteFile(cfgPath, []byte(orderConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := experiments.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	run := func(dir string, opt experiments.Options) {
		t.Helper()
		opt.ResultsDir = dir
		if _, err := experiments.Execute(ctx, cfg, opt); err != nil {
			t.Fatal(err)
		}
	}
	sweeps := map[string]string{}
	for _, w := range []int{1, 2, 3} {
		dir := t.TempDir()
		run(dir, experiments.Options{Workers: w})
		sweeps[fmt.Sprintf("%d workers", w)] = dir
	}
	resumed := t.TempDir()
	run(resumed, experiments.Options{Workers: 2, Limit: 7})
	run(resumed, experiments.Options{Workers: 3})
	sweeps["limited to 7 runs, resumed"] = resumed
	var shards []string
	for i := 0; i < 3; i++ {
		dir := t.TempDir()
		run(dir, experiments.Options{Workers: 2, Shard: i, Shards: 3})
		shards = append([]string{dir}, shards...) // merged last shard first
	}
	merged := t.TempDir()
	if _, err := results.Merge(merged, shards); err != nil {
		t.Fatal(err)
	}
	sweeps["3 shards merged in reverse"] = merged

	want := []string{"synthetic", "small"}
	wantRows := []string{"km", "P", "P*"}
	ref := sweeps["1 workers"]
	refOrder, refTables := aggregateOrder(t, ref), tables(t, ref)
	if len(refTables) == 0 {
		t.Fatal("the report wrote no Markdown or CSV table")
	}
	var ds, rows []string
	for _, p := range strings.Split(refOrder, "\n") {
		f := strings.SplitN(p, " | ", 3)
		if !slices.Contains(ds, f[0]) {
			ds = append(ds, f[0])
		}
		if !slices.Contains(rows, f[1]) {
			rows = append(rows, f[1])
		}
	}
	if !slices.Equal(ds, want) || !slices.Equal(rows, wantRows) {
		t.Fatalf("1 worker: Aggregate lists datasets %v and rows %v, want the config's %v and %v", ds, rows, want, wantRows)
	}
	finishedFirst := map[string]bool{}
	for name, dir := range sweeps {
		if name == "1 workers" {
			continue
		}
		if got := aggregateOrder(t, dir); got != refOrder {
			t.Errorf("%s: Aggregate's order\n%s\nwant (1 worker)\n%s", name, got, refOrder)
		}
		got := tables(t, dir)
		if !slices.Equal(keys(got), keys(refTables)) {
			t.Errorf("%s: tables %v, want %v", name, keys(got), keys(refTables))
		}
		for f, text := range refTables {
			if got[f] != text {
				t.Errorf("%s: %s differs from 1 worker's:\n%s\nwant\n%s", name, f, got[f], text)
			}
		}
		recs, _, err := results.ReadRecords(filepath.Join(dir, results.RunsFile))
		if err != nil {
			t.Fatal(err)
		}
		finishedFirst[recs[0].Methods[0]] = true
	}
	if finishedFirst["km"] && len(finishedFirst) == 1 {
		t.Error("every sweep recorded a k-means run first, as 1 worker does: the test compares nothing")
	}
}

// aggregateOrder returns dataset | row | grid point of each point Aggregate returns for
// the records of dir in the file's order (the order the runs finished in), one a line.
func aggregateOrder(t *testing.T, dir string) string {
	t.Helper()
	recs, _, err := results.ReadRecords(filepath.Join(dir, results.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range results.Aggregate(recs) {
		lines = append(lines, p.Dataset+" | "+p.Method+" | "+p.GridPoint())
	}
	return strings.Join(lines, "\n")
}

// tables renders the report of dir without figures (Markdown and CSV) and returns its
// tables, REPORT.md aside, by file name. The records' timings and the provenance's
// times, workers and shards are cleared first: they are the only things that differ.
func tables(t *testing.T, dir string) map[string]string {
	t.Helper()
	clearTimings(t, dir)
	out := t.TempDir()
	rep, err := Generate(Options{ResultsDir: dir, OutDir: out, NoFigures: true, NoPaper: true, Compare: "none", Formats: []string{"md", "csv"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range rep.Files {
		if f == ReportFile || !(strings.HasSuffix(f, ".md") || strings.HasSuffix(f, ".csv")) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		got[f] = string(b)
	}
	return got
}

// clearTimings rewrites the runs file of dir, in its order, with every timing and
// scheduling field of the records cleared.
func clearTimings(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, results.RunsFile)
	recs, _, err := results.ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, r := range recs {
		r.Sweep, r.FitSeconds, r.InitSeconds, r.InitCached, r.BatchSize, r.PrefixOf, r.Finished = "", 0, 0, false, 0, 0, time.Time{}
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// keys returns the sorted keys of m.
func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

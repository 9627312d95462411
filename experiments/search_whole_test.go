package experiments

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// TestSearchWholeGraphAtLastRung checks that whole_graph last_rung changes what a
// search with rule heldout costs, not what it decides: the same trials, cuts and
// held-out scores as whole_graph every_rung, with Hyperband's brackets too; every
// record of the last rung the same (labels, metrics, loss curve); a record of an
// earlier rung only its held-out fit, marked so; and fewer iterations in all.
func TestSearchWholeGraphAtLastRung(t *testing.T) {
	for _, c := range []struct{ name, text string }{{"halving", heldOutConfig},
		{"hyperband", strings.Replace(heldOutConfig, "prune: halving", "prune: hyperband", 1)}} {
		t.Run(c.name, func(t *testing.T) {
			_, _, last := runSearchConfig(t, c.text)
			_, _, every := runSearchConfig(t, strings.Replace(c.text, "rule: heldout", "rule: heldout, whole_graph: every_rung", 1))
			byID := func(recs []results.Record) map[string]results.Record {
				m := map[string]results.Record{}
				for _, r := range results.Latest(recs) {
					m[r.RunID] = r
				}
				return m
			}
			l, e := byID(last), byID(every)
			if len(l) != len(e) || len(l) == 0 {
				t.Fatalf("%d records at the last rung only, %d at every rung", len(l), len(e))
			}
			var itsLast, itsEvery, heldOutOnly int
			for id, a := range l {
				b, ok := e[id]
				if !ok {
					t.Fatalf("run %s only with whole_graph last_rung", id)
				}
				itsLast += a.IterationsRun + a.HeldOutIterationsRun
				itsEvery += b.IterationsRun + b.HeldOutIterationsRun
				sa, sb := *a.Search, *b.Search
				final := sa.Rung == sa.Rungs-1
				if sa.HeldOutOnly == final || sb.HeldOutOnly {
					t.Errorf("run %s (rung %d of %d): held-out only %v, %v at every rung", id, sa.Rung, sa.Rungs, sa.HeldOutOnly, sb.HeldOutOnly)
				}
				sa.HeldOutOnly = false
				if sa != sb || a.Status != results.StatusDone || a.HeldOutLabels != b.HeldOutLabels ||
					a.Metrics[results.MetricHeldOut] != b.Metrics[results.MetricHeldOut] {
					t.Errorf("run %s: trial, cut or held-out fit differ:\n%+v %v\n%+v %v", id, sa, a.Metrics, sb, b.Metrics)
				}
				if final {
					if a.Labels != b.Labels || !reflect.DeepEqual(a.Metrics, b.Metrics) || !reflect.DeepEqual(a.Objective, b.Objective) || !reflect.DeepEqual(a.Info, b.Info) {
						t.Errorf("run %s at the last rung differs", id)
					}
					continue
				}
				heldOutOnly++
				if a.Labels != "" || a.Objective != nil || len(a.Metrics) != 1 || a.IterationsRun != 0 || a.HeldOutIterationsRun == 0 {
					t.Errorf("run %s before the last rung: labels %q, %d metrics, loss curve %v, iterations %d and %d held out",
						id, a.Labels, len(a.Metrics), a.Objective != nil, a.IterationsRun, a.HeldOutIterationsRun)
				}
			}
			if heldOutOnly == 0 || itsLast >= itsEvery {
				t.Errorf("%d held-out-only records; %d iterations at the last rung only, %d at every rung", heldOutOnly, itsLast, itsEvery)
			}
			t.Logf("%d iterations against %d", itsLast, itsEvery)
		})
	}
}

// A folder whose heldout search was recorded before whole_graph existed (its settings
// lack the key: every rung fitted the whole graph) resumes under whole_graph every_rung
// and is refused under the default last_rung, naming the change.
func TestSearchWholeGraphOldFolder(t *testing.T) {
	dir := t.TempDir()
	every := strings.Replace(heldOutConfig, "rule: heldout", "rule: heldout, whole_graph: every_rung", 1)
	executeSearch(t, mustLoad(t, every), Options{ResultsDir: dir, Workers: 2, Limit: 3})
	files, err := filepath.Glob(filepath.Join(dir, results.SearchDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("settings files %v: %v", files, err)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		delete(s, "whole_graph")
		raw, _ = json.Marshal(s)
		if err := os.WriteFile(f, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err = Execute(context.Background(), mustLoad(t, heldOutConfig), Options{ResultsDir: dir, Workers: 2})
	if err == nil || !strings.Contains(err.Error(), `whole_graph "every_rung" → "last_rung"`) {
		t.Fatalf("default whole_graph on an old folder: %v", err)
	}
	executeSearch(t, mustLoad(t, every), Options{ResultsDir: dir, Workers: 2})
}

// Rescore reads a heldout search's records: a rung that fitted only the held-out copy
// is rescored by its held-out labels alone, and a changed score is still found.
func TestRescoreHeldOutOnly(t *testing.T) {
	_, dir, _ := runSearchConfig(t, heldOutConfig)
	n, err := Rescore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, results.RunsFile)
	recs := results.Latest(mustRecords(t, dir))
	if n != len(mustRecords(t, dir)) || len(recs) == 0 {
		t.Fatalf("rescored %d of %d records", n, len(mustRecords(t, dir)))
	}
	i := slices.IndexFunc(recs, func(r results.Record) bool { return r.Search.HeldOutOnly })
	if i < 0 {
		t.Fatal("no held-out-only record")
	}
	r := recs[i]
	r.Metrics = map[string]float64{results.MetricHeldOut: r.Metrics[results.MetricHeldOut] + 0.01}
	if err := appendFile(path, &r); err != nil {
		t.Fatal(err)
	}
	if _, err := Rescore(dir, nil); err == nil || !strings.Contains(err.Error(), results.MetricHeldOut) {
		t.Errorf("a held-out score off by 0.01: %v", err)
	}
}

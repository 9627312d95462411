package experiments

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/results"
)

const batchConfig = `name: batch
seed: 7
restarts: 2
iterations: 12
datasets: [synthetic]
methods:
  - name: P
    algorithm: nagc
    options: {init: kmeans}
    grid:
      lambda: [1.0e-2, 1.7e308]
      k2: [k1, 6]
      rho: [0.5, 0.9]
      iterations: [4, 12]
  - name: "P*"
    algorithm: nagc
    options: {init: random}
    grid: {lambda: [0.1], k2: [k1]}
  - name: km
    algorithm: kmeans
`

// comparable returns the latest records of dir with the fields that describe timing and
// scheduling cleared (sweep, fit and initialisation times, cache hits, batch size,
// fit read off a longer one, finishing time), as sorted JSON lines: what must not depend on batch size, workers or
// resumption.
func comparable(t *testing.T, dir string) []string {
	t.Helper()
	recs, err := results.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		r.Sweep, r.FitSeconds, r.InitSeconds, r.InitCached, r.BatchSize, r.PrefixOf, r.Finished = "", 0, 0, false, 0, 0, time.Time{}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out
}

// TestBatchedRecordsEqualSingleRuns checks that the records of a sweep, held-out fits and
// failing runs included, are the same as those of its runs executed one at a time,
// whatever the batch size and the number of workers, when the runs of a grid over
// iterations are read off one fit, and when a sweep is resumed with another batch size or
// gains its held-out fits later.
func TestBatchedRecordsEqualSingleRuns(t *testing.T) {
	ctx := context.Background()
	cfg := mustLoad(t, "holdout: 0.2\n"+batchConfig)
	ref := t.TempDir()
	// One run per Execute (as shard i of 1000 holds): nothing batched, nothing read off
	// another fit.
	loaded, err := loadDatasets(cfg)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := cfg.expandLoaded(loaded)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		switch len(shardRuns(runs, i, 1000)) {
		case 0:
			continue
		case 1:
		default:
			t.Fatalf("shard %d of 1000 holds several runs", i)
		}
		if _, err := Execute(ctx, cfg, Options{ResultsDir: ref, Workers: 1, Batch: 1, Shard: i, Shards: 1000}); err != nil {
			t.Fatal(err)
		}
	}
	want := comparable(t, ref)
	failed, heldOut := 0, 0
	for _, line := range want {
		failed += strings.Count(line, `"status":"failed"`)
		heldOut += strings.Count(line, `"heldout_labels"`)
	}
	if len(want) != 36 || failed == 0 || heldOut == 0 {
		t.Fatalf("reference sweep: %d records, %d failed, %d with a held-out fit; want 36, some of each", len(want), failed, heldOut)
	}
	recs, _ := results.Load(ref)
	for _, r := range recs {
		if r.Algorithm == "nagc" && r.Status == results.StatusDone && (r.BatchSize != 1 || r.InitSeconds <= 0 || r.PrefixOf != 0) {
			t.Fatalf("run alone: batch size %d, init %v s, read off %d iterations; want 1, > 0, 0", r.BatchSize, r.InitSeconds, r.PrefixOf)
		}
	}
	// With several workers the batches are handed out longest first: an order that differs
	// from the plan's here (NAGC with the k-means start before k-means), which the records
	// below must not see.
	p, err := planSweep(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	todo := make([]job, len(p.runs))
	for i, r := range p.runs {
		todo[i] = job{Run: r}
	}
	interleaveRestarts(todo, 2)
	planned := batches(todo, newPool(cfg, Options{}, p).inputs, 1, true)
	ordered := splitTasks(planned, true)
	longestFirst(ordered, inputShapes(newPool(cfg, Options{}, p).inputs), 2, true)
	if slices.Equal(batchIDs(planned), taskIDs(ordered)) {
		t.Fatal("longest first hands the batches out in plan order: the test below compares nothing")
	}
	for _, c := range []struct{ workers, batch int }{{1, 1}, {1, 3}, {2, 1}, {2, 4}, {3, 1}, {2, 60}} {
		dir := t.TempDir()
		if _, err := Execute(ctx, cfg, Options{ResultsDir: dir, Workers: c.workers, Batch: c.batch}); err != nil {
			t.Fatal(err)
		}
		if got := comparable(t, dir); !reflect.DeepEqual(got, want) {
			t.Errorf("%d workers, batch %d: records differ from single runs", c.workers, c.batch)
		}
		recs, _ := results.Load(dir)
		if c.batch == 60 && (recs[0].Algorithm != "nagc" || recs[0].BatchSize < 2) {
			t.Errorf("batch 60: first record has batch size %d", recs[0].BatchSize)
		}
		readOff := 0
		for _, r := range recs {
			if r.PrefixOf == 12 && r.Iterations == 4 {
				readOff++
			}
		}
		if readOff != 16 { // P: 2 λ × 2 k2 × 2 ρ × 2 restarts at 4 iterations
			t.Errorf("%d workers, batch %d: %d runs of 4 iterations read off a fit of 12", c.workers, c.batch, readOff)
		}
	}
	// Interrupted at 5 runs with batches of 4, resumed with batches of 7; interrupted at 9
	// runs handed out longest first to 2 workers, resumed with 3: each run recorded once.
	for _, c := range []struct{ workers, batch, limit, workers2, batch2 int }{{1, 4, 5, 2, 7}, {2, 1, 9, 3, 1}} {
		dir := t.TempDir()
		if _, err := Execute(ctx, cfg, Options{ResultsDir: dir, Workers: c.workers, Batch: c.batch, Limit: c.limit}); err != nil {
			t.Fatal(err)
		}
		if _, err := Execute(ctx, cfg, Options{ResultsDir: dir, Workers: c.workers2, Batch: c.batch2}); err != nil {
			t.Fatal(err)
		}
		if got := comparable(t, dir); !reflect.DeepEqual(got, want) {
			t.Errorf("resumed (%+v): records differ from single runs", c)
		}
		all, _, _ := results.ReadRecords(filepath.Join(dir, results.RunsFile))
		done := map[string]int{} // a failed run is tried again on resume; a done one never
		for _, r := range all {
			if r.Status == results.StatusDone {
				done[r.RunID]++
			}
		}
		for id, n := range done {
			if n != 1 {
				t.Errorf("resumed (%+v): run %s done %d times", c, id, n)
			}
		}
	}
	// Fitted without holdout, then given the held-out fits alone, in batches and one at a
	// time by two workers.
	for _, c := range []struct{ workers, batch int }{{1, 5}, {2, 1}} {
		dir := t.TempDir()
		if _, err := Execute(ctx, mustLoad(t, batchConfig), Options{ResultsDir: dir, Workers: 2, Batch: 5}); err != nil {
			t.Fatal(err)
		}
		if _, err := Execute(ctx, cfg, Options{ResultsDir: dir, Workers: c.workers, Batch: c.batch}); err != nil {
			t.Fatal(err)
		}
		if got := comparable(t, dir); !reflect.DeepEqual(got, want) {
			t.Errorf("held-out fits added (%d workers, batch %d): records differ from single runs", c.workers, c.batch)
		}
	}
}

// batchIDs returns the run ids of the batches bs, in order.
func batchIDs(bs [][]job) []string {
	var out []string
	for _, b := range bs {
		for _, j := range b {
			out = append(out, j.ID)
		}
	}
	return out
}

// taskIDs returns the run ids of the tasks ts, in order, once per batch.
func taskIDs(ts []task) []string {
	var out []string
	for _, t := range ts {
		if t.part == heldOutFits {
			continue
		}
		for _, j := range t.batch {
			out = append(out, j.ID)
		}
	}
	return out
}

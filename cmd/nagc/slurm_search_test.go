package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// shardSearchConfig has a grid row and a search row (halving, two batches) on the
// synthetic graph.
const shardSearchConfig = `name: shs
seed: 5
restarts: 2
iterations: 27
metrics: [ari, modularity]
datasets: [synthetic]
search: {sampler: tpe, trials: 6, batch: 3, rule: modularity, prune: halving, min_iterations: 3, eta: 3, first_restarts: 1}
methods:
  - name: G
    algorithm: nagc
    grid:
      lambda: [1.0e-2, 1]
      rho: [0.5, 0.95]
  - name: S
    algorithm: nagc
    space:
      lambda: {log: [1.0e-4, 10]}
      rho: [0.5, 0.95]
`

// nagcOK runs nagc with args and fails the test on a non-zero exit.
func nagcOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("nagc %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// sweepRecords returns the latest records of the results folder dir, each as the JSON of
// what a sweep must reproduce (no times, no host), sorted.
func sweepRecords(t *testing.T, dir string) []string {
	t.Helper()
	recs, torn, err := results.ReadRecords(filepath.Join(dir, results.RunsFile))
	if err != nil || torn {
		t.Fatalf("%s: %v (torn %v)", dir, err, torn)
	}
	var out []string
	for _, r := range results.Latest(recs) {
		b, _ := json.Marshal([]any{r.RunID, r.Dataset, r.Methods, r.Params, r.Seed, r.Restart, r.Status, r.Error,
			r.Metrics, r.Iterations, r.IterationsRun, r.Objective, r.Labels, r.Search, r.Plan})
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out
}

// The array tasks nagc slurm writes run `nagc run CONFIG --shard I/N` and its merge job
// `nagc merge --config CONFIG`: for a config with a grid row and a search row, three
// shards merged give the records of one nagc run (the search whole in one shard). A
// shard stopped inside its search (a task's time limit) leaves every planned grid run
// recorded; the merge refuses it all the same, naming the search, and once the task is
// run again the merge gives the same records. Meanwhile nagc status reads the search's
// progress in its shard and names the command that finishes it. For halving and for
// Hyperband.
func TestShardedSearchMerge(t *testing.T) {
	for _, prune := range []string{"halving", "hyperband"} {
		t.Run(prune, func(t *testing.T) {
			testShardedSearchMerge(t, strings.Replace(shardSearchConfig, "prune: halving", "prune: "+prune, 1))
		})
	}
}

func testShardedSearchMerge(t *testing.T, config string) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "shs.yaml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(dir, "one")
	nagcOK(t, "run", cfg, "--results", one, "--workers", "2")
	want := sweepRecords(t, one)

	var shards []string
	searchShard := ""
	for i := 1; i <= 3; i++ {
		d := results.ShardDir(filepath.Join(dir, "res"), i, 3)
		shards = append(shards, d)
		nagcOK(t, "run", cfg, "--results", d, "--shard", fmt.Sprintf("%d/3", i), "--workers", "1")
		if recs := sweepRecords(t, d); len(recs) > 0 && strings.Contains(strings.Join(recs, ""), `"rung"`) {
			if searchShard != "" {
				t.Fatalf("search records in %s and %s: a search goes whole to one shard", searchShard, d)
			}
			searchShard = d
		}
	}
	if searchShard == "" {
		t.Fatal("no shard ran the search")
	}
	merged := filepath.Join(dir, "merged")
	nagcOK(t, append([]string{"merge", "--out", merged, "--config", cfg}, shards...)...)
	if got := sweepRecords(t, merged); !reflect.DeepEqual(got, want) {
		t.Errorf("3 shards merged: %d records, one run: %d; they differ", len(got), len(want))
	}
	// The search's recorded settings come along, so that the merged folder refuses a run
	// with other search settings as the shard would.
	settings, _ := filepath.Glob(filepath.Join(one, results.SearchDir, "*.json"))
	if len(settings) == 0 {
		t.Fatal("the one-process run recorded no search settings")
	}
	for _, p := range settings {
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(merged, results.SearchDir, filepath.Base(p)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("merged folder's %s: %v, or not the one-process run's", filepath.Base(p), err)
		}
	}

	// The search's shard stopped after its first few runs of the search.
	grid := 0
	for _, r := range want {
		if !strings.Contains(r, `"rung"`) {
			grid++
		}
	}
	stopped := filepath.Join(dir, "stopped")
	parts := append([]string(nil), shards...)
	for i, d := range shards {
		if d != searchShard {
			continue
		}
		parts[i] = results.ShardDir(stopped, i+1, 3)
		gridHere := 0
		for _, r := range sweepRecords(t, d) {
			if !strings.Contains(r, `"rung"`) {
				gridHere++
			}
		}
		nagcOK(t, "run", cfg, "--results", parts[i], "--shard", fmt.Sprintf("%d/3", i+1), "--workers", "1", "--limit", fmt.Sprint(gridHere+4))
		var out, errb bytes.Buffer
		args := append([]string{"merge", "--out", filepath.Join(dir, "refused"), "--config", cfg}, parts...)
		if code := run(context.Background(), args, &out, &errb); code == 0 || !strings.Contains(errb.String(), "search S on synthetic has") {
			t.Errorf("merge of a shard stopped inside its search: exit %d, %s", code, errb.String())
		}
		status := nagcOK(t, "status", cfg, "--results", stopped)
		if want := fmt.Sprintf("--shard %d/3 --results %s   # finishes search S on synthetic", i+1, parts[i]); !strings.Contains(status, want) ||
			!strings.Contains(status, "search S on synthetic (rule modularity): ") {
			t.Errorf("nagc status of the stopped shard lacks the search's line or %q:\n%s", want, status)
		}
		if !strings.Contains(status, "1 searches unfinished") || !strings.Contains(status, fmt.Sprintf("%d/3 ", i+1)) ||
			strings.Contains(status, "Every shard is finished") {
			t.Errorf("nagc status counts the stopped search's shard as finished:\n%s", status)
		}
		nagcOK(t, "run", cfg, "--results", parts[i], "--shard", fmt.Sprintf("%d/3", i+1), "--workers", "1")
	}
	again := filepath.Join(dir, "again")
	nagcOK(t, append([]string{"merge", "--out", again, "--config", cfg}, parts...)...)
	if got := sweepRecords(t, again); !reflect.DeepEqual(got, want) {
		t.Errorf("after the stopped shard was resumed: %d records merged, one run: %d; they differ", len(got), len(want))
	}
	if grid == 0 || grid == len(want) {
		t.Errorf("%d grid records of %d: want both kinds", grid, len(want))
	}
}

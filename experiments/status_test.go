package experiments

import (
	"context"
	"reflect"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// TestStatusOf runs one shard of three, checks the counts of the sweep and of each shard
// against the shards' own sizes, and that a record lacking the held-out fit the config
// asks for does not count as done.
func TestStatusOf(t *testing.T) {
	cfg := mustLoad(t, "datasets: [synthetic]\nrestarts: 4\nmethods:\n  - name: KM\n    algorithm: kmeans\n    grid:\n      n_init: [1, 2]\n")
	runs, err := Plan(cfg)
	if err != nil || len(runs) != 8 {
		t.Fatalf("plan: %d runs, %v", len(runs), err)
	}
	dir := t.TempDir()
	st, err := StatusOf(cfg, runs, dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	if st.Expected != 8 || st.Missing != 8 || st.Done != 0 || len(st.Shards) != 3 || len(st.MissingRuns) != 8 {
		t.Fatalf("nothing run: %+v", st)
	}
	sizes := 0
	for i, sh := range st.Shards {
		if want := len(shardRuns(runs, i, 3)); sh.Expected != want || sh.Missing != want || sh.Started {
			t.Errorf("shard %d before any run: %+v, want %d runs missing, not started", i+1, sh, want)
		}
		sizes += sh.Expected
	}
	if sizes != 8 {
		t.Errorf("shards hold %d runs, want 8", sizes)
	}
	if _, err := Execute(context.Background(), cfg, Options{ResultsDir: results.ShardDir(dir, 2, 3), Shard: 1, Shards: 3}); err != nil {
		t.Fatal(err)
	}
	st, _ = StatusOf(cfg, runs, dir, 3)
	two := len(shardRuns(runs, 1, 3))
	if st.Done != two || st.Missing != 8-two || st.Merged != 0 || !st.Shards[1].Started || st.Shards[1].Done != two || st.Shards[1].Missing != 0 {
		t.Errorf("after shard 2: %+v (shard 2 %+v)", st, st.Shards[1])
	}
	if n, _ := results.ShardCounts(dir); !reflect.DeepEqual(n, []int{3}) {
		t.Errorf("ShardCounts: %v, want [3]", n)
	}
	// A config asking for held-out fits does not count runs without them as done.
	held := *cfg
	held.Holdout = 0.2
	if st, _ := StatusOf(&held, runs, dir, 3); st.Done != 0 {
		t.Errorf("held-out fits asked for: %d runs counted done without them", st.Done)
	}
}

// TestStatusOfOneShard checks that the one shard of a one-task job array (shards/1-of-1)
// is counted: a sweep stopped in it is neither "0 done" nor complete.
func TestStatusOfOneShard(t *testing.T) {
	cfg := mustLoad(t, "datasets: [synthetic]\nrestarts: 4\nmethods:\n  - name: KM\n    algorithm: kmeans\n")
	runs, err := Plan(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Execute(context.Background(), cfg, Options{ResultsDir: results.ShardDir(dir, 1, 1), Shard: 0, Shards: 1, Limit: 3}); err != nil {
		t.Fatal(err)
	}
	if n, err := results.ShardCount(dir); n != 1 || err != nil {
		t.Fatalf("ShardCount: %d, %v; want 1", n, err)
	}
	st, err := StatusOf(cfg, runs, dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st.Done != 3 || st.Missing != 1 || st.Merged != 0 || len(st.Shards) != 1 || st.Shards[0].Done != 3 || st.Shards[0].State() != "stopped" {
		t.Errorf("3 of 4 runs in shards/1-of-1: %+v, shard %+v", st, st.Shards)
	}
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/runbar"
)

// searchTimeLimit submits a config with a grid row and a search row
// (shardSearchConfig) as a 3-task job array with a time limit of a minute, every task
// pausing after 6 records (runbar.PauseEnv) so that the limit stops the search's task inside
// its search, after every planned grid run of its shard: the merge job must refuse the
// unfinished search, nagc status must show that shard stopped, --resubmit must resubmit
// its task alone, and the merged records must equal a one-process run's.
func (c *localCluster) searchTimeLimit(t *testing.T) {
	dir, config, want := c.searchReference(t)
	results := filepath.Join(dir, "search")
	c.nagc(t, []string{runbar.PauseEnv + "=6"}, "slurm", config, "--results", results, "--tasks", "3", "--time", "1", "--submit")
	arrays, merges := jobs(t, results)
	waitQueue(c.ctx, t, arrays[0])
	waitQueue(c.ctx, t, merges[0])
	if _, err := os.Stat(filepath.Join(results, "runs.jsonl")); err == nil {
		t.Fatal("the merge job merged an unfinished search")
	}
	if log := jobLog(t, results, merges[0], ""); !strings.Contains(log, "search S on synthetic has") {
		t.Errorf("merge job %s: want the unfinished search named; its log:\n%s", merges[0], log)
	}
	out := c.nagc(t, nil, "status", config, "--results", results)
	if !strings.Contains(out, "1 searches unfinished") || !strings.Contains(out, "stopped") {
		t.Errorf("status with the search stopped: want it unfinished and its shard stopped")
	}
	out = c.nagc(t, nil, "slurm", config, "--results", results, "--resubmit", "--time", "5:00")
	if !strings.Contains(out, "1 searches unfinished: resubmitted tasks ") {
		t.Errorf("--resubmit: want the search's task resubmitted")
	}
	arrays, merges = jobs(t, results)
	waitQueue(c.ctx, t, arrays[len(arrays)-1])
	waitQueue(c.ctx, t, merges[len(merges)-1])
	if log := jobLog(t, results, merges[len(merges)-1], ""); !strings.Contains(log, fmt.Sprintf("merged %d runs", len(want))) {
		t.Errorf("the second merge job did not merge %d runs; its log:\n%s", len(want), log)
	}
	if got := sweepRecords(t, results); !reflect.DeepEqual(got, want) {
		t.Errorf("the cluster's merged records (%d) differ from a one-process run's (%d)", len(got), len(want))
	}
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/internal/runbar"
	"github.com/nagc-harness/nagc/slurm"
)

// rungsChain submits a config with a grid row and a search row (shardSearchConfig) as
// a chain of arrays of 3 tasks (`nagc slurm --rungs`) with a time limit of a minute,
// every task pausing after 3 records (runbar.PauseEnv): the first array's 11 runs and
// fits cannot fit in 3 tasks of 3, so its time limit stops a task mid-rung. While that
// task waits, nagc status must count what the tasks recorded in their own folders and
// list the array; the chain must then go on by itself (the next step job merging
// what the stopped task recorded and submitting the rest), end with the report, and
// hold the records of a one-process run.
func (c *localCluster) rungsChain(t *testing.T) {
	dir, config, want := c.searchReference(t)
	res := filepath.Join(dir, "chain")
	c.nagc(t, []string{runbar.PauseEnv + "=3"}, "slurm", config, "--results", res, "--tasks", "3", "--time", "1", "--rungs", "--submit")

	// A task of the first array paused: status reads the tasks' folders.
	paused := fmt.Sprintf(runbar.PausedLine, 3)
	for !c.someLog(t, res, "rungs-task-*", paused) {
		select {
		case <-c.ctx.Done():
			t.Fatal("no task of the chain paused before the deadline")
		case <-time.After(200 * time.Millisecond):
		}
	}
	out := c.nagc(t, nil, "status", config, "--results", res)
	if !strings.Contains(out, "a chain of arrays") || !strings.Contains(out, "\narray ") || strings.Contains(out, " runs: 0 done,") {
		t.Errorf("status of the running chain: want its progress across the tasks' folders and the array's tasks")
	}

	// The chain ends once a step job ends without submitting another.
	for seen := 0; ; {
		steps, err := (&slurm.Job{Results: res}).Jobs("step")
		if err != nil {
			t.Fatal(err)
		}
		if len(steps) == seen {
			break
		}
		seen = len(steps)
		waitQueue(c.ctx, t, steps[seen-1])
	}
	arrays, err := (&slurm.Job{Results: res}).Jobs("rungs")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the chain ran %d arrays", len(arrays))
	if !c.someLog(t, res, "rungs-task-*", "DUE TO TIME LIMIT") {
		t.Error("no task of the chain was stopped by its time limit")
	}
	if !c.someLog(t, res, "step-job-*", "the sweep is complete") {
		t.Error("no step job said the sweep is complete")
	}
	if _, err := os.Stat(filepath.Join(res, "report", "REPORT.md")); err != nil {
		t.Errorf("the last step job rendered no report: %v", err)
	}
	if got := sweepRecords(t, res); !reflect.DeepEqual(got, want) {
		t.Errorf("the chain's records (%d) differ from a one-process run's (%d)", len(got), len(want))
	}
	if len(arrays) < 6 {
		t.Errorf("%d arrays: want one at least per rung of each batch (6)", len(arrays))
	}
	out = c.nagc(t, nil, "status", config, "--results", res)
	if !strings.Contains(out, "0 missing") || !strings.Contains(out, "6 of 6 trials") || strings.Contains(out, "resume it") {
		t.Errorf("status of the finished chain: want nothing missing, every trial, no resume command")
	}
}

// someLog reports whether a log of the results folder matching pattern holds text.
func (c *localCluster) someLog(t *testing.T, resDir, pattern, text string) bool {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(resDir, slurm.Dir, slurm.LogsDir, pattern))
	for _, l := range logs {
		if b, err := os.ReadFile(l); err == nil && strings.Contains(string(b), text) {
			return true
		}
	}
	return false
}

// searchReference writes shardSearchConfig into a new folder dir and runs it there in
// one process: it returns dir, the config's path and the records of that run
// (sweepRecords).
func (c *localCluster) searchReference(t *testing.T) (dir, config string, want []string) {
	t.Helper()
	dir = t.TempDir()
	config = filepath.Join(dir, "shs.yaml")
	if err := os.WriteFile(config, []byte(shardSearchConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "one-process")
	c.nagc(t, nil, "run", config, "--results", ref, "--workers", "2")
	return dir, config, sweepRecords(t, ref)
}

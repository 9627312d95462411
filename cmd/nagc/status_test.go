package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nagcIn runs nagc in-process and returns its exit code, stdout and stderr.
func nagcIn(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestStatusAndMergeOfShards runs a sweep in two shards, one at a time, and checks what
// `nagc status` says at each step and that `nagc merge` refuses the incomplete set (unless
// allowed) and merges the complete one.
func TestStatusAndMergeOfShards(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "km.yaml")
	if err := os.WriteFile(cfg, []byte("datasets: [synthetic]\nrestarts: 3\nmethods:\n  - name: KM\n    algorithm: kmeans\n    grid:\n      n_init: [1, 2]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(dir, "results")
	shard := func(i string) string { return filepath.Join(results, "shards", i+"-of-2") }
	expect := func(what string, out string, wants ...string) {
		t.Helper()
		for _, w := range wants {
			if !strings.Contains(out, w) {
				t.Errorf("%s: %q lacks %q", what, out, w)
			}
		}
	}
	if code, _, errs := nagcIn("run", cfg, "--results", shard("1"), "--shard", "1/2", "--workers", "2"); code != exitOK {
		t.Fatalf("shard 1: exit %d: %s", code, errs)
	}
	code, out, errs := nagcIn("status", cfg, "--results", results)
	if code != exitOK {
		t.Fatalf("status: exit %d: %s", code, errs)
	}
	expect("status after shard 1", out, "6 runs:", "0 merged", "not started", "finished",
		"--results "+shard("2")+" --shard 2/2", "nagc merge --out "+results)

	code, _, errs = nagcIn("merge", "--out", results, shard("1"), shard("2"))
	if code != exitError {
		t.Errorf("merging half the shards: exit %d, want %d", code, exitError)
	}
	expect("merge of half the shards", errs, "refusing", "not recorded", "--allow-incomplete", cfg)
	if _, err := os.Stat(filepath.Join(results, "runs.jsonl")); err == nil {
		t.Error("a refused merge wrote runs.jsonl")
	}
	code, out, errs = nagcIn("merge", "--allow-incomplete", "--out", results, shard("1"), shard("2"))
	if code != exitOK {
		t.Fatalf("merge --allow-incomplete: exit %d: %s", code, errs)
	}
	expect("merge --allow-incomplete", errs, "holds no runs", "note: incomplete")

	if code, _, errs := nagcIn("run", cfg, "--results", shard("2"), "--shard", "2/2"); code != exitOK {
		t.Fatalf("shard 2: exit %d: %s", code, errs)
	}
	_, out, _ = nagcIn("status", cfg, "--results", results)
	expect("status after both shards", out, "6 done, 0 failed, 0 missing", "Every shard is finished")
	if code, _, errs := nagcIn("merge", "--out", results, shard("1"), shard("2")); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	_, out, _ = nagcIn("status", cfg, "--results", results)
	expect("status after the merge", out, "6 merged", "Complete")
}

// TestExitCodeFailedRuns checks that a sweep that finished with failed runs exits 4 and
// says so, and that running it again retries them (and exits 4 again: they fail again).
func TestExitCodeFailedRuns(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bad.yaml")
	// k2 = 700 > n = 600: NAGC fails; k-means runs.
	if err := os.WriteFile(cfg, []byte("datasets: [synthetic]\nmethods:\n  - name: bad\n    algorithm: nagc\n    options: {k2: 700, iterations: 3}\n  - name: good\n    algorithm: kmeans\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(dir, "results")
	for _, want := range []string{"1 done, 1 failed", "1 already recorded, 0 done, 1 failed"} {
		code, out, errs := nagcIn("run", cfg, "--results", results)
		if code != exitFailedRuns || !strings.Contains(out, want) || !strings.Contains(errs, "runs failed") || !strings.Contains(errs, "retries") {
			t.Errorf("a sweep with a failing run: exit %d, %q, %q; want %d, %q and the failure counted", code, out, errs, exitFailedRuns, want)
		}
	}
	_, out, _ := nagcIn("status", cfg, "--results", results)
	if !strings.Contains(out, "1 done, 1 failed, 0 missing") || !strings.Contains(out, "failed: run") || !strings.Contains(out, "k2") {
		t.Errorf("status of a sweep with a failed run: %q", out)
	}
}

//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSecondWriterRefused runs the nagc binary: while a sweep runs (paused after a few
// records, runbar.PauseEnv, so that it is certainly still running and holding its results
// folder), `nagc results rescore` and a second `nagc run` on the same folder are refused
// with an error naming the sweep's pid and host, and change nothing; a summary may still
// read the folder. Stopped with SIGINT and resumed, the sweep ends with exactly the
// records of an uninterrupted one; a rescore afterwards succeeds and keeps every run.
func TestSecondWriterRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds nagc and runs sweeps")
	}
	bin := buildNagc(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "crash.yaml"), []byte(crashConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "ref")
	runToEnd(t, bin, dir, ref, 2)
	want := readMetricLines(t, ref)

	results := filepath.Join(dir, "shared")
	s := startRun(t, bin, dir, results, 2, 3)
	defer s.cmd.Process.Kill() // a failed check below must not leave the paused sweep behind
	s.waitPaused(t)
	before, err := os.ReadFile(filepath.Join(results, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	holder := []string{"pid " + strconv.Itoa(s.cmd.Process.Pid), host, "nagc run"}
	for _, args := range [][]string{
		{"results", "rescore", results},
		{"run", filepath.Join(dir, "crash.yaml"), "--results", results, "--workers", "1"},
	} {
		out, code := runNagc(t, bin, dir, args...)
		if code != exitError {
			t.Errorf("nagc %s during a sweep: exit %d, want %d\n%s", strings.Join(args[:2], " "), code, exitError, out)
		}
		for _, w := range append(holder, "in use by") {
			if !strings.Contains(out, w) {
				t.Errorf("nagc %s during a sweep says %q: want it to name %q", strings.Join(args[:2], " "), out, w)
			}
		}
	}
	if out, code := runNagc(t, bin, dir, "results", "summary", results); code != exitOK {
		t.Errorf("a summary during a sweep: exit %d\n%s", code, out)
	}
	after, _ := os.ReadFile(filepath.Join(results, "runs.jsonl"))
	if !bytes.Equal(before, after) {
		t.Error("a refused command changed runs.jsonl")
	}

	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := s.wait(t); code != exitInterrupted {
		t.Fatalf("the sweep, interrupted: exit %d\n%s", code, s.stderr.String())
	}
	runToEnd(t, bin, dir, results, 2)
	if d := sameRecords(want, readMetricLines(t, results)); d != "" {
		t.Errorf("the sweep that refused others differs from an uninterrupted one: %s", d)
	}
	if out, code := runNagc(t, bin, dir, "results", "rescore", results); code != exitOK {
		t.Fatalf("rescore after the sweep: exit %d\n%s", code, out)
	}
	if got := readMetricLines(t, results); len(got) != len(want) {
		t.Errorf("rescore kept %d of %d runs", len(got), len(want))
	}
}

// runNagc runs the nagc binary in dir and returns its combined output and exit code.
func runNagc(t *testing.T, bin, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/nagc-harness/nagc/internal/runbar"
)

// crashConfig is a sweep of 25 runs on the built-in synthetic graph, most of them NAGC
// fits. The tests that stop it part-way start it with runbar.PauseEnv set, so it pauses after a
// given number of records until their signal: no signal can land after its end, however
// fast or loaded the machine.
const crashConfig = `name: crash
seed: 11
restarts: 1
iterations: 200
datasets: [synthetic]
methods:
  - name: "Prop.*"
    algorithm: nagc
    options: {init: random}
    grid:
      lambda: [1.0e-3, 1.0e-2, 0.1, 1]
      rho: [0.5, 0.9, 0.995]
      k2: [k1, 6]
  - name: k-means
    algorithm: kmeans
`

const crashRuns = 25

// buildNagc builds the nagc binary into a temporary folder.
func buildNagc(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build nagc with")
	}
	bin := filepath.Join(t.TempDir(), "nagc")
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// sweep is a started `nagc run` process.
type sweep struct {
	cmd     *exec.Cmd
	stderr  *watchedOutput
	results string
	exited  chan struct{} // closed when the process has exited (err then holds Wait's error)
	err     error
}

// watchedOutput collects a process's output and closes seen once it holds marker.
type watchedOutput struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
	seen   chan struct{}
}

func (w *watchedOutput) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.marker != "" && bytes.Contains(w.buf.Bytes(), []byte(w.marker)) {
		close(w.seen)
		w.marker = ""
	}
	return len(p), nil
}

func (w *watchedOutput) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// startRun starts `nagc run CONFIG --results results --workers workers` in dir; with
// pause > 0 the sweep pauses after that many records until a signal (runbar.PauseEnv).
func startRun(t *testing.T, bin, dir, results string, workers, pause int) *sweep {
	t.Helper()
	s := &sweep{results: results, exited: make(chan struct{}), stderr: &watchedOutput{seen: make(chan struct{})}}
	s.cmd = exec.Command(bin, "run", filepath.Join(dir, "crash.yaml"), "--results", results,
		"--workers", fmt.Sprint(workers))
	s.cmd.Dir = dir
	s.cmd.Stderr = s.stderr
	if pause > 0 {
		s.cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", runbar.PauseEnv, pause))
		s.stderr.marker = fmt.Sprintf(runbar.PausedLine, pause)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.err = s.cmd.Wait(); close(s.exited) }()
	return s
}

// waitPaused returns once the sweep, started with a pause, has paused: its records are
// then exactly those it made before the pause, and it runs until signalled. It fails the
// test if the sweep exits instead.
func (s *sweep) waitPaused(t *testing.T) {
	t.Helper()
	select {
	case <-s.stderr.seen:
	case <-s.exited:
		t.Fatalf("the sweep exited without pausing\n%s", s.stderr.String())
	}
}

// wait waits for the process and returns its exit code.
func (s *sweep) wait(t *testing.T) int {
	t.Helper()
	<-s.exited
	var ee *exec.ExitError
	switch {
	case s.err == nil:
		return 0
	case errors.As(s.err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(s.err)
	return -1
}

// runToEnd runs a whole sweep and fails the test unless it succeeds.
func runToEnd(t *testing.T, bin, dir, results string, workers int) {
	t.Helper()
	s := startRun(t, bin, dir, results, workers, 0)
	if code := s.wait(t); code != 0 {
		t.Fatalf("nagc run --workers %d: exit %d\n%s", workers, code, s.stderr.String())
	}
}

// metricLine is the part of a run record that must not depend on scheduling, workers,
// interruption or process: everything but timings, sweep id and finish time, kept as the
// exact bytes written.
type metricLine struct {
	RunID          string          `json:"run_id"`
	Status         string          `json:"status"`
	Params         json.RawMessage `json:"params"`
	Seed           uint64          `json:"seed"`
	Metrics        json.RawMessage `json:"metrics"`
	Iterations     int             `json:"iterations"`
	FinalObjective json.RawMessage `json:"final_objective"`
	Objective      json.RawMessage `json:"objective"`
	Labels         string          `json:"labels"`
}

// readMetricLines reads a runs file strictly: every line whole and a record, no run
// twice. It returns each run's metric line as bytes, by run id.
func readMetricLines(t *testing.T, results string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(results, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Errorf("runs.jsonl ends in a torn line: %q", data[max(0, len(data)-80):])
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		var m metricLine
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.RunID == "" {
			t.Fatalf("runs.jsonl:%d: not a whole record (%v): %.100q", line, err, sc.Text())
		}
		if _, dup := out[m.RunID]; dup {
			t.Errorf("runs.jsonl:%d: run %s recorded twice", line, m.RunID)
		}
		if m.Status != "done" {
			t.Errorf("runs.jsonl:%d: run %s has status %s", line, m.RunID, m.Status)
		}
		b, _ := json.Marshal(m)
		out[m.RunID] = string(b)
	}
	return out
}

// sameRecords reports the first difference between two sets of metric lines.
func sameRecords(a, b map[string]string) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d and %d runs", len(a), len(b))
	}
	ids := make([]string, 0, len(a))
	for id := range a {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if a[id] != b[id] {
			return fmt.Sprintf("run %s:\n%s\n%s", id, a[id], b[id])
		}
	}
	return ""
}

// TestCrashSafetyAndDeterminism runs the nagc binary: the same sweep with 1, 2 and 4
// workers in separate processes gives byte-identical metric records; a sweep killed with
// SIGKILL part-way and resumed ends with exactly the records of an uninterrupted one; a
// sweep stopped with SIGINT exits non-zero saying how to resume, with only whole lines
// written, and resumes to the same records.
func TestCrashSafetyAndDeterminism(t *testing.T) {
	if testing.Short() {
		t.Skip("builds nagc and runs sweeps")
	}
	bin := buildNagc(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "crash.yaml"), []byte(crashConfig), 0o644); err != nil {
		t.Fatal(err)
	}

	// Reference: one uninterrupted process per worker count.
	var ref map[string]string
	for _, workers := range []int{1, 2, 4} {
		results := filepath.Join(dir, fmt.Sprintf("ref-%d", workers))
		runToEnd(t, bin, dir, results, workers)
		got := readMetricLines(t, results)
		if len(got) != crashRuns {
			t.Fatalf("%d workers: %d runs recorded, want %d", workers, len(got), crashRuns)
		}
		if ref == nil {
			ref = got
			continue
		}
		if d := sameRecords(ref, got); d != "" {
			t.Errorf("1 worker and %d workers differ: %s", workers, d)
		}
	}

	t.Run("sigkill-resume", func(t *testing.T) {
		const paused = 5
		results := filepath.Join(dir, "killed")
		s := startRun(t, bin, dir, results, 2, paused)
		s.waitPaused(t)
		if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if code := s.wait(t); code == 0 {
			t.Fatal("the killed sweep exited 0")
		}
		partial := readMetricLines(t, results)
		if len(partial) != paused {
			t.Fatalf("killed while paused after %d records: %d runs recorded", paused, len(partial))
		}
		for id, line := range partial {
			if ref[id] != line {
				t.Errorf("before the resume, run %s differs from the reference", id)
			}
		}
		runToEnd(t, bin, dir, results, 2)
		if d := sameRecords(ref, readMetricLines(t, results)); d != "" {
			t.Errorf("killed and resumed differs from uninterrupted: %s", d)
		}
	})

	t.Run("sigint", func(t *testing.T) {
		const paused = 3
		results := filepath.Join(dir, "interrupted")
		s := startRun(t, bin, dir, results, 2, paused)
		s.waitPaused(t)
		if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		code := s.wait(t)
		stderr := s.stderr.String()
		if code != exitInterrupted || !strings.Contains(stderr, "interrupted") || !strings.Contains(stderr, "resume") {
			t.Fatalf("after SIGINT: exit %d, stderr %q; want exit 3 (interrupted) and the interrupted … resume message", code, stderr)
		}
		if strings.Contains(stderr, "goroutine ") {
			t.Errorf("stack trace on SIGINT: %s", stderr)
		}
		// Runs that finished while the sweep was paused are recorded after the signal;
		// the queue of runs is not handed out any further.
		partial := readMetricLines(t, results)
		if len(partial) < paused || len(partial) >= crashRuns {
			t.Fatalf("SIGINT while paused after %d records: %d runs recorded", paused, len(partial))
		}
		for id, line := range partial {
			if ref[id] != line {
				t.Errorf("run %s recorded before SIGINT differs from the reference", id)
			}
		}
		t.Logf("interrupted after %d of %d runs", len(partial), crashRuns)
		runToEnd(t, bin, dir, results, 1)
		if d := sameRecords(ref, readMetricLines(t, results)); d != "" {
			t.Errorf("interrupted and resumed differs from uninterrupted: %s", d)
		}
	})
}

package main

import (
	"math"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/memory"
)

// TestMaxMemoryFlag checks that --max-memory below a fit's estimate refuses the fit with
// the estimate and the budget in the message, that a size in the wrong words is an error
// naming the flag, and that a budget that fits lets the fit run.
func TestMaxMemoryFlag(t *testing.T) {
	defer func() { memory.SetLimit(0); debug.SetMemoryLimit(math.MaxInt64) }()
	code, _, stderr := cli(t, "cluster", "--data", "synthetic", "--method", "nagc", "--max-memory", "10kB")
	if code == 0 || !strings.Contains(stderr, "nagc fit into 4 clusters") || !strings.Contains(stderr, "more than the 10.0 kB budget") {
		t.Errorf("--max-memory 10kB: exit %d, stderr %q; want a refusal naming the fit and the budget", code, stderr)
	}
	code, _, stderr = cli(t, "cluster", "--data", "synthetic", "--method", "nagc", "--max-memory", "lots")
	if code == 0 || !strings.Contains(stderr, "--max-memory") {
		t.Errorf("--max-memory lots: exit %d, stderr %q; want an error naming the flag", code, stderr)
	}
	code, stdout, stderr := cli(t, "cluster", "--data", "synthetic", "--method", "nagc", "--iterations", "3", "--max-memory", "1GB")
	if code != 0 || !strings.Contains(stdout, "ARI") {
		t.Errorf("--max-memory 1GB: exit %d, stdout %q, stderr %q; want the fit", code, stdout, stderr)
	}
}

// TestBenchMaxMemory checks that nagc bench refuses a case whose fit would exceed
// --max-memory, printing the refusal in its row.
func TestBenchMaxMemory(t *testing.T) {
	defer func() { memory.SetLimit(0); debug.SetMemoryLimit(math.MaxInt64) }()
	code, stdout, stderr := cli(t, "bench", "--sizes", "2000", "--methods", "nagc", "--repeats", "1", "--out", t.TempDir(), "--max-memory", "50kB")
	if !strings.Contains(stdout, "more than the 50.0 kB budget") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the refusal in the case's row", code, stdout, stderr)
	}
}

package main

import (
	"os"
	"strings"
	"testing"
)

// TestRunReportsFailedRuns checks that a sweep whose runs fail exits 4, saying how
// many failed and why, and that a bad value is refused before anything runs.
func TestRunReportsFailedRuns(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg := "name: f\nseed: 1\nrestarts: 2\niterations: 2\ndatasets: [synthetic]\nmethods:\n" +
		"  - {name: Big, algorithm: nagc, options: {k2: 5000, init: random}}\n" +
		"  - {name: KM, algorithm: kmeans}\n"
	if err := os.WriteFile("f.yaml", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "run", "f.yaml", "--results", "r", "--workers", "1")
	if code != exitFailedRuns {
		t.Fatalf("exit %d, want %d; stdout %q, stderr %q", code, exitFailedRuns, stdout, stderr)
	}
	for _, want := range []string{"2 of 4 runs failed", "2× nagc: k2 = 5000, need 1 ≤ k2 ≤ n = 600", "e.g. synthetic, Big", "retries them"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}

	bad := strings.Replace(cfg, "k2: 5000, init: random", "init: kmean", 1)
	if err := os.WriteFile("bad.yaml", []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = cli(t, "run", "bad.yaml", "--results", "b")
	if code != 1 || !strings.Contains(stderr, "bad.yaml:7: init:") || !strings.Contains(stderr, "did you mean 'kmeans'") {
		t.Errorf("init kmean: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat("b"); err == nil {
		t.Error("a refused config created its results folder")
	}
}

// TestRunCPUProfile checks that --cpuprofile writes a profile that go tool pprof reads
// (a gzipped protocol buffer), and that an unwritable path is refused in plain words.
func TestRunCPUProfile(t *testing.T) {
	t.Chdir(t.TempDir())
	code, stdout, stderr := cli(t, "run", "quick", "--results", "r", "--workers", "1", "--cpuprofile", "cpu.prof")
	if code != 0 {
		t.Fatalf("exit %d; stdout %q, stderr %q", code, stdout, stderr)
	}
	b, err := os.ReadFile("cpu.prof")
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("cpu.prof is not a gzipped profile (%d bytes, %v)", len(b), err)
	}
	code, _, stderr = cli(t, "run", "quick", "--results", "r2", "--cpuprofile", "no/such/folder/cpu.prof")
	if code == 0 || !strings.Contains(stderr, "--cpuprofile") {
		t.Errorf("unwritable profile path: exit %d, %q", code, stderr)
	}
}

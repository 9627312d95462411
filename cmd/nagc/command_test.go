package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunCommandRows runs a config whose program rows fail (false exits 1, true writes
// no labels) beside k-means: nagc run lists the programs first, records the failed runs
// with their reasons, does the others, and exits 4; nagc status lists the programs too.
func TestRunCommandRows(t *testing.T) {
	for _, p := range []string{"true", "false"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("no %s program here", p)
		}
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mine.yaml")
	os.WriteFile(cfg, []byte(`seed: 1
datasets: [synthetic]
methods:
  - {name: Fails, algorithm: command, command: ["false"]}
  - {name: Silent, algorithm: command, command: ["true", --quiet]}
  - {name: KM, algorithm: kmeans}
`), 0o644)
	results := filepath.Join(dir, "res")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"run", cfg, "--results", results, "--workers", "1"}, &out, &errb); code != exitFailedRuns {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitFailedRuns, out.String(), errb.String())
	}
	for _, want := range []string{"starts 2 program(s), with your rights, no shell", "Fails: false", "Silent: true --quiet", "sha256 "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("nagc run's output lacks %q:\n%s", want, out.String())
		}
	}
	for _, want := range []string{"2 of 3 runs failed", "the program failed (exit status 1)", "the program wrote no labels file"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("nagc run's errors lack %q:\n%s", want, errb.String())
		}
	}
	out.Reset()
	run(context.Background(), []string{"status", cfg, "--results", results}, &out, &errb)
	if !strings.Contains(out.String(), "Fails: false") {
		t.Errorf("nagc status does not list the programs:\n%s", out.String())
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/configs"
	"github.com/nagc-harness/nagc/results"
)

// TestShippedConfigsCommands checks `nagc configs list|show` and that `nagc run NAME`
// runs a shipped config from a folder that holds no config file, recording it as built in.
func TestShippedConfigsCommands(t *testing.T) {
	code, stdout, stderr := cli(t, "configs", "list")
	if code != 0 {
		t.Fatalf("configs list: exit %d, %s", code, stderr)
	}
	for _, name := range configs.Names() {
		if !strings.Contains(stdout, name+" ") {
			t.Errorf("configs list lacks %s:\n%s", name, stdout)
		}
	}
	want, _ := configs.Lookup("quick")
	if code, stdout, _ := cli(t, "configs", "show", "quick"); code != 0 || stdout != string(want) {
		t.Errorf("configs show quick: exit %d, output differs from configs/quick.yaml", code)
	}
	if code, _, stderr := cli(t, "configs", "show", "nope"); code != 1 || !strings.Contains(stderr, "shipped: "+strings.Join(configs.Names(), ", ")) {
		t.Errorf("configs show nope: exit %d, %q", code, stderr)
	}
	if code, _, _ := cli(t, "configs"); code != 2 {
		t.Errorf("configs without a verb: exit %d, want 2", code)
	}

	t.Chdir(t.TempDir())
	if code, _, stderr := cli(t, "run", "nope"); code != 1 || !strings.Contains(stderr, "no config file nope") || !strings.Contains(stderr, "nagc configs show") {
		t.Errorf("run nope: exit %d, %q", code, stderr)
	}
	if testing.Short() {
		return
	}
	code, stdout, stderr = cli(t, "run", "quick", "--results", "q", "--limit", "4", "--workers", "1")
	if code != 0 || !strings.Contains(stdout, "quick.yaml (built in)") {
		t.Fatalf("run quick: exit %d, %q, %q", code, stdout, stderr)
	}
	recs, _, err := results.ReadRecords(filepath.Join("q", results.RunsFile))
	if err != nil || len(recs) != 4 {
		t.Fatalf("run quick recorded %d runs, %v", len(recs), err)
	}
	// A file of that name in the working folder wins over the shipped config.
	if err := os.WriteFile("quick", []byte("name: mine\nseed: 3\ndatasets: [synthetic]\nmethods:\n  - {name: KM, algorithm: kmeans}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := cli(t, "run", "quick", "--results", "m"); code != 0 || !strings.Contains(stdout, "quick: 1 runs") {
		t.Errorf("run ./quick: exit %d, %q, %q", code, stdout, stderr)
	}
}

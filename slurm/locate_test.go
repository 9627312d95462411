package slurm

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nagc-harness/nagc/experiments"
)

// TestLocate checks the paths and name Locate gives a job: a config file and the results
// folder become absolute, a shipped config's name stays a name, a name given stays.
func TestLocate(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("sweep.yaml", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		config, name, wantConfig, wantName string
	}{
		{"sweep.yaml", "", filepath.Join(dir, "sweep.yaml"), "nagc-sweep"},
		{"quick", "mine", "quick", "mine"},
	} {
		j := &Job{Name: tc.name}
		if err := j.Locate(&experiments.Config{File: tc.config}, tc.config, "res"); err != nil {
			t.Fatal(err)
		}
		if j.Config != tc.wantConfig || j.Name != tc.wantName || j.Results != filepath.Join(dir, "res") || j.Nagc != exe {
			t.Errorf("%s: %+v; want config %s, name %s, results %s", tc.config, j, tc.wantConfig, tc.wantName, filepath.Join(dir, "res"))
		}
	}
}

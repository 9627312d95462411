package slurm

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSubmitted checks that a results folder counts as submitted once it holds the
// array script.
func TestSubmitted(t *testing.T) {
	dir := t.TempDir()
	if Submitted(dir) {
		t.Error("an empty folder counts as submitted")
	}
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, Dir, ArrayScript), []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !Submitted(dir) {
		t.Error("a folder with the array script does not count as submitted")
	}
}

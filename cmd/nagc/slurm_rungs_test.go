package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The faults of a chain's commands in the user's words: nagc run --from without the
// share, --rungs with --resubmit, and --resubmit of a folder holding a chain.
func TestRungsFlagFaults(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "shs.yaml")
	if err := os.WriteFile(config, []byte(shardSearchConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "chain")
	out := nagcOK(t, "slurm", config, "--results", res, "--tasks", "2", "--rungs")
	if !strings.Contains(out, "--rungs --submit") || !strings.Contains(out, "step.sh") {
		t.Errorf("nagc slurm --rungs without --submit: want the scripts and how to submit them:\n%s", out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", config, "--from", res, "--results", filepath.Join(dir, "x")}, "give the share with --shard I/N"},
		{[]string{"slurm", config, "--results", res, "--tasks", "2", "--rungs", "--resubmit"}, "resumed with --submit, not --resubmit"},
		{[]string{"slurm", config, "--results", res, "--resubmit"}, "holds a chain of arrays: resume it with --rungs --submit"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), c.args, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("nagc %s: exit %d, %s; want %q", strings.Join(c.args, " "), code, stderr.String(), c.want)
		}
	}
}

package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/memory"
)

// inFakeCgroup makes /proc and /sys read from a fake tree in which the process is in the
// v2 cgroup /slurm/job_12 with memory.max = limit, for the rest of the test.
func inFakeCgroup(t *testing.T, limit string) {
	t.Helper()
	root := t.TempDir()
	for p, text := range map[string]string{
		"proc/meminfo":                              "MemAvailable: 20000000 kB\n",
		"proc/self/cgroup":                          "0::/slurm/job_12\n",
		"proc/self/mountinfo":                       "30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
		"sys/fs/cgroup/slurm/job_12/memory.max":     limit + "\n",
		"sys/fs/cgroup/slurm/job_12/memory.current": "0\n",
	} {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(memory.SetSystemRoot(root))
}

// TestCgroupBoundsLoadsAndFits checks that a load and a fit over the budget of the
// process's cgroup are refused, naming the file or fit, the cgroup and its limit.
func TestCgroupBoundsLoadsAndFits(t *testing.T) {
	inFakeCgroup(t, "67108864") // 64 MiB
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(bytes.Repeat([]byte("1 2\n"), 5_000_000)) // 20 MB of edge lines
	zw.Close()
	path := filepath.Join(t.TempDir(), "edges.txt.gz")
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	const cgroup = "set by the cgroup /sys/fs/cgroup/slurm/job_12 memory.max of 64.0 MiB"
	code, _, stderr := cli(t, "datasets", "stats", "--data", path)
	if code != 1 || !strings.Contains(stderr, "decompressing "+path) || !strings.Contains(stderr, cgroup) {
		t.Errorf("a 20 MB gzip text in a 64 MiB cgroup: exit %d, stderr %q; want a refusal naming the file and the cgroup", code, stderr)
	}

	inFakeCgroup(t, "1048576") // 1 MiB
	code, _, stderr = cli(t, "cluster", "--data", "synthetic", "--method", "nagc", "--quiet")
	if code == 0 || !strings.Contains(stderr, "nagc fit into 4 clusters") || !strings.Contains(stderr, "memory.max of 1.0 MiB") {
		t.Errorf("a fit in a 1 MiB cgroup: exit %d, stderr %q; want a refusal naming the fit and the cgroup", code, stderr)
	}
}

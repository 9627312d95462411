package memory

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const gib = 1 << 30

// fakeSystem writes files, keyed by their path on the live system, under a new folder
// and makes it the root /proc and /sys are read under for the rest of the test.
func fakeSystem(t *testing.T, files map[string]string) {
	t.Helper()
	root := t.TempDir()
	for p, text := range files {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(SetSystemRoot(root))
}

// Lines of /proc/self/mountinfo: a cgroup2 mount, cgroup v1 memory and cpu mounts.
const (
	v2Mount     = "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
	v1Mount     = "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	v1CPUMount  = "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n"
	unifiedMnt  = "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	procMount   = "22 1 0:5 / /proc rw,nosuid - proc proc rw\n"
	memAvail20G = "MemTotal: 25000000 kB\nMemAvailable: 20000000 kB\n"
	v1Unlimited = "9223372036854771712\n"
)

// TestBudgetFromCgroups checks, on fake cgroup trees, that the budget is the smallest of
// the machine's available memory and the limits of the process's cgroup and its
// ancestors, less what each cgroup holds, and that it names the limit that binds.
func TestBudgetFromCgroups(t *testing.T) {
	for _, c := range []struct {
		name      string
		files     map[string]string
		maxMemory uint64
		want      uint64 // Budget().Bytes
		source    string // Budget().Source
	}{{
		name: "v2 Slurm job, limit on an ancestor",
		files: map[string]string{
			"proc/meminfo":        memAvail20G,
			"proc/self/cgroup":    "0::/system.slice/slurmstepd.scope/job_12/step_0/user/task_0\n",
			"proc/self/mountinfo": procMount + v2Mount,
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_12/memory.max":                        "6442450944\n",
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_12/memory.high":                       "max\n",
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_12/memory.current":                    "1073741824\n",
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_12/memory.stat":                       "anon 536870912\nfile 536870912\ninactive_file 536870912\n",
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_12/step_0/user/task_0/memory.max":     "max\n",
			"sys/fs/cgroup/system.slice/slurmstepd.scope/job_12/step_0/user/task_0/memory.current": "5000\n",
			"sys/fs/cgroup/system.slice/memory.max":                                                "max\n",
		},
		want:   6*gib - gib/2,
		source: "the cgroup /sys/fs/cgroup/system.slice/slurmstepd.scope/job_12 memory.max",
	}, {
		name: "v2 memory.high below memory.max in the own cgroup",
		files: map[string]string{
			"proc/meminfo":        memAvail20G,
			"proc/self/cgroup":    "0::/user.slice/app.scope\n",
			"proc/self/mountinfo": v2Mount,
			"sys/fs/cgroup/user.slice/app.scope/memory.max":     "8589934592\n",
			"sys/fs/cgroup/user.slice/app.scope/memory.high":    "4294967296\n",
			"sys/fs/cgroup/user.slice/app.scope/memory.current": "0\n",
		},
		want:   4 * gib,
		source: "the cgroup /sys/fs/cgroup/user.slice/app.scope memory.high",
	}, {
		name: "v1, unlimited root",
		files: map[string]string{
			"proc/meminfo":        memAvail20G,
			"proc/self/cgroup":    "5:cpu,cpuacct:/slurm/uid_0/job_7\n4:memory:/slurm/uid_0/job_7/step_batch\n",
			"proc/self/mountinfo": v1CPUMount + v1Mount,
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                              v1Unlimited,
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes":            "4294967296\n",
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.usage_in_bytes":            "2147483648\n",
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.stat":                      "cache 1073741824\ntotal_inactive_file 1073741824\n",
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/step_batch/memory.limit_in_bytes": v1Unlimited,
			"sys/fs/cgroup/cpu,cpuacct/slurm/uid_0/job_7/memory.limit_in_bytes":       "1\n", // not the memory hierarchy
		},
		want:   3 * gib,
		source: "the cgroup /sys/fs/cgroup/memory/slurm/uid_0/job_7 memory.limit_in_bytes",
	}, {
		name: "hybrid: v2 without the memory controller, v1 memory",
		files: map[string]string{
			"proc/meminfo":        memAvail20G,
			"proc/self/cgroup":    "4:memory:/process_api/abc\n0::/\n",
			"proc/self/mountinfo": v1Mount + unifiedMnt,
			"sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes": "2147483648\n",
			"sys/fs/cgroup/memory/process_api/abc/memory.usage_in_bytes": "0\n",
			"sys/fs/cgroup/unified/cgroup.procs":                         "1\n",
		},
		want:   2 * gib,
		source: "the cgroup /sys/fs/cgroup/memory/process_api/abc memory.limit_in_bytes",
	}, {
		name: "container: the mount shows the container's own cgroup",
		files: map[string]string{
			"proc/meminfo":        memAvail20G,
			"proc/self/cgroup":    "4:memory:/docker/f00d\n",
			"proc/self/mountinfo": "35 31 0:32 /docker/f00d /sys/fs/cgroup/memory ro,relatime - cgroup cgroup rw,memory\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "1073741824\n",
		},
		want:   gib,
		source: "the cgroup /sys/fs/cgroup/memory memory.limit_in_bytes",
	}, {
		name: "a mount point with a space",
		files: map[string]string{
			"proc/meminfo":                memAvail20G,
			"proc/self/cgroup":            "0::/a\n",
			"proc/self/mountinfo":         `30 23 0:26 / /mnt/my\040cgroups rw - cgroup2 cgroup2 rw` + "\n",
			"mnt/my cgroups/a/memory.max": "1073741824\n",
		},
		want:   gib,
		source: "the cgroup /mnt/my cgroups/a memory.max",
	}, {
		name: "every limit max: the machine's memory",
		files: map[string]string{
			"proc/meminfo":                  memAvail20G,
			"proc/self/cgroup":              "0::/a/b\n",
			"proc/self/mountinfo":           v2Mount,
			"sys/fs/cgroup/a/b/memory.max":  "max\n",
			"sys/fs/cgroup/a/b/memory.high": "max\n",
			"sys/fs/cgroup/a/memory.max":    "max\n",
		},
		want:   20000000 * 1024,
		source: "the machine's available memory",
	}, {
		name: "--max-memory below every limit",
		files: map[string]string{
			"proc/meminfo":               memAvail20G,
			"proc/self/cgroup":           "0::/a\n",
			"proc/self/mountinfo":        v2Mount,
			"sys/fs/cgroup/a/memory.max": "6442450944\n",
		},
		maxMemory: 1e9,
		want:      1e9,
		source:    "--max-memory or max_memory",
	}, {
		name: "--max-memory above a cgroup limit does not raise it",
		files: map[string]string{
			"proc/meminfo":               memAvail20G,
			"proc/self/cgroup":           "0::/a\n",
			"proc/self/mountinfo":        v2Mount,
			"sys/fs/cgroup/a/memory.max": "6442450944\n",
		},
		maxMemory: 16e9,
		want:      6 * gib,
		source:    "the cgroup /sys/fs/cgroup/a memory.max",
	}, {
		name:   "nothing readable: no budget",
		files:  map[string]string{"etc/hostname": "x\n"},
		want:   0,
		source: "",
	}, {
		name: "usage over the limit leaves nothing",
		files: map[string]string{
			"proc/meminfo":                   memAvail20G,
			"proc/self/cgroup":               "0::/a\n",
			"proc/self/mountinfo":            v2Mount,
			"sys/fs/cgroup/a/memory.max":     "1000\n",
			"sys/fs/cgroup/a/memory.current": "5000\n",
		},
		want:   1,
		source: "the cgroup /sys/fs/cgroup/a memory.max",
	}} {
		t.Run(c.name, func(t *testing.T) {
			fakeSystem(t, c.files)
			SetLimit(c.maxMemory)
			defer SetLimit(0)
			b := Budget()
			if b.Bytes != c.want || b.Source != c.source {
				t.Errorf("Budget() = %d from %q, want %d from %q (bounds %+v)", b.Bytes, b.Source, c.want, c.source, Bounds())
			}
		})
	}
}

// TestRefusalNamesTheCgroup checks that a refusal under a cgroup's limit names the cgroup,
// its file and the limit in the units the cgroup was set in, the need and the budget in
// the same units.
func TestRefusalNamesTheCgroup(t *testing.T) {
	fakeSystem(t, map[string]string{
		"proc/meminfo":                              memAvail20G,
		"proc/self/cgroup":                          "0::/slurm/job_12\n",
		"proc/self/mountinfo":                       v2Mount,
		"sys/fs/cgroup/slurm/job_12/memory.max":     "6442450944\n",
		"sys/fs/cgroup/slurm/job_12/memory.current": "104857600\n",
	})
	err := Check("reading edges.txt.gz", 8e9)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("8 GB in a 6 GiB cgroup: %v, want a refusal", err)
	}
	// The need, the budget, the limit and its usage in one unit: 8e9 B = 7.5 GiB, and
	// 6 GiB − 100 MiB = 5.9 GiB.
	for _, s := range []string{"reading edges.txt.gz needs about 7.5 GiB of memory, more than the 5.9 GiB budget",
		"the cgroup /sys/fs/cgroup/slurm/job_12 memory.max of 6.0 GiB", "100.0 MiB of it in use"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%q lacks %q", err, s)
		}
	}
	if Available() != 6*gib-100<<20 {
		t.Errorf("Available() = %d, want the cgroup's headroom %d", Available(), 6*gib-100<<20)
	}
}

func TestFormatBinary(t *testing.T) {
	for b, want := range map[uint64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 6 * gib: "6.0 GiB", 1<<40 - 1: "1.0 TiB"} {
		if got := FormatBinary(b); got != want {
			t.Errorf("FormatBinary(%d) = %q, want %q", b, got, want)
		}
	}
}

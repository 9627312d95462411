package memory

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// childEnv marks the test binary run inside the cgroup TestRealCgroup makes.
const childEnv = "NAGC_MEMORY_TEST_IN_CGROUP"

// TestRealCgroup makes a cgroup with a 256 MiB limit below the process's own (as root:
// cgroup v2 where its memory controller reaches the process's cgroup, else v1's memory
// hierarchy), runs this test binary in it and checks that its budget is that limit, named
// by its cgroup folder. It skips, saying why, where no such cgroup can be made.
func TestRealCgroup(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		b := Budget()
		fmt.Printf("budget %d %s\n", b.Bytes, b.Source)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("making a cgroup needs root")
	}
	cs := ownCgroups("/")
	slices.SortStableFunc(cs, func(a, b ownCgroup) int { return cmp.Compare(b2i(b.v2), b2i(a.v2)) }) // v2 first
	var why []string
	for _, c := range cs {
		dir, file, err := makeChildCgroup(c)
		if err != nil {
			t.Log(err)
			why = append(why, err.Error())
			continue
		}
		defer os.Remove(dir)
		const limit = 256 << 20
		if err := os.WriteFile(filepath.Join(dir, file), []byte(strconv.Itoa(limit)), 0o644); err != nil {
			t.Fatalf("setting %s of %s: %v", file, dir, err)
		}
		cmd := exec.Command("sh", "-c", `echo $$ > "$1/cgroup.procs" && exec "$2" -test.run='^TestRealCgroup$'`, "sh", dir, os.Args[0])
		cmd.Env = append(os.Environ(), childEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the test binary in %s: %v\n%s", dir, err, out)
		}
		want := "the cgroup " + dir + " " + file
		var bytes uint64
		var source string
		for line := range strings.Lines(string(out)) {
			if rest, ok := strings.CutPrefix(line, "budget "); ok {
				n, s, _ := strings.Cut(strings.TrimSpace(rest), " ")
				bytes, _ = strconv.ParseUint(n, 10, 64)
				source = s
			}
		}
		if source != want || bytes == 0 || bytes > limit {
			t.Errorf("in a cgroup of %d bytes: budget %d from %q, want at most the limit from %q\n%s", limit, bytes, source, want, out)
		}
		t.Logf("in %s (%s = %d): budget %d", dir, file, limit, bytes)
		return
	}
	t.Skipf("no cgroup with a memory limit can be made here: %s", strings.Join(why, "; "))
}

// makeChildCgroup makes a new cgroup below c and returns its folder and the file that
// sets its memory limit, or an error saying why it cannot.
func makeChildCgroup(c ownCgroup) (dir, file string, err error) {
	file = "memory.limit_in_bytes"
	kind := "v1"
	if c.v2 {
		file, kind = "memory.max", "v2"
	}
	dir, err = os.MkdirTemp(c.dir, "nagc-test-")
	if err != nil {
		return "", "", fmt.Errorf("cgroup %s: %v", kind, err)
	}
	if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
		os.Remove(dir)
		return "", "", fmt.Errorf("cgroup %s: %s has no %s (the memory controller is not enabled there)", kind, c.dir, file)
	}
	return dir, file, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

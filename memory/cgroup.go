package memory

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// unlimited is the smallest value read as "no limit": cgroup v1 writes an unset
// memory.limit_in_bytes as 2⁶³ rounded down to a page (9223372036854771712).
const unlimited = 1 << 62

// cgroupBounds returns the memory limits of the cgroups this process is in, read under
// the file-system root fsRoot ("/" but in tests): for every hierarchy of
// /proc/self/cgroup that holds the memory controller (cgroup v2's, and v1's "memory"),
// the process's own cgroup and each ancestor up to the hierarchy's mount point
// (/proc/self/mountinfo), each memory.max and memory.high (v2) or memory.limit_in_bytes
// (v1) that is set. A bound's Bytes is the limit less what the cgroup holds (its usage
// less the inactive file cache the kernel reclaims first, as the kubelet counts a
// container's working set). Cost: a few small file reads per level.
func cgroupBounds(fsRoot string) []Bound {
	var bs []Bound
	for _, c := range ownCgroups(fsRoot) {
		bs = append(bs, levelBounds(fsRoot, c.top, c.dir, c.v2)...)
	}
	return bs
}

// ownCgroup is the folder of the process's cgroup in one hierarchy that can hold the
// memory controller.
type ownCgroup struct {
	dir, top string // the cgroup's folder and its hierarchy's mount point, on the live system
	v2       bool
}

// ownCgroups returns the process's cgroups (/proc/self/cgroup under fsRoot) in the v2
// hierarchy and the v1 memory hierarchy, located through /proc/self/mountinfo.
func ownCgroups(fsRoot string) []ownCgroup {
	self, err := os.ReadFile(filepath.Join(fsRoot, "proc/self/cgroup"))
	if err != nil {
		return nil
	}
	mounts := cgroupMounts(fsRoot)
	var cs []ownCgroup
	sc := bufio.NewScanner(bytes.NewReader(self))
	for sc.Scan() {
		id, rest, _ := strings.Cut(sc.Text(), ":")
		controllers, cgPath, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		v2 := id == "0" && controllers == ""
		if !v2 && !hasField(controllers, "memory", ',') {
			continue
		}
		for _, m := range mounts {
			if m.v2 == v2 && (v2 || m.memory) {
				cs = append(cs, ownCgroup{dir: m.dirOf(cgPath), top: m.point, v2: v2})
				break
			}
		}
	}
	return cs
}

// levelBounds returns the bounds of the cgroup folder dir (a path on the live system)
// and of each of its ancestors up to the mount point top.
func levelBounds(fsRoot, top, dir string, v2 bool) []Bound {
	files := []string{"memory.limit_in_bytes"}
	usageFile, inactive := "memory.usage_in_bytes", "total_inactive_file"
	if v2 {
		files = []string{"memory.max", "memory.high"}
		usageFile, inactive = "memory.current", "inactive_file"
	}
	var bs []Bound
	for d := dir; ; d = path.Dir(d) {
		local := filepath.Join(fsRoot, d)
		for _, f := range files {
			limit, ok := readLimit(filepath.Join(local, f))
			if !ok {
				continue
			}
			used, _ := readLimit(filepath.Join(local, usageFile))
			if cache := statField(filepath.Join(local, "memory.stat"), inactive); cache < used {
				used -= cache
			} else {
				used = 0
			}
			free := uint64(1) // not 0, which means "no budget"
			if used < limit {
				free = limit - used
			}
			bs = append(bs, Bound{Bytes: free, Limit: limit, Used: used, Source: "the cgroup " + d + " " + f})
		}
		if d == top || d == "/" || d == "." {
			return bs
		}
	}
}

// readLimit reads a cgroup file holding one number; ok is false for "max", a value of
// 2⁶² or more (v1's "unlimited"), or a file that cannot be read.
func readLimit(p string) (uint64, bool) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(string(bytes.TrimSpace(b)), 10, 64)
	if err != nil || v >= unlimited {
		return 0, false
	}
	return v, true
}

// statField returns the value of the "name value" line of a memory.stat file, 0 when
// absent.
func statField(p, name string) uint64 {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(b) {
		k, v, ok := bytes.Cut(bytes.TrimSpace(line), []byte{' '})
		if ok && string(k) == name {
			n, _ := strconv.ParseUint(string(v), 10, 64)
			return n
		}
	}
	return 0
}

// cgroupMount is a mounted cgroup hierarchy of /proc/self/mountinfo.
type cgroupMount struct {
	root, point string // the cgroup path the mount shows, and where it is mounted
	v2, memory  bool   // cgroup2; a v1 hierarchy holding the memory controller
}

// dirOf returns the folder, on the live system, of the cgroup cgPath of this mount's
// hierarchy. A path outside the mount's root (a cgroup namespace shows "/" for the
// container's own cgroup) maps to the mount point.
func (m cgroupMount) dirOf(cgPath string) string {
	if m.root == "/" {
		return path.Join(m.point, cgPath)
	}
	if rel, ok := strings.CutPrefix(cgPath, m.root); ok && (rel == "" || rel[0] == '/') {
		return path.Join(m.point, rel)
	}
	return m.point
}

// cgroupMounts returns the cgroup and cgroup2 mounts of /proc/self/mountinfo under fsRoot.
func cgroupMounts(fsRoot string) []cgroupMount {
	b, err := os.ReadFile(filepath.Join(fsRoot, "proc/self/mountinfo"))
	if err != nil {
		return nil
	}
	var ms []cgroupMount
	for line := range strings.Lines(string(b)) {
		// ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL…] - FSTYPE SOURCE SUPEROPTIONS
		pre, post, ok := strings.Cut(line, " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 1 {
			continue
		}
		m := cgroupMount{root: unescapeMount(f[3]), point: unescapeMount(f[4])}
		switch g[0] {
		case "cgroup2":
			m.v2 = true
		case "cgroup":
			m.memory = len(g) >= 3 && hasField(g[2], "memory", ',')
		default:
			continue
		}
		ms = append(ms, m)
	}
	return ms
}

// unescapeMount undoes mountinfo's octal escapes of space, tab, newline and backslash.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hasField reports whether the sep-separated list s holds name.
func hasField(s, name string, sep byte) bool {
	for f := range strings.SplitSeq(s, string(sep)) {
		if f == name {
			return true
		}
	}
	return false
}

// Package memory budgets the memory a load or a fit may take: every size read from a file
// and every fit's estimated peak is checked against one process-wide budget before
// anything that large is allocated.
package memory

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
)

// limit is the budget --max-memory sets, in bytes; 0 means "not set".
var limit atomic.Uint64

// fsRoot is the file-system root /proc and /sys are read under: "/" but in tests.
var fsRoot atomic.Pointer[string]

// SetLimit sets the budget that --max-memory (or the config key max_memory) names to b
// bytes; 0 unsets it. It can only lower the budget: Limit is the smallest of it and the
// machine's and the cgroups' limits.
func SetLimit(b uint64) { limit.Store(b) }

// SetSystemRoot makes /proc and /sys be read under dir (a fake tree of cgroup and meminfo
// files, in tests) and returns the function that puts the previous root back.
func SetSystemRoot(dir string) (restore func()) {
	prev := fsRoot.Swap(&dir)
	return func() { fsRoot.Store(prev) }
}

// systemRoot returns the root SetSystemRoot set, "/" by default.
func systemRoot() string {
	if p := fsRoot.Load(); p != nil {
		return *p
	}
	return "/"
}

// maxMemorySource is the Source of the bound SetLimit sets.
const maxMemorySource = "--max-memory or max_memory"

// Bound is one limit on the memory budget: what it leaves this process and what sets it.
type Bound struct {
	Bytes  uint64 // the memory it leaves: Limit less Used
	Limit  uint64 // the limit itself
	Used   uint64 // what its cgroup holds already (0 for the machine and --max-memory)
	Source string // what sets it: "--max-memory or max_memory", "the cgroup /sys/fs/cgroup/job_12 memory.max", …
}

// String says which limit the bound is: its Source, and for a cgroup the limit and
// what the cgroup holds ("the cgroup /sys/fs/cgroup/job_12 memory.max of 6.0 GiB, 0.2 GiB
// of it in use").
func (b Bound) String() string {
	if !strings.HasPrefix(b.Source, "the cgroup ") {
		return b.Source
	}
	s := fmt.Sprintf("%s of %s", b.Source, FormatBinary(b.Limit))
	if b.Used > 0 {
		s += fmt.Sprintf(", %s of it in use", FormatBinary(b.Used))
	}
	return s
}

// Bounds returns every limit on the budget: --max-memory where set, the machine's
// available memory (MemAvailable of /proc/meminfo), and each memory.max and memory.high
// (cgroup v2) or memory.limit_in_bytes (v1) of the process's own cgroup and its
// ancestors. Cost: some tens of small file reads.
func Bounds() []Bound {
	var bs []Bound
	if b := limit.Load(); b > 0 {
		bs = append(bs, Bound{Bytes: b, Limit: b, Source: maxMemorySource})
	}
	root := systemRoot()
	if b := meminfo(root, "MemAvailable"); b > 0 {
		bs = append(bs, Bound{Bytes: b, Limit: b, Source: "the machine's available memory"})
	}
	return append(bs, cgroupBounds(root)...)
}

// Budget returns the smallest of Bounds, the one that binds; its Bytes is 0 when none is
// known (not Linux, no --max-memory).
func Budget() Bound {
	var min Bound
	for i, b := range Bounds() {
		if i == 0 || b.Bytes < min.Bytes {
			min = b
		}
	}
	return min
}

// Limit returns the budget in bytes, Budget().Bytes: 0 when none is known (Check then
// accepts everything).
func Limit() uint64 { return Budget().Bytes }

// Available returns the memory the machine and the process's cgroups can still give it,
// in bytes, leaving --max-memory out; 0 where none can be read (not Linux).
func Available() uint64 {
	var min uint64
	for _, b := range Bounds() {
		if b.Source != maxMemorySource && (min == 0 || b.Bytes < min) {
			min = b.Bytes
		}
	}
	return min
}

// meminfo returns the named field of /proc/meminfo under root in bytes, 0 when it cannot
// be read.
func meminfo(root, field string) uint64 {
	f, err := os.Open(filepath.Join(root, "proc/meminfo"))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		fs := strings.Fields(rest)
		if len(fs) == 0 {
			return 0
		}
		kb, err := strconv.ParseUint(fs[0], 10, 64)
		if err != nil {
			return 0
		}
		return kb * 1024
	}
	return 0
}

// TooLargeError is the refusal of Check: what would not fit, its estimate and the budget.
type TooLargeError struct {
	What   string // in the user's words: "reading adj.mtx (n = 2000000000 from its size line)"
	Need   uint64 // estimated bytes
	Budget uint64 // the budget in force
	By     Bound  // the limit that set the budget (Source empty when unknown)
}

func (e *TooLargeError) Error() string {
	by := "the machine's available memory unless --max-memory or max_memory sets it"
	if e.By.Source != "" {
		by = "set by " + e.By.String()
	}
	if e.By.Source != maxMemorySource && e.By.Source != "" {
		by += "; --max-memory can only lower it"
	}
	// Under a cgroup's limit, the need and the budget are in its units (GiB), so that
	// they read against the limit and its usage beside them.
	format := Format
	if strings.HasPrefix(e.By.Source, "the cgroup ") {
		format = FormatBinary
	}
	return fmt.Sprintf("%s needs about %s of memory, more than the %s budget (%s)",
		e.What, format(e.Need), format(e.Budget), by)
}

// ErrTooLarge matches every *TooLargeError with errors.Is.
var ErrTooLarge = errors.New("memory: over budget")

// Is makes errors.Is(err, ErrTooLarge) true for a *TooLargeError.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Check returns a *TooLargeError when need bytes exceed the budget (Limit), else nil. what
// says, in the user's words, what the memory is for and which numbers it came from. With
// no known budget it returns nil.
func Check(what string, need uint64) error {
	b := Budget()
	if b.Bytes == 0 || need <= b.Bytes {
		return nil
	}
	return &TooLargeError{What: what, Need: need, Budget: b.Bytes, By: b}
}

// Bytes returns count·size as a byte count, saturating at math.MaxUint64 instead of
// overflowing, for estimates built from sizes read from files (count < 0 counts as 0).
func Bytes(count int64, size int) uint64 {
	if count <= 0 || size <= 0 {
		return 0
	}
	c, s := uint64(count), uint64(size)
	if c > math.MaxUint64/s {
		return math.MaxUint64
	}
	return c * s
}

// Add returns the saturating sum of byte counts.
func Add(bs ...uint64) uint64 {
	var t uint64
	for _, b := range bs {
		if t > math.MaxUint64-b {
			return math.MaxUint64
		}
		t += b
	}
	return t
}

// FormatBinary writes a byte count in powers of 1024, as cgroup limits are set ("6G" in
// Slurm's --mem, Docker's --memory and memory.max is 6 GiB): "512 B", "6.0 GiB".
func FormatBinary(b uint64) string {
	return formatUnits(b, 1024, "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
}

// Format writes a byte count for people: "512 B", "3.2 MB", "16.0 GB" (powers of 1000;
// "GB" as users type it in --max-memory).
func Format(b uint64) string {
	if b == math.MaxUint64 {
		return "more than 18 EB"
	}
	return formatUnits(b, 1000, "kB", "MB", "GB", "TB", "PB", "EB")
}

// formatUnits writes b in the largest of units (powers of base) that keeps its value
// below base, with one decimal; bytes below base as a whole number of B.
func formatUnits(b uint64, base float64, units ...string) string {
	if float64(b) < base {
		return fmt.Sprintf("%d B", b)
	}
	v := float64(b) / base
	i := 0
	for v >= base-0.05 && i < len(units)-1 {
		v /= base
		i++
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

// ParseSize reads a size as users type it: a number of bytes, or a number with a unit
// B, k/kB, M/MB, G/GB, T/TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024),
// case-insensitive, with or without a space ("8GB", "1.5 GiB", "500M").
func ParseSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	v, err := strconv.ParseFloat(num, 64)
	if num == "" || err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a size: want a number of bytes or a number with a unit, such as 8GB or 512MiB", s)
	}
	mult := map[string]float64{
		"": 1, "b": 1,
		"k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
	}
	m, ok := mult[unit]
	if !ok {
		return 0, fmt.Errorf("%q is not a size: unknown unit %q (want B, kB, MB, GB, TB, KiB, MiB, GiB or TiB)", s, t[i:])
	}
	b := v * m
	if b >= math.MaxUint64 {
		return 0, fmt.Errorf("%q is not a size: too large", s)
	}
	return uint64(b), nil
}

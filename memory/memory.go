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
	"strconv"
	"strings"
	"sync/atomic"
)

// limit is the process-wide budget in bytes; 0 means "not set": Limit then returns the
// machine's available memory.
var limit atomic.Uint64

// SetLimit sets the budget that Check enforces to b bytes (the --max-memory flag and the
// config key max_memory); 0 restores the default, the machine's available memory.
func SetLimit(b uint64) { limit.Store(b) }

// Limit returns the budget in bytes: the one set by SetLimit, else the machine's
// available memory (MemAvailable of /proc/meminfo), else 0 when neither is known (no
// budget: Check then accepts everything).
func Limit() uint64 {
	if b := limit.Load(); b > 0 {
		return b
	}
	return Available()
}

// Available returns the memory the machine can still give this process, in bytes:
// MemAvailable of /proc/meminfo, lowered to the cgroup's memory.max headroom where one is
// set; 0 where neither can be read (not Linux). Cost: two small file reads.
func Available() uint64 {
	avail := meminfo("MemAvailable")
	if cg := cgroupHeadroom(); cg > 0 && (avail == 0 || cg < avail) {
		avail = cg
	}
	return avail
}

// meminfo returns the named field of /proc/meminfo in bytes, 0 when it cannot be read.
func meminfo(field string) uint64 {
	f, err := os.Open("/proc/meminfo")
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

// cgroupHeadroom returns memory.max − memory.current of this process's cgroup (v2), 0
// when there is no limit or it cannot be read.
func cgroupHeadroom() uint64 {
	read := func(p string) (uint64, bool) {
		b, err := os.ReadFile(p)
		if err != nil {
			return 0, false
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			return 0, false
		}
		v, err := strconv.ParseUint(s, 10, 64)
		return v, err == nil
	}
	max, ok := read("/sys/fs/cgroup/memory.max")
	if !ok {
		return 0
	}
	cur, _ := read("/sys/fs/cgroup/memory.current")
	if cur >= max {
		return 1
	}
	return max - cur
}

// TooLargeError is the refusal of Check: what would not fit, its estimate and the budget.
type TooLargeError struct {
	What   string // in the user's words: "reading adj.mtx (n = 2000000000 from its size line)"
	Need   uint64 // estimated bytes
	Budget uint64 // the budget in force
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s needs about %s of memory, more than the %s budget "+
		"(the machine's available memory unless --max-memory or max_memory sets it)",
		e.What, Format(e.Need), Format(e.Budget))
}

// ErrTooLarge matches every *TooLargeError with errors.Is.
var ErrTooLarge = errors.New("memory: over budget")

// Is makes errors.Is(err, ErrTooLarge) true for a *TooLargeError.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Check returns a *TooLargeError when need bytes exceed the budget (Limit), else nil. what
// says, in the user's words, what the memory is for and which numbers it came from. With
// no known budget it returns nil.
func Check(what string, need uint64) error {
	b := Limit()
	if b == 0 || need <= b {
		return nil
	}
	return &TooLargeError{What: what, Need: need, Budget: b}
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

// Format writes a byte count for people: "512 B", "3.2 MB", "16.0 GB" (powers of 1000;
// "GB" as users type it in --max-memory).
func Format(b uint64) string {
	switch {
	case b == math.MaxUint64:
		return "more than 18 EB"
	case b < 1000:
		return fmt.Sprintf("%d B", b)
	}
	units := []string{"kB", "MB", "GB", "TB", "PB", "EB"}
	v := float64(b) / 1000
	i := 0
	for v >= 999.95 && i < len(units)-1 {
		v /= 1000
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

package memory

import (
	"errors"
	"math"
	"runtime/debug"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
	}{
		{"0", 0}, {"512", 512}, {"8GB", 8e9}, {"8 gb", 8e9}, {"1.5GiB", 3 << 29},
		{"500M", 500e6}, {"2k", 2000}, {"1TiB", 1 << 40}, {"10 B", 10},
	} {
		got, err := ParseSize(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "GB", "-1GB", "8 parsecs", "1e999"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q): want an error", bad)
		}
	}
}

func TestCheck(t *testing.T) {
	defer SetLimit(0)
	SetLimit(1000)
	if err := Check("a small thing", 1000); err != nil {
		t.Fatalf("at the budget: %v", err)
	}
	err := Check("reading adj.mtx (n = 2000000000 from its size line)", 16e9)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the budget: got %v", err)
	}
	for _, s := range []string{"adj.mtx", "16.0 GB", "1.0 kB", "--max-memory"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("message %q lacks %q", err, s)
		}
	}
}

func TestBytesSaturates(t *testing.T) {
	if got := Bytes(math.MaxInt64, 8); got != math.MaxUint64 {
		t.Errorf("Bytes overflow: got %d", got)
	}
	if got := Bytes(-5, 8); got != 0 {
		t.Errorf("Bytes(-5, 8) = %d", got)
	}
	if got := Add(math.MaxUint64-1, 5); got != math.MaxUint64 {
		t.Errorf("Add overflow: got %d", got)
	}
	if got := Bytes(3, 8); got != 24 {
		t.Errorf("Bytes(3, 8) = %d", got)
	}
}

func TestFormat(t *testing.T) {
	for b, want := range map[uint64]string{
		0: "0 B", 999: "999 B", 1000: "1.0 kB", 16e9: "16.0 GB", 1_999_950: "2.0 MB",
		math.MaxUint64: "more than 18 EB",
	} {
		if got := Format(b); got != want {
			t.Errorf("Format(%d) = %q, want %q", b, got, want)
		}
	}
}

func TestAvailableIsPlausible(t *testing.T) {
	a := Available()
	if a != 0 && a < 1<<20 {
		t.Errorf("Available() = %d bytes: implausibly small", a)
	}
}

// TestHoldHeapTo checks that HoldHeapTo lowers the runtime's soft memory limit to about
// what the process holds plus the need, never raises it, and that its restore puts the
// previous limit back.
func TestHoldHeapTo(t *testing.T) {
	const high = int64(1) << 50
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(high))
	restore := HoldHeapTo(64 << 20)
	got := debug.SetMemoryLimit(-1)
	if got >= high || got < 64<<20+holdFloor || got > 64<<20+holdFloor+1<<30 {
		t.Errorf("limit during the hold %d, want the held memory (a few MB) plus 64 MB plus holdFloor", got)
	}
	restore()
	if now := debug.SetMemoryLimit(-1); now != high {
		t.Errorf("limit after restore %d, want %d", now, high)
	}
	debug.SetMemoryLimit(got) // a limit below what a hold would set stays
	restore = HoldHeapTo(1 << 40)
	if now := debug.SetMemoryLimit(-1); now != got {
		t.Errorf("a hold raised the limit from %d to %d", got, now)
	}
	restore()
	if now := debug.SetMemoryLimit(-1); now != got {
		t.Errorf("limit after a hold that changed nothing %d, want %d", now, got)
	}
}

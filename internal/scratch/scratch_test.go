package scratch

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDir checks that Dir makes its folder under $TMPDIR or the folder given, that remove
// deletes it with its files, and that a need above the free space is refused before
// anything is written, naming the folder.
func TestDir(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, parent := range []string{"", t.TempDir()} {
		dir, remove, err := Dir(parent, "nagc-test-*", 1)
		if err != nil {
			t.Fatal(err)
		}
		want := parent
		if want == "" {
			want = tmp
		}
		if filepath.Dir(dir) != want || !strings.HasPrefix(filepath.Base(dir), "nagc-test-") {
			t.Errorf("Dir(%q) made %s, want a nagc-test-* folder in %s", parent, dir, want)
		}
		if err := os.WriteFile(filepath.Join(dir, "graph"), []byte("1 2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		remove()
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("after remove, %s: %v", dir, err)
		}
	}
	if _, ok := freeBytes(tmp); !ok {
		t.Skip("the free space of a folder cannot be read here")
	}
	_, _, err := Dir("", "nagc-test-*", math.MaxUint64)
	if err == nil || !strings.Contains(err.Error(), "in "+tmp+", which has") || !strings.Contains(err.Error(), "set TMPDIR") {
		t.Errorf("a need above the free space: %v, want a refusal naming %s and TMPDIR", err, tmp)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("a refused Dir left %d entries in %s", len(entries), tmp)
	}
}

// TestExplainFullDisk checks that a write to a full disk (Linux's /dev/full) is reported
// with the file and what to do, and that other errors are left as they are.
func TestExplainFullDisk(t *testing.T) {
	err := os.WriteFile("/dev/full", []byte("x"), 0o644)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Skipf("no /dev/full to write to here (%v)", err)
	}
	got := Explain(err)
	if !errors.Is(got, syscall.ENOSPC) || !strings.Contains(got.Error(), "/dev/full") || !strings.Contains(got.Error(), "no room left for temporary files") {
		t.Errorf("Explain(%v) = %v", err, got)
	}
	other := errors.New("permission denied")
	if Explain(other) != other || Explain(nil) != nil {
		t.Error("Explain changed an error that is not a full disk")
	}
}

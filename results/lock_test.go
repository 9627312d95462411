package results

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLockConflicts checks the lock table: appenders exclude writers but not readers,
// rewriters exclude everyone, readers share, and a refused command is told who holds the
// folder. Locks taken through separate open files conflict within one process too, so
// the table is checked in-process.
func TestLockConflicts(t *testing.T) {
	type take func(string) (*Lock, error)
	kinds := map[string]take{"append": LockAppend, "rewrite": LockRewrite, "read": LockRead}
	for _, tc := range []struct {
		first, second string
		refused       bool
	}{
		{"append", "append", true},
		{"append", "rewrite", true},
		{"append", "read", false},
		{"rewrite", "append", true},
		{"rewrite", "rewrite", true},
		{"rewrite", "read", true},
		{"read", "read", false},
		{"read", "append", false},
		{"read", "rewrite", true},
	} {
		dir := t.TempDir()
		a, err := kinds[tc.first](dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.first, err)
		}
		b, err := kinds[tc.second](dir)
		var busy *BusyError
		switch {
		case tc.refused && !errors.As(err, &busy):
			t.Errorf("%s then %s: got %v, want a BusyError", tc.first, tc.second, err)
		case !tc.refused && err != nil:
			t.Errorf("%s then %s: %v, want both held", tc.first, tc.second, err)
		case tc.refused && tc.first != "read":
			// The holder is a writer: the error names it.
			msg := err.Error()
			host, _ := os.Hostname()
			for _, want := range []string{dir, "pid " + strconv.Itoa(os.Getpid()), host, filepath.Base(os.Args[0])} {
				if !strings.Contains(msg, want) {
					t.Errorf("%s then %s: %q does not name %q", tc.first, tc.second, msg, want)
				}
			}
		}
		b.Unlock()
		if err := a.Unlock(); err != nil {
			t.Fatal(err)
		}
		// Released: the second kind is now granted.
		c, err := kinds[tc.second](dir)
		if err != nil {
			t.Errorf("%s after %s was released: %v", tc.second, tc.first, err)
		}
		c.Unlock()
	}
}

// TestLockReleasedHolderNamesNoOne checks that an unheld lock file names no holder, and
// that reading a folder that does not exist takes no lock and creates nothing.
func TestLockReleasedHolderNamesNoOne(t *testing.T) {
	dir := t.TempDir()
	l, err := LockRewrite(dir)
	if err != nil {
		t.Fatal(err)
	}
	if h := readHolder(dir); h == nil || h.PID != os.Getpid() {
		t.Errorf("held: holder %+v, want this process", h)
	}
	l.Unlock()
	if h := readHolder(dir); h != nil {
		t.Errorf("released: holder %+v, want none", h)
	}
	missing := dir + "/missing"
	r, err := LockRead(missing)
	if err != nil {
		t.Fatal(err)
	}
	r.Unlock()
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LockRead created %s: %v", missing, err)
	}
}

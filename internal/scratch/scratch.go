// Package scratch makes the folders of nagc's temporary files, under $TMPDIR or a folder
// given, checked for room first, with a full disk reported with its path.
package scratch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/nagc-harness/nagc/memory"
)

// Dir makes a new, empty folder for temporary files under parent, or under $TMPDIR
// (os.TempDir) when parent is "", named from pattern as os.MkdirTemp names it, once the
// file system there has need bytes free; otherwise it writes nothing and says where and
// how much is free. remove deletes the folder with everything in it: defer it, so that
// every exit path (a return, a panic, a cancelled context) removes it.
func Dir(parent, pattern string, need uint64) (dir string, remove func(), err error) {
	if parent == "" {
		parent = os.TempDir()
	}
	if free, ok := freeBytes(parent); ok && free < need {
		return "", nil, fmt.Errorf("temporary files need about %s in %s, which has %s free%s",
			memory.Format(need), parent, memory.Format(free), hint(parent))
	}
	if dir, err = os.MkdirTemp(parent, pattern); err != nil {
		return "", nil, Explain(err)
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// Explain returns err, from writing a temporary file, with the folder to change where the
// disk is full or over quota (ENOSPC, EDQUOT); other errors are returned as they are. The
// *os.PathError of a write already names the file.
func Explain(err error) error {
	var pe *os.PathError
	if err == nil || !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EDQUOT) {
		return err
	}
	where := ""
	if errors.As(err, &pe) {
		where = pe.Path
	}
	return fmt.Errorf("%w: no room left for temporary files%s", err, hint(where))
}

// hint says how to put temporary files elsewhere when path is under $TMPDIR.
func hint(path string) string {
	if rel, err := filepath.Rel(os.TempDir(), path); err != nil || strings.HasPrefix(rel, "..") {
		return ""
	}
	return fmt.Sprintf(" (temporary files go to $TMPDIR, now %s: set TMPDIR to a folder with more room)", os.TempDir())
}

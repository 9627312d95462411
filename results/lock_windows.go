//go:build windows

package results

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockRange is where the lock sits in the lock file: one byte far beyond its end, so that
// the holder's description at the start stays readable (Windows locks are mandatory).
var lockRange = windows.Overlapped{OffsetHigh: 0x40000000}

// tryLock takes a LockFileEx lock on f, exclusive or shared, without waiting; it reports
// false when another open file holds a conflicting lock.
func tryLock(f *os.File, exclusive bool) (bool, error) {
	flags := uint32(windows.LOCKFILE_FAIL_IMMEDIATELY)
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	ol := lockRange
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return false, nil
	}
	return err == nil, err
}

// unlock releases the lock taken on f by tryLock.
func unlock(f *os.File) error {
	ol := lockRange
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}

// isReadOnly reports whether err says the medium is write-protected.
func isReadOnly(err error) bool { return errors.Is(err, windows.ERROR_WRITE_PROTECT) }

//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package results

import "os"

// tryLock cannot lock on this operating system: it always succeeds, so results folders
// are not protected here (the lock file still names the last writer). Do not run two
// commands on one results folder at once on such a system.
func tryLock(f *os.File, exclusive bool) (bool, error) { return true, nil }

// unlock does nothing (see tryLock).
func unlock(f *os.File) error { return nil }

// isReadOnly reports false: such errors are reported as they are.
func isReadOnly(err error) bool { return false }

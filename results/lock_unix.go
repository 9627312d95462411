//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package results

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an advisory flock(2) lock on f, exclusive or shared, without waiting; it
// reports false when another open file holds a conflicting lock. On Linux, NFS mounts
// carry flock locks to the server, so the lock holds across a cluster's nodes.
func tryLock(f *os.File, exclusive bool) (bool, error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		}
		return false, err
	}
}

// unlock releases the lock taken on f by tryLock.
func unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// isReadOnly reports whether err says the file system is read-only.
func isReadOnly(err error) bool { return errors.Is(err, syscall.EROFS) }

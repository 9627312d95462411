//go:build linux || darwin

package scratch

import "syscall"

// freeBytes returns the bytes an unprivileged process may still write in the file system
// holding path; ok is false where that cannot be read.
func freeBytes(path string) (free uint64, ok bool) {
	var st syscall.Statfs_t
	if syscall.Statfs(path, &st) != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}

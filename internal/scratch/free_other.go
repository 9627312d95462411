//go:build !(linux || darwin)

package scratch

// freeBytes reports that the free space cannot be read here.
func freeBytes(string) (uint64, bool) { return 0, false }

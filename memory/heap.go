package memory

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// holdFloor is added to every hold, so that a small fit (whose estimate is a few MB) is
// not made to collect at every allocation.
const holdFloor = 64 << 20

// HoldHeapTo lowers the Go runtime's soft memory limit, for the duration of one fit, to
// what the process holds now plus need bytes (and 64 MB) (the fit's estimated peak, which
// MemoryEstimator-style estimates give as an upper bound), and returns the function that
// puts the previous limit back. It never raises the limit: where the current limit (the
// budget set by --max-memory, or none) is lower, it leaves it.
//
// Without it the collector lets the heap grow to twice the live data between
// collections, so a fit whose live heap is 8 GB can take 16 GB of the machine; with it
// the collector runs when the heap reaches the live input plus the fit's estimate. The
// limit is soft: a fit whose real peak exceeded its estimate would not fail, only
// collect more often (the runtime caps the collector's share of the CPU).
//
// It runs one garbage collection first, so that "now" is the live data (the input just
// read) and not the garbage of reading it: cost one collection of the current heap.
func HoldHeapTo(need uint64) (restore func()) {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	held := s[0].Value.Uint64() - s[1].Value.Uint64() - s[2].Value.Uint64()
	limit := Add(held, need, holdFloor)
	prev := debug.SetMemoryLimit(-1) // reads the current limit
	if limit >= math.MaxInt64 || int64(limit) >= prev {
		return func() {}
	}
	debug.SetMemoryLimit(int64(limit))
	return func() { debug.SetMemoryLimit(prev) }
}

package main

import (
	"math"
	"runtime/debug"

	"github.com/nagc-harness/nagc/memory"
)

// setMemoryBudget makes b bytes the budget that loads and fits are checked against
// (memory.SetLimit) and the Go runtime's soft memory limit, so that the collector works
// harder near it instead of letting the heap grow to twice the live data.
func setMemoryBudget(b uint64) {
	memory.SetLimit(b)
	debug.SetMemoryLimit(int64(min(b, math.MaxInt64)))
}

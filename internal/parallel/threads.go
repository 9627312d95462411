package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

var threads atomic.Int32

func init() { threads.Store(1) }

// SetThreads sets how many goroutines the kernels use at most (n < 1 means all cores) and
// returns the previous setting. The default is 1.
func SetThreads(n int) int {
	if n < 1 {
		n = runtime.GOMAXPROCS(0)
	}
	return int(threads.Swap(int32(n)))
}

// Threads returns the current thread setting.
func Threads() int { return int(threads.Load()) }

// Run calls fn(0), …, fn(tasks−1) on up to Threads() goroutines (the caller's among them),
// each taking the next task not yet taken, and returns when all are done.
func Run(tasks int, fn func(task int)) { RunOn(tasks, Threads(), fn) }

// RunOn is Run on up to workers goroutines.
func RunOn(tasks, workers int, fn func(task int)) {
	workers = min(workers, tasks)
	if workers <= 1 {
		for b := 0; b < tasks; b++ {
			fn(b)
		}
		return
	}
	var wg sync.WaitGroup
	var next atomic.Int64
	take := func() {
		for {
			b := int(next.Add(1)) - 1
			if b >= tasks {
				return
			}
			fn(b)
		}
	}
	for w := 1; w < workers; w++ {
		wg.Go(take)
	}
	take()
	wg.Wait()
}

// Blocks calls fn(lo, hi) for every block of size rows of [0, n) (the last one shorter),
// each block once, on up to workers goroutines.
func Blocks(n, size, workers int, fn func(lo, hi int)) {
	RunOn((n+size-1)/size, workers, func(b int) { fn(b*size, min((b+1)*size, n)) })
}

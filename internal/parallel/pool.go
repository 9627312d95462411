package parallel

import (
	"sync"
	"sync/atomic"
)

// Pool runs the tasks of one parallel phase on a fixed set of goroutines started once per
// fit, so that an iteration starts no goroutine and allocates nothing. Each task is a
// fixed block of rows (or a cluster): what a task computes does not depend on which
// worker runs it, and reductions over tasks are summed in task order by the caller, so
// results are the same for any number of workers.
type Pool struct {
	workers int
	start   []chan struct{}
	wg      sync.WaitGroup
	next    atomic.Int64
	tasks   int
	fn      func(worker, task int)
}

// NewPool starts workers−1 goroutines (the caller's goroutine is worker 0). Close must be
// called to stop them.
func NewPool(workers int) *Pool {
	p := &Pool{workers: max(1, workers)}
	p.start = make([]chan struct{}, p.workers)
	for w := 1; w < p.workers; w++ {
		p.start[w] = make(chan struct{})
		go func(w int) {
			for range p.start[w] {
				p.work(w)
				p.wg.Done()
			}
		}(w)
	}
	return p
}

// Workers returns the number of goroutines of p, the caller's included.
func (p *Pool) Workers() int { return p.workers }

// Run calls fn(worker, task) for every task in [0, tasks) and returns when all are done.
// fn should be a value stored once (a method value made per call would allocate).
func (p *Pool) Run(tasks int, fn func(worker, task int)) {
	if p.workers == 1 || tasks <= 1 {
		for t := 0; t < tasks; t++ {
			fn(0, t)
		}
		return
	}
	p.fn, p.tasks = fn, tasks
	p.next.Store(0)
	helpers := min(p.workers, tasks) - 1
	p.wg.Add(helpers)
	for w := 1; w <= helpers; w++ {
		p.start[w] <- struct{}{}
	}
	p.work(0)
	p.wg.Wait()
	p.fn = nil
}

func (p *Pool) work(w int) {
	for {
		t := int(p.next.Add(1) - 1)
		if t >= p.tasks {
			return
		}
		p.fn(w, t)
	}
}

// Close stops the pool's goroutines.
func (p *Pool) Close() {
	for w := 1; w < p.workers; w++ {
		close(p.start[w])
	}
}

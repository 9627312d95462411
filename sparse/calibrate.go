package sparse

import (
	"slices"
	"sync"
	"time"

	"gonum.org/v1/gonum/blas/blas64"
)

// minWorkPerTask returns the multiply-adds below which a product runs on one goroutine:
// measured once per process on the machine it runs on (measureMinWork), so that a
// product is split only where its share of the work outweighs what starting and joining
// the goroutines costs there. Results do not depend on it (each row is computed by one
// call whatever the split).
var minWorkPerTask = sync.OnceValue(measureMinWork)

// Bounds of the measured minimum work per task, in multiply-adds.
const (
	minWorkFloor   = 1 << 12
	minWorkCeiling = 1 << 20
	// forkCost is how many times a fork and join of two goroutines a task's work must
	// take.
	forkCost = 8
)

// measureMinWork times, taking the median of a few tries each, a fork and join of two
// goroutines (parallelTasks with nothing to do) and the multiply-adds of a serial
// sparse product, and returns forkCost fork-joins' worth of multiply-adds, within
// [minWorkFloor, minWorkCeiling]. It takes about a millisecond.
func measureMinWork() int {
	const tries = 15
	fork := make([]time.Duration, tries)
	for i := range fork {
		t := time.Now()
		parallelTasks(2, 2, func(int) {})
		fork[i] = time.Since(t)
	}
	// a 512×512 CSR with 16 entries a row, times 8 columns: 2^16 multiply-adds
	const n, perRow, k = 512, 16, 8
	b := NewBuilder(n, n)
	for i := range n {
		for q := range perRow {
			b.Add(i, (i*perRow+q*37)%n, 1+float64(q)/16)
		}
	}
	a := b.CSR(SumDuplicates)
	x, y := make([]float64, n*k), make([]float64, n*k)
	for p := range x {
		x[p] = float64(p%7) / 7
	}
	work := make([]time.Duration, tries/3)
	for i := range work {
		t := time.Now()
		mulDenseRows(blas64.General{Rows: n, Cols: k, Stride: k, Data: y}, a,
			blas64.General{Rows: n, Cols: k, Stride: k, Data: x}, k, false, 0, n)
		work[i] = time.Since(t)
	}
	slices.Sort(fork)
	slices.Sort(work)
	perMA := float64(work[len(work)/2]) / float64(a.NNZ()*k)
	if perMA <= 0 {
		return minWorkFloor
	}
	w := int(forkCost * float64(fork[len(fork)/2]) / perMA)
	return min(max(w, minWorkFloor), minWorkCeiling)
}

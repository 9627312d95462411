package dense

import (
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// grain is the multiply-adds below which a kernel runs on one goroutine, measured once
// per process on the machine it runs on (parallel.Grain), from a serial 512×16 by 16×16
// product (2¹⁷ multiply-adds) with the kernels the processor runs.
var grain = newGrain()

func newGrain() *parallel.Grain {
	const n, k, l = 4 * BlockRows, 16, 16
	a := blas64.General{Rows: n, Cols: k, Stride: k, Data: make([]float64, n*k)}
	b := blas64.General{Rows: k, Cols: l, Stride: l, Data: make([]float64, k*l)}
	d := blas64.General{Rows: n, Cols: l, Stride: l, Data: make([]float64, n*l)}
	for p := range a.Data {
		a.Data[p] = float64(p%7) / 7
	}
	for p := range b.Data {
		b.Data[p] = float64(p%5) / 5
	}
	return parallel.NewGrain(n*k*l, func() { mulRows(d, a, b, k, l, 0, n) })
}

// Grain returns the grain of the dense kernels, in multiply-adds: what a caller that
// splits its own work into blocks of rows (k-means, NAGC's update) weighs its work
// against to choose how many goroutines to run.
func Grain() *parallel.Grain { return grain }

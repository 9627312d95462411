package sparse

import (
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// productGrain is the multiply-adds below which a sparse product runs on one goroutine,
// measured once per process on the machine it runs on (parallel.Grain), from a serial
// 512×512 product with 16 entries a row times 8 columns (2¹⁶ multiply-adds). Results do
// not depend on it: each row is computed by one call whatever the split.
var productGrain = newProductGrain()

func newProductGrain() *parallel.Grain {
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
	dst := blas64.General{Rows: n, Cols: k, Stride: k, Data: y}
	src := blas64.General{Rows: n, Cols: k, Stride: k, Data: x}
	return parallel.NewGrain(a.NNZ()*k, func() { mulDenseRows(dst, a, src, k, false, 0, n) })
}

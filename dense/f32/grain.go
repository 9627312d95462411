package f32

import "github.com/nagc-harness/nagc/internal/parallel"

// grain is the multiply-adds below which a kernel of this package runs on one goroutine,
// measured once per process on the machine it runs on (parallel.Grain), from a serial
// 4096×16 by 16×16 Mul (2²⁰ multiply-adds) with the kernels the processor runs.
var grain = newGrain()

func newGrain() *parallel.Grain {
	const n, k, c = 4 * BlockRows, 16, 16
	a, b, d := NewMat(n, k), NewMat(k, c), NewMat(n, c)
	for p := range a.Data {
		a.Data[p] = float32(p%7) / 7
	}
	for p := range b.Data {
		b.Data[p] = float32(p%5) / 5
	}
	return parallel.NewGrain(n*k*c, func() { mulBlock(d, a.Data, b, 0, n) })
}

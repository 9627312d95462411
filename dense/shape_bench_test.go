package dense

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// BenchmarkProductsShape times NAGC's dense products at the ogbn-products shape (m = 100
// float32 attributes, k1 = k2 = 47) on a 64th of its rows (38,266: every n×47 operand
// still larger than the last-level cache), on one thread and on two (where the reductions
// run in reduceBlocks' waves), and reports the multiply-adds per nanosecond.
func BenchmarkProductsShape(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	const n, m, k = 2_449_029 / 64, 100, 47
	rng := rand.New(rand.NewPCG(1, 1))
	xd := make([]float32, n*m)
	for i := range xd {
		xd[i] = float32(rng.Float64())
	}
	x := NewMatrix32(n, m, xd)
	u, f, fp := randDense(rng, n, k, 0), randDense(rng, n, k, 0), randDense(rng, n, k, 0)
	out := randDense(rng, n, k, 0)
	sq, v, xtf := randDense(rng, k, k, 0), randDense(rng, m, k, 0), mat.NewDense(m, k, nil)
	small := mat.NewDense(k, k, nil)
	for _, c := range []struct {
		name string
		macs float64
		f    func()
	}{
		{"XV", n * m * k, func() { x.MulDense(out, v) }},
		{"XtF", n * m * k, func() { x.TMulDense(xtf, f) }},
		{"Mul", n * k * k, func() { Mul(out, u, sq) }},
		{"MulHadamard", n * k * k, func() { MulHadamard(out, u, fp, sq) }},
		{"TMulHadamard", n * k * k, func() { TMulHadamard(small, u, fp, f) }},
		{"Gram", n * k * k / 2, func() { Gram(small, f) }},
		{"SigmoidMul", n * k * k, func() { SigmoidMul(f, fp, u, sq) }},
	} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", c.name, threads), func(b *testing.B) {
				parallel.SetThreads(threads)
				for i := 0; i < b.N; i++ {
					c.f()
				}
				b.ReportMetric(c.macs*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "MAC/ns")
			})
		}
	}
}

package dense

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// benchShapes are NAGC's tall-skinny products on Citeseer (n = 3312, k1 = 6, k2 = 10) and
// a larger graph (n = 20000, k1 = k2 = 20).
var benchShapes = []struct{ n, k, l int }{{3312, 6, 10}, {20000, 20, 20}}

// BenchmarkKernels times each kernel on one thread against gonum's mat.Dense.Mul for the
// same product.
func BenchmarkKernels(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	for _, s := range benchShapes {
		rng := rand.New(rand.NewPCG(1, 1))
		a, a2, sm := randDense(rng, s.n, s.k, 0), randDense(rng, s.n, s.k, 0), randDense(rng, s.k, s.l, 0)
		tall, tall2, tall3 := randDense(rng, s.n, s.l, 0), randDense(rng, s.n, s.l, 0), randDense(rng, s.n, s.l, 0)
		small, sq := mat.NewDense(s.k, s.l, nil), mat.NewDense(s.l, s.l, nil)
		smt := mat.DenseCopyOf(sm.T())
		var g mat.Dense
		for _, c := range []struct {
			name string
			f    func()
		}{
			{"Mul", func() { Mul(tall, a, sm) }},
			{"Mul/gonum", func() { tall.Mul(a, sm) }},
			{"MulBT", func() { MulBT(tall, a, smt) }},
			{"MulBT/gonum", func() { tall.Mul(a, smt.T()) }},
			{"MulHadamard", func() { MulHadamard(tall, a, a2, sm) }},
			{"TMul", func() { TMul(small, a, tall) }},
			{"TMul/gonum", func() { small.Mul(a.T(), tall) }},
			{"TMulHadamard", func() { TMulHadamard(small, a, tall, tall2) }},
			{"Gram", func() { Gram(sq, tall) }},
			{"Gram/gonum", func() { sq.Mul(tall.T(), tall) }},
			{"Dot", func() { _ = Dot(tall, tall2) }},
			{"Dot/gonum", func() { g.MulElem(tall, tall2); _ = mat.Sum(&g) }},
			{"SigmoidMul", func() { SigmoidMul(tall2, tall3, a, sm) }},
			{"SigmoidMul/gonum+math.Exp", func() {
				tall2.Mul(a, sm)
				f, fp := tall2.RawMatrix().Data, tall3.RawMatrix().Data
				for i, z := range f {
					e := math.Exp(-z)
					f[i] = 1 / (1 + e)
					fp[i] = e / ((1 + e) * (1 + e))
				}
			}},
		} {
			b.Run(fmt.Sprintf("%s/n=%d,k=%d,l=%d", c.name, s.n, s.k, s.l), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					c.f()
				}
			})
		}
	}
}

// BenchmarkExp times exp and math.Exp on arguments in [−10, 0].
func BenchmarkExp(b *testing.B) {
	xs := make([]float64, 4096)
	rng := rand.New(rand.NewPCG(2, 2))
	for i := range xs {
		xs[i] = -10 * rng.Float64()
	}
	var sink float64
	b.Run("exp", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, x := range xs {
				sink += exp(x)
			}
		}
	})
	b.Run("math.Exp", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, x := range xs {
				sink += math.Exp(x)
			}
		}
	})
	_ = sink
}

// BenchmarkSigmoid times sigmoid (σ and σ' from one exponential) on 20 000 arguments in
// [−10, 10], Citeseer's n·k2 at k2 = 6.
func BenchmarkSigmoid(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	z := make([]float64, 20000)
	for i := range z {
		z[i] = 20*rng.Float64() - 10
	}
	f, fp := make([]float64, len(z)), make([]float64, len(z))
	for i := 0; i < b.N; i++ {
		copy(f, z)
		sigmoid(f, fp)
	}
}

package dense

import (
	"math/rand/v2"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"

	"gonum.org/v1/gonum/mat"
)

// TestCSROrderSums checks a matrix in CSR order against its definition: xᵀ·b summed
// over the rows in order from zero, sums in row-major order, and x·b as the plain
// matrix, bit for bit, on 1 and 2 threads; the plain matrix agrees up to rounding.
func TestCSROrderSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	n, m, k := 700, 30, 9
	data := make([]float64, n*m)
	for i := range data {
		if rng.Float64() < 0.5 {
			data[i] = rng.Float64()
		}
	}
	plain, o := NewMatrix64(n, m, data), NewMatrix64CSROrder(n, m, data)
	if plain.CSROrder() || !o.CSROrder() {
		t.Fatal("CSROrder does not tell the constructors apart")
	}
	b := mat.NewDense(n, k, nil)
	for i, raw := 0, b.RawMatrix().Data; i < len(raw); i++ {
		raw[i] = 2*rng.Float64() - 1
	}
	want := mat.NewDense(m, k, nil)
	var sum, sumSq float64
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			v := data[i*m+j]
			sum += v
			sumSq += v * v
			if v == 0 {
				continue
			}
			for c := 0; c < k; c++ {
				want.Set(j, c, want.At(j, c)+v*b.At(i, c))
			}
		}
	}
	c := mat.NewDense(m, k, nil)
	for i, raw := 0, c.RawMatrix().Data; i < len(raw); i++ {
		raw[i] = rng.Float64()
	}
	defer parallel.SetThreads(parallel.SetThreads(1))
	for _, th := range []int{1, 2} {
		parallel.SetThreads(th)
		got := mat.NewDense(m, k, nil)
		o.TMulDense(got, b)
		if !mat.Equal(got, want) {
			t.Errorf("%d threads: TMulDense is not the sum over rows in order", th)
		}
		if o.Sum() != sum || o.SumSq() != sumSq {
			t.Errorf("%d threads: Sum, SumSq = %v, %v, want %v, %v", th, o.Sum(), o.SumSq(), sum, sumSq)
		}
		gp, gm := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
		plain.MulDense(gp, c)
		o.MulDense(gm, c)
		if !mat.Equal(gp, gm) {
			t.Errorf("%d threads: MulDense differs from the plain matrix's", th)
		}
		pt := mat.NewDense(m, k, nil)
		plain.TMulDense(pt, b)
		if !mat.EqualApprox(pt, got, 1e-10) {
			t.Errorf("%d threads: TMulDense differs from the plain matrix's beyond rounding", th)
		}
	}
}

package dense

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// refMulHadamard is (a⊙b)·c written out entry by entry, the formulation every kernel of
// MulHadamard must reproduce bit for bit: dᵢⱼ = Σ_t (aᵢₜ·bᵢₜ)·cₜⱼ from +0 in order of t,
// each product rounded before it is added. With b nil it is a·c (Mul).
func refMulHadamard(a, b, c *mat.Dense) *mat.Dense {
	n, k := a.Dims()
	_, l := c.Dims()
	d := mat.NewDense(n, l, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < l; j++ {
			var s float64
			for t := 0; t < k; t++ {
				v := a.At(i, t)
				if b != nil {
					v = float64(v * b.At(i, t))
				}
				s += float64(v * c.At(t, j))
			}
			d.Set(i, j, s)
		}
	}
	return d
}

// TestMulHadamardMatchesReference holds MulHadamard ((XV)⊙f′)Hᵀ's kernel) and Mul to the
// entry-by-entry reference bit for bit for every inner dimension k = 1…64 (the unrolled
// kernels up to maxInner, the AVX2 row kernels or the plain loop past it), ragged row
// counts (across and inside the BlockRows blocks), output widths that split into ragged
// column chunks, strided operands, and 1 and 2 threads.
func TestMulHadamardMatchesReference(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(26, 8))
	for k := 1; k <= 64; k++ {
		n := []int{1, 7, BlockRows + 3, 2*BlockRows + 61}[k%4]
		l := 1 + rng.IntN(41)
		a, b, c := signed(rng, n, k), signed(rng, n, k), signed(rng, k, l)
		wantH, want := refMulHadamard(a, b, c), refMulHadamard(a, nil, c)
		for _, th := range []int{1, 2} {
			parallel.SetThreads(th)
			name := fmt.Sprintf("n=%d k=%d l=%d threads=%d", n, k, l, th)
			got := signed(rng, n, l) // stale values: the kernel must overwrite them
			MulHadamard(got, a, b, c)
			checkSameBits(t, name+" MulHadamard", got, wantH)
			Mul(got, a, c)
			checkSameBits(t, name+" Mul", got, want)
		}
	}
}

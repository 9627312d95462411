package dense

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
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

// signedView returns an r×c view (row stride c+2) with entries of both signs, magnitudes
// from 1e-3 to 1e3 and zeros of both signs, so that a change in the order of an addition
// or in the sign of a zero shows.
func signedView(rng *rand.Rand, r, c int) *mat.Dense {
	m := randDense(rng, r, c, 2)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			switch rng.IntN(12) {
			case 0:
				m.Set(i, j, 0)
			case 1:
				m.Set(i, j, math.Copysign(0, -1))
			default:
				m.Set(i, j, m.At(i, j)*math.Pow(10, float64(rng.IntN(7)-3)))
			}
		}
	}
	return m
}

// TestMulHadamardMatchesReference holds MulHadamard ((XV)⊙f′)Hᵀ's kernel) and Mul to the
// entry-by-entry reference bit for bit for every inner dimension k = 1…64 (the unrolled
// kernels up to maxInner, the AVX2 row kernels or the plain loop past it), ragged row
// counts (across and inside the BlockRows blocks), output widths that split into ragged
// column chunks, strided operands, and 1 and 2 threads.
func TestMulHadamardMatchesReference(t *testing.T) {
	defer sparse.SetThreads(sparse.SetThreads(1))
	rng := rand.New(rand.NewPCG(26, 8))
	for k := 1; k <= 64; k++ {
		n := []int{1, 7, BlockRows + 3, 2*BlockRows + 61}[k%4]
		l := 1 + rng.IntN(41)
		a, b, c := signedView(rng, n, k), signedView(rng, n, k), signedView(rng, k, l)
		wantH, want := refMulHadamard(a, b, c), refMulHadamard(a, nil, c)
		for _, th := range []int{1, 2} {
			sparse.SetThreads(th)
			name := fmt.Sprintf("n=%d k=%d l=%d threads=%d", n, k, l, th)
			got := signedView(rng, n, l) // stale values: the kernel must overwrite them
			MulHadamard(got, a, b, c)
			checkBitsEqual(t, name+" MulHadamard", got, wantH)
			Mul(got, a, c)
			checkBitsEqual(t, name+" Mul", got, want)
		}
	}
}

// checkBitsEqual fails unless got and want hold the same bits entry by entry.
func checkBitsEqual(t *testing.T, what string, got, want *mat.Dense) {
	t.Helper()
	r, c := want.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if g, w := got.At(i, j), want.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("%s: entry (%d, %d) is %v (%#x), the reference %v (%#x)", what, i, j, g, math.Float64bits(g), w, math.Float64bits(w))
			}
		}
	}
}

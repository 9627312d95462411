package algorithms

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// orthonormaliseSeparatePasses is modified Gram–Schmidt applied twice with a separate
// pass over memory for every dot product and every update: the form nmfOrthonormalise
// had before its passes were fused, kept as the reference for its bits.
func orthonormaliseSeparatePasses(q *mat.Dense) {
	r, c := q.Dims()
	col := make([][]float64, c)
	for j := range col {
		col[j] = make([]float64, r)
		mat.Col(col[j], j, q)
	}
	for j := 0; j < c; j++ {
		v := col[j]
		orig := math.Sqrt(nmfDot(v, v))
		for pass := 0; pass < 2; pass++ {
			for l := 0; l < j; l++ {
				p := nmfDot(col[l], v)
				for i := range v {
					v[i] -= p * col[l][i]
				}
			}
		}
		nrm := math.Sqrt(nmfDot(v, v))
		if nrm <= 1e-10*orig || nrm == 0 {
			clear(v)
			continue
		}
		for i := range v {
			v[i] /= nrm
		}
	}
	for j := range col {
		q.SetCol(j, col[j])
	}
}

// TestOrthonormaliseSameBitsAsSeparatePasses checks that the fused orthonormalisation
// gives the bits of the separate passes, for tall, square and rank-deficient matrices
// (a repeated column is zeroed), with its buffer reused across calls of other sizes.
func TestOrthonormaliseSameBitsAsSeparatePasses(t *testing.T) {
	rng := newRand(11)
	var o orthonormaliser
	for _, c := range []struct{ r, c int }{{1, 1}, {5, 1}, {40, 7}, {7, 7}, {1000, 42}, {3, 2}} {
		a := mat.NewDense(c.r, c.c, nil)
		for i := 0; i < c.r; i++ {
			for j := 0; j < c.c; j++ {
				a.Set(i, j, rng.NormFloat64())
			}
		}
		if c.c > 2 { // a dependent column
			for i := 0; i < c.r; i++ {
				a.Set(i, 2, 2*a.At(i, 0))
			}
		}
		want, got := mat.DenseCopyOf(a), mat.DenseCopyOf(a)
		orthonormaliseSeparatePasses(want)
		o.apply(got)
		for i := 0; i < c.r; i++ {
			for j := 0; j < c.c; j++ {
				if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
					t.Fatalf("%d×%d: entry (%d, %d) = %v, want %v (same bits)", c.r, c.c, i, j, got.At(i, j), want.At(i, j))
				}
			}
		}
		if c.r >= c.c && c.c > 2 {
			if v := got.At(0, 2); v != 0 {
				t.Errorf("%d×%d: dependent column not zeroed (%v)", c.r, c.c, v)
			}
		}
	}
}

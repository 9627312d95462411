package dense

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sameBits reports whether a and b are the same float64 (any NaN matches any NaN).
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// checkSameBits fails unless got and want (the reference: the Go kernels, or a
// formulation written out entry by entry) hold the same bits entry by entry.
func checkSameBits(t *testing.T, what string, got, want *mat.Dense) {
	t.Helper()
	r, c := want.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if g, w := got.At(i, j), want.At(i, j); !sameBits(g, w) {
				t.Fatalf("%s: entry (%d, %d) is %v (%#x), the reference gives %v (%#x)", what, i, j, g, math.Float64bits(g), w, math.Float64bits(w))
			}
		}
	}
}

// signed returns a padded view (see randDense) whose entries have both signs and
// magnitudes from 1e-4 to 1e4, with zeros of both signs, so that a change in the order
// of an operation or in the sign of a zero would show.
func signed(rng *rand.Rand, r, c int) *mat.Dense {
	m := randDense(rng, r, c, 3)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			switch rng.IntN(10) {
			case 0:
				m.Set(i, j, 0)
			case 1:
				m.Set(i, j, math.Copysign(0, -1))
			default:
				m.Set(i, j, m.At(i, j)*math.Pow(10, float64(rng.IntN(9)-4)))
			}
		}
	}
	return m
}

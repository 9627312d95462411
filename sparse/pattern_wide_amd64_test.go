//go:build amd64 && !purego

package sparse

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// dotSwapped is dot with the products of coordinates l and l+1 added the other way
// round: a sum in another order, which the data of TestWideDotsAVX2MatchesDot must tell
// from dot's.
func dotSwapped(x, y []float64, l int) float64 {
	var z float64
	for c := range x {
		switch c {
		case l:
			z += float64(x[l+1] * y[l+1])
		case l + 1:
			z += float64(x[l] * y[l])
		default:
			z += float64(x[c] * y[c])
		}
	}
	return z
}

// TestWideDotsAVX2MatchesDot holds the AVX2 zᵢⱼ of the wide edge pass
// (patternWideDotsRowAVX2: eight edges at a time, one lane per edge) to the Go
// formulation bit for bit: every zᵢⱼ to dot (from +0, in order of the coordinates, each
// product rounded), and the sums Σz, Σz² to patternWideRow's, for k = 9…64 (even and
// odd, so the pairs of coordinates and the last single one), degrees that leave every
// remainder of eight and four edges (0, 1, 3, 4, 5, 7, 8, 9, 12, 15, 17, 600), rows of a
// strided U with both signs, zeros of both signs and magnitudes 1e-3…1e3, and repeated
// neighbours. The entries of z past the last group are left alone. The data is checked to
// tell every swap of two adjacent additions (of coordinates l and l+1, 1 ≤ l ≤ k−2) from
// the kernel's order, so the test fails if the kernel adds one coordinate out of order.
func TestWideDotsAVX2MatchesDot(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this processor")
	}
	rng := rand.New(rand.NewPCG(26, 9))
	const rows = 700
	sentinel := math.Float64frombits(0x7ff8dead0000beef)
	for k := 9; k <= 64; k++ {
		u := signedPadded(rng, rows, k).RawMatrix()
		swapSeen := make([]bool, k-1) // swapSeen[l]: a z told the swap at l from dot
		swapSeen[0] = true            // +0 + a + b is +0 + b + a
		for c := 0; c < 12*12; c++ {  // each degree with twelve rows uᵢ
			deg := []int{0, 1, 3, 4, 5, 7, 8, 9, 12, 15, 17, 600}[c%12]
			name := fmt.Sprintf("k=%d degree=%d", k, deg)
			i := rng.IntN(rows)
			ui := u.Data[i*u.Stride : i*u.Stride+k]
			cols := make([]int, deg)
			for p := range cols {
				cols[p] = rng.IntN(rows)
			}
			if deg > 3 {
				cols[2] = cols[1] // a repeated neighbour
			}
			padded := (deg + 7) &^ 7
			z := make([]float64, padded+8)
			for p := range z {
				z[p] = sentinel
			}
			s0, q0 := rng.Float64(), rng.Float64()
			s, q := patternWideDotsRowAVX2(z, ui, cols, u, rows, s0, q0)
			ws, wq := patternWideRow(nil, ui, cols, u.Data, u.Stride, s0, q0)
			for p, j := range cols {
				uj := u.Data[j*u.Stride : j*u.Stride+k]
				d := dot(ui, uj)
				if !sameFloat(z[p], d) {
					t.Fatalf("%s: z[%d] is %v (%#x), dot's %v (%#x)", name, p, z[p], math.Float64bits(z[p]), d, math.Float64bits(d))
				}
				for l := 1; l < k-1; l++ {
					if !swapSeen[l] && !sameFloat(dotSwapped(ui, uj, l), d) {
						swapSeen[l] = true
					}
				}
			}
			if !sameFloat(s, ws) || !sameFloat(q, wq) {
				t.Fatalf("%s: sums (%v, %v), patternWideRow's (%v, %v)", name, s, q, ws, wq)
			}
			for p := padded; p < len(z); p++ {
				if !sameFloat(z[p], sentinel) {
					t.Fatalf("%s: z[%d], past the last group of eight, was overwritten with %v", name, p, z[p])
				}
			}
		}
		for l, seen := range swapSeen {
			if !seen {
				t.Fatalf("k=%d: no z changes when the additions of coordinates %d and %d are swapped; the data cannot catch that reordering", k, l, l+1)
			}
		}
	}
}

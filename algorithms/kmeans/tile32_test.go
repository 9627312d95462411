package kmeans

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTileAVX2SameBits holds the float32 tile kernel, at every level, to its Go
// definition, bit for bit.
func TestTileAVX2SameBits(t *testing.T) { forEachLevel(t, testTile32SameBits) }

func testTile32SameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, m := range []int{1, 2, 7, 128, 300} {
		aStride, bStride, dStride := m+3, 24, 16
		a, b := make([]float32, tileRows*aStride), make([]float32, m*bStride)
		for p := range a {
			a[p] = float32(rng.NormFloat64())
		}
		for p := range b {
			b[p] = float32(rng.NormFloat64() * 3)
		}
		got, want := make([]float32, tileRows*dStride), make([]float32, tileRows*dStride)
		tile12x8(a, aStride, b[8:], bStride, m, got[4:], dStride)
		tile12x8Go(a, aStride, b[8:], bStride, m, want[4:], dStride)
		for p := range want {
			if got[p] != want[p] {
				t.Fatalf("m=%d: entry %d is %v, Go kernel %v", m, p, got[p], want[p])
			}
		}
		// and the Go kernel is the product it claims to be, to float32 accuracy
		for r := range tileRows {
			for c := range tileCols {
				var s float64
				for j := range m {
					s += float64(a[r*aStride+j]) * float64(b[8+j*bStride+c])
				}
				if d := float64(want[4+r*dStride+c]) - s; d*d > 1e-8*float64(m)*(1+s*s) {
					t.Fatalf("m=%d: entry (%d,%d) is %v, exact %v", m, r, c, want[4+r*dStride+c], s)
				}
			}
		}
	}
}

// TestDist2AVX2SameBits holds the float32 squared distance, at every level, to its Go
// definition, bit for bit.
func TestDist2AVX2SameBits(t *testing.T) { forEachLevel(t, testDist2SameBits) }

func testDist2SameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, m := range []int{1, 7, 8, 13, 16, 40, 128, 301} {
		x, c := make([]float32, m), make([]float32, m)
		var exact float64
		for j := range x {
			x[j], c[j] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
			exact += (float64(x[j]) - float64(c[j])) * (float64(x[j]) - float64(c[j]))
		}
		if got, want := dist2x32(x, c), dist2x32Go(x, c); got != want {
			t.Errorf("m=%d: %v, Go form %v", m, got, want)
		}
		if got := float64(dist2x32Go(x, c)); math.Abs(got-exact) > 1e-6*exact {
			t.Errorf("m=%d: %v, exact %v", m, got, exact)
		}
	}
}

//go:build amd64 && !purego

package sparse

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// withoutAVX2 runs f with the Go kernels.
func withoutAVX2(f func()) {
	defer func(u bool) { useAVX2 = u }(useAVX2)
	useAVX2 = false
	f()
}

// sameBits fails unless got and want hold the same float64 bits entry by entry.
func sameBits(t *testing.T, what string, got, want *mat.Dense) {
	t.Helper()
	r, c := want.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if g, w := got.At(i, j), want.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("%s: entry (%d, %d) is %v (%#x), the Go kernel gives %v (%#x)", what, i, j, g, math.Float64bits(g), w, math.Float64bits(w))
			}
		}
	}
}

// ragged returns an r×c CSR whose row lengths vary from 0 to about c/2 (so that the
// AVX2 kernels' two interleaved rows end at different points), with values from vals
// (nil: all 1).
func ragged(rng *rand.Rand, r, c int, vals func() float64) *CSR {
	b := NewBuilder(r, c)
	for i := 0; i < r; i++ {
		n := rng.IntN(c/2 + 2)
		if i%7 == 3 {
			n = 0
		}
		for _, j := range rng.Perm(c)[:min(n, c)] {
			v := 1.0
			if vals != nil {
				v = vals()
			}
			if err := b.Add(i, j, v); err != nil {
				panic(err)
			}
		}
	}
	return b.CSR(SumDuplicates)
}

// signedDense is a view (stride above its width) of random entries of both signs, with
// some zeros of both signs, so that sign-of-zero differences would show.
func signedDense(rng *rand.Rand, r, c int) *mat.Dense {
	big := mat.NewDense(r, c+3, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c+3; j++ {
			switch rng.IntN(8) {
			case 0:
				big.Set(i, j, 0)
			case 1:
				big.Set(i, j, math.Copysign(0, -1))
			default:
				big.Set(i, j, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(9)-4)))
			}
		}
	}
	return big.Slice(0, r, 1, c+1).(*mat.Dense)
}

// TestMulDenseAVX2MatchesGo holds the AVX2 gathers to the Go kernels bit for bit, for
// unit and weighted values, every width up to past two chunks, strided operands, empty
// rows and odd and even row counts.
func TestMulDenseAVX2MatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, weighted := range []bool{false, true} {
		for k := 1; k <= 2*maxGatherAVX2+3; k++ {
			r, c := 1+rng.IntN(40), 1+rng.IntN(30)
			var vals func() float64
			if weighted {
				vals = func() float64 { return rng.NormFloat64() }
			}
			a := ragged(rng, r, c, vals)
			b := signedDense(rng, c, k)
			got, want := signedDense(rng, r, k), signedDense(rng, r, k)
			MulDense(got, a, b)
			withoutAVX2(func() { MulDense(want, a, b) })
			sameBits(t, "MulDense", got, want)
		}
	}
}

// TestPatternSumGramMulAVX2MatchesGo holds PatternSumGramMul's AVX2 row sums to the Go
// kernels bit for bit.
func TestPatternSumGramMulAVX2MatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 1; k <= 20; k++ {
		n := 1 + rng.IntN(30)
		w := ragged(rng, n, n, nil)
		u := signedDense(rng, n, k)
		gs, gg := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
		ws, wg := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
		PatternSumGramMul(gs, gg, w, u)
		withoutAVX2(func() { PatternSumGramMul(ws, wg, w, u) })
		sameBits(t, "sum", gs, ws)
		sameBits(t, "gram", gg, wg)
	}
}

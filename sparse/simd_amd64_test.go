//go:build amd64 && !purego

package sparse

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/internal/simd"
	"gonum.org/v1/gonum/mat"
)

// withoutAVX2 runs f with the Go kernels (neither the AVX2 nor the AVX-512 ones).
func withoutAVX2(f func()) { withLevel(simd.Go, f) }

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

// ragged returns an r×c CSR whose row lengths vary from 0 to about min(c/2, 40) (so that the
// AVX2 kernels' two interleaved rows end at different points), with values from vals
// (nil: all 1).
func ragged(rng *rand.Rand, r, c int, vals func() float64) *CSR {
	b := NewBuilder(r, c)
	for i := 0; i < r; i++ {
		n := rng.IntN(min(c/2, 40) + 2)
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

// TestMulDenseAVX2MatchesGo holds the AVX2 and AVX-512 gathers (at each level this
// processor has) to the Go kernels bit for bit, for unit and weighted values, every width
// up to past two chunks of either level, strided operands, empty rows, and row counts
// below, at and above the kernels' two rows in flight.
func TestMulDenseAVX2MatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, weighted := range []bool{false, true} {
		for k := 1; k <= 2*gatherWidest(true)+3; k++ {
			for _, r := range []int{1, 2, 3, 4, 5, 6 + rng.IntN(40)} {
				c := 1 + rng.IntN(30)
				var vals func() float64
				if weighted {
					vals = func() float64 { return rng.NormFloat64() }
				}
				a := ragged(rng, r, c, vals)
				b := signedDense(rng, c, k)
				want := signedDense(rng, r, k)
				withoutAVX2(func() { MulDense(want, a, b) })
				for _, l := range simdLevels() {
					got := signedDense(rng, r, k)
					withLevel(l, func() { MulDense(got, a, b) })
					sameBits(t, fmt.Sprintf("MulDense at %v, k %d", l, k), got, want)
				}
			}
		}
	}
}

// degreeMix returns an r×c CSR (r ≥ 4) whose rows have degree 0 (every fifth row from
// the first), 1, about c/2 (every eleventh), or up to 60 at random, the last row 7, with
// values from vals (nil: all 1).
func degreeMix(rng *rand.Rand, r, c int, vals func() float64) *CSR {
	b := NewBuilder(r, c)
	for i := 0; i < r; i++ {
		var deg int
		switch {
		case i == r-1:
			deg = 7
		case i%5 == 0:
			deg = 0
		case i%5 == 1:
			deg = 1
		case i%11 == 2:
			deg = min(c/2, 2000)
		default:
			deg = rng.IntN(61)
		}
		for range deg {
			v := 1.0
			if vals != nil {
				v = vals()
			}
			if err := b.Add(i, rng.IntN(c), v); err != nil {
				panic(err)
			}
		}
	}
	return b.CSR(SumDuplicates)
}

// TestMulDensePrefetchMatchesGo holds the AVX2 and AVX-512 gathers that prefetch the neighbours' rows
// (row by row, gatherPrefetchAhead rows ahead) to the Go kernels bit for bit, on rows of
// degree 0, 1, large and a non-empty last row, strided b and dst, widths of one to three
// column chunks, unit and weighted values, on 1 and 2 threads: forced on a small b
// (gatherPrefetchBytes 0), and at its size from which it is taken by default.
func TestMulDensePrefetchMatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(26, 4))
	type shape struct{ r, c, k, limit int }
	shapes := []shape{{r: 3 * minRowsPerTask, c: 70_000, k: 16, limit: gatherPrefetchBytes}}
	for _, k := range []int{1, 3, 8, 16, 24, 25, 32, 40, 47, 49, 2*maxGatherAVX2 + 1, 2*gatherWidest(true) + 1} {
		shapes = append(shapes, shape{r: 300, c: 400, k: k, limit: 0})
	}
	for _, sh := range shapes {
		if sh.c*sh.k*8 < sh.limit {
			t.Fatalf("a %d×%d b is below the prefetch limit %d", sh.c, sh.k, sh.limit)
		}
		for _, weighted := range []bool{false, true} {
			var vals func() float64
			if weighted {
				vals = func() float64 { return rng.NormFloat64() }
			}
			a := degreeMix(rng, sh.r, sh.c, vals)
			b := signedDense(rng, sh.c, sh.k)
			want := signedDense(rng, sh.r, sh.k)
			withoutAVX2(func() { MulDense(want, a, b) })
			for _, l := range simdLevels() {
				for _, threads := range []int{1, 2} {
					parallel.SetThreads(threads)
					got := signedDense(rng, sh.r, sh.k)
					func() {
						defer func(l int) { gatherPrefetchBytes = l }(gatherPrefetchBytes)
						gatherPrefetchBytes = sh.limit
						withLevel(l, func() { MulDense(got, a, b) })
					}()
					sameBits(t, fmt.Sprintf("MulDense %d×%d·%d×%d at %v (weighted %v, %d threads)", sh.r, sh.c, sh.c, sh.k, l, weighted, threads), got, want)
				}
			}
		}
	}
}

// TestPatternKernelsAVX2MatchGo holds PatternSumGramMul, PatternGramMul, PatternDots and
// PatternSumGramDots on
// the AVX2 kernels to the Go kernels (the first three) bit for bit, for every width up to past
// maxPattern, on 1 and 2 threads (the Go run on 1).
func TestPatternKernelsAVX2MatchGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 1; k <= 20; k++ {
		ns := []int{1 + rng.IntN(30)}
		if k <= maxPattern+1 {
			ns = append(ns, 2*minRowsPerTask+rng.IntN(50)) // enough rows for 2 threads
		}
		for _, n := range ns {
			w := ragged(rng, n, n, nil)
			u := signedDense(rng, n, k)
			gs, gg, g1 := signedDense(rng, n, k), signedDense(rng, n, k), signedDense(rng, n, k)
			ws, wg, w1 := signedDense(rng, n, k), signedDense(rng, n, k), signedDense(rng, n, k)
			parallel.SetThreads(2)
			PatternSumGramMul(gs, gg, w, u)
			PatternGramMul(g1, w, u)
			s, q := PatternDots(w, u)
			fs, fg := signedDense(rng, n, k), signedDense(rng, n, k)
			fsum, fq := PatternSumGramDots(fs, fg, w, u)
			parallel.SetThreads(1)
			var sw, qw float64
			withoutAVX2(func() {
				PatternSumGramMul(ws, wg, w, u)
				PatternGramMul(w1, w, u)
				sw, qw = PatternDots(w, u)
			})
			sameBits(t, "PatternSumGramMul sum", gs, ws)
			sameBits(t, "PatternSumGramMul gram", gg, wg)
			sameBits(t, "PatternGramMul", g1, w1)
			if math.Float64bits(s) != math.Float64bits(sw) || math.Float64bits(q) != math.Float64bits(qw) {
				t.Fatalf("PatternDots k=%d n=%d: %v, %v; the Go kernels give %v, %v", k, n, s, q, sw, qw)
			}
			sameBits(t, "PatternSumGramDots sum", fs, ws)
			sameBits(t, "PatternSumGramDots gram", fg, wg)
			if math.Float64bits(fsum) != math.Float64bits(sw) || math.Float64bits(fq) != math.Float64bits(qw) {
				t.Fatalf("PatternSumGramDots k=%d n=%d: %v, %v; the Go kernels give %v, %v", k, n, fsum, fq, sw, qw)
			}
		}
	}
}

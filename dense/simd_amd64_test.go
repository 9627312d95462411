//go:build amd64 && !purego

package dense

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// withoutAVX2 runs f with the Go kernels (neither the AVX2 nor the AVX-512 ones).
func withoutAVX2(f func()) { withLevel(LevelGo, f) }

// TestAVX2KernelsMatchGo holds every product's AVX2 kernels to the Go kernels bit for
// bit: all widths (l up to 2·widestAVX2+1, so every chunk width and split), inner dimensions
// 1…maxInner+1 (every group remainder of the row and column kernels) and far above (the
// AVX2 row kernels take any inner dimension, the Go ones a plain loop), row counts around
// the block size, strided operands, and 1 and 2 threads (the AVX2 run on 2 threads, the
// Go run on 1).
func TestAVX2KernelsMatchGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(7, 7))
	type product struct {
		name string
		run  func(dst *mat.Dense)
		r, c int
	}
	for _, n := range []int{1, 2, 3, 5, 127, 128, 261} {
		for _, k := range []int{1, 2, 3, 4, 5, 6, 7, 9, 13, maxInner, maxInner + 1, 4*maxInner + 3} {
			for l := 1; l <= 2*widestAVX2+1; l += 1 + rng.IntN(3) {
				a, a2 := signed(rng, n, k), signed(rng, n, k)
				sm := signed(rng, k, l)
				t1, t2 := signed(rng, n, l), signed(rng, n, l)
				ps := []product{
					{"Mul", func(d *mat.Dense) { Mul(d, a, sm) }, n, l},
					{"MulHadamard", func(d *mat.Dense) { MulHadamard(d, a, a2, sm) }, n, l},
					{"TMul", func(d *mat.Dense) { TMul(d, a, t1) }, k, l},
					{"TMulHadamard", func(d *mat.Dense) { TMulHadamard(d, a, t1, t2) }, k, l},
					{"Gram", func(d *mat.Dense) { Gram(d, t1) }, l, l},
					{"Dot", func(d *mat.Dense) { d.Set(0, 0, Dot(t1, t2)) }, 1, 1},
					{"Dot contiguous", func(d *mat.Dense) { d.Set(0, 0, Dot(mat.DenseCopyOf(t1), mat.DenseCopyOf(t2))) }, 1, 1},
				}
				if k <= maxInner {
					// Moderate arguments, so that most exponentials take the fast path.
					sa := mat.NewDense(n, k, nil)
					sa.Scale(1/float64(k), a.T().T())
					ps = append(ps, product{"SigmoidMul", func(d *mat.Dense) {
						fp := mat.NewDense(n, l, nil)
						SigmoidMul(d, fp, sa, sm)
						d.Sub(d, fp) // fold σ' into the output: any difference in either shows
					}, n, l})
				}
				for _, p := range ps {
					if p.r == 0 {
						continue
					}
					got, want := signed(rng, p.r, p.c), signed(rng, p.r, p.c)
					want.Copy(got)
					parallel.SetThreads(2)
					p.run(got)
					parallel.SetThreads(1)
					withoutAVX2(func() { p.run(want) })
					checkSameBits(t, fmt.Sprintf("%s n=%d k=%d l=%d", p.name, n, k, l), got, want)
				}
			}
		}
	}
}

// TestColAccContinueAVX2MatchesGo holds the column kernels' continue mode (the sums of
// a later piece of rows, starting from the values out holds) to the Go kernels bit for
// bit, on outputs that hold zeros of both signs.
func TestColAccContinueAVX2MatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(8, 8))
	for w := 1; w <= widest; w++ {
		for k := 1; k <= 9; k++ {
			for _, n := range []int{0, 1, 5, colRows} {
				x, b := signed(rng, max(n, 1), k).RawMatrix(), signed(rng, max(n, 1), w).RawMatrix()
				for _, cont := range []bool{false, true} {
					got, want := signed(rng, k, w), signed(rng, k, w)
					want.Copy(got)
					run := func(o *mat.Dense) {
						r := o.RawMatrix()
						colAcc(w, r.Data, r.Stride, x.Data, x.Stride, k, b.Data, b.Stride, n, cont)
					}
					run(got)
					withoutAVX2(func() { run(want) })
					checkSameBits(t, fmt.Sprintf("colAcc w=%d k=%d n=%d cont=%v", w, k, n, cont), got, want)
				}
			}
		}
	}
}

// expArgs returns arguments covering exp's whole range: random ones in the fast path
// and around 0, the limits of both fast paths, overflow, underflow into and past the
// subnormals, ±Inf and NaN, in an order that puts each special value in every lane of a
// group of 4.
func expArgs(rng *rand.Rand) []float64 {
	var xs []float64
	for i := 0; i < 200_000; i++ {
		xs = append(xs, 1400*rng.Float64()-700, 20*rng.Float64()-10, (2*rng.Float64()-1)*1e-8)
	}
	special := []float64{0, math.Copysign(0, -1), 1, -1, 1e-300, -1e-300, 5e-324, math.Ln2 / 64, -math.Ln2 / 64,
		700, -700, math.Nextafter(700, 1000), math.Nextafter(-700, -1000), 709.78, 709.79, 710, 1000, 1e300,
		-708.4, -708.5, -720, -744.4, -745.2, -746, -1000, -1e300,
		349, 350, 350.5, 351, -700.5, 1e10, -1e10,
		math.Inf(1), math.Inf(-1), math.NaN()}
	for lane := 0; lane < 4; lane++ {
		for _, s := range special {
			g := []float64{0.5, -0.25, 3, -7}
			g[lane] = s
			xs = append(xs, g...)
		}
	}
	return append(xs, special...)
}

// TestExpAVX2 holds the AVX2 exponential to exp bit for bit, and so to math.Exp within
// 2 ulp over the whole range (as TestExpMatchesMathExp holds exp): inside |x| ≤ 700 it is
// exp's table-driven algorithm; outside, and for NaN, it is math.Exp's result exactly
// (overflow to +Inf, underflow through the subnormals to 0).
func TestExpAVX2(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	xs := expArgs(rand.New(rand.NewPCG(9, 9)))
	got := make([]float64, len(xs))
	// Do what sigmoid does: the AVX2 kernel up to a group it leaves, that group in Go.
	for j := 0; j < len(xs); {
		j += expAVX2(got[j:], xs[j:], &exp2Table)
		for end := min(j+4, len(xs)); j < end; j++ {
			got[j] = exp(xs[j])
		}
	}
	var worst float64
	for i, x := range xs {
		if want := exp(x); !sameBits(got[i], want) {
			t.Fatalf("AVX2 exp(%v) = %v, exp gives %v", x, got[i], want)
		}
		m := math.Exp(x)
		if math.IsNaN(m) || math.IsInf(m, 0) || m == 0 || math.Abs(x) > 700 {
			if !sameBits(got[i], m) {
				t.Fatalf("AVX2 exp(%v) = %v, want math.Exp's %v", x, got[i], m)
			}
			continue
		}
		u := ulps(got[i], m)
		worst = math.Max(worst, u)
		if u > 2 {
			t.Fatalf("AVX2 exp(%v) = %v, math.Exp %v: %.2f ulp apart", x, got[i], m, u)
		}
	}
	t.Logf("largest difference from math.Exp: %.3f ulp", worst)
}

// TestSigmoidAVX2MatchesGo holds sigmoid's AVX2 path to the Go one bit for bit over the
// whole range (both fast-path limits, overflow of (1+e)², ±Inf, NaN, in every lane of a
// group of 4, and lengths that leave 0…3 entries after the last group).
func TestSigmoidAVX2MatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(10, 10))
	zs := expArgs(rng)
	for _, extra := range []float64{-349.9, -350.1, -351, -360, 700.9, 701, 750} {
		for lane := 0; lane < 4; lane++ {
			g := []float64{0.5, -0.25, 3, -7}
			g[lane] = extra
			zs = append(zs, g...)
		}
	}
	for cut := 0; cut < 4; cut++ {
		z := zs[:len(zs)-cut]
		f, fp := append([]float64(nil), z...), make([]float64, len(z))
		wf, wp := append([]float64(nil), z...), make([]float64, len(z))
		sigmoid(f, fp)
		sigmoidGo(wf, wp)
		for i := range z {
			if !sameBits(f[i], wf[i]) || !sameBits(fp[i], wp[i]) {
				t.Fatalf("AVX2 sigmoid(%v) = %v, %v; Go gives %v, %v", z[i], f[i], fp[i], wf[i], wp[i])
			}
		}
	}
}

// TestDotAVX2MatchesGo holds the AVX2 dot product to the Go one bit for bit for every
// length up to 200 (every remainder after the groups of 4, below and above the length
// where dot starts to use it).
func TestDotAVX2MatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(11, 11))
	m := signed(rng, 2, 200)
	x, y := m.RawRowView(0), m.RawRowView(1)
	for n := 0; n <= 200; n++ {
		got := dot(x[:n], y)
		var want float64
		withoutAVX2(func() { want = dot(x[:n], y) })
		if !sameBits(got, want) {
			t.Fatalf("dot of length %d: %v, the Go kernel gives %v", n, got, want)
		}
		if n > 0 && !sameBits(dotAVX2(x[:n], y[:n]), want) {
			t.Fatalf("dotAVX2 of length %d: %v, the Go kernel gives %v", n, dotAVX2(x[:n], y[:n]), want)
		}
	}
}

// TestUpdatesAVX2MatchGo holds the AVX2 multiplicative updates to their Go loops bit for
// bit, on every length up to 37 (so every tail), with zeros, infinities and NaN among the
// inputs.
func TestUpdatesAVX2MatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	special := []float64{0, math.Inf(1), math.NaN(), 1e-300, 1e300}
	draw := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			if rng.IntN(6) == 0 {
				s[i] = special[rng.IntN(len(special))]
			} else {
				s[i] = rng.Float64() * 3
			}
		}
		return s
	}
	c := UpdateCoefficients{Graph: 1.7, Lambda: 0.01, Edge: 1.9, NonEdge: 0.1, NaN: 2.220446049250313e-16}
	for n := 0; n <= 37; n++ {
		in := make([][]float64, 6)
		for i := range in {
			in[i] = draw(n)
		}
		for _, k := range []struct {
			name string
			run  func(x []float64)
		}{
			{"RatioUpdate", func(x []float64) { RatioUpdate(x, in[1], in[2], c.NaN) }},
			{"PUUpdate", func(x []float64) { PUUpdate(x, in[1], in[2], in[3], in[4], in[5], c) }},
			{"SymUpdate", func(x []float64) { SymUpdate(x, in[1], in[3], in[4], in[5], c) }},
		} {
			got, want := append([]float64(nil), in[0]...), append([]float64(nil), in[0]...)
			k.run(got)
			withoutAVX2(func() { k.run(want) })
			for i := range want {
				if !sameBits(got[i], want[i]) {
					t.Fatalf("%s, length %d: entry %d is %v, the Go loop gives %v", k.name, n, i, got[i], want[i])
				}
			}
		}
	}
}

// TestReductionsMatchReferenceGo runs checkReductions and checkRowProducts on the Go
// kernels.
func TestReductionsMatchReferenceGo(t *testing.T) {
	withoutAVX2(func() {
		checkReductions(t)
		checkRowProducts(t)
	})
}

// TestElemAVX2MatchesGo holds mulElem, addElem and widen to their Go loops bit for bit on
// every length up to 37 (every tail after the groups of 4), with zeros of both signs,
// infinities, NaN and subnormals among the inputs.
func TestElemAVX2MatchesGo(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(12, 12))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, 1e308, -1e-310}
	draw := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			if rng.IntN(4) == 0 {
				s[i] = special[rng.IntN(len(special))]
			} else {
				s[i] = (2*rng.Float64() - 1) * math.Pow(10, float64(rng.IntN(9)-4))
			}
		}
		return s
	}
	for n := 0; n <= 37; n++ {
		x, y, d := draw(n), draw(n), draw(n)
		f32 := make([]float32, n)
		for i, v := range draw(n) {
			f32[i] = float32(v)
		}
		for _, k := range []struct {
			name string
			run  func(dst []float64)
		}{
			{"mulElem", func(dst []float64) { mulElem(dst, x, y) }},
			{"addElem", func(dst []float64) { addElem(dst, x) }},
			{"widen", func(dst []float64) { widen(dst, f32) }},
		} {
			got, want := append([]float64(nil), d...), append([]float64(nil), d...)
			k.run(got)
			withoutAVX2(func() { k.run(want) })
			for i := range want {
				if !sameBits(got[i], want[i]) {
					t.Fatalf("%s, length %d: entry %d is %v, the Go loop gives %v", k.name, n, i, got[i], want[i])
				}
			}
		}
	}
}

package dense

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// randDense returns an r×c matrix of uniform [-1, 1) entries. With pad > 0 it is a view
// into a wider matrix (stride c+pad) whose extra columns hold NaN, so that a kernel that
// reads past a row shows up.
func randDense(rng *rand.Rand, r, c, pad int) *mat.Dense {
	big := mat.NewDense(r, c+pad, nil)
	raw := big.RawMatrix()
	for i := 0; i < r; i++ {
		for j := 0; j < c+pad; j++ {
			v := math.NaN()
			if j < c {
				v = 2*rng.Float64() - 1
			}
			raw.Data[i*raw.Stride+j] = v
		}
	}
	if pad == 0 {
		return big
	}
	return big.Slice(0, r, 0, c).(*mat.Dense)
}

func gmul(a, b mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.Mul(a, b)
	return &c
}

func hadamard(a, b mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.MulElem(a, b)
	return &c
}

// checkClose fails unless got and want agree to tol relative to the largest |want| (and
// at least 1).
func checkClose(t *testing.T, what string, got, want mat.Matrix, tol float64) {
	t.Helper()
	scale := math.Max(1, mat.Norm(want, math.Inf(1)))
	r, c := want.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if d := math.Abs(got.At(i, j) - want.At(i, j)); !(d <= tol*scale) {
				t.Fatalf("%s: entry (%d, %d) = %v, want %v", what, i, j, got.At(i, j), want.At(i, j))
			}
		}
	}
}

// shapes covers the unrolled widths (1…8), several chunk splits (9, 10, 17, 20), inner
// dimensions above maxInner, and row counts below, at and above the block size.
var shapes = []struct{ n, k, l int }{
	{1, 1, 1}, {5, 2, 3}, {7, 3, 8}, {40, 6, 10}, {127, 7, 9}, {128, 4, 4},
	{129, 10, 6}, {300, 8, 17}, {500, 20, 20}, {1000, 5, 12}, {257, 12, 1}, {3, 16, 2},
	{200, 33, 9}, {40, 50, 3}, // inner dimension above maxInner
}

func TestKernelsMatchGonum(t *testing.T) {
	for _, threads := range []int{1, 4} {
		prev := parallel.SetThreads(threads)
		for si, s := range shapes {
			for _, pad := range []int{0, 3} {
				name := fmt.Sprintf("threads=%d/n=%d,k=%d,l=%d/pad=%d", threads, s.n, s.k, s.l, pad)
				rng := rand.New(rand.NewPCG(uint64(si), uint64(pad)))
				a := randDense(rng, s.n, s.k, pad)
				a2 := randDense(rng, s.n, s.k, pad)
				b := randDense(rng, s.k, s.l, pad)
				bt := randDense(rng, s.l, s.k, pad)
				tall := randDense(rng, s.n, s.l, pad)
				tall2 := randDense(rng, s.n, s.l, pad)

				got := randDense(rng, s.n, s.l, pad)
				Mul(got, a, b)
				want := gmul(a, b)
				checkClose(t, name+"/Mul", got, want, 1e-12)

				MulHadamard(got, a, a2, b)
				checkClose(t, name+"/MulHadamard", got, gmul(hadamard(a, a2), b), 1e-12)

				MulBT(got, a, bt)
				checkClose(t, name+"/MulBT", got, gmul(a, bt.T()), 1e-12)

				small := randDense(rng, s.k, s.l, pad)
				TMul(small, a, tall)
				checkClose(t, name+"/TMul", small, gmul(a.T(), tall), 1e-12)

				TMulHadamard(small, a, tall, tall2)
				checkClose(t, name+"/TMulHadamard", small, gmul(a.T(), hadamard(tall, tall2)), 1e-12)

				sq := randDense(rng, s.k, s.k, pad)
				Gram(sq, a)
				checkClose(t, name+"/Gram", sq, gmul(a.T(), a), 1e-12)
				if !mat.Equal(sq, sq.T()) {
					t.Fatalf("%s/Gram: not exactly symmetric", name)
				}

				wantDot := mat.Sum(hadamard(tall, tall2))
				if got := Dot(tall, tall2); math.Abs(got-wantDot) > 1e-12*math.Max(1, float64(s.n*s.l)) {
					t.Fatalf("%s/Dot = %v, want %v", name, got, wantDot)
				}

				f, fp := randDense(rng, s.n, s.l, pad), randDense(rng, s.n, s.l, pad)
				SigmoidMul(f, fp, a, b)
				wf, wp := gmul(a, b), gmul(a, b)
				wf.Apply(func(_, _ int, z float64) float64 { return 1 / (1 + math.Exp(-z)) }, wf)
				wp.Apply(func(_, _ int, z float64) float64 { e := math.Exp(-z); return e / ((1 + e) * (1 + e)) }, wp)
				checkClose(t, name+"/SigmoidMul f", f, wf, 1e-12)
				checkClose(t, name+"/SigmoidMul f'", fp, wp, 1e-12)
			}
		}
		parallel.SetThreads(prev)
	}
}

// TestThreadsBitIdentical checks that every kernel gives the same bits for any number of
// threads, including the reductions.
func TestThreadsBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	n, k, l := 1000+BlockRows/2, 6, 10
	a, a2 := randDense(rng, n, k, 0), randDense(rng, n, k, 0)
	b := randDense(rng, k, l, 0)
	bt := randDense(rng, l, k, 0)
	tall, tall2 := randDense(rng, n, l, 0), randDense(rng, n, l, 0)
	type result struct {
		mul, mulH, mulBT, f, fp, tmul, tmulH, gram *mat.Dense
		dot                                        float64
	}
	run := func(threads int) result {
		prev := parallel.SetThreads(threads)
		defer parallel.SetThreads(prev)
		r := result{
			mul: mat.NewDense(n, l, nil), mulH: mat.NewDense(n, l, nil), mulBT: mat.NewDense(n, l, nil),
			f: mat.NewDense(n, l, nil), fp: mat.NewDense(n, l, nil),
			tmul: mat.NewDense(k, l, nil), tmulH: mat.NewDense(k, l, nil), gram: mat.NewDense(l, l, nil),
		}
		Mul(r.mul, a, b)
		MulHadamard(r.mulH, a, a2, b)
		MulBT(r.mulBT, a, bt)
		SigmoidMul(r.f, r.fp, a, b)
		TMul(r.tmul, a, tall)
		TMulHadamard(r.tmulH, a, tall, tall2)
		Gram(r.gram, tall)
		r.dot = Dot(tall, tall2)
		return r
	}
	ref := run(1)
	for _, threads := range []int{2, 3, 8} {
		got := run(threads)
		for _, c := range []struct {
			name      string
			got, want *mat.Dense
		}{
			{"Mul", got.mul, ref.mul}, {"MulHadamard", got.mulH, ref.mulH}, {"MulBT", got.mulBT, ref.mulBT},
			{"SigmoidMul f", got.f, ref.f}, {"SigmoidMul f'", got.fp, ref.fp}, {"TMul", got.tmul, ref.tmul},
			{"TMulHadamard", got.tmulH, ref.tmulH}, {"Gram", got.gram, ref.gram},
		} {
			if !mat.Equal(c.got, c.want) {
				t.Errorf("%s: %d threads differ from 1 thread", c.name, threads)
			}
		}
		if got.dot != ref.dot {
			t.Errorf("Dot: %d threads give %v, 1 thread %v", threads, got.dot, ref.dot)
		}
	}
}

func TestNoAllocationsOnOneThread(t *testing.T) {
	prev := parallel.SetThreads(1)
	defer parallel.SetThreads(prev)
	rng := rand.New(rand.NewPCG(8, 8))
	n, k, l := 1000, 6, 10
	a, a2, b := randDense(rng, n, k, 0), randDense(rng, n, k, 0), randDense(rng, k, l, 0)
	bt, tall, tall2 := randDense(rng, l, k, 0), randDense(rng, n, l, 0), randDense(rng, n, l, 0)
	out, out2 := mat.NewDense(n, l, nil), mat.NewDense(n, l, nil)
	small, sq := mat.NewDense(k, l, nil), mat.NewDense(l, l, nil)
	allocs := testing.AllocsPerRun(10, func() {
		Mul(out, a, b)
		MulHadamard(out, a, a2, b)
		MulBT(out, a, bt)
		SigmoidMul(out, out2, a, b)
		TMul(small, a, tall)
		TMulHadamard(small, a, tall, tall2)
		Gram(sq, tall)
		_ = Dot(tall, tall2)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run of every kernel, want 0", allocs)
	}
}

func TestDimensionMismatchPanics(t *testing.T) {
	a, b := mat.NewDense(4, 3, nil), mat.NewDense(2, 5, nil)
	for name, f := range map[string]func(){
		"Mul":  func() { Mul(mat.NewDense(4, 5, nil), a, b) },
		"TMul": func() { TMul(mat.NewDense(3, 5, nil), a, b) },
		"Gram": func() { Gram(mat.NewDense(4, 4, nil), a) },
		"Dot":  func() { Dot(a, b) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic on mismatched dimensions", name)
				}
			}()
			f()
		}()
	}
}

// ulps returns the distance between a and b in units in the last place.
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / (math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b))
}

// TestExpMatchesMathExp checks the table-driven exp against math.Exp. (Against
// 40-digit values of eˣ, exp was within 0.99 ulp on 10⁵ random x in [−700, 700]; at the
// largest difference from math.Exp seen here, x = 488.98650616590453, exp is 0.72 ulp and
// math.Exp 1.28 ulp from eˣ.)
func TestExpMatchesMathExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	var worst float64
	check := func(x float64) {
		got, want := exp(x), math.Exp(x)
		if math.IsNaN(want) {
			if !math.IsNaN(got) {
				t.Fatalf("exp(%v) = %v, want NaN", x, got)
			}
			return
		}
		u := ulps(got, want)
		worst = math.Max(worst, u)
		// math.Exp is itself within about one ulp of eˣ, so allow two between them.
		if u > 2 {
			t.Fatalf("exp(%v) = %v, math.Exp %v: %.2f ulp apart", x, got, want, u)
		}
	}
	for i := 0; i < 1_000_000; i++ {
		check(1400*rng.Float64() - 700)
		check(10*rng.Float64() - 10)
	}
	for _, x := range []float64{0, -0.0, 1, -1, 1e-300, -1e-300, 1e-160, -1e-160, 5e-324, 700, -700, 700.5, -700.5, 709.7, 710,
		-745, -746, -1000, 1000, math.Inf(1), math.Inf(-1), math.NaN(), math.Ln2 / 64, -math.Ln2 / 64} {
		check(x)
	}
	t.Logf("largest difference from math.Exp: %.3f ulp", worst)
}

// TestSigmoidMatchesExp checks that sigmoid's fast path gives the bits of r = 1/(1+e),
// r and e·r·r with e = exp(−z), in its paired and its single-entry loop.
func TestSigmoidMatchesExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	f := make([]float64, 10001)
	for i := range f {
		f[i] = 1050*rng.Float64() - 350
	}
	z := append([]float64(nil), f...)
	fp := make([]float64, len(f))
	sigmoid(f, fp)
	for i, x := range z {
		e := exp(-x)
		r := 1 / (1 + e)
		if f[i] != r || fp[i] != e*r*r {
			t.Fatalf("sigmoid(%v) = %v, %v; want %v, %v", x, f[i], fp[i], r, e*r*r)
		}
	}
}

// TestSigmoidExtremes checks σ and σ' at arguments where exp leaves its fast range, in
// both the paired and the single-entry loop.
func TestSigmoidExtremes(t *testing.T) {
	zs := []float64{0, 1, 800, -800, 700.5, -700.5, 40, -40, -349, -351, -360, -710, math.Inf(1), math.Inf(-1), math.NaN()}
	for lead := 0; lead < 2; lead++ { // shift the pairing by one entry
		f := append(make([]float64, lead), zs...)
		fp := make([]float64, len(f))
		sigmoid(f, fp)
		for i, z := range zs {
			e := math.Exp(-z)
			wf, wp := 1/(1+e), e/((1+e)*(1+e))
			gf, gp := f[lead+i], fp[lead+i]
			if math.IsNaN(z) {
				if !math.IsNaN(gf) || !math.IsNaN(gp) {
					t.Errorf("σ(NaN) = %v, σ'(NaN) = %v; want NaN", gf, gp)
				}
				continue
			}
			if math.IsInf(z, -1) { // e = +Inf: σ = 0, and e·r·r is Inf·0 = NaN as is e/(1+e)²
				wp = math.NaN()
			}
			if z < -355 && gp != wp && !(math.IsNaN(gp) && math.IsNaN(wp)) {
				t.Errorf("σ'(%v) = %v, want exactly %v (the literal formula)", z, gp, wp)
			}
			if !(math.Abs(gf-wf) <= 1e-14*math.Abs(wf)) && !(gf == wf) {
				t.Errorf("σ(%v) = %v, want %v", z, gf, wf)
			}
			if !(math.Abs(gp-wp) <= 1e-14*math.Abs(wp)) && !(gp == wp) && !(math.IsNaN(gp) && math.IsNaN(wp)) {
				t.Errorf("σ'(%v) = %v, want %v", z, gp, wp)
			}
		}
	}
}

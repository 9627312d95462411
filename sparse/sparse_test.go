package sparse

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

func randomSparse(rng *rand.Rand, r, c int, density float64) (*CSR, *mat.Dense) {
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if rng.Float64() < density {
				d.Set(i, j, rng.Float64())
			}
		}
	}
	return FromDense(d), d
}

func randomDense(rng *rand.Rand, r, c int) *mat.Dense {
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d.Set(i, j, rng.Float64())
		}
	}
	return d
}

func assertClose(t *testing.T, what string, got, want mat.Matrix, tol float64) {
	t.Helper()
	if !mat.EqualApprox(got, want, tol) {
		t.Fatalf("%s: got\n%v\nwant\n%v", what, mat.Formatted(got), mat.Formatted(want))
	}
}

func TestBuilderDuplicates(t *testing.T) {
	for _, tc := range []struct {
		dup  Duplicates
		want float64
	}{{SumDuplicates, 5}, {MaxDuplicates, 3}, {LastDuplicates, 2}} {
		b := NewBuilder(2, 3)
		for _, v := range []float64{3, 2} {
			if err := b.Add(1, 2, v); err != nil {
				t.Fatal(err)
			}
		}
		a := b.CSR(tc.dup)
		if a.NNZ() != 1 || a.At(1, 2) != tc.want || a.At(0, 0) != 0 {
			t.Errorf("dup %d: nnz %d, value %v, want %v", tc.dup, a.NNZ(), a.At(1, 2), tc.want)
		}
	}
	if err := NewBuilder(2, 2).Add(2, 0, 1); err == nil {
		t.Error("out-of-range entry accepted")
	}
}

func TestNewCSRValidates(t *testing.T) {
	for name, tc := range map[string]struct {
		ptr, ind []int
		val      []float64
	}{
		"short ptr":      {[]int{0, 1}, []int{0}, []float64{1}},
		"decreasing ptr": {[]int{0, 2, 1}, []int{0, 1}, []float64{1, 1}},
		"col range":      {[]int{0, 1, 1}, []int{5}, []float64{1}},
		"unsorted":       {[]int{0, 2, 2}, []int{1, 0}, []float64{1, 1}},
		"len mismatch":   {[]int{0, 1, 1}, []int{0}, []float64{1, 2}},
	} {
		if _, err := NewCSR(2, 2, tc.ptr, tc.ind, tc.val); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := NewCSR(2, 2, []int{0, 1, 2}, []int{1, 0}, []float64{1, 1}); err != nil {
		t.Errorf("valid matrix rejected: %v", err)
	}
}

func TestTransposeAndReductions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	a, d := randomSparse(rng, 7, 5, 0.4)
	assertClose(t, "T", a.T().Dense(), d.T(), 0)
	if a.T() != a.T() || a.T().T() != a {
		t.Error("T is formed again on a second call; want the first transpose shared")
	}
	var sum, sq float64
	for i := 0; i < 7; i++ {
		for j := 0; j < 5; j++ {
			sum += d.At(i, j)
			sq += d.At(i, j) * d.At(i, j)
		}
	}
	if math.Abs(a.Sum()-sum) > 1e-12 || math.Abs(a.SumSq()-sq) > 1e-12 {
		t.Errorf("Sum/SumSq %v %v, want %v %v", a.Sum(), a.SumSq(), sum, sq)
	}
	cs, rs := a.ColSums(), a.RowSums()
	for j := range cs {
		if math.Abs(cs[j]-mat.Sum(d.ColView(j))) > 1e-12 {
			t.Errorf("ColSums[%d]", j)
		}
	}
	for i := range rs {
		if math.Abs(rs[i]-mat.Sum(d.RowView(i))) > 1e-12 {
			t.Errorf("RowSums[%d]", i)
		}
	}
}

// denseMaskedGram is (U Uᵀ ⊙ W) U written with n×n matrices.
func denseMaskedGram(w *CSR, u *mat.Dense) *mat.Dense {
	n, k := u.Dims()
	var uut mat.Dense
	uut.Mul(u, u.T())
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if w.At(i, j) == 0 && !hasEntry(w, i, j) {
				uut.Set(i, j, 0)
			}
		}
	}
	out := mat.NewDense(n, k, nil)
	out.Mul(&uut, u)
	return out
}

func hasEntry(w *CSR, i, j int) bool {
	cols, _ := w.Row(i)
	for _, c := range cols {
		if c == j {
			return true
		}
	}
	return false
}

// unitSparse returns a random 0/1 r×c matrix.
func unitSparse(rng *rand.Rand, r, c int, density float64) (*CSR, *mat.Dense) {
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if rng.Float64() < density {
				d.Set(i, j, 1)
			}
		}
	}
	return FromDense(d), d
}

// kernelWidths covers every unrolled width of the weighted (≤ 8), unit (≤ 12) and pattern
// (≤ 8) kernels, and splits into several chunks beyond them.
var kernelWidths = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 17, 20, 25}

func TestKernelsMatchDense(t *testing.T) {
	for _, threads := range []int{1, 3} {
		prev := parallel.SetThreads(threads)
		rng := rand.New(rand.NewPCG(3, uint64(threads)))
		for trial := 0; trial < 3; trial++ {
			n, m := 20+trial*150, 13
			for _, k := range kernelWidths {
				a, ad := randomSparse(rng, n, m, 0.2)
				au, aud := unitSparse(rng, n, m, 0.2)
				if a.UnitValues() || !au.UnitValues() {
					t.Fatal("UnitValues is wrong")
				}
				b := randomDense(rng, m, k)
				got := mat.NewDense(n, k, nil)
				var want mat.Dense
				MulDense(got, a, b)
				want.Mul(ad, b)
				assertClose(t, "MulDense", got, &want, 1e-12)
				MulDense(got, au, b)
				want.Mul(aud, b)
				assertClose(t, "MulDense (unit values)", got, &want, 1e-12)

				w, wd := randomSparse(rng, n, n, 0.05)
				u := randomDense(rng, n, k)
				g := mat.NewDense(n, k, nil)
				PatternGramMul(g, w, u)
				assertClose(t, "PatternGramMul", g, denseMaskedGram(w, u), 1e-9)
				sum := mat.NewDense(n, k, nil)
				PatternSumGramMul(sum, g, w, u)
				assertClose(t, "PatternSumGramMul gram", g, denseMaskedGram(w, u), 1e-9)
				var pattern mat.Dense
				pattern.Apply(func(_, _ int, v float64) float64 {
					if v != 0 {
						return 1
					}
					return 0
				}, wd)
				want.Mul(&pattern, u)
				assertClose(t, "PatternSumGramMul sum", sum, &want, 1e-12)

				s, sq := PatternDots(w, u)
				var ws, wq float64
				for i := 0; i < n; i++ {
					cols, _ := w.Row(i)
					for _, j := range cols {
						z := mat.Dot(u.RowView(i), u.RowView(j))
						ws += z
						wq += z * z
					}
				}
				if math.Abs(s-ws) > 1e-9*ws || math.Abs(sq-wq) > 1e-9*wq {
					t.Errorf("PatternDots %v %v, want %v %v", s, sq, ws, wq)
				}
			}
		}
		parallel.SetThreads(prev)
	}
}

// TestStridedOperands runs the kernels on views whose stride exceeds their width, with NaN
// in the columns outside the view, and checks that nothing outside is read or written.
func TestStridedOperands(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	n, m := 300, 40
	a, ad := unitSparse(rng, n, m, 0.1)
	w, _ := randomSparse(rng, n, n, 0.02)
	view := func(r, c int) (*mat.Dense, *mat.Dense) {
		big := randomDense(rng, r, c+3)
		for i := 0; i < r; i++ {
			for j := c; j < c+3; j++ {
				big.Set(i, j, math.NaN())
			}
		}
		return big.Slice(0, r, 0, c).(*mat.Dense), big
	}
	for _, k := range []int{3, 10, 13} {
		b, _ := view(m, k)
		dst, dstBig := view(n, k)
		MulDense(dst, a, b)
		var want mat.Dense
		want.Mul(ad, b)
		assertClose(t, "MulDense on views", dst, &want, 1e-12)
		u, _ := view(n, k)
		PatternSumGramMul(dst, nil, w, u)
		PatternGramMul(dst, w, u)
		assertClose(t, "PatternGramMul on views", dst, denseMaskedGram(w, u), 1e-9)
		if s, q := PatternDots(w, u); math.IsNaN(s) || math.IsNaN(q) {
			t.Error("PatternDots read outside its view")
		}
		for i := 0; i < n; i++ {
			for j := k; j < k+3; j++ {
				if !math.IsNaN(dstBig.At(i, j)) {
					t.Fatalf("k = %d: column %d outside the view was written", k, j)
				}
			}
		}
	}
}

func TestDotDense(t *testing.T) {
	a := FromDense(mat.NewDense(2, 2, []float64{1, 0, 2, 3}))
	b := mat.NewDense(2, 2, []float64{5, 7, 11, 13})
	if got := DotDense(a, b); got != 1*5+2*11+3*13 {
		t.Errorf("DotDense = %v", got)
	}
}

func TestThreadsBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	n, k := 3000, 5
	w, _ := randomSparse(rng, n, n, 0.003)
	x, _ := unitSparse(rng, n, 50, 0.05)
	xv, _ := randomSparse(rng, n, 50, 0.05)
	tall, _ := randomSparse(rng, n, 20, 0.9) // its transpose has 20 long rows
	wide := tall.T()
	u := randomDense(rng, n, k)
	v := randomDense(rng, 50, 10)
	f := randomDense(rng, n, 10)
	type result struct {
		g, s, xv, xw, xtf *mat.Dense
		sum, q            float64
	}
	run := func(th int) result {
		prev := parallel.SetThreads(th)
		defer parallel.SetThreads(prev)
		r := result{g: mat.NewDense(n, k, nil), s: mat.NewDense(n, k, nil),
			xv: mat.NewDense(n, 10, nil), xw: mat.NewDense(n, 10, nil), xtf: mat.NewDense(20, 10, nil)}
		PatternSumGramMul(r.s, r.g, w, u)
		MulDense(r.xtf, wide, f)
		r.sum, r.q = PatternDots(w, u)
		MulDense(r.xv, x, v)
		MulDense(r.xw, xv, v)
		return r
	}
	r1 := run(1)
	for _, th := range []int{2, 4, 7} {
		r := run(th)
		if !mat.Equal(r1.g, r.g) || !mat.Equal(r1.s, r.s) || !mat.Equal(r1.xv, r.xv) || !mat.Equal(r1.xw, r.xw) ||
			!mat.Equal(r1.xtf, r.xtf) || r1.sum != r.sum || r1.q != r.q {
			t.Errorf("kernel results with %d threads differ from 1 thread", th)
		}
	}
}

func TestNoAllocationsOnOneThread(t *testing.T) {
	prev := parallel.SetThreads(1)
	defer parallel.SetThreads(prev)
	rng := rand.New(rand.NewPCG(4, 4))
	n := 1000
	w, _ := randomSparse(rng, n, n, 0.01)
	x, _ := unitSparse(rng, n, 50, 0.05)
	u, v := randomDense(rng, n, 6), randomDense(rng, 50, 10)
	g, s, xv := mat.NewDense(n, 6, nil), mat.NewDense(n, 6, nil), mat.NewDense(n, 10, nil)
	if allocs := testing.AllocsPerRun(10, func() {
		PatternSumGramMul(s, g, w, u)
		PatternGramMul(g, w, u)
		_, _ = PatternDots(w, u)
		_, _ = PatternSumGramDots(s, g, w, u)
		MulDense(xv, x, v)
	}); allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
	// The wide edge pass (k > maxPattern), with a hub past the scratch's first size: the
	// scratch grows once, in the run AllocsPerRun does first, and is reused after.
	hub := NewBuilder(n, n)
	for j := 0; j < n; j++ {
		_ = hub.Add(0, j, 1)
		_ = hub.Add(j, 0, 1)
	}
	wh := hub.CSR(MaxDuplicates)
	u47 := randomDense(rng, n, 47)
	s47, g47 := mat.NewDense(n, 47, nil), mat.NewDense(n, 47, nil)
	if allocs := testing.AllocsPerRun(10, func() {
		_, _ = PatternSumGramDots(s47, g47, wh, u47)
	}); allocs != 0 {
		t.Errorf("wide edge pass with a hub of degree %d: %v allocations per run, want 0", wh.RowNNZ(0), allocs)
	}
}

func TestScalingHelpers(t *testing.T) {
	a := FromDense(mat.NewDense(2, 3, []float64{1, 0, 4, 0, 2, 8}))
	if cm := a.ColMax(); cm[0] != 1 || cm[1] != 2 || cm[2] != 8 {
		t.Errorf("ColMax %v", cm)
	}
	s := a.ScaleColumns([]float64{1, 0.5, 0.125})
	assertClose(t, "ScaleColumns", s.Dense(), mat.NewDense(2, 3, []float64{1, 0, 0.5, 0, 1, 1}), 0)
	r := a.ScaleRows([]float64{2, 0.5})
	assertClose(t, "ScaleRows", r.Dense(), mat.NewDense(2, 3, []float64{2, 0, 8, 0, 1, 4}), 0)
	sq := FromDense(mat.NewDense(2, 2, []float64{1, 1, 1, 0}))
	if nd := sq.WithoutDiagonal(); nd.NNZ() != 2 || nd.At(0, 0) != 0 {
		t.Errorf("WithoutDiagonal kept the diagonal")
	}
	if got := a.Scaled(2).Sum(); got != 30 {
		t.Errorf("Scaled sum %v", got)
	}
}

// TestPatternSumGramDots checks that the one-pass PatternSumGramDots gives the same bits as
// PatternSumGramMul and PatternDots, with and without sum, on 1 and 3 threads, at widths
// within and past the unrolled kernels.
func TestPatternSumGramDots(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(5, 6))
	n := 2*minRowsPerTask + 77
	w, _ := randomSparse(rng, n, n, 0.01)
	for _, k := range []int{1, 3, 6, maxPattern, maxPattern + 3} {
		u := randomDense(rng, n, k)
		ws, wg := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
		PatternSumGramMul(ws, wg, w, u)
		wsum, wq := PatternDots(w, u)
		for _, th := range []int{1, 3} {
			for _, withSum := range []bool{true, false} {
				parallel.SetThreads(th)
				var s *mat.Dense
				if withSum {
					s = mat.NewDense(n, k, nil)
				}
				g := mat.NewDense(n, k, nil)
				sum, q := PatternSumGramDots(s, g, w, u)
				if !mat.Equal(g, wg) || withSum && !mat.Equal(s, ws) || sum != wsum || q != wq {
					t.Errorf("k=%d, %d threads, sum %v: differs from PatternSumGramMul and PatternDots", k, th, withSum)
				}
			}
		}
	}
}

package algorithms

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/sparse"
)

// denseNAGC is a straightforward dense implementation of the paper's update rules
// (Eq. update of U, V, H) with n×n matrices S, W and W' = 1 − W, written independently of
// the sparse solver. It is the reference the sparse updates must equal.
type denseNAGC struct {
	s, w, wp, x *mat.Dense
	u, v, h     *mat.Dense
	lambda, rho float64
}

func newDenseNAGC(adj, x *sparse.CSR, u, v, h *mat.Dense, lambda, rho float64) *denseNAGC {
	a := adj.Dense()
	n, _ := a.Dims()
	xd := x.Dense()
	scale := mat.Sum(xd) / mat.Sum(a)
	s := mat.NewDense(n, n, nil)
	s.Scale(scale, a)
	w := mat.NewDense(n, n, nil)
	wp := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if a.At(i, j) != 0 {
				w.Set(i, j, 1)
			} else {
				wp.Set(i, j, 1)
			}
		}
	}
	return &denseNAGC{s: s, w: w, wp: wp, x: xd,
		u: mat.DenseCopyOf(u), v: mat.DenseCopyOf(v), h: mat.DenseCopyOf(h),
		lambda: lambda, rho: rho}
}

func sigmoidDense(z *mat.Dense) (f, fp *mat.Dense) {
	r, c := z.Dims()
	f, fp = mat.NewDense(r, c, nil), mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			x := z.At(i, j)
			f.Set(i, j, 1/(1+math.Exp(-x)))
			fp.Set(i, j, math.Exp(-x)/math.Pow(1+math.Exp(-x), 2))
		}
	}
	return f, fp
}

func mul(a, b mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.Mul(a, b)
	return &c
}

func hadamard(a, b mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.MulElem(a, b)
	return &c
}

func ratioStep(x, num, den *mat.Dense) {
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v := x.At(i, j) * num.At(i, j) / den.At(i, j)
			if math.IsNaN(v) {
				v = eps
			}
			x.Set(i, j, v)
		}
	}
}

func (d *denseNAGC) step() {
	l := d.lambda
	// U.
	var uh mat.Dense
	uh.Mul(d.u, d.h)
	f, fp := sigmoidDense(&uh)
	xv := mul(d.x, d.v)
	vtv := mul(d.v.T(), d.v)
	attrNum := mul(hadamard(xv, fp), d.h.T())
	attrDen := mul(hadamard(mul(f, vtv), fp), d.h.T())
	uut := mul(d.u, d.u.T())
	var num, den mat.Dense
	if d.rho == 0.5 {
		num.Scale(2, mul(d.s, d.u))
		den.Scale(2, mul(d.u, mul(d.u.T(), d.u)))
	} else {
		num.Scale(2*d.rho, mul(d.s, d.u))
		var a, b mat.Dense
		a.Scale(2*d.rho, mul(hadamard(uut, d.w), d.u))
		b.Scale(2*(1-d.rho), mul(hadamard(uut, d.wp), d.u))
		den.Add(&a, &b)
	}
	var t mat.Dense
	t.Scale(l, attrNum)
	num.Add(&num, &t)
	t.Scale(l, attrDen)
	den.Add(&den, &t)
	ratioStep(d.u, &num, &den)
	// V.
	uh.Mul(d.u, d.h)
	f, fp = sigmoidDense(&uh)
	ratioStep(d.v, mul(d.x.T(), f), mul(d.v, mul(f.T(), f)))
	// H.
	xv = mul(d.x, d.v)
	vtv = mul(d.v.T(), d.v)
	ratioStep(d.h, mul(d.u.T(), hadamard(fp, xv)), mul(mul(d.u.T(), hadamard(fp, f)), vtv))
}

// objective is the dense form of the objective the solver reports.
func (d *denseNAGC) objective() float64 {
	n, _ := d.u.Dims()
	uut := mul(d.u, d.u.T())
	var topo float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			r := d.s.At(i, j) - uut.At(i, j)
			switch {
			case d.rho == 0.5:
				topo += r * r
			case d.w.At(i, j) == 1:
				topo += d.rho * r * r
			default:
				topo += (1 - d.rho) * r * r
			}
		}
	}
	var uh mat.Dense
	uh.Mul(d.u, d.h)
	f, _ := sigmoidDense(&uh)
	var res mat.Dense
	res.Sub(d.x, mul(f, d.v.T()))
	fr := mat.Norm(&res, 2)
	return 0.5*topo + 0.5*d.lambda*fr*fr
}

// randomGraph returns a random symmetric 0/1 adjacency with some self-loops and a sparse
// 0/1 attribute matrix.
func randomGraph(rng *rand.Rand, n, m int, pEdge, pAttr float64) (adj, x *sparse.CSR) {
	b := sparse.NewBuilder(n, n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if rng.Float64() < pEdge || (i == j && rng.Float64() < 0.2) {
				_ = b.Add(i, j, 1)
				_ = b.Add(j, i, 1)
			}
		}
	}
	xb := sparse.NewBuilder(n, m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			if rng.Float64() < pAttr {
				_ = xb.Add(i, j, 1)
			}
		}
	}
	return b.CSR(sparse.MaxDuplicates), xb.CSR(sparse.SumDuplicates)
}

func relDiff(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1)) / math.Max(mat.Norm(b, math.Inf(1)), 1e-300)
}

func TestSparseUpdatesEqualDenseFormulas(t *testing.T) {
	for trial := 0; trial < 6; trial++ {
		for _, rho := range []float64{0.5, 0.55, 0.95, 0.995} {
			for _, lambda := range []float64{0, 1e-4, 0.5, 10} {
				name := fmt.Sprintf("graph%d/rho=%v/lambda=%v", trial, rho, lambda)
				rng := rand.New(rand.NewPCG(uint64(trial), 11))
				n, m, k1, k2 := 15+5*trial, 9+trial, 2+trial%3, 3+trial%2
				adj, x := randomGraph(rng, n, m, 0.15, 0.3)
				u, v, h := uniformDense(n, k1, rng), uniformDense(m, k2, rng), uniformDense(k1, k2, rng)
				ref := newDenseNAGC(adj, x, u, v, h, lambda, rho)
				s := NewNAGCSolver(adj, x, mat.DenseCopyOf(u), mat.DenseCopyOf(v), mat.DenseCopyOf(h), lambda, rho)
				for it := 0; it < 5; it++ {
					ref.step()
					s.Step()
					for _, c := range []struct {
						what      string
						got, want *mat.Dense
					}{{"U", s.U, ref.u}, {"V", s.V, ref.v}, {"H", s.H, ref.h}} {
						if d := relDiff(c.got, c.want); d > 1e-9 {
							t.Fatalf("%s: iteration %d: %s differs from the dense formula by %.3g relative", name, it+1, c.what, d)
						}
					}
					got, want := s.Objective(), ref.objective()
					if math.Abs(got-want) > 1e-9*math.Abs(want) {
						t.Fatalf("%s: iteration %d: objective %.15g, dense %.15g", name, it+1, got, want)
					}
				}
			}
		}
	}
}

func TestNAGCRecoversPlantedClusters(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	n, m, k := 120, 40, 3
	b := sparse.NewBuilder(n, n)
	xb := sparse.NewBuilder(n, m)
	truth := make([]int, n)
	for i := 0; i < n; i++ {
		truth[i] = i % k
		for j := i + 1; j < n; j++ {
			p := 0.01
			if i%k == j%k {
				p = 0.25
			}
			if rng.Float64() < p {
				_ = b.Add(i, j, 1)
				_ = b.Add(j, i, 1)
			}
		}
		for j := 0; j < m; j++ {
			p := 0.05
			if j%k == i%k {
				p = 0.5
			}
			if rng.Float64() < p {
				_ = xb.Add(i, j, 1)
			}
		}
	}
	in := Input{Adj: b.CSR(sparse.MaxDuplicates), X: xb.CSR(sparse.SumDuplicates), Truth: truth}
	for _, init := range []string{InitKMeans, InitRandom, InitKMeansMedianARI} {
		res, err := NAGC{K2: 3, Lambda: 1e-2, Rho: 0.75, Init: init}.Fit(context.Background(), in, k, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := purity(truth, res.Labels, k); got < 0.9 {
			t.Errorf("init %s: purity %.3f < 0.9", init, got)
		}
		if len(res.Objective) != 100 || res.Iterations != 100 {
			t.Errorf("init %s: %d objective values, %d iterations", init, len(res.Objective), res.Iterations)
		}
	}
}

// purity is the share of vertices whose cluster's majority class is their class.
func purity(truth, pred []int, k int) float64 {
	counts := map[[2]int]int{}
	for i := range truth {
		counts[[2]int{pred[i], truth[i]}]++
	}
	best := map[int]int{}
	for key, c := range counts {
		best[key[0]] = max(best[key[0]], c)
	}
	var s int
	for _, c := range best {
		s += c
	}
	return float64(s) / float64(len(truth))
}

func TestNAGCDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	adj, x := randomGraph(rng, 60, 20, 0.1, 0.2)
	in := Input{Adj: adj, X: x}
	for _, init := range []string{InitKMeans, InitRandom} {
		a, _ := NAGC{K2: 4, Lambda: 0.1, Rho: 0.9, Init: init}.Fit(context.Background(), in, 3, 7)
		b, _ := NAGC{K2: 4, Lambda: 0.1, Rho: 0.9, Init: init}.Fit(context.Background(), in, 3, 7)
		if !mat.Equal(a.Factors["U"], b.Factors["U"]) {
			t.Errorf("init %s: same seed, different U", init)
		}
		c, _ := NAGC{K2: 4, Lambda: 0.1, Rho: 0.9, Init: init}.Fit(context.Background(), in, 3, 8)
		if mat.Equal(a.Factors["U"], c.Factors["U"]) {
			t.Errorf("init %s: different seeds, same U", init)
		}
	}
}

func TestNAGCGivenInitIsUsedAndNotModified(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	adj, x := randomGraph(rng, 30, 10, 0.2, 0.3)
	u, v, h := uniformDense(30, 2, rng), uniformDense(10, 3, rng), uniformDense(2, 3, rng)
	u0 := mat.DenseCopyOf(u)
	a := NAGC{K2: 3, Lambda: 0.1, Rho: 0.6, Iterations: 3, InitU: u, InitV: v, InitH: h}
	res, err := a.Fit(context.Background(), Input{Adj: adj, X: x}, 2, 99)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(u, u0) {
		t.Error("the given U was modified")
	}
	s := NewNAGCSolver(adj, x, mat.DenseCopyOf(u), mat.DenseCopyOf(v), mat.DenseCopyOf(h), 0.1, 0.6)
	for i := 0; i < 3; i++ {
		s.Step()
	}
	if !mat.Equal(res.Factors["U"], s.U) {
		t.Error("fit from given factors differs from the solver run from them")
	}
}

func TestNAGCRejectsBadOptions(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	adj, x := randomGraph(rng, 20, 6, 0.2, 0.3)
	in := Input{Adj: adj, X: x}
	for name, a := range map[string]NAGC{
		"rho>1":            {Rho: 1.5},
		"rho NaN":          {Rho: math.NaN()},
		"lambda<0":         {Lambda: -1, Rho: 0.6},
		"k2>n":             {K2: 21, Rho: 0.6},
		"unknown init":     {Rho: 0.6, Init: "spectral"},
		"median w/o truth": {Rho: 0.6, Init: InitKMeansMedianARI},
		"partial factors":  {Rho: 0.6, InitU: mat.NewDense(20, 2, nil)},
	} {
		if _, err := a.Fit(context.Background(), in, 2, 1); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := (NAGC{Rho: 0.6}).Fit(context.Background(), in, 21, 1); err == nil {
		t.Error("k > n accepted")
	}
}

func TestKMeansFactorsRowsSumToOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	_, x := randomGraph(rng, 50, 12, 0.1, 0.3)
	u, v, labels, err := KMeansFactors(x, 3, 4, rng)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if s := mat.Sum(u.RowView(i)); math.Abs(s-1) > 1e-12 {
			t.Fatalf("row %d of U sums to %v", i, s)
		}
	}
	if r, c := v.Dims(); r != 12 || c != 4 {
		t.Errorf("V is %d×%d", r, c)
	}
	if len(labels) != 50 {
		t.Errorf("%d labels", len(labels))
	}
}

func ExampleNAGC() {
	// Two triangles joined by one edge; attributes follow the triangles.
	b := sparse.NewBuilder(6, 6)
	for _, e := range [][2]int{{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {2, 3}} {
		_ = b.Add(e[0], e[1], 1)
		_ = b.Add(e[1], e[0], 1)
	}
	x := sparse.FromDense(mat.NewDense(6, 4, []float64{
		1, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0,
		0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 1}))
	res, _ := NAGC{K2: 2, Lambda: 0.01, Rho: 0.75}.Fit(context.Background(),
		Input{Adj: b.CSR(sparse.MaxDuplicates), X: x}, 2, 1)
	l := res.Labels
	fmt.Println(l[0] == l[1] && l[1] == l[2], l[3] == l[4] && l[4] == l[5], l[0] != l[3])
	// Output: true true true
}

// TestNAGCNoObjective checks that a fit told to skip its objective (Input.NoObjective, as
// the runner's held-out fits are) returns the same factors and labels with no objective.
func TestNAGCNoObjective(t *testing.T) {
	rng := newRand(8)
	adj, x := randomGraph(rng, 200, 30, 0.04, 0.1)
	for _, rho := range []float64{0.5, 0.9} {
		a := NAGC{K2: 4, Lambda: 0.5, Rho: rho, Iterations: 20, Init: InitRandom}
		with, err := a.Fit(context.Background(), Input{Adj: adj, X: x}, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		without, err := a.Fit(context.Background(), Input{Adj: adj, X: x, NoObjective: true}, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(with.Objective) != 20 || len(without.Objective) != 0 {
			t.Errorf("ρ = %v: %d and %d objective values, want 20 and 0", rho, len(with.Objective), len(without.Objective))
		}
		for _, f := range []string{"U", "V", "H"} {
			if !mat.Equal(with.Factors[f], without.Factors[f]) {
				t.Errorf("ρ = %v: %s differs when the objective is skipped", rho, f)
			}
		}
	}
}

// TestNAGCLineAlignedU checks the line-aligned copy of a large U (lineAligned): k1 not a
// multiple of 8 gets a stride rounded up to 8 with the same values, other widths and
// small factors are left as they are, and a solver whose U was padded gives the bits of
// one whose U was not, factors and objective, over several iterations at ρ = 0.5 and
// ρ ≠ 0.5, on 1 and 2 threads.
func TestNAGCLineAlignedU(t *testing.T) {
	defer func(old int) { alignedMinBytes = old }(alignedMinBytes)
	rng := rand.New(rand.NewPCG(47, 48))
	for _, k1 := range []int{3, 8, 13} {
		u := uniformDense(30, k1, rng)
		alignedMinBytes = 1 << 40
		if lineAligned(u) != u {
			t.Errorf("k1 = %d: a small U was copied", k1)
		}
		alignedMinBytes = 0
		a := lineAligned(u)
		if stride := a.RawMatrix().Stride; stride%8 != 0 || stride-k1 > 7 || (k1%8 == 0) != (a == u) {
			t.Errorf("k1 = %d: stride %d (copied %v)", k1, stride, a != u)
		}
		if !mat.Equal(a, u) {
			t.Errorf("k1 = %d: the aligned copy holds other values", k1)
		}
	}
	defer parallel.SetThreads(parallel.SetThreads(1))
	for _, threads := range []int{1, 2} {
		parallel.SetThreads(threads)
		for _, rho := range []float64{0.5, 0.8} {
			n, m, k1, k2 := 300, 20, 5, 6
			adj, x := randomGraph(rng, n, m, 0.05, 0.3)
			u, v, h := uniformDense(n, k1, rng), uniformDense(m, k2, rng), uniformDense(k1, k2, rng)
			solve := func(minBytes int) *NAGCSolver {
				alignedMinBytes = minBytes
				s := NewNAGCSolver(adj, x, mat.DenseCopyOf(u), mat.DenseCopyOf(v), mat.DenseCopyOf(h), 0.1, rho)
				for range 5 {
					s.Step()
				}
				return s
			}
			plain, padded := solve(1<<40), solve(0)
			if padded.U.RawMatrix().Stride != 8 || plain.U.RawMatrix().Stride != k1 {
				t.Fatalf("strides %d and %d, want 8 and %d", padded.U.RawMatrix().Stride, plain.U.RawMatrix().Stride, k1)
			}
			name := fmt.Sprintf("threads=%d rho=%v", threads, rho)
			for _, c := range []struct {
				what      string
				got, want *mat.Dense
			}{{"U", padded.U, plain.U}, {"V", padded.V, plain.V}, {"H", padded.H, plain.H}} {
				r, cc := c.want.Dims()
				for i := 0; i < r; i++ {
					for j := 0; j < cc; j++ {
						if math.Float64bits(c.got.At(i, j)) != math.Float64bits(c.want.At(i, j)) {
							t.Fatalf("%s: %s[%d,%d] = %v, want %v", name, c.what, i, j, c.got.At(i, j), c.want.At(i, j))
						}
					}
				}
			}
			if a, b := padded.Objective(), plain.Objective(); math.Float64bits(a) != math.Float64bits(b) {
				t.Errorf("%s: objective %v, want %v", name, a, b)
			}
		}
	}
}

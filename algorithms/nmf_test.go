package algorithms

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/sparse"
)

// Test helpers shared by the NMF-family tests (nmf, snmf, jwnmf).

// nmfFamilyRandomInput returns a random symmetric 0/1 adjacency (some self-loops) and a
// random 0/1 attribute matrix with its last column all zero.
func nmfFamilyRandomInput(rng *rand.Rand, n, m int, pEdge, pAttr float64) Input {
	b := sparse.NewBuilder(n, n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if (i != j && rng.Float64() < pEdge) || (i == j && rng.Float64() < 0.2) {
				_ = b.Add(i, j, 1)
				_ = b.Add(j, i, 1)
			}
		}
	}
	xb := sparse.NewBuilder(n, m)
	for i := 0; i < n; i++ {
		for j := 0; j < m-1; j++ {
			if rng.Float64() < pAttr {
				_ = xb.Add(i, j, 1)
			}
		}
	}
	return Input{Adj: b.CSR(sparse.MaxDuplicates), X: xb.CSR(sparse.SumDuplicates)}
}

// nmfFamilyPlanted returns a planted-partition attributed graph: vertex i in class i%k;
// edge probability pIn within a class, pOut across; attribute j "belongs" to class j%k and
// is on with probability aIn for its class's vertices, aOut for the others.
func nmfFamilyPlanted(seed uint64, n, m, k int, pIn, pOut, aIn, aOut float64) Input {
	return plantedFrom(rand.New(rand.NewPCG(seed, 77)), n, m, k, pIn, pOut, aIn, aOut, 0)
}

func nmfFamilyARI(t *testing.T, truth, pred []int) float64 {
	t.Helper()
	ari, err := metrics.ARI(truth, pred)
	if err != nil {
		t.Fatal(err)
	}
	return ari
}

// nmfFamilyRel returns max|a − b| / max|b|.
func nmfFamilyRel(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1)) / math.Max(mat.Norm(b, math.Inf(1)), 1e-300)
}

func nmfFamilyMul(a, b mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.Mul(a, b)
	return &c
}

// nmfFamilySqDist returns ‖a − b‖²_F.
func nmfFamilySqDist(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	f := mat.Norm(&d, 2)
	return f * f
}

// nmfFamilyMaxOf returns the largest entry of d.
func nmfFamilyMaxOf(d *mat.Dense) float64 { return mat.Max(d) }

// nmfFamilyRatio sets x ← x ⊙ (1 − β + β·num ⊘ g(den)) entry by entry, where g adds
// 1e-12·max(den) (guardMax false) or takes the max with it (guardMax true); NaN → ε.
func nmfFamilyRatio(x, num, den *mat.Dense, beta float64, guardMax bool) {
	delta := 1e-12 * nmfFamilyMaxOf(den)
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d := den.At(i, j) + delta
			if guardMax {
				d = math.Max(den.At(i, j), delta)
			}
			v := x.At(i, j) * (1 - beta + beta*num.At(i, j)/d)
			if math.IsNaN(v) {
				v = eps
			}
			x.Set(i, j, v)
		}
	}
}

// nmfFamilyIncreases counts the steps of obj (initial value first) that rise by more
// than rel relative.
func nmfFamilyIncreases(obj []float64, rel float64) int {
	c := 0
	for i := 1; i < len(obj); i++ {
		if obj[i] > obj[i-1]+rel*math.Abs(obj[i-1]) {
			c++
		}
	}
	return c
}

// denseNMF is a dense reference of NMF's updates.
type nmfFamilyDenseNMF struct {
	x, w, h *mat.Dense
	hals    bool
}

func (d *nmfFamilyDenseNMF) step() {
	if d.hals {
		nmfFamilyDenseHALS(d.w, nmfFamilyMul(d.x, d.h), nmfFamilyMul(d.h.T(), d.h))
		nmfFamilyDenseHALS(d.h, nmfFamilyMul(d.x.T(), d.w), nmfFamilyMul(d.w.T(), d.w))
		return
	}
	// W ← W ⊙ XH ⊘ (WHᵀH + δ); H ← H ⊙ XᵀW ⊘ (HWᵀW + δ).
	nmfFamilyRatio(d.w, nmfFamilyMul(d.x, d.h), nmfFamilyMul(d.w, nmfFamilyMul(d.h.T(), d.h)), 1, false)
	nmfFamilyRatio(d.h, nmfFamilyMul(d.x.T(), d.w), nmfFamilyMul(d.h, nmfFamilyMul(d.w.T(), d.w)), 1, false)
}

// nmfFamilyDenseHALS: for each column l, f_l ← max(0, (p_l − Σ_{j≠l} f_j g_jl)/g_ll).
func nmfFamilyDenseHALS(f, p, g *mat.Dense) {
	r, k := f.Dims()
	for l := 0; l < k; l++ {
		if g.At(l, l) <= 0 {
			continue
		}
		for i := 0; i < r; i++ {
			s := p.At(i, l)
			for j := 0; j < k; j++ {
				if j != l {
					s -= f.At(i, j) * g.At(j, l)
				}
			}
			f.Set(i, l, math.Max(0, s/g.At(l, l)))
		}
	}
}

func (d *nmfFamilyDenseNMF) objective() float64 {
	return nmfFamilySqDist(d.x, nmfFamilyMul(d.w, d.h.T()))
}

func TestNMFSparseEqualsDense(t *testing.T) {
	for trial := 0; trial < 4; trial++ {
		for _, solver := range []string{NMFSolverMU, NMFSolverHALS} {
			t.Run(fmt.Sprintf("trial%d/%s", trial, solver), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(trial), 5))
				n, m, k := 20+7*trial, 10+3*trial, 2+trial%3
				in := nmfFamilyRandomInput(rng, n, m, 0.1, 0.3)
				x := attrtest.Sparse(in.X).Scaled(1 + float64(trial)) // non-0/1 values
				w, h := nmfRandomInit(sparse.NewCSROperator(x), k, rng)
				ref := &nmfFamilyDenseNMF{x: x.Dense(), w: mat.DenseCopyOf(w), h: mat.DenseCopyOf(h), hals: solver == NMFSolverHALS}
				s := newNMFSolver(sparse.NewCSROperator(x), w, h, solver == NMFSolverHALS)
				for it := 0; it <= 6; it++ {
					if it > 0 {
						s.step()
						ref.step()
					}
					if d := nmfFamilyRel(s.W, ref.w); d > 1e-9 {
						t.Fatalf("iteration %d: W differs from the dense formula by %.3g", it, d)
					}
					if d := nmfFamilyRel(s.H, ref.h); d > 1e-9 {
						t.Fatalf("iteration %d: H differs from the dense formula by %.3g", it, d)
					}
					got, want := s.objective(), ref.objective()
					if math.Abs(got-want) > 1e-9*math.Abs(want) {
						t.Fatalf("iteration %d: objective %.15g, dense %.15g", it, got, want)
					}
				}
			})
		}
	}
}

func TestNMFObjectiveNeverIncreases(t *testing.T) {
	for trial := 0; trial < 5; trial++ {
		for _, solver := range []string{NMFSolverMU, NMFSolverHALS} {
			for _, init := range []string{InitRandom, NMFInitNNDSVDa} {
				rng := rand.New(rand.NewPCG(uint64(trial), 6))
				in := nmfFamilyRandomInput(rng, 60, 30, 0.05, 0.2)
				x := attrtest.Sparse(in.X)
				var w, h *mat.Dense
				if init == InitRandom {
					w, h = nmfRandomInit(sparse.NewCSROperator(x), 4, rng)
				} else {
					w, h, _ = nmfNNDSVDa(context.Background(), sparse.NewCSROperator(x), 4, rng)
				}
				s := newNMFSolver(sparse.NewCSROperator(x), w, h, solver == NMFSolverHALS)
				obj := []float64{s.objective()}
				for it := 0; it < 200; it++ {
					s.step()
					obj = append(obj, s.objective())
				}
				if c := nmfFamilyIncreases(obj, 1e-12); c > 0 {
					t.Errorf("trial %d, %s, %s: objective increased %d times", trial, solver, init, c)
				}
				if !(obj[len(obj)-1] < obj[0]) {
					t.Errorf("trial %d, %s, %s: objective %g → %g", trial, solver, init, obj[0], obj[len(obj)-1])
				}
			}
		}
	}
}

func TestNMFTruncatedSVD(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	// m = 13 = k + 10: the subspace is all of Rᵐ, so the SVD is exact.
	in := nmfFamilyRandomInput(rng, 40, 13, 0.1, 0.4)
	x := attrtest.Sparse(in.X)
	var svd mat.SVD
	if !svd.Factorize(x.Dense(), mat.SVDThin) {
		t.Fatal("dense SVD failed")
	}
	want := svd.Values(nil)
	u, v, sigma := truncatedSVD(sparse.NewCSROperator(x), 3, rng)
	for j := 0; j < 3; j++ {
		if math.Abs(sigma[j]-want[j]) > 1e-9*want[0] {
			t.Errorf("σ%d = %.15g, dense %.15g", j, sigma[j], want[j])
		}
		// X v_j = σ_j u_j.
		xv := mat.NewDense(40, 1, nil)
		sparse.MulDense(xv, x, mat.DenseCopyOf(v.Slice(0, 13, j, j+1)))
		var su mat.Dense
		su.Scale(sigma[j], u.Slice(0, 40, j, j+1))
		if d := nmfFamilyRel(xv, &su); d > 1e-8 {
			t.Errorf("X v%d ≠ σ u%d (rel %.3g)", j, j, d)
		}
	}
	// Low rank plus nothing: a rank-3 non-negative X is recovered from its top 3 triplets
	// even when m ≫ k + 10.
	a, b := uniformDense(50, 3, rng), uniformDense(3, 40, rng)
	low := sparse.FromDense(nmfFamilyMul(a, b))
	u, v, sigma = truncatedSVD(sparse.NewCSROperator(low), 3, rng)
	var us mat.Dense
	us.Apply(func(_, j int, x float64) float64 { return x * sigma[j] }, u)
	if d := nmfFamilyRel(nmfFamilyMul(&us, v.T()), low.Dense()); d > 1e-8 {
		t.Errorf("rank-3 reconstruction off by %.3g", d)
	}
	// NNDSVDa: W, H positive; for a positive X the first pair is sqrt(σ₁)|u₁|, sqrt(σ₁)|v₁|
	// with no entry filled, so w₁h₁ᵀ is the best rank-one fit: ‖X − w₁h₁ᵀ‖² = ‖X‖² − σ₁².
	rng2 := rand.New(rand.NewPCG(8, 9))
	w, h, _ := nmfNNDSVDa(context.Background(), sparse.NewCSROperator(low), 3, rng2)
	if mat.Min(w) <= 0 || mat.Min(h) <= 0 {
		t.Errorf("nndsvda factors not positive: min W %g, min H %g", mat.Min(w), mat.Min(h))
	}
	_, _, sigma = truncatedSVD(sparse.NewCSROperator(low), 3, rand.New(rand.NewPCG(8, 9)))
	xd := low.Dense()
	xNorm := math.Pow(mat.Norm(xd, 2), 2)
	got := nmfFamilySqDist(xd, nmfFamilyMul(w.Slice(0, 50, 0, 1), h.Slice(0, 40, 0, 1).T()))
	if want := xNorm - sigma[0]*sigma[0]; math.Abs(got-want) > 1e-8*xNorm {
		t.Errorf("first NNDSVD pair: residual %.12g, want ‖X‖² − σ₁² = %.12g", got, want)
	}
}

func TestNMFRecoversStrongAttributes(t *testing.T) {
	// Random topology, attributes carry the classes.
	in := nmfFamilyPlanted(1, 150, 60, 3, 0.05, 0.05, 0.3, 0.03)
	for _, c := range []NMF{{}, {Solver: NMFSolverHALS}, {Init: NMFInitNNDSVDa}, {Init: NMFInitNNDSVDa, Solver: NMFSolverHALS}} {
		for seed := uint64(1); seed <= 3; seed++ {
			res, err := c.Fit(context.Background(), in, 3, seed)
			if err != nil {
				t.Fatal(err)
			}
			if ari := nmfFamilyARI(t, in.Truth, res.Labels); ari < 0.9 {
				t.Errorf("%+v seed %d: ARI %.3f < 0.9", c, seed, ari)
			}
			if res.Iterations != 200 || len(res.Objective) != 200 {
				t.Errorf("%+v: %d iterations, %d objective values", c, res.Iterations, len(res.Objective))
			}
		}
	}
}

func TestNMFFamilyDeterministic(t *testing.T) {
	in := nmfFamilyPlanted(2, 90, 30, 3, 0.2, 0.03, 0.3, 0.05)
	for _, m := range []Method{
		NMF{}, NMF{Init: NMFInitNNDSVDa, Solver: NMFSolverHALS},
		SNMF{}, SNMF{Normalize: true},
		JWNMF{}, JWNMF{Init: InitRandom, Damped: true},
	} {
		a, err := m.Fit(context.Background(), in, 3, 42)
		if err != nil {
			t.Fatalf("%s %+v: %v", m.Name(), m, err)
		}
		b, err := m.Fit(context.Background(), in, 3, 42)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Labels, b.Labels) || !slices.Equal(a.Objective, b.Objective) {
			t.Errorf("%s %+v: same seed, different result", m.Name(), m)
		}
		c, err := m.Fit(context.Background(), in, 3, 43)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(a.Objective, c.Objective) && m != (NMF{Init: NMFInitNNDSVDa, Solver: NMFSolverHALS}) {
			t.Errorf("%s %+v: the seed has no effect", m.Name(), m)
		}
	}
}

func TestNMFFamilyRejectsBadInput(t *testing.T) {
	in := nmfFamilyPlanted(3, 30, 8, 3, 0.2, 0.03, 0.3, 0.05)
	neg := sparse.NewBuilder(30, 8)
	_ = neg.Add(0, 0, -1)
	_ = neg.Add(1, 1, 1)
	empty := sparse.NewBuilder(30, 30)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		m    Method
		in   Input
		k    int
	}{
		{"nmf unknown solver", NMF{Solver: "als"}, in, 3},
		{"nmf unknown init", NMF{Init: "kmeans"}, in, 3},
		{"nmf negative iterations", NMF{Iterations: -1}, in, 3},
		{"nmf k > n", NMF{}, in, 31},
		{"nmf k = 0", NMF{}, in, 0},
		{"nmf nndsvda k > m", NMF{Init: NMFInitNNDSVDa}, in, 9},
		{"nmf no attributes", NMF{}, Input{Adj: in.Adj}, 3},
		{"nmf negative attribute", NMF{}, Input{Adj: in.Adj, X: neg.CSR(sparse.SumDuplicates)}, 3},
		{"snmf negative iterations", SNMF{Iterations: -5}, in, 3},
		{"snmf k > n", SNMF{}, in, 31},
		{"snmf no adjacency", SNMF{}, Input{X: in.X}, 3},
		{"snmf no edges", SNMF{}, Input{Adj: empty.CSR(sparse.SumDuplicates)}, 3},
		{"jwnmf negative lambda", JWNMF{Lambda: -1}, in, 3},
		{"jwnmf NaN lambda", JWNMF{Lambda: math.NaN()}, in, 3},
		{"jwnmf infinite lambda", JWNMF{Lambda: math.Inf(1)}, in, 3},
		{"jwnmf unknown init", JWNMF{Init: "nndsvda"}, in, 3},
		{"jwnmf negative iterations", JWNMF{Iterations: -1}, in, 3},
		{"jwnmf k > n", JWNMF{}, in, 31},
		{"jwnmf no attributes", JWNMF{}, Input{Adj: in.Adj}, 3},
	} {
		if _, err := c.m.Fit(ctx, c.in, c.k, 1); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, m := range []Method{NMF{}, SNMF{}, JWNMF{Init: InitRandom}} {
		if _, err := m.Fit(cancelled, in, 3, 1); err == nil {
			t.Errorf("%s: cancelled context, no error", m.Name())
		}
	}
}

func TestNMFFamilyNames(t *testing.T) {
	for _, c := range []struct {
		m    Method
		want string
	}{{NMF{}, "nmf"}, {SNMF{}, "snmf"}, {JWNMF{}, "jwnmf"}} {
		if got := c.m.Name(); got != c.want {
			t.Errorf("Name() = %q, want %q", got, c.want)
		}
	}
}

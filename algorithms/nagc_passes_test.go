package algorithms

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/sparse"
)

// wholeNAGC is NAGC's iteration as a sequence of whole-matrix kernels, each over all n
// rows before the next starts: U's rule, UᵀU, f(UH) and f'(UH), the edge pass, Xᵀf, V's
// rule, XV, H's rule, then the attribute terms of the next U rule. It is the formulation
// NAGCSolver's fused row passes must equal bit for bit.
type wholeNAGC struct {
	u, v, h                           *mat.Dense
	adj                               *sparse.CSR
	x                                 sparse.Operator
	lambda, rho, scale, xNormSq       float64
	f, fp, xv, fvtv                   *mat.Dense // n×k2
	su, g, anum, aden, uutu           *mat.Dense // n×k1
	xtf, vden                         *mat.Dense // m×k2
	utu, vtv, ftf, ht, hnum, hk, hden *mat.Dense
	sumE, sumESq                      float64
}

func newWholeNAGC(adj, x *sparse.CSR, u, v, h *mat.Dense, lambda, rho float64) *wholeNAGC {
	n, k1 := u.Dims()
	m, k2 := v.Dims()
	op := sparse.NewCSROperator(x)
	d := func(r, c int) *mat.Dense { return mat.NewDense(r, c, nil) }
	w := &wholeNAGC{
		u: mat.DenseCopyOf(u), v: mat.DenseCopyOf(v), h: mat.DenseCopyOf(h),
		adj: adj, x: op, lambda: lambda, rho: rho, scale: op.Sum() / float64(adj.NNZ()), xNormSq: op.SumSq(),
		f: d(n, k2), fp: d(n, k2), xv: d(n, k2), fvtv: d(n, k2),
		su: d(n, k1), g: d(n, k1), anum: d(n, k1), aden: d(n, k1), uutu: d(n, k1),
		xtf: d(m, k2), vden: d(m, k2),
		utu: d(k1, k1), vtv: d(k2, k2), ftf: d(k2, k2), ht: d(k2, k1), hnum: d(k1, k2), hk: d(k1, k2), hden: d(k1, k2),
	}
	dense.Gram(w.utu, w.u)
	w.sumE, w.sumESq = sparse.PatternSumGramDots(w.su, w.g, w.adj, w.u)
	dense.Gram(w.vtv, w.v)
	w.ht.Copy(w.h.T())
	w.x.MulDense(w.xv, w.v)
	w.attributeTerms()
	return w
}

func (w *wholeNAGC) attributeTerms() {
	dense.SigmoidMul(w.f, w.fp, w.u, w.h)
	dense.MulHadamard(w.anum, w.xv, w.fp, w.ht)
	dense.Mul(w.fvtv, w.f, w.vtv)
	dense.MulHadamard(w.aden, w.fvtv, w.fp, w.ht)
}

func (w *wholeNAGC) step() {
	c := dense.UpdateCoefficients{Graph: 2 * w.scale, Lambda: w.lambda, Edge: 2, NaN: eps}
	dense.Mul(w.uutu, w.u, w.utu)
	u, su, uu := w.u.RawMatrix().Data, w.su.RawMatrix().Data, w.uutu.RawMatrix().Data
	an, ad := w.anum.RawMatrix().Data, w.aden.RawMatrix().Data
	if w.rho == 0.5 {
		dense.SymUpdate(u, su, uu, an, ad, c)
	} else {
		c.Graph, c.Edge, c.NonEdge = 2*w.rho*w.scale, 2*w.rho, 2*(1-w.rho)
		dense.PUUpdate(u, su, w.g.RawMatrix().Data, uu, an, ad, c)
	}
	dense.Gram(w.utu, w.u)
	dense.SigmoidMul(w.f, w.fp, w.u, w.h)
	w.sumE, w.sumESq = sparse.PatternSumGramDots(w.su, w.g, w.adj, w.u)

	w.x.TMulDense(w.xtf, w.f)
	dense.Gram(w.ftf, w.f)
	dense.Mul(w.vden, w.v, w.ftf)
	multiplicativeStep(w.v, w.xtf, w.vden)
	dense.Gram(w.vtv, w.v)

	w.x.MulDense(w.xv, w.v)
	dense.TMulHadamard(w.hnum, w.u, w.fp, w.xv)
	dense.TMulHadamard(w.hk, w.u, w.fp, w.f)
	dense.Mul(w.hden, w.hk, w.vtv)
	multiplicativeStep(w.h, w.hnum, w.hden)
	w.ht.Copy(w.h.T())
	w.attributeTerms()
}

func (w *wholeNAGC) objective() float64 {
	var allSq float64
	for _, v := range w.utu.RawMatrix().Data {
		allSq += v * v
	}
	nnz, c := float64(w.adj.NNZ()), w.scale
	fitE := nnz*c*c - 2*c*w.sumE + w.sumESq
	var topo float64
	if w.rho == 0.5 {
		topo = 0.5 * (fitE + allSq - w.sumESq)
	} else {
		topo = 0.5 * (w.rho*fitE + (1-w.rho)*(allSq-w.sumESq))
	}
	attr := w.xNormSq - 2*dense.Dot(w.xv, w.f) + dense.Dot(w.fvtv, w.f)
	return topo + 0.5*w.lambda*attr
}

// TestNAGCSolverEqualsWholeKernels checks that NAGCSolver's iterations give the bits of
// wholeNAGC's, factors and objective, over several iterations: ρ = 0.5 and ρ ≠ 0.5, λ
// zero and not, n a multiple of the row block and not, one row block or many, k1 ≠ k2
// and k1 = k2, on 1 and 2 threads with every kernel split, and with the fused passes'
// partial sums in many waves.
func TestNAGCSolverEqualsWholeKernels(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	defer parallel.SetSplitAlways(parallel.SetSplitAlways(true))
	rng := rand.New(rand.NewPCG(71, 72))
	for _, c := range []struct {
		n, m, k1, k2 int
		lambda, rho  float64
	}{
		{90, 17, 4, 6, 0.1, 0.5},
		{3*dense.BlockRows + 37, 40, 7, 5, 0.3, 0.9},
		{4 * dense.BlockRows, 25, 6, 6, 0, 0.8},
		{9*dense.BlockRows + 1, 60, 10, 10, 1, 0.95},
	} {
		adj, x := randomGraph(rng, c.n, c.m, 8/float64(c.n), 0.2)
		u, v, h := uniformDense(c.n, c.k1, rng), uniformDense(c.m, c.k2, rng), uniformDense(c.k1, c.k2, rng)
		for _, threads := range []int{1, 2} {
			for _, wave := range []int{1, 1 << 20} {
				parallel.SetThreads(threads)
				name := fmt.Sprintf("n=%d k1=%d k2=%d rho=%v threads=%d wave=%d", c.n, c.k1, c.k2, c.rho, threads, wave)
				ref := newWholeNAGC(adj, x, u, v, h, c.lambda, c.rho)
				s := withPassWaveBytes(wave, func() *NAGCSolver {
					return NewNAGCSolver(adj, x, mat.DenseCopyOf(u), mat.DenseCopyOf(v), mat.DenseCopyOf(h), c.lambda, c.rho)
				})
				for it := 1; it <= 4; it++ {
					withPassWaveBytes(wave, func() *NAGCSolver { s.Step(); return s })
					ref.step()
					for _, f := range []struct {
						what      string
						got, want *mat.Dense
					}{{"U", s.U, ref.u}, {"V", s.V, ref.v}, {"H", s.H, ref.h}} {
						if !sameEntryBits(f.got, f.want) {
							t.Fatalf("%s: iteration %d: %s differs", name, it, f.what)
						}
					}
					if got, want := s.Objective(), ref.objective(); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("%s: iteration %d: objective %v, want %v", name, it, got, want)
					}
				}
			}
		}
	}
}

// withPassWaveBytes returns f() run with passWaveBytes set to b.
func withPassWaveBytes(b int, f func() *NAGCSolver) *NAGCSolver {
	defer func(old int) { passWaveBytes = old }(passWaveBytes)
	passWaveBytes = b
	return f()
}

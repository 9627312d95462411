package algorithms

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/dense/f32"
	"github.com/nagc-harness/nagc/sparse"
)

// Precisions of NAGC's iterations (option precision).
const (
	// PrecisionDefault is float64 throughout, every record bit for bit the same on every
	// processor (the empty value means it too).
	PrecisionDefault = "default"
	// PrecisionFast stores the factors and attributes as float32 and computes the
	// iterations with fused multiply-adds in AVX-512 or AVX2 where the processor has them
	// (package dense/f32): about twice the speed, to float32's precision. Its records
	// depend on the processor's kind (assembly or Go kernels) but not on the thread count.
	PrecisionFast = "fast"
)

// fast reports whether the fit runs at PrecisionFast.
func (a NAGC) fast() bool { return a.Precision == PrecisionFast }

// fitFast is Fit at PrecisionFast: the initial factors of the default's construction
// (init kmeans: its k-means in float32 with fused products, cachedKMeansFactorsFast;
// every other start in float64), rounded to float32, then the iterations of
// NAGCSolver32. The fit runs alone
// (no lockstep group). Result.Info["precision"] records the precision and the kernels'
// instruction set.
func (a NAGC) fitFast(ctx context.Context, in Input, k int, seed uint64) (*Result, error) {
	start := time.Now()
	a = a.withDefaults(k)
	st, err := a.start(ctx, in, k, seed)
	if err != nil {
		return nil, err
	}
	in = st.in
	x, err := attributes32(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("nagc: %w", err)
	}
	op := in.Attributes()
	s, err := NewNAGCSolver32(in.Adj, x, op.Sum(), op.SumSq(), st.u, st.v, st.h, a.Lambda, a.Rho)
	if err != nil {
		return nil, fmt.Errorf("nagc: %w", err)
	}
	initTime := time.Since(start)
	start = time.Now()
	var obj []float64
	if !in.NoObjective {
		obj = make([]float64, 0, min(a.Iterations, maxPrealloc))
	}
	for it := 1; it <= a.Iterations; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.Step()
		if !in.NoObjective {
			obj = append(obj, s.Objective())
		}
		reportProgress(ctx, "nagc iterations", it, a.Iterations)
	}
	fitTime := time.Since(start)
	U, V, H := s.U.Dense(), s.V.Dense(), s.H.Dense()
	if !allFinite(U) || !allFinite(V) || !allFinite(H) {
		return nil, errors.New("nagc: factors diverged (Inf or NaN after the updates)")
	}
	res := &Result{
		Labels:     ArgmaxRows(U),
		Iterations: a.Iterations,
		Objective:  obj,
		FitTime:    fitTime,
		InitTime:   initTime,
		InitCached: st.cached,
		BatchSize:  1,
		Factors:    map[string]*mat.Dense{"U": U, "V": V, "H": H},
		Info:       a.info(st.info, in.N(), s.scale),
	}
	how := "the start in float64"
	if a.InitU == nil && a.Init == InitKMeans {
		how = "the k-means start in float32 with FMA"
	}
	res.Info["precision"] = fmt.Sprintf("fast: float32 iterations with FMA (%v kernels); %s", f32.KernelLevel(), how)
	return res, nil
}

// attributes32 returns the attribute matrix to factorise in float32: a dense one as it is
// (its float32 storage shared, not copied), a sparse one (the graph-filtered matrix formed
// explicitly) as a float32 CSR with its transpose. The one place the fast precision reads
// the input's attribute fields.
func attributes32(ctx context.Context, in Input) (attr32, error) {
	if d := in.DenseAttributes(); d != nil {
		r, c := d.Dims()
		if x := d.Float32(); x != nil {
			return denseAttr32{&f32.Mat{R: r, C: c, Data: x}}, nil
		}
		m := f32.NewMat(r, c)
		for i, v := range d.Float64() {
			m.Data[i] = float32(v)
		}
		return denseAttr32{m}, nil
	}
	x, err := in.ExplicitAttributesContext(ctx)
	if err != nil {
		return nil, err
	}
	a, err := f32.FromCSR(x)
	if err != nil {
		return nil, err
	}
	at, err := f32.FromCSR(x.T())
	if err != nil {
		return nil, err
	}
	return sparseAttr32{a, at}, nil
}

// attr32 is an n×m attribute matrix in float32, known through its two products.
type attr32 interface {
	Dims() (n, m int)
	MulDense(dst, b *f32.Mat)  // dst = X·b
	TMulDense(dst, b *f32.Mat) // dst = Xᵀ·b
}

type denseAttr32 struct{ x *f32.Mat }

func (d denseAttr32) Dims() (int, int)          { return d.x.R, d.x.C }
func (d denseAttr32) MulDense(dst, b *f32.Mat)  { f32.Mul(dst, d.x, b) }
func (d denseAttr32) TMulDense(dst, b *f32.Mat) { f32.TMul(dst, d.x, b, nil) }

type sparseAttr32 struct{ x, xt *f32.CSR }

func (s sparseAttr32) Dims() (int, int)          { return s.x.R, s.x.C }
func (s sparseAttr32) MulDense(dst, b *f32.Mat)  { s.x.MulDense(dst, b) }
func (s sparseAttr32) TMulDense(dst, b *f32.Mat) { s.xt.MulDense(dst, b) }

// NAGCSolver32 is NAGCSolver in float32 with fused multiply-adds (PrecisionFast): the same
// rules in the same order, with every n×k product formed by package dense/f32. Sums over
// all rows (the Gram matrices, the objective's terms) are added in float64 by blocks.
type NAGCSolver32 struct {
	// U (n×k1), V (m×k2) and H (k1×k2) are the current factors.
	U, V, H *f32.Mat

	adj            *f32.CSR
	x              attr32
	lambda, rho    float64
	scale, xNormSq float64

	f, fp, xv        *f32.Mat // n×k2: f(UH), f'(UH), XV
	su, g            *f32.Mat // n×k1: AU, (UUᵀ⊙W)U
	anum, aden, uutu *f32.Mat // n×k1: ((XV)⊙f')Hᵀ, ((f VᵀV)⊙f')Hᵀ, U(UᵀU)
	fvtv             *f32.Mat // n×k2: f·VᵀV
	xtf, vden        *f32.Mat // m×k2
	utu, vtv, ftf    *f32.Mat // k1×k1, k2×k2, k2×k2
	ht               *f32.Mat // k2×k1
	hnum, hk, hden   *f32.Mat // k1×k2
	sumE, sumESq     float64
	fvtvDotF         float64
}

// NewNAGCSolver32 prepares the float32 updates for adjacency adj, attributes x (whose
// sum and sum of squares, in float64, are xSum and xSumSq) and the initial factors,
// rounded to float32. Memory: 11 n×k float32 matrices and adj's pattern with int32
// indices.
func NewNAGCSolver32(adj *sparse.CSR, x attr32, xSum, xSumSq float64, u, v, h *mat.Dense, lambda, rho float64) (*NAGCSolver32, error) {
	a, err := f32.FromCSR(adj)
	if err != nil {
		return nil, err
	}
	n, k1 := u.Dims()
	m, k2 := v.Dims()
	scale := 1.0
	if as := float64(adj.NNZ()); as > 0 {
		scale = xSum / as
	}
	d := f32.NewMat
	s := &NAGCSolver32{
		U: f32.FromDense(u), V: f32.FromDense(v), H: f32.FromDense(h),
		adj: a, x: x, lambda: lambda, rho: rho, scale: scale, xNormSq: xSumSq,
		f: d(n, k2), fp: d(n, k2), xv: d(n, k2), fvtv: d(n, k2),
		su: d(n, k1), g: d(n, k1), anum: d(n, k1), aden: d(n, k1), uutu: d(n, k1),
		xtf: d(m, k2), vden: d(m, k2),
		utu: d(k1, k1), vtv: d(k2, k2), ftf: d(k2, k2), ht: d(k2, k1),
		hnum: d(k1, k2), hk: d(k1, k2), hden: d(k1, k2),
	}
	f32.Gram(s.utu, s.U)
	s.edgeTerms()
	f32.Gram(s.vtv, s.V)
	s.transposeH()
	s.x.MulDense(s.xv, s.V)
	s.attributeTerms()
	return s, nil
}

// Step runs one iteration: U, then V, then H (see NAGCSolver.Step).
func (s *NAGCSolver32) Step() {
	s.stepU()
	f32.Gram(s.utu, s.U)
	f32.SigmoidMul(s.f, s.fp, s.U, s.H)
	s.edgeTerms()
	s.x.TMulDense(s.xtf, s.f)
	f32.Gram(s.ftf, s.f) // V ← V ⊙ Xᵀf ⊘ V(fᵀf)
	f32.Mul(s.vden, s.V, s.ftf)
	ratioUpdate32(s.V.Data, s.xtf.Data, s.vden.Data)
	f32.Gram(s.vtv, s.V)
	s.x.MulDense(s.xv, s.V)
	f32.TMul(s.hnum, s.U, s.fp, s.xv) // H ← H ⊙ Uᵀ(f'⊙XV) ⊘ Uᵀ(f'⊙f)VᵀV
	f32.TMul(s.hk, s.U, s.fp, s.f)
	f32.Mul(s.hden, s.hk, s.vtv)
	ratioUpdate32(s.H.Data, s.hnum.Data, s.hden.Data)
	s.transposeH()
	s.attributeTerms()
}

func (s *NAGCSolver32) edgeTerms() {
	s.sumE, s.sumESq = f32.EdgeTerms(s.su, s.g, s.adj, s.U)
}

func (s *NAGCSolver32) transposeH() {
	k1, k2 := s.H.R, s.H.C
	for p := 0; p < k1; p++ {
		for j := 0; j < k2; j++ {
			s.ht.Data[j*k1+p] = s.H.Data[p*k2+j]
		}
	}
}

// attributeTerms sets f, f', ((XV)⊙f')Hᵀ, ((f VᵀV)⊙f')Hᵀ and ⟨f VᵀV, f⟩ for the current
// factors, with xv and vtv current.
func (s *NAGCSolver32) attributeTerms() {
	f32.SigmoidMul(s.f, s.fp, s.U, s.H)
	f32.MulHadamard(s.anum, s.xv, s.fp, s.ht)
	f32.Mul(s.fvtv, s.f, s.vtv)
	f32.MulHadamard(s.aden, s.fvtv, s.fp, s.ht)
	s.fvtvDotF = f32.DotAll(s.fvtv, s.f)
}

// stepU applies NAGCSolver's U rule (see NewNAGCSolverOp) in float32.
func (s *NAGCSolver32) stepU() {
	f32.Mul(s.uutu, s.U, s.utu)
	lambda := float32(s.lambda)
	graph, edge, nonEdge := float32(2*s.scale), float32(2), float32(0)
	pu := s.rho != 0.5
	if pu {
		graph, edge, nonEdge = float32(2*s.rho*s.scale), float32(2*s.rho), float32(2*(1-s.rho))
	}
	u, su, g, uu, an, ad := s.U.Data, s.su.Data, s.g.Data, s.uutu.Data, s.anum.Data, s.aden.Data
	f32.Rows(s.U.R, 4*len(u), func(lo, hi int) { // about four operations an entry
		k := s.U.C
		for i := lo * k; i < hi*k; i++ {
			num := graph*su[i] + lambda*an[i]
			var den float32
			if pu {
				den = edge*g[i] + nonEdge*(uu[i]-g[i]) + lambda*ad[i]
			} else {
				den = edge*uu[i] + lambda*ad[i]
			}
			v := u[i] * num / den
			if v != v {
				v = eps
			}
			u[i] = v
		}
	})
}

// ratioUpdate32 sets x[i] = x[i]·num[i]/den[i], or eps where that is NaN.
func ratioUpdate32(x, num, den []float32) {
	for i, v := range x {
		v = v * num[i] / den[i]
		if v != v {
			v = eps
		}
		x[i] = v
	}
}

// Objective returns the objective at the current factors (see NAGCSolver.Objective),
// from float32 terms summed in float64.
func (s *NAGCSolver32) Objective() float64 {
	var allSq float64
	for _, v := range s.utu.Data {
		allSq += float64(v) * float64(v)
	}
	nnz := float64(len(s.adj.Ind))
	c := s.scale
	fitE := nnz*c*c - 2*c*s.sumE + s.sumESq
	var topo float64
	if s.rho == 0.5 {
		topo = 0.5 * (fitE + allSq - s.sumESq)
	} else {
		topo = 0.5 * (s.rho*fitE + (1-s.rho)*(allSq-s.sumESq))
	}
	attr := s.xNormSq - 2*f32.DotAll(s.xv, s.f) + s.fvtvDotF
	return topo + 0.5*s.lambda*attr
}

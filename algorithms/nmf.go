package algorithms

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
)

// Options of the NMF family (NMF, SNMF, JWNMF).
const (
	// NMFInitNNDSVDa is NNDSVD (Boutsidis & Gallopoulos 2008) with its zeros filled by
	// mean(X), scikit-learn's "nndsvda".
	NMFInitNNDSVDa = "nndsvda"
	// NMFSolverMU is Lee–Seung's multiplicative updates.
	NMFSolverMU = "mu"
	// NMFSolverHALS is hierarchical alternating least squares (Cichocki & Phan 2009):
	// exact column-by-column coordinate descent.
	NMFSolverHALS = "hals"
)

// nmfEpsRel is the relative guard of the NMF family's multiplicative updates: each update
// adds nmfEpsRel × (largest entry of its denominator matrix) to every denominator (SNMF:
// takes the max with it). Relative, so that rescaling the data (JWNMF's sum-to-one inputs
// make every entry tiny) does not change the iterates.
const nmfEpsRel = 1e-12

// NMF is non-negative matrix factorisation of the attributes alone (Lee & Seung 2001):
//
//	min_{W,H ≥ 0}  ‖X − W Hᵀ‖²_F
//
// with W n×k (the vertex factor) and H m×k. Cluster of vertex i = argmax of row i of W.
//
// Solver "mu" (default), one iteration: W ← W ⊙ (XH) ⊘ (W(HᵀH) + δ), then
// H ← H ⊙ (XᵀW) ⊘ (H(WᵀW) + δ), where δ = 1e-12 × the largest entry of that update's
// denominator (and any 0/0 → machine ε, the authors' convention). Lee–Seung's rule never
// increases the loss; δ perturbs that by at most ~1e-12 relative.
// Solver "hals", one iteration: for each column l in turn,
// W_l ← max(0, W_l + ((XH)_l − W(HᵀH)_l)/(HᵀH)_ll), then the same for H with XᵀW and WᵀW
// (a column whose partner column is all zero is left as it is). Each column update is an
// exact minimisation, so the loss never increases.
//
// Init "random" (default): W then H drawn as 2·sqrt(mean(X)/k)·U(0,1) (Kuang's scaling:
// the expected entry of WHᵀ is mean(X) = ΣX/(n·m)). Init "nndsvda": NNDSVD of a rank-k
// truncated SVD of X, entries below 1e-6 (scikit-learn's threshold) set to mean(X). The
// SVD is randomised: a Gaussian m×(k+10) test matrix, 4 power iterations with
// re-orthonormalisation (Gram–Schmidt, twice), then gonum's SVD of the small m×(k+10)
// matrix XᵀQ; cost O(nnz(X)·k + (n+m)·k²), and it needs k ≤ min(n, m).
//
// X must be non-negative and not all zero; it is used as read. Objective recorded after
// each iteration: ‖X‖² − 2⟨XH, W⟩ + tr((WᵀW)(HᵀH)), with no n×m matrix formed. Cost per
// iteration O(nnz(X)·k + (n+m)·k²); memory O((n+m)·k) beyond the input.
//
// Filter, when its order p > 0, makes NMF factorise the graph-filtered attributes Z (see
// GraphFilterOptions; not in the paper) instead of X, through products with the implicit
// Z (FilteredOperator): the same updates and costs with nnz(X)·k replaced by the cost of a
// product with Z. p = 0, the default, is plain NMF bit for bit.
//
// Defaults (zero values): Iterations 200 (no convergence test), Init "random", Solver "mu".
type NMF struct {
	Iterations int                `yaml:"iterations"` // 0 means 200
	Init       string             `yaml:"init"`       // InitRandom (default) or NMFInitNNDSVDa
	Solver     string             `yaml:"solver"`     // NMFSolverMU (default) or NMFSolverHALS
	Filter     GraphFilterOptions `yaml:",inline"`
	// AttributeTransform is the option transform: what is done to the attributes before
	// the fit (see Transforms); none, the default, reads them as they are.
	AttributeTransform `yaml:",inline"`
}

// Name returns "nmf".
func (NMF) Name() string { return "nmf" }

func (a NMF) withDefaults() NMF {
	if a.Iterations == 0 {
		a.Iterations = 200
	}
	if a.Init == "" {
		a.Init = InitRandom
	}
	if a.Solver == "" {
		a.Solver = NMFSolverMU
	}
	return a
}

func (a NMF) validate(in Input, k int) error {
	if err := in.validate(a.Filter.P > 0, true, k); err != nil {
		return fmt.Errorf("nmf: %w", err)
	}
	if err := a.Filter.validate(); err != nil {
		return fmt.Errorf("nmf: %w", err)
	}
	if err := checkAttributesNonNegative(in); err != nil {
		return fmt.Errorf("nmf: %w", err)
	}
	if a.Iterations < 0 {
		return fmt.Errorf("nmf: %d iterations", a.Iterations)
	}
	switch a.Solver {
	case NMFSolverMU, NMFSolverHALS:
	default:
		return fmt.Errorf("nmf: unknown solver %q (want mu or hals)", a.Solver)
	}
	switch a.Init {
	case InitRandom:
	case NMFInitNNDSVDa:
		n, m := in.attrDims()
		if k > min(n, m) {
			return fmt.Errorf("nmf: init nndsvda needs k ≤ min(n, m) = %d, have k = %d", min(n, m), k)
		}
	default:
		return fmt.Errorf("nmf: unknown init %q (want random or nndsvda)", a.Init)
	}
	return nil
}

// Fit factorises in.X (or its graph-filtered form) with rank k. See the type's
// documentation.
func (a NMF) Fit(ctx context.Context, in Input, k int, seed uint64) (*Result, error) {
	start := time.Now()
	a = a.withDefaults()
	in, err := a.transformed(ctx, "nmf", in)
	if err != nil {
		return nil, err
	}
	if err := a.validate(in, k); err != nil {
		return nil, err
	}
	in, err = in.WithFilteredAttributesContext(ctx, a.Filter)
	if err != nil {
		return nil, fmt.Errorf("nmf: %w", err)
	}
	x := in.Attributes()
	rng := newRand(seed)
	var w, h *mat.Dense
	if a.Init == NMFInitNNDSVDa {
		if w, h, err = nmfNNDSVDa(ctx, x, k, rng); err != nil {
			return nil, err
		}
	} else {
		w, h = nmfRandomInit(x, k, rng)
	}
	s := newNMFSolver(x, w, h, a.Solver == NMFSolverHALS)
	obj, err := iterate(ctx, a.Iterations, s.step, s.objective)
	if err != nil {
		return nil, err
	}
	if !allFinite(s.W) || !allFinite(s.H) {
		return nil, errors.New("nmf: factors diverged (Inf or NaN after the updates)")
	}
	return &Result{
		Labels:     ArgmaxRows(s.W),
		Iterations: a.Iterations,
		Objective:  obj,
		FitTime:    time.Since(start),
		Factors:    map[string]*mat.Dense{"W": s.W, "H": s.H},
		Info: map[string]string{
			"init":      a.Init,
			"solver":    a.Solver,
			"eps":       fmt.Sprintf("%g relative to the largest denominator entry", nmfEpsRel),
			"objective": "‖X − WHᵀ‖²",
		},
	}, nil
}

// nmfCheckNonNegative returns an error if a has a negative, NaN or infinite stored value,
// or no positive one.
func nmfCheckNonNegative(what string, a *sparse.CSR) error {
	r, _ := a.Dims()
	positive := false
	for i := 0; i < r; i++ {
		_, vals := a.Row(i)
		for _, v := range vals {
			if !(v >= 0) || math.IsInf(v, 0) {
				return fmt.Errorf("%s has entry %v in row %d; need finite, non-negative values", what, v, i)
			}
			positive = positive || v > 0
		}
	}
	if !positive {
		return fmt.Errorf("%s is all zero", what)
	}
	return nil
}

// nmfScaledUniform returns an r×c matrix of scale·U(0,1) draws, row by row.
func nmfScaledUniform(r, c int, scale float64, rng *rand.Rand) *mat.Dense {
	d := uniformDense(r, c, rng)
	d.Scale(scale, d)
	return d
}

// nmfRandomInit draws W (n×k) then H (m×k) as 2·sqrt(mean(X)/k)·U(0,1).
func nmfRandomInit(x sparse.Operator, k int, rng *rand.Rand) (w, h *mat.Dense) {
	n, m := x.Dims()
	scale := 2 * math.Sqrt(x.Sum()/(float64(n)*float64(m))/float64(k))
	return nmfScaledUniform(n, k, scale, rng), nmfScaledUniform(m, k, scale, rng)
}

func nmfDot(a, b []float64) float64 {
	var s float64
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

// truncatedSVD returns the leading k singular triplets of the sparse x (n×m) by a
// randomised subspace iteration (Halko, Martinsson & Tropp 2011): oversampling 10, 4
// power iterations. u is n×k, v is m×k, sigma descending. Needs k ≤ min(n, m).
func truncatedSVD(x sparse.Operator, k int, rng *rand.Rand) (u, v *mat.Dense, sigma []float64) {
	u, v, sigma, _ = truncatedSVDContext(context.Background(), x, k, rng) // live: no error
	return u, v, sigma
}

// truncatedSVDContext is truncatedSVD that returns ctx's error, checked before every
// product with x, when ctx is cancelled.
func truncatedSVDContext(ctx context.Context, x sparse.Operator, k int, rng *rand.Rand) (u, v *mat.Dense, sigma []float64, err error) {
	n, m := x.Dims()
	l := min(k+10, n, m)
	omega := mat.NewDense(m, l, nil)
	for i, raw := 0, omega.RawMatrix().Data; i < len(raw); i++ {
		raw[i] = rng.NormFloat64()
	}
	q := mat.NewDense(n, l, nil)
	z := mat.NewDense(m, l, nil)
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	x.MulDense(q, omega)
	var orth orthonormaliser // one column buffer for every orthonormalisation
	orth.apply(q)
	for it := 0; it < 4; it++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		x.TMulDense(z, q)
		orth.apply(z)
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		x.MulDense(q, z)
		orth.apply(q)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	// Bᵀ = XᵀQ (m×l); X ≈ Q B = (Q V_b) Σ U_bᵀ with Bᵀ = U_b Σ V_bᵀ.
	x.TMulDense(z, q)
	var svd mat.SVD
	if !svd.Factorize(z, mat.SVDThin) {
		// Does not happen for finite input; fall back to the subspace itself.
		return mat.DenseCopyOf(q.Slice(0, n, 0, k)), mat.DenseCopyOf(z.Slice(0, m, 0, k)), make([]float64, k), nil
	}
	var ub, vb mat.Dense
	svd.UTo(&ub)
	svd.VTo(&vb)
	var uFull mat.Dense
	uFull.Mul(q, &vb)
	sigma = svd.Values(nil)[:k]
	return mat.DenseCopyOf(uFull.Slice(0, n, 0, k)), mat.DenseCopyOf(ub.Slice(0, m, 0, k)), sigma, nil
}

// nmfNNDSVDa returns scikit-learn's "nndsvda" initial W (n×k) and H (m×k) for x.
// It returns ctx's error when ctx is cancelled during the SVD.
func nmfNNDSVDa(ctx context.Context, x sparse.Operator, k int, rng *rand.Rand) (w, h *mat.Dense, err error) {
	n, m := x.Dims()
	u, v, sigma, err := truncatedSVDContext(ctx, x, k, rng)
	if err != nil {
		return nil, nil, err
	}
	w, h = mat.NewDense(n, k, nil), mat.NewDense(m, k, nil)
	ucol, vcol := make([]float64, n), make([]float64, m)
	split := func(s []float64) (pos, neg []float64, np, nn float64) {
		pos, neg = make([]float64, len(s)), make([]float64, len(s))
		for i, x := range s {
			if x > 0 {
				pos[i] = x
				np += x * x
			} else {
				neg[i] = -x
				nn += x * x
			}
		}
		return pos, neg, math.Sqrt(np), math.Sqrt(nn)
	}
	for j := 0; j < k; j++ {
		mat.Col(ucol, j, u)
		mat.Col(vcol, j, v)
		if j == 0 {
			s := math.Sqrt(sigma[0])
			for i, x := range ucol {
				w.Set(i, 0, s*math.Abs(x))
			}
			for i, x := range vcol {
				h.Set(i, 0, s*math.Abs(x))
			}
			continue
		}
		up, un, upn, unn := split(ucol)
		vp, vn, vpn, vnn := split(vcol)
		uu, vv, nu, nv := up, vp, upn, vpn
		if upn*vpn <= unn*vnn {
			uu, vv, nu, nv = un, vn, unn, vnn
		}
		if nu == 0 || nv == 0 {
			continue // leaves zeros, filled below
		}
		lbd := math.Sqrt(sigma[j] * nu * nv)
		for i, x := range uu {
			w.Set(i, j, lbd*x/nu)
		}
		for i, x := range vv {
			h.Set(i, j, lbd*x/nv)
		}
	}
	avg := x.Sum() / (float64(n) * float64(m))
	for _, d := range []*mat.Dense{w, h} {
		raw := d.RawMatrix().Data
		for i, x := range raw {
			if x < 1e-6 {
				raw[i] = avg
			}
		}
	}
	return w, h, nil
}

// nmfSolver holds NMF's factors and work buffers. Invariant between steps: xh = X·H.
type nmfSolver struct {
	W, H    *mat.Dense // n×k, m×k
	x       sparse.Operator
	xNormSq float64
	hals    bool

	xh, wden  *mat.Dense // n×k
	xtw, hden *mat.Dense // m×k
	wtw, hth  *mat.Dense // k×k
	col       []float64  // scratch, max(n, m)
}

// newNMFSolver takes over w and h (updated in place).
func newNMFSolver(x sparse.Operator, w, h *mat.Dense, hals bool) *nmfSolver {
	n, k := w.Dims()
	m, _ := h.Dims()
	s := &nmfSolver{
		W: w, H: h, x: x, xNormSq: x.SumSq(), hals: hals,
		xh: mat.NewDense(n, k, nil), wden: mat.NewDense(n, k, nil),
		xtw: mat.NewDense(m, k, nil), hden: mat.NewDense(m, k, nil),
		wtw: mat.NewDense(k, k, nil), hth: mat.NewDense(k, k, nil),
		col: make([]float64, max(n, m)),
	}
	s.x.MulDense(s.xh, s.H)
	return s
}

// step runs one iteration: W, then H. Cost O(nnz(X)·k + (n+m)·k²).
func (s *nmfSolver) step() {
	s.hth.Mul(s.H.T(), s.H)
	if s.hals {
		nmfHALSUpdate(s.W, s.xh, s.hth, s.col)
	} else {
		s.wden.Mul(s.W, s.hth)
		nmfMultiplicative(s.W, s.xh, s.wden, 1)
	}
	s.x.TMulDense(s.xtw, s.W)
	s.wtw.Mul(s.W.T(), s.W)
	if s.hals {
		nmfHALSUpdate(s.H, s.xtw, s.wtw, s.col)
	} else {
		s.hden.Mul(s.H, s.wtw)
		nmfMultiplicative(s.H, s.xtw, s.hden, 1)
	}
	s.x.MulDense(s.xh, s.H)
}

// objective returns ‖X − WHᵀ‖² = ‖X‖² − 2⟨XH, W⟩ + tr((WᵀW)(HᵀH)). Cost O((n+m)·k²).
func (s *nmfSolver) objective() float64 {
	s.wtw.Mul(s.W.T(), s.W)
	s.hth.Mul(s.H.T(), s.H)
	return s.xNormSq - 2*nmfFrobDot(s.xh, s.W) + nmfFrobDot(s.wtw, s.hth)
}

// nmfFrobDot returns ⟨a, b⟩ = Σ aᵢⱼbᵢⱼ for same-shaped a, b; for symmetric k×k a and b it
// is tr(ab).
func nmfFrobDot(a, b *mat.Dense) float64 {
	r, c := a.Dims()
	var s float64
	for i := 0; i < r; i++ {
		s += nmfDot(a.RawRowView(i)[:c], b.RawRowView(i)[:c])
	}
	return s
}

// nmfMaxEntry returns the largest entry of d (0 for an empty or all-negative d).
func nmfMaxEntry(d *mat.Dense) float64 {
	var m float64
	r, c := d.Dims()
	for i := 0; i < r; i++ {
		for _, v := range d.RawRowView(i)[:c] {
			m = max(m, v)
		}
	}
	return m
}

// nmfMultiplicative sets x ← x ⊙ (1 − β + β·num ⊘ (den + δ)) with δ = nmfEpsRel·max(den),
// then 0/0 → machine ε. β = 1 is the plain multiplicative step, β = ½ the damped one.
func nmfMultiplicative(x, num, den *mat.Dense, beta float64) {
	delta := nmfEpsRel * nmfMaxEntry(den)
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		xs, ns, ds := x.RawRowView(i)[:c], num.RawRowView(i)[:c], den.RawRowView(i)[:c]
		for j := range xs {
			v := xs[j] * (1 - beta + beta*ns[j]/(ds[j]+delta))
			if v != v {
				v = eps
			}
			xs[j] = v
		}
	}
}

// nmfHALSUpdate updates the columns of f (r×k) in turn by
// f_l ← max(0, f_l + (p_l − f g_l)/g_ll), where p = (data)·(other factor) and g = the other
// factor's Gram matrix; a column with g_ll = 0 is left as it is. Cost O(r·k²).
func nmfHALSUpdate(f, p, g *mat.Dense, scratch []float64) {
	r, k := f.Dims()
	fg := scratch[:r]
	for l := 0; l < k; l++ {
		gll := g.At(l, l)
		if !(gll > 0) {
			continue
		}
		for i := 0; i < r; i++ {
			fg[i] = nmfDot(f.RawRowView(i)[:k], g.RawRowView(l)[:k]) // g symmetric: row l = column l
		}
		for i := 0; i < r; i++ {
			row := f.RawRowView(i)
			row[l] = max(0, row[l]+(p.At(i, l)-fg[i])/gll)
		}
	}
}

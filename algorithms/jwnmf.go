package algorithms

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
)

// JWNMF is Joint Weighted NMF (Huang, Ye, Li, Liu & Chen, PAKDD 2017), as given by the
// two public re-implementations the baselines spec (section 1) follows:
//
//	min_{U,V ≥ 0, w}  J = ‖S − UUᵀ‖²_F + λ‖XW − UVᵀ‖²_F,   W = diag(w), w ≥ 0, Σⱼ wⱼ = 1
//
// with U n×k (cluster indicator), V m×k. Preprocessing: S = A/ΣA for the 0/1 adjacency A
// (self-loops dropped unless SelfLoops, as SNMF) and X ← X/ΣX; attribute columns that are
// all zero get wⱼ = 0 for good (they would give wⱼ = 0/0).
//
// One iteration, sequentially, each using the newest values:
//
//	U ← U ⊙ (2SU + λXWV) ⊘ (2U(UᵀU) + λU(VᵀV) + δ)      (Damped: U ⊙ (½ + ½·ratio))
//	V ← V ⊙ (WXᵀU) ⊘ (V(UᵀU) + δ)
//	wⱼ ← wⱼ·[XᵀUVᵀ]ⱼⱼ ⊘ (‖xⱼ‖²wⱼ + δ),  then w ← w/Σw
//
// using only diagonals: [XᵀUVᵀ]ⱼⱼ = Σ_c (XᵀU)ⱼ_c Vⱼ_c and [XᵀXW]ⱼⱼ = ‖xⱼ‖²wⱼ; no m×m
// product. δ = 1e-12 × the largest entry of that update's denominator (so δ is scale-free
// under the sum-to-one inputs); a 0/0 becomes machine ε (for w: on kept columns). Should
// every wⱼ become 0, w is reset to uniform over the kept columns.
// J is not monotone (Damped removes the U rule's oscillation) and w concentrates on few
// attributes. λ: a positive Lambda is used as given; Lambda = 0 selects
// λ = 0.1·‖S‖²_F/‖X‖²_F (after the sum-to-one preprocessing), recorded in
// Result.Info["lambda"] (and the largest final weight in Info["w_max"]). The oscillation,
// the weight collapse and how the default λ was chosen: see docs/faithfulness.md
// ("JWNMF's update rules").
//
// Init "kmeans" (default; the paper's "JWNMF" row): U, V from KMeansFactors(X, k, k) on
// its own random stream, exactly NAGC's k-means factors for the same seed and k1 = k2 = k
// (CachedKMeansFactors; shared through in.Cache). Init "random" (the paper's "JWNMF*"
// row): U (n×k), then V (m×k) ~ U(0,1) from newRand(seed). Both unscaled, as NAGC;
// w = 1/m' on the kept columns. Cluster of vertex i = argmax of row i of U.
//
// Objective recorded after each iteration, with no n×n or n×m matrix:
// ‖S‖² − 2⟨SU, U⟩ + ‖UᵀU‖² + λ(Σⱼ wⱼ²‖xⱼ‖² − 2⟨X(WV), U⟩ + tr((UᵀU)(VᵀV))).
// Cost per iteration O((nnz(A) + nnz(X))·k + (n+m)·k²); memory O((n+m)·k) beyond the
// inputs. Factors: "U", "V", and "w" as an m×1 matrix.
//
// Defaults (zero values): Iterations 100 (as NAGC's notebook runs NJNMF; no convergence
// test), Init "kmeans", λ = 0.1·‖S‖²/‖X‖², undamped, self-loops dropped.
type JWNMF struct {
	Lambda     float64 `yaml:"lambda"`     // attribute weight > 0; 0 means 0.1·‖S‖²/‖X‖²
	Iterations int     `yaml:"iterations"` // 0 means 100
	Init       string  `yaml:"init"`       // InitKMeans (default) or InitRandom
	Damped     bool    `yaml:"damped"`     // U ← U ⊙ (½ + ½·ratio)
	SelfLoops  bool    `yaml:"self_loops"` // keep the adjacency's stored diagonal
	// Filter, when its order p > 0, makes JWNMF weight and factorise the graph-filtered
	// attributes Z (see GraphFilterOptions; not in the paper) instead of X, k-means
	// initialisation included. Z is stored (FilteredAttributes): the closed-form weights
	// read its columns. p = 0, the default, is plain JWNMF bit for bit.
	Filter GraphFilterOptions `yaml:",inline"`
	// AttributeTransform is the option transform: what is done to the attributes before
	// the fit (see Transforms); none, the default, reads them as they are.
	AttributeTransform `yaml:",inline"`
}

// Name returns "jwnmf".
func (JWNMF) Name() string { return "jwnmf" }

func (a JWNMF) validate(in Input, k int) error {
	if err := in.validate(true, true, k); err != nil {
		return fmt.Errorf("jwnmf: %w", err)
	}
	switch {
	case !(a.Lambda >= 0) || math.IsInf(a.Lambda, 0):
		return fmt.Errorf("jwnmf: λ = %v, need a finite λ > 0 (or 0 for the default)", a.Lambda)
	case a.Iterations < 0:
		return fmt.Errorf("jwnmf: %d iterations", a.Iterations)
	}
	if err := a.Filter.validate(); err != nil {
		return fmt.Errorf("jwnmf: %w", err)
	}
	switch a.Init {
	case InitKMeans, InitRandom:
	default:
		return fmt.Errorf("jwnmf: unknown init %q (want kmeans or random)", a.Init)
	}
	x, err := in.ExplicitAttributes()
	if err != nil {
		return fmt.Errorf("jwnmf: %w", err)
	}
	if err := nmfCheckNonNegative("attribute matrix", x); err != nil {
		return fmt.Errorf("jwnmf: %w", err)
	}
	return nil
}

// withDefaults returns a with its zero iterations and initialisation at their defaults
// (100, kmeans); λ = 0 is resolved from the graph when fitting.
func (a JWNMF) withDefaults() JWNMF {
	if a.Iterations == 0 {
		a.Iterations = 100
	}
	if a.Init == "" {
		a.Init = InitKMeans
	}
	return a
}

// Fit clusters the graph into k clusters. See the type's documentation.
func (a JWNMF) Fit(ctx context.Context, in Input, k int, seed uint64) (*Result, error) {
	start := time.Now()
	a = a.withDefaults()
	in, err := a.transformed(ctx, "jwnmf", in)
	if err != nil {
		return nil, err
	}
	if err := a.validate(in, k); err != nil {
		return nil, err
	}
	adj := nmfGraphMatrix(in.Adj, a.SelfLoops)
	if err := nmfCheckNonNegative("adjacency", adj); err != nil {
		return nil, fmt.Errorf("jwnmf: %w", err)
	}
	in, err = in.WithFilteredAttributesContext(ctx, a.Filter)
	if err != nil {
		return nil, fmt.Errorf("jwnmf: %w", err)
	}
	xin, err := in.ExplicitAttributesContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("jwnmf: %w", err)
	}
	s, x := adj.Scaled(1/adj.Sum()), xin.Scaled(1/xin.Sum())
	u, v, err := a.initialise(ctx, in, xin, k, seed)
	if err != nil {
		return nil, err
	}
	sol := newJWNMFSolver(s, x, u, v, a.Lambda, a.Damped)
	obj, err := iterate(ctx, a.Iterations, sol.step, sol.objective)
	if err != nil {
		return nil, err
	}
	if !allFinite(sol.U) || !allFinite(sol.V) {
		return nil, errors.New("jwnmf: factors diverged (Inf or NaN after the updates)")
	}
	_, m := x.Dims()
	return &Result{
		Labels:     ArgmaxRows(sol.U),
		Iterations: a.Iterations,
		Objective:  obj,
		FitTime:    time.Since(start),
		Factors: map[string]*mat.Dense{
			"U": sol.U, "V": sol.V, "w": mat.NewDense(m, 1, append([]float64(nil), sol.w...)),
		},
		Info: map[string]string{
			"init":            a.Init,
			"lambda":          fmt.Sprint(sol.lambda),
			"lambda_default":  fmt.Sprint(a.Lambda == 0), // 0.1·‖S‖²/‖X‖²
			"damped":          fmt.Sprint(a.Damped),
			"self_loops":      fmt.Sprint(a.SelfLoops),
			"dropped_columns": fmt.Sprint(m - sol.kept),
			"w_max":           fmt.Sprint(slices.Max(sol.w)), // see the weight collapse note
			"objective":       "‖S − UUᵀ‖² + λ‖XW − UVᵀ‖², S = A/ΣA, X ← X/ΣX",
		},
	}, nil
}

func (a JWNMF) initialise(ctx context.Context, in Input, x *sparse.CSR, k int, seed uint64) (u, v *mat.Dense, err error) {
	if a.Init == InitRandom {
		rng := newRand(seed)
		n, m := x.Dims()
		u = uniformDense(n, k, rng)
		return u, uniformDense(m, k, rng), nil
	}
	u, v, _, err = CachedKMeansFactorsContext(ctx, in, k, k, seed)
	if err != nil {
		return nil, nil, fmt.Errorf("jwnmf: k-means initialisation: %w", err)
	}
	return u, v, nil
}

// jwnmfDefaultLambdaFactor times ‖S‖²/‖X‖² is JWNMF's default λ (see JWNMF).
const jwnmfDefaultLambdaFactor = 0.1

// jwnmfSolver holds JWNMF's factors and work buffers. Invariants between steps: su = S·U,
// xwv = X·(WV).
type jwnmfSolver struct {
	U, V   *mat.Dense // n×k, m×k
	w      []float64  // m attribute weights, Σ = 1, 0 on dropped columns
	s      *sparse.CSR
	x, xt  *sparse.CSR
	colSq  []float64 // ‖xⱼ‖²
	kept   int       // columns with ‖xⱼ‖ > 0
	sNorm  float64   // ‖S‖²
	lambda float64
	damped bool

	su, xwv, num, den *mat.Dense // n×k
	xtu, wv, vden     *mat.Dense // m×k
	utu, vtv, g       *mat.Dense // k×k
	wnum, wden        []float64  // m
}

// newJWNMFSolver prepares the updates for the (already sum-to-one) S and X and takes over
// u and v (updated in place). lambda = 0 selects the default 0.1·‖S‖²/‖X‖². w starts at
// 1/m' on the kept columns.
func newJWNMFSolver(s, x *sparse.CSR, u, v *mat.Dense, lambda float64, damped bool) *jwnmfSolver {
	n, k := u.Dims()
	m, _ := v.Dims()
	xt := x.T()
	colSq := xt.RowNormsSq()
	d := func(r, c int) *mat.Dense { return mat.NewDense(r, c, nil) }
	sol := &jwnmfSolver{
		U: u, V: v, w: make([]float64, m), s: s, x: x, xt: xt, colSq: colSq,
		sNorm: s.SumSq(), damped: damped,
		su: d(n, k), xwv: d(n, k), num: d(n, k), den: d(n, k),
		xtu: d(m, k), wv: d(m, k), vden: d(m, k),
		utu: d(k, k), vtv: d(k, k), g: d(k, k),
		wnum: make([]float64, m), wden: make([]float64, m),
	}
	for _, c := range colSq {
		if c > 0 {
			sol.kept++
		}
	}
	sol.resetWeights()
	if lambda == 0 {
		lambda = jwnmfDefaultLambdaFactor * sol.sNorm / x.SumSq()
	}
	sol.lambda = lambda
	sparse.MulDense(sol.su, s, u)
	sol.updateXWV()
	return sol
}

// resetWeights sets w uniform over the kept columns.
func (s *jwnmfSolver) resetWeights() {
	for j, c := range s.colSq {
		if c > 0 {
			s.w[j] = 1 / float64(s.kept)
		} else {
			s.w[j] = 0
		}
	}
}

// updateXWV sets wv = diag(w)·V and xwv = X·wv.
func (s *jwnmfSolver) updateXWV() {
	m, k := s.V.Dims()
	for j := 0; j < m; j++ {
		src, dst := s.V.RawRowView(j)[:k], s.wv.RawRowView(j)[:k]
		for c, x := range src {
			dst[c] = s.w[j] * x
		}
	}
	sparse.MulDense(s.xwv, s.x, s.wv)
}

// step runs one iteration: U, V, w, renormalise. Cost O((nnz(S) + nnz(X))·k + (n+m)·k²).
func (s *jwnmfSolver) step() {
	k := s.utu.RawMatrix().Cols
	lam := s.lambda

	// U.
	s.utu.Mul(s.U.T(), s.U)
	s.vtv.Mul(s.V.T(), s.V)
	s.g.Scale(2, s.utu)
	s.vtv.Scale(lam, s.vtv)
	s.g.Add(s.g, s.vtv) // 2UᵀU + λVᵀV, so den = U·g
	s.den.Mul(s.U, s.g)
	num, su, xwv := s.num.RawMatrix().Data, s.su.RawMatrix().Data, s.xwv.RawMatrix().Data
	for i := range num {
		num[i] = 2*su[i] + lam*xwv[i]
	}
	beta := 1.0
	if s.damped {
		beta = 0.5
	}
	nmfMultiplicative(s.U, s.num, s.den, beta)
	sparse.MulDense(s.su, s.s, s.U)

	// V.
	s.utu.Mul(s.U.T(), s.U)
	sparse.MulDense(s.xtu, s.xt, s.U)
	m, _ := s.V.Dims()
	for j := 0; j < m; j++ {
		src, dst := s.xtu.RawRowView(j)[:k], s.wv.RawRowView(j)[:k] // wv as scratch: W XᵀU
		for c, x := range src {
			dst[c] = s.w[j] * x
		}
	}
	s.vden.Mul(s.V, s.utu)
	nmfMultiplicative(s.V, s.wv, s.vden, 1)

	// w.
	var dmax float64
	for j := 0; j < m; j++ {
		s.wnum[j] = nmfDot(s.xtu.RawRowView(j)[:k], s.V.RawRowView(j)[:k])
		s.wden[j] = s.colSq[j] * s.w[j]
		dmax = max(dmax, s.wden[j])
	}
	delta := nmfEpsRel * dmax
	var total float64
	for j := 0; j < m; j++ {
		if s.colSq[j] == 0 {
			continue
		}
		v := s.w[j] * s.wnum[j] / (s.wden[j] + delta)
		if v != v {
			v = eps
		}
		s.w[j] = v
		total += v
	}
	if total > 0 && !math.IsInf(total, 0) {
		for j := range s.w {
			s.w[j] /= total
		}
	} else {
		s.resetWeights()
	}
	s.updateXWV()
}

// objective returns J at the current factors. Cost O((n+m)·k² + m).
func (s *jwnmfSolver) objective() float64 {
	s.utu.Mul(s.U.T(), s.U)
	s.vtv.Mul(s.V.T(), s.V)
	topo := s.sNorm - 2*nmfFrobDot(s.su, s.U) + nmfFrobDot(s.utu, s.utu)
	var xw float64
	for j, c := range s.colSq {
		xw += s.w[j] * s.w[j] * c
	}
	attr := xw - 2*nmfFrobDot(s.xwv, s.U) + nmfFrobDot(s.utu, s.vtv)
	return topo + s.lambda*attr
}

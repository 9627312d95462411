package algorithms

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
)

// Initialisations of NAGC's factors.
const (
	// InitRandom draws U, V and H uniformly from [0, 1) (the paper's "Prop.*").
	InitRandom = "random"
	// InitKMeans builds U and V from two k-means runs on column-max-normalised attributes
	// (best inertia of 10 k-means++ starts each); label-free. H is uniform random.
	InitKMeans = "kmeans"
	// InitKMeansMedianARI is the authors' protocol: five InitKMeans constructions, keeping
	// the one whose k1-cluster k-means has the median ARI against the true labels. It
	// reads the labels.
	InitKMeansMedianARI = "kmeans-median-ari"
)

// NAGC is Non-linear Attributed Graph Clustering (Maekawa et al.): symmetric NMF of the
// adjacency with the ρ-weighted PU loss, tied to a factorisation of the attributes through
// a sigmoid projection f(UH):
//
//	min_{U,V,H ≥ 0}  ½·L_ρ(S − UUᵀ) + (λ/2)·‖X − f(UH)Vᵀ‖²_F
//	L_ρ(Z) = ρ Σ_{(i,j)∈E} zᵢⱼ² + (1−ρ) Σ_{(i,j)∉E} zᵢⱼ²   (E: stored entries of W)
//
// with U n×k1, V m×k2, H k1×k2 and f the logistic sigmoid. The ½ makes the objective the
// one whose gradient the paper's update rules follow. One iteration applies the paper's
// multiplicative rules (Eq. update of U, V, H) in the order U, V, H, each using the newest
// values; any NaN (0/0) is then replaced by machine ε. At ρ = 0.5 the authors' code
// switches to a separate rule for U whose topology terms are 2SU and 2U(UᵀU), i.e. the
// objective ½‖S − UUᵀ‖²_F + (λ/2)‖X − f(UH)Vᵀ‖²_F; this implementation does the same.
//
// Preprocessing, as in the authors' code: S = A·sum(X)/sum(A) for the 0/1 adjacency A, and
// the PU mask W is A itself (diagonal included where a self-loop exists). X is used as
// read. Cluster of vertex i = argmax of row i of U.
//
// Cost per iteration O((|E| + nnz(X))·k + (n + m)·k² + n·k1·k2) with k = max(k1, k2):
// (UUᵀ⊙W)U is a sum over stored edges and (UUᵀ⊙W')U = U(UᵀU) − (UUᵀ⊙W)U, so no n×n
// matrix is formed. Memory O((n + m)·k) beyond the inputs.
//
// Defaults (zero values): Iterations 100, Init "kmeans". K2 defaults to k1.
type NAGC struct {
	K2         int     `yaml:"k2"`         // attribute clusters; 0 means k1
	Lambda     float64 `yaml:"lambda"`     // weight of the attribute term, ≥ 0
	Rho        float64 `yaml:"rho"`        // PU weight in [0, 1]; 0.5 selects the authors' "w/o PU" rule
	Iterations int     `yaml:"iterations"` // number of iterations t; 0 means 100 (no convergence test)
	Init       string  `yaml:"init"`       // InitRandom, InitKMeans (default) or InitKMeansMedianARI
	// InitU, InitV, InitH, when all set, are used as the initial factors instead of Init
	// (copied, not modified).
	InitU, InitV, InitH *mat.Dense `yaml:"-"`
}

// Name returns "nagc".
func (NAGC) Name() string { return "nagc" }

func (a NAGC) withDefaults(k1 int) NAGC {
	if a.K2 == 0 {
		a.K2 = k1
	}
	if a.Iterations == 0 {
		a.Iterations = 100
	}
	if a.Init == "" {
		a.Init = InitKMeans
	}
	return a
}

func (a NAGC) validate(in Input, k1 int) error {
	if err := in.validate(true, true, k1); err != nil {
		return fmt.Errorf("nagc: %w", err)
	}
	n, m := in.X.Dims()
	switch {
	case a.K2 < 1 || a.K2 > n:
		return fmt.Errorf("nagc: k2 = %d, need 1 ≤ k2 ≤ n = %d", a.K2, n)
	case !(a.Lambda >= 0) || math.IsInf(a.Lambda, 0):
		return fmt.Errorf("nagc: λ = %v, need a finite λ ≥ 0", a.Lambda)
	case !(a.Rho >= 0 && a.Rho <= 1):
		return fmt.Errorf("nagc: ρ = %v, need 0 ≤ ρ ≤ 1", a.Rho)
	case a.Iterations < 0:
		return fmt.Errorf("nagc: %d iterations", a.Iterations)
	}
	if a.InitU != nil || a.InitV != nil || a.InitH != nil {
		if a.InitU == nil || a.InitV == nil || a.InitH == nil {
			return errors.New("nagc: explicit initialisation needs all of U, V and H")
		}
		for _, c := range []struct {
			name string
			d    *mat.Dense
			r, c int
		}{{"U", a.InitU, n, k1}, {"V", a.InitV, m, a.K2}, {"H", a.InitH, k1, a.K2}} {
			if r, cc := c.d.Dims(); r != c.r || cc != c.c {
				return fmt.Errorf("nagc: initial %s is %d×%d, want %d×%d", c.name, r, cc, c.r, c.c)
			}
			for _, v := range c.d.RawMatrix().Data {
				if !(v >= 0) || math.IsInf(v, 0) {
					return fmt.Errorf("nagc: initial %s has entry %v; need finite, non-negative", c.name, v)
				}
			}
		}
		return nil
	}
	switch a.Init {
	case InitRandom, InitKMeans:
	case InitKMeansMedianARI:
		if len(in.Truth) != in.N() {
			return errors.New("nagc: init kmeans-median-ari reads the true labels, and the input has none")
		}
	default:
		return fmt.Errorf("nagc: unknown init %q (want random, kmeans or kmeans-median-ari)", a.Init)
	}
	return nil
}

// Fit runs NAGC with k1 = k vertex clusters. See the type's documentation.
func (a NAGC) Fit(ctx context.Context, in Input, k int, seed uint64) (*Result, error) {
	start := time.Now()
	a = a.withDefaults(k)
	if err := a.validate(in, k); err != nil {
		return nil, err
	}
	u, v, h, initInfo, err := a.initialise(in, k, seed)
	if err != nil {
		return nil, err
	}
	s := NewNAGCSolver(in.Adj, in.X, u, v, h, a.Lambda, a.Rho)
	obj := make([]float64, 0, a.Iterations)
	for it := 0; it < a.Iterations; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.Step()
		obj = append(obj, s.Objective())
	}
	if !allFinite(s.U) || !allFinite(s.V) || !allFinite(s.H) {
		return nil, errors.New("nagc: factors diverged (Inf or NaN after the updates)")
	}
	return &Result{
		Labels:     ArgmaxRows(s.U),
		Iterations: a.Iterations,
		Objective:  obj,
		FitTime:    time.Since(start),
		Factors:    map[string]*mat.Dense{"U": s.U, "V": s.V, "H": s.H},
		Info: map[string]string{
			"init":      initInfo,
			"u_rule":    s.ruleName(),
			"s_scale":   fmt.Sprint(s.scale),
			"objective": "½·L_ρ(S−UUᵀ) + (λ/2)‖X−f(UH)Vᵀ‖²",
		},
	}, nil
}

// NAGCSolver holds NAGC's factors and the work buffers of its multiplicative updates, so
// that iterations allocate nothing. Use NewNAGCSolver, then Step repeatedly.
type NAGCSolver struct {
	// U (n×k1), V (m×k2) and H (k1×k2) are the current factors.
	U, V, H *mat.Dense

	adj, s, x, xt  *sparse.CSR
	lambda, rho    float64
	scale, xNormSq float64

	f, fp, xv   *mat.Dense // n×k2: f(UH), f'(UH), XV
	t2          *mat.Dense // n×k2 scratch
	su, g, uutu *mat.Dense // n×k1: SU, (UUᵀ⊙W)U, U(UᵀU)
	num, den    *mat.Dense // n×k1
	t1          *mat.Dense // n×k1 scratch
	xtf, vden   *mat.Dense // m×k2
	utu         *mat.Dense // k1×k1
	vtv, ftf    *mat.Dense // k2×k2
	hnum, hden  *mat.Dense // k1×k2
	hk          *mat.Dense // k1×k2 scratch
}

// NewNAGCSolver prepares the updates for adjacency adj (0/1, n×n), attributes x (n×m) and
// the initial factors, which it takes over (they are updated in place). S is adj scaled
// by sum(x)/sum(adj).
func NewNAGCSolver(adj, x *sparse.CSR, u, v, h *mat.Dense, lambda, rho float64) *NAGCSolver {
	n, k1 := u.Dims()
	m, k2 := v.Dims()
	scale := 1.0
	if as := adj.Sum(); as > 0 {
		scale = x.Sum() / as
	}
	d := func(r, c int) *mat.Dense { return mat.NewDense(r, c, nil) }
	s := &NAGCSolver{
		U: u, V: v, H: h,
		adj: adj, s: adj.Scaled(scale), x: x, xt: x.T(),
		lambda: lambda, rho: rho, scale: scale, xNormSq: x.SumSq(),
		f: d(n, k2), fp: d(n, k2), xv: d(n, k2), t2: d(n, k2),
		su: d(n, k1), g: d(n, k1), uutu: d(n, k1), num: d(n, k1), den: d(n, k1), t1: d(n, k1),
		xtf: d(m, k2), vden: d(m, k2),
		utu: d(k1, k1), vtv: d(k2, k2), ftf: d(k2, k2),
		hnum: d(k1, k2), hden: d(k1, k2), hk: d(k1, k2),
	}
	s.sigmoid()
	sparse.MulDense(s.xv, s.x, s.V)
	return s
}

func (s *NAGCSolver) ruleName() string {
	if s.rho == 0.5 {
		return "w/o PU (authors' rho=0.5 rule: 2SU / 2U(UᵀU))"
	}
	return "PU (paper's Eq. update of U)"
}

// sigmoid sets f = f(UH) and fp = f'(UH) = e^{-x}/(1+e^{-x})², the authors' form.
func (s *NAGCSolver) sigmoid() {
	s.f.Mul(s.U, s.H)
	fr, pr := s.f.RawMatrix().Data, s.fp.RawMatrix().Data
	for i, x := range fr {
		e := math.Exp(-x)
		d := 1 + e
		fr[i] = 1 / d
		pr[i] = e / (d * d)
	}
}

// mulHadamard sets dst = a ⊙ b entry-wise (all r×c, contiguous).
func mulHadamard(dst, a, b *mat.Dense) {
	d, x, y := dst.RawMatrix().Data, a.RawMatrix().Data, b.RawMatrix().Data
	for i := range d {
		d[i] = x[i] * y[i]
	}
}

// Step runs one iteration: U, then V, then H, each by its multiplicative rule using the
// newest values. Cost O((|E| + nnz(X))·k + (n + m)·k² + n·k1·k2).
func (s *NAGCSolver) Step() {
	s.stepU()
	s.sigmoid()
	s.stepV()
	sparse.MulDense(s.xv, s.x, s.V)
	s.stepH()
	s.sigmoid()
}

// stepU applies the U rule; f, fp and xv hold f(UH), f'(UH) and XV of the current U, V, H.
func (s *NAGCSolver) stepU() {
	// Attribute terms: λ((XV)⊙f')Hᵀ and λ((f VᵀV)⊙f')Hᵀ.
	mulHadamard(s.t2, s.xv, s.fp)
	s.num.Mul(s.t2, s.H.T())
	s.vtv.Mul(s.V.T(), s.V)
	s.t2.Mul(s.f, s.vtv)
	mulHadamard(s.t2, s.t2, s.fp)
	s.den.Mul(s.t2, s.H.T())

	sparse.MulDense(s.su, s.s, s.U)
	s.utu.Mul(s.U.T(), s.U)
	s.uutu.Mul(s.U, s.utu)
	num, den := s.num.RawMatrix().Data, s.den.RawMatrix().Data
	su, uutu := s.su.RawMatrix().Data, s.uutu.RawMatrix().Data
	lam := s.lambda
	if s.rho == 0.5 {
		for i := range num {
			num[i] = 2*su[i] + lam*num[i]
			den[i] = 2*uutu[i] + lam*den[i]
		}
	} else {
		sparse.PatternGramMul(s.g, s.adj, s.U)
		g := s.g.RawMatrix().Data
		r2, q2 := 2*s.rho, 2*(1-s.rho)
		for i := range num {
			num[i] = r2*su[i] + lam*num[i]
			den[i] = r2*g[i] + q2*(uutu[i]-g[i]) + lam*den[i]
		}
	}
	multiplicativeStep(s.U, s.num, s.den)
}

// stepV applies V ← V ⊙ [Xᵀf(UH)] ⊘ [V f(UH)ᵀf(UH)]; f holds f(UH) of the new U.
func (s *NAGCSolver) stepV() {
	sparse.MulDense(s.xtf, s.xt, s.f)
	s.ftf.Mul(s.f.T(), s.f)
	s.vden.Mul(s.V, s.ftf)
	multiplicativeStep(s.V, s.xtf, s.vden)
}

// stepH applies H ← H ⊙ [Uᵀ(f'⊙XV)] ⊘ [Uᵀ(f'⊙f)VᵀV]; xv holds X·V of the new V.
func (s *NAGCSolver) stepH() {
	mulHadamard(s.t2, s.fp, s.xv)
	s.hnum.Mul(s.U.T(), s.t2)
	mulHadamard(s.t2, s.fp, s.f)
	s.hk.Mul(s.U.T(), s.t2)
	s.vtv.Mul(s.V.T(), s.V)
	s.hden.Mul(s.hk, s.vtv)
	multiplicativeStep(s.H, s.hnum, s.hden)
}

// Objective returns the objective at the current factors (see NAGC): for ρ ≠ 0.5,
// ½[ρ Σ_E (sᵢⱼ − zᵢⱼ)² + (1−ρ) Σ_{∉E} zᵢⱼ²] + (λ/2)‖X − f(UH)Vᵀ‖²; for ρ = 0.5,
// ½‖S − UUᵀ‖² + (λ/2)‖X − f(UH)Vᵀ‖². Cost O(|E|·k1 + n·(k1² + k2²) + nnz(X)) using the
// f(UH) and XV that Step leaves behind.
func (s *NAGCSolver) Objective() float64 {
	s.utu.Mul(s.U.T(), s.U)
	allSq := mat.Norm(s.utu, 2) // Frobenius norm of UᵀU: ‖UUᵀ‖²_F = ‖UᵀU‖²_F
	allSq *= allSq
	sumE, sumESq := sparse.PatternDots(s.adj, s.U)
	nnz := float64(s.adj.NNZ())
	c := s.scale
	fitE := nnz*c*c - 2*c*sumE + sumESq // Σ_E (c − z)²
	var topo float64
	if s.rho == 0.5 {
		topo = 0.5 * (fitE + allSq - sumESq)
	} else {
		topo = 0.5 * (s.rho*fitE + (1-s.rho)*(allSq-sumESq))
	}
	// ‖X − FVᵀ‖² = ‖X‖² − 2⟨XV, F⟩ + tr((FᵀF)(VᵀV)).
	var cross float64
	xv, f := s.xv.RawMatrix().Data, s.f.RawMatrix().Data
	for i := range xv {
		cross += xv[i] * f[i]
	}
	s.ftf.Mul(s.f.T(), s.f)
	s.vtv.Mul(s.V.T(), s.V)
	var tr float64
	k2, _ := s.ftf.Dims()
	for i := 0; i < k2; i++ {
		for j := 0; j < k2; j++ {
			tr += s.ftf.At(i, j) * s.vtv.At(j, i)
		}
	}
	attr := s.xNormSq - 2*cross + tr
	return topo + 0.5*s.lambda*attr
}

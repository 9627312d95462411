package algorithms

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// Initialisations of NAGC's factors.
const (
	// InitRandom draws U, V and H uniformly from [0, 1) (the paper's "Prop.*").
	InitRandom = "random"
	// InitKMeans builds U and V from two k-means runs on column-max-normalised attributes
	// (best inertia of 10 k-means++ starts each; one start each from SGCLargeN vertices
	// unless NAGC.InitNInit is given); label-free. H is uniform random.
	InitKMeans = "kmeans"
	// InitKMeansMedianARI is the authors' protocol: five InitKMeans constructions, keeping
	// the one whose k1-cluster k-means has the median ARI against the true labels. It
	// reads the labels.
	InitKMeansMedianARI = "kmeans-median-ari"
	// InitSGC starts from the SGC k-means clustering of the attributes NAGC factorises
	// (see SGCFactors): U one-hot (floor 0.1) on the k1 clusters, V the centroids of the
	// k2 clusters; label-free. Not in the paper; meant for graph-filtered attributes.
	InitSGC = "sgc"
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
// read. A weighted adjacency is read as its pattern (every stored entry an edge of
// weight 1), its weights ignored. Cluster of vertex i = argmax of row i of U.
//
// Cost per iteration O((|E| + nnz(X))·k + (n + m)·k² + n·k1·k2) with k = max(k1, k2):
// (UUᵀ⊙W)U is a sum over stored edges and (UUᵀ⊙W')U = U(UᵀU) − (UUᵀ⊙W)U, so no n×n
// matrix is formed. Memory O((n + m)·k) beyond the inputs.
//
// Defaults (zero values): Iterations 100, Init "kmeans". K2 defaults to k1. New (and so
// configs and the command line) also sets λ = DefaultNAGCLambda and ρ = DefaultNAGCRho
// where they are not given: the zero ρ = 0 would give the edges no weight.
type NAGC struct {
	K2         int     `yaml:"k2"`         // attribute clusters; 0 means k1
	Lambda     float64 `yaml:"lambda"`     // weight of the attribute term, ≥ 0
	Rho        float64 `yaml:"rho"`        // PU weight in [0, 1]; 0.5 selects the authors' "w/o PU" rule
	Iterations int     `yaml:"iterations"` // number of iterations t; 0 means 100 (no convergence test)
	Init       string  `yaml:"init"`       // InitRandom, InitKMeans (default), InitKMeansMedianARI or InitSGC
	InitRank   int     `yaml:"init_rank"`  // InitSGC: rank of the spectral embedding, capped at min(n, m) (0: the attributes themselves)
	// InitNInit is the k-means starts of each k-means run of inits kmeans and
	// kmeans-median-ari; 0 means 10 (the authors' protocol) below SGCLargeN vertices and
	// 1 from SGCLargeN vertices (recorded in Result.Info["init_n_init"]).
	InitNInit int `yaml:"init_n_init"`
	// InitU, InitV, InitH, when all set, are used as the initial factors instead of Init
	// (copied, not modified).
	InitU, InitV, InitH *mat.Dense `yaml:"-"`
	// Filter, when its order p > 0, makes NAGC factorise the graph-filtered attributes
	// (see GraphFilterOptions) instead of X, k-means initialisation included. Not in the
	// paper; p = 0, the default, is the paper's method bit for bit.
	Filter GraphFilterOptions `yaml:",inline"`
	// AttributeTransform is the option transform: what is done to the attributes before
	// the fit (see Transforms); none, the default, reads them as they are.
	AttributeTransform `yaml:",inline"`
	// Precision is PrecisionDefault ("" too: float64, the paper's records bit for bit) or
	// PrecisionFast (float32 iterations with fused multiply-adds; see nagc_f32.go).
	Precision string `yaml:"precision"`
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
	if d := in.DenseAttributes(); d != nil {
		if err := denseNonNegative("attribute matrix", d); err != nil {
			return fmt.Errorf("nagc: %w", err)
		}
	}
	n, m := in.attrDims()
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
	case InitSGC:
		if a.InitRank < 0 {
			return fmt.Errorf("nagc: init_rank %d < 0", a.InitRank)
		}
	case InitKMeansMedianARI:
		if len(in.Truth) != in.N() {
			return errors.New("nagc: init kmeans-median-ari reads the true labels, and the input has none")
		}
	default:
		return fmt.Errorf("nagc: unknown init %q (want random, kmeans, kmeans-median-ari or sgc)", a.Init)
	}
	return nil
}

// NAGCSolver holds NAGC's factors and the work buffers of its multiplicative updates, so
// that iterations allocate nothing (with a stored attribute matrix; the products of an
// implicit sparse.FilteredMatrix allocate their n×k temporaries). Use NewNAGCSolver (or
// NewNAGCSolverOp), then Step repeatedly.
//
// Besides the factors it keeps what the next update or the objective needs and is already
// known: UᵀU and VᵀV (recomputed once after each update of U, V), AU, (UUᵀ⊙W)U and the
// objective's sums over the edges (one pass over the edges after each update of U), Hᵀ,
// X·V, f(UH) and f'(UH), and, for the current U, V, H, ⟨XV, f⟩ and ⟨f VᵀV, f⟩, from which
// Objective takes the attribute term. Apart from its sparse products an iteration reads
// the n-row matrices in three passes over blocks of rows (see rowPasses): U's rule with
// the new UᵀU, f, f' and fᵀf; the sums of H's rule; the new f, f' and the inner
// products. The tall-skinny products run on package dense, the sparse ones on package
// sparse; both follow parallel.Threads and give the same bits for any thread count.
type NAGCSolver struct {
	// U (n×k1), V (m×k2) and H (k1×k2) are the current factors.
	U, V, H *mat.Dense

	adj            *sparse.CSR
	x              sparse.Operator
	lambda, rho    float64
	scale, xNormSq float64
	coef           dense.UpdateCoefficients // the scalars of U's rule

	f, fp, xv        *mat.Dense // n×k2: f(UH), f'(UH), XV
	su, g            *mat.Dense // n×k1: AU (A the 0/1 adjacency, so SU = scale·AU), (UUᵀ⊙W)U
	xtf, vden        *mat.Dense // m×k2
	utu, utuNext     *mat.Dense // k1×k1: UᵀU of the current U; of the U a pass is forming
	vtv              *mat.Dense // k2×k2: VᵀV of the current V
	ftf              *mat.Dense // k2×k2
	ht               *mat.Dense // k2×k1: Hᵀ of the current H
	hnum, hk, hden   *mat.Dense // k1×k2
	sumE, sumESq     float64    // Σ_E zᵢⱼ and Σ_E zᵢⱼ² of Z = UUᵀ for the current U
	xvDotF, fvtvDotF float64    // ⟨XV, f⟩ and ⟨f VᵀV, f⟩ at the current factors
	rows             rowPasses
}

// NewNAGCSolver prepares the updates for adjacency adj (0/1, n×n), attributes x (n×m) and
// the initial factors, which it takes over: V and H are updated in place, and U too
// unless it is larger than the last-level cache and its rows are not whole cache lines
// (see lineAligned); read the factors from the solver's U, V and H. S is adj scaled by
// sum(x)/sum(adj).
func NewNAGCSolver(adj, x *sparse.CSR, u, v, h *mat.Dense, lambda, rho float64) *NAGCSolver {
	return NewNAGCSolverOp(adj, sparse.NewCSROperator(x), u, v, h, lambda, rho)
}

// NewNAGCSolverOp is NewNAGCSolver for attributes known through their products (for
// example the implicit graph-filtered matrix, sparse.FilteredMatrix). The attribute
// products XV and Xᵀf(UH) then cost what x's MulDense and TMulDense cost.
func NewNAGCSolverOp(adj *sparse.CSR, x sparse.Operator, u, v, h *mat.Dense, lambda, rho float64) *NAGCSolver {
	n, k1 := u.Dims()
	m, k2 := v.Dims()
	// S = c·A with c = ΣX/ΣA for the 0/1 adjacency, as the authors' code; the updates read
	// A's pattern only, so ΣA is its number of stored entries (the same on a 0/1 graph, and
	// on a weighted one the weights are then ignored throughout, not half-used).
	scale := 1.0
	if as := float64(adj.NNZ()); as > 0 {
		scale = x.Sum() / as
	}
	d := func(r, c int) *mat.Dense { return mat.NewDense(r, c, nil) }
	u = lineAligned(u)
	s := &NAGCSolver{
		U: u, V: v, H: h,
		adj: adj, x: x,
		lambda: lambda, rho: rho, scale: scale, xNormSq: x.SumSq(),
		f: d(n, k2), fp: d(n, k2), xv: d(n, k2),
		su: d(n, k1), g: d(n, k1),
		xtf: d(m, k2), vden: d(m, k2),
		utu: d(k1, k1), utuNext: d(k1, k1), vtv: d(k2, k2), ftf: d(k2, k2), ht: d(k2, k1),
		hnum: d(k1, k2), hk: d(k1, k2), hden: d(k1, k2),
	}
	// With an = ((XV)⊙f')Hᵀ and ad = ((f VᵀV)⊙f')Hᵀ, formed per block by U's pass:
	// ρ = 0.5: num = 2·SU + λ·an, den = 2·U(UᵀU) + λ·ad; otherwise
	// num = 2ρ·SU + λ·an, den = 2ρ·g + 2(1−ρ)·(U(UᵀU) − g) + λ·ad, with
	// (UUᵀ⊙W')U = U(UᵀU) − (UUᵀ⊙W)U.
	s.coef = dense.UpdateCoefficients{Graph: 2 * scale, Lambda: lambda, Edge: 2, NaN: eps}
	if rho != 0.5 {
		s.coef.Graph, s.coef.Edge, s.coef.NonEdge = 2*rho*scale, 2*rho, 2*(1-rho)
	}
	s.rows.bind(s)
	dense.Gram(s.utu, s.U)
	s.edgeTerms()
	dense.Gram(s.vtv, s.V)
	s.transposeH()
	s.x.MulDense(s.xv, s.V)
	s.attributeTerms()
	return s
}

// alignedMinBytes is the size of U from which lineAligned pads its rows: larger than
// the last-level cache, so that the edge pass reads the neighbours' rows from memory. (A
// variable so that tests can pad small factors.)
var alignedMinBytes = 64 << 20

// lineAligned returns u, or, when u holds more than alignedMinBytes and its rows are not
// a whole number of 64-byte cache lines (a stride not a multiple of 8), a copy whose
// stride is k1 rounded up to 8 (at most 7 unused values a row). The edge pass reads the
// rows of U of every vertex's neighbours from memory, whole cache lines at a time: a row
// of 47 values (376 bytes) at any offset spans 6 or 7 lines, 6.9 on average, and one of
// stride 48 exactly 6 (Go places allocations this large on page boundaries), which made
// the pass 15 % faster at a quarter of the ogbn-products shape. The values, and every sum
// over them, are the same. Cost one copy of u.
func lineAligned(u *mat.Dense) *mat.Dense {
	n, k1 := u.Dims()
	if u.RawMatrix().Stride%8 == 0 || n*k1*8 < alignedMinBytes {
		return u
	}
	stride := (k1 + 7) &^ 7
	a := mat.NewDense(n, stride, nil).Slice(0, n, 0, k1).(*mat.Dense)
	a.Copy(u)
	return a
}

func (s *NAGCSolver) ruleName() string {
	if s.rho == 0.5 {
		return "w/o PU (authors' rho=0.5 rule: 2SU / 2U(UᵀU))"
	}
	return "PU (paper's Eq. update of U)"
}

// Step runs one iteration: U, then V, then H, each by its multiplicative rule using the
// newest values. Cost O((|E| + nnz(X))·k + (n + m)·k² + n·k1·k2).
func (s *NAGCSolver) Step() {
	s.finishU()
	s.x.TMulDense(s.xtf, s.f)
	s.finishV()
	s.x.MulDense(s.xv, s.V)
	s.finishH()
}

// The three phases of Step between its products with A and X (NAGCBatch computes those
// products for several solvers at once and runs the phases of each in between).

// finishU updates U from su = AU and g = (UUᵀ⊙W)U of the current U and the current f, f',
// XV, VᵀV and Hᵀ, in one pass over the rows that also sets UᵀU, f(UH), f'(UH) and fᵀf of
// the new U; then the edge terms of the new U.
func (s *NAGCSolver) finishU() {
	s.rows.run(s.rows.updateWork, s.rows.updateSize, s.rows.updateBlock, s.rows.addUpdate)
	s.utu, s.utuNext = s.utuNext, s.utu
	s.edgeTerms()
}

// edgeTerms sets, for the current U, su = AU and g = (UUᵀ⊙W)U, which the next U update
// reads (U changes only there), and the objective's sums over the edges of zᵢⱼ = uᵢ·uⱼ and
// zᵢⱼ², all from one pass over the edges. At ρ = 0.5 g is not read by the update but
// costs little beside the sums.
func (s *NAGCSolver) edgeTerms() {
	s.sumE, s.sumESq = sparse.PatternSumGramDots(s.su, s.g, s.adj, s.U)
}

// finishV updates V from xtf = Xᵀf(UH) (V ← V ⊙ [Xᵀf(UH)] ⊘ [V f(UH)ᵀf(UH)], with ftf =
// f(UH)ᵀf(UH) from finishU's pass), then sets VᵀV.
func (s *NAGCSolver) finishV() {
	dense.Mul(s.vden, s.V, s.ftf)
	multiplicativeStep(s.V, s.xtf, s.vden)
	dense.Gram(s.vtv, s.V)
}

// finishH updates H from xv = XV of the new V (H ← H ⊙ [Uᵀ(f'⊙XV)] ⊘ [Uᵀ(f'⊙f)VᵀV], both
// sums over the rows formed in one pass), then sets Hᵀ and, in one more pass, f(UH),
// f'(UH), ⟨XV, f⟩ and ⟨f VᵀV, f⟩ of the new H.
func (s *NAGCSolver) finishH() {
	s.rows.run(s.rows.hWork, s.rows.hSize, s.rows.hBlock, s.rows.addH)
	dense.Mul(s.hden, s.hk, s.vtv)
	multiplicativeStep(s.H, s.hnum, s.hden)
	s.transposeH()
	s.attributeTerms()
}

// transposeH sets ht = Hᵀ (without the allocation of mat.Dense.Copy(H.T())).
func (s *NAGCSolver) transposeH() {
	k1, k2 := s.H.Dims()
	for p := 0; p < k1; p++ {
		for j := 0; j < k2; j++ {
			s.ht.Set(j, p, s.H.At(p, j))
		}
	}
}

// attributeTerms sets f, f', ⟨XV, f⟩ and ⟨f VᵀV, f⟩ from the current U, V, H, with xv = XV
// and vtv = VᵀV already current, in one pass over the rows: f·VᵀV is formed per block
// in scratch, never as an n×k2 matrix, and the blocks' shares of the inner products are
// added in block order, as dense.Dot adds them.
func (s *NAGCSolver) attributeTerms() {
	r := &s.rows
	r.run(r.attributeWork, 0, r.attributeBlock, nil)
	s.xvDotF, s.fvtvDotF = 0, 0
	for b := range r.blocks {
		s.xvDotF += r.xvDots[b]
		s.fvtvDotF += r.fvtvDots[b]
	}
}

// Objective returns the objective at the current factors (see NAGC): for ρ ≠ 0.5,
// ½[ρ Σ_E (sᵢⱼ − zᵢⱼ)² + (1−ρ) Σ_{∉E} zᵢⱼ²] + (λ/2)‖X − f(UH)Vᵀ‖²; for ρ = 0.5,
// ½‖S − UUᵀ‖² + (λ/2)‖X − f(UH)Vᵀ‖². Cost O(k1²): UᵀU, the sums over the edges, ⟨XV, f⟩
// and ⟨f VᵀV, f⟩ are those Step (or NewNAGCSolver) left behind for the current factors,
// so calling it or not changes nothing else.
func (s *NAGCSolver) Objective() float64 {
	var allSq float64 // ‖UUᵀ‖²_F = ‖UᵀU‖²_F
	for _, v := range s.utu.RawMatrix().Data {
		allSq += v * v
	}
	sumE, sumESq := s.sumE, s.sumESq // sparse.PatternDots(s.adj, s.U), from edgeTerms
	nnz := float64(s.adj.NNZ())
	c := s.scale
	fitE := nnz*c*c - 2*c*sumE + sumESq // Σ_E (c − z)²
	var topo float64
	if s.rho == 0.5 {
		topo = 0.5 * (fitE + allSq - sumESq)
	} else {
		topo = 0.5 * (s.rho*fitE + (1-s.rho)*(allSq-sumESq))
	}
	// ‖X − FVᵀ‖² = ‖X‖² − 2⟨XV, F⟩ + tr((FᵀF)(VᵀV)), tr((FᵀF)(VᵀV)) = ⟨F VᵀV, F⟩.
	attr := s.xNormSq - 2*s.xvDotF + s.fvtvDotF
	return topo + 0.5*s.lambda*attr
}

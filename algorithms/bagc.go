package algorithms

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"

	"github.com/nagc-harness/nagc/sparse"
)

// BAGC is Bayesian Attributed Graph Clustering (Xu, Ke, Wang, Cheng, Cheng, SIGMOD 2012),
// fitted by mean-field variational inference. The paper's own equations were not
// available; this is the standard derivation for the model the paper describes (see
// specs/baselines.md §2), not checked against the paper.
//
// The model, its variational family, the global and local updates, the ELBO and the
// sweep schedule (warm start, stopping rule, restarts) are in docs/methods-discussed.md
// ("BAGC's variational fit, formula by formula"). In short: τ starts at Dirichlet draws
// from the seed; a sweep updates the global factors, then every vertex in a fresh random
// order; L, the collapsed ELBO, never decreases after the WarmSweeps warm-start sweeps,
// is recorded after every sweep in Result.Objective, and the fit stops when
// |ΔL| < Tol·|L_prev| or after MaxSweeps sweeps. Cluster of vertex i = argmax_k τ_ik; with
// Restarts > 1 the restart with the highest final L is kept (the first on ties).
//
// Cost per sweep O((|E| + nnz(X))·K + n·K² + m·K): the vertex updates cost
// O(nnz(x_i)·K + K² + deg_i·K) each, the recomputation of B = Aτ and the counts
// O((|E| + nnz(X))·K + n·K²), and the global update and L O(m·K + K²) digamma/lgamma
// evaluations. Memory O((n + m)·K + K²) beyond binarised copies of the inputs.
//
// Defaults (zero values): ξ = γ = μ = ν = 1 (the spec's suggestion; the paper's values are
// unknown), MaxSweeps 200, Tol 1e-6, WarmSweeps 3 (a negative value disables the warm
// start), Restarts 1. Result.Factors["tau"] holds the final τ (n×K).
type BAGC struct {
	Xi         float64 `yaml:"xi"`          // Dirichlet prior on the cluster proportions; 0 means 1
	Gamma      float64 `yaml:"gamma"`       // Beta(γ, γ) prior on each attribute probability; 0 means 1
	Mu         float64 `yaml:"mu"`          // Beta(μ, ν) prior on each block's edge probability; 0 means 1
	Nu         float64 `yaml:"nu"`          // see Mu; 0 means 1
	MaxSweeps  int     `yaml:"max_sweeps"`  // sweeps per restart at most; 0 means 200
	Tol        float64 `yaml:"tol"`         // relative ELBO change that stops; 0 means 1e-6
	WarmSweeps int     `yaml:"warm_sweeps"` // sweeps with the assortative warm start; 0 means 3, negative none
	Restarts   int     `yaml:"restarts"`    // independent restarts, best final ELBO kept; 0 means 1
	// Protocol is "variant" (the default, "" too: the fit above) or "reference": what
	// BAGC's public MATLAB code does, the code behind the NAGC paper's BAGC cells (see
	// fitReference). The reference fixes its own schedule: max_sweeps, tol, warm_sweeps
	// and restarts do not apply to it.
	Protocol string `yaml:"protocol,omitempty"`
	// IterNum is the reference code's iter_num (protocol reference only): its outer loop
	// runs IterNum − 1 times at most; 0 means 5, the code's default.
	IterNum int `yaml:"iter_num,omitempty"`
}

// Name returns "bagc".
func (BAGC) Name() string { return "bagc" }

func (a BAGC) withDefaults() BAGC {
	for _, p := range []*float64{&a.Xi, &a.Gamma, &a.Mu, &a.Nu} {
		if *p == 0 {
			*p = 1
		}
	}
	if a.MaxSweeps == 0 {
		a.MaxSweeps = 200
	}
	if a.Tol == 0 {
		a.Tol = 1e-6
	}
	switch {
	case a.WarmSweeps == 0:
		a.WarmSweeps = 3
	case a.WarmSweeps < 0:
		a.WarmSweeps = 0
	}
	if a.Restarts == 0 {
		a.Restarts = 1
	}
	return a
}

func (a BAGC) validate(in Input, k int) error {
	if err := in.validate(true, true, k); err != nil {
		return fmt.Errorf("bagc: %w", err)
	}
	if _, err := in.ExplicitAttributes(); err != nil {
		return fmt.Errorf("bagc: %w", err)
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"ξ", a.Xi}, {"γ", a.Gamma}, {"μ", a.Mu}, {"ν", a.Nu}} {
		if !(p.v > 0) || math.IsInf(p.v, 0) {
			return fmt.Errorf("bagc: prior %s = %v, need a finite value > 0", p.name, p.v)
		}
	}
	switch {
	case a.MaxSweeps < 1:
		return fmt.Errorf("bagc: %d sweeps", a.MaxSweeps)
	case !(a.Tol >= 0) || math.IsInf(a.Tol, 0):
		return fmt.Errorf("bagc: tolerance %v, need a finite value ≥ 0", a.Tol)
	case a.Restarts < 1:
		return fmt.Errorf("bagc: %d restarts", a.Restarts)
	}
	return nil
}

// Fit runs BAGC with k clusters. See the type's documentation.
func (a BAGC) Fit(ctx context.Context, in Input, k int, seed uint64) (*Result, error) {
	start := time.Now()
	a = a.withDefaults()
	if err := a.validate(in, k); err != nil {
		return nil, err
	}
	if a.Protocol == BAGCProtocolReference {
		return a.fitReference(ctx, in, k)
	}
	adj, err := bagcEdgePattern(in.Adj)
	if err != nil {
		return nil, err
	}
	x, _ := in.ExplicitAttributes() // validated: sparse rows
	mdl := newBagcModel(adj, bagcBinaryPattern(x), k, a.Xi, a.Gamma, a.Mu, a.Nu)
	rng := newRand(seed)

	var best *bagcRun
	bestAt := 0
	finals := make([]string, 0, a.Restarts)
	for r := 0; r < a.Restarts; r++ {
		mdl.randomTau(rng)
		run, err := mdl.run(ctx, a, rng)
		if err != nil {
			return nil, err
		}
		final := run.elbo[len(run.elbo)-1]
		if math.IsNaN(final) || math.IsInf(final, 0) {
			return nil, fmt.Errorf("bagc: restart %d: ELBO %v", r, final)
		}
		finals = append(finals, strconv.FormatFloat(final, 'g', 12, 64))
		if best == nil || final > best.elbo[len(best.elbo)-1] {
			run.tau = mat.DenseCopyOf(mdl.tau)
			best, bestAt = run, r
		}
	}
	labels := ArgmaxRows(best.tau)
	used := map[int]bool{}
	for _, l := range labels {
		used[l] = true
	}
	warm := strconv.Itoa(a.WarmSweeps) + " sweeps"
	if a.WarmSweeps == 0 || mdl.edges == 0 {
		warm = "none"
	}
	return &Result{
		Labels:     labels,
		Iterations: len(best.elbo),
		Objective:  best.elbo,
		FitTime:    time.Since(start),
		Factors:    map[string]*mat.Dense{"tau": best.tau},
		Info: map[string]string{
			"objective":     "ELBO (mean-field, conjugate collapse)",
			"priors":        fmt.Sprintf("ξ=%g γ=%g μ=%g ν=%g", a.Xi, a.Gamma, a.Mu, a.Nu),
			"schedule":      "sequential vertex updates in random order, global update per sweep",
			"warm_start":    warm,
			"edges":         "adjacency entries > 0 off the diagonal (self-loops dropped)",
			"attributes":    "binary: present where X > 0",
			"restarts":      strconv.Itoa(a.Restarts),
			"best_restart":  strconv.Itoa(bestAt),
			"final_elbos":   fmt.Sprint(finals),
			"converged":     strconv.FormatBool(best.converged),
			"clusters_used": strconv.Itoa(len(used)),
		},
	}, nil
}

// bagcRun is what one restart produced.
type bagcRun struct {
	elbo      []float64
	converged bool
	tau       *mat.Dense
}

// run fits from the model's current τ with a's (defaulted) schedule.
func (mdl *bagcModel) run(ctx context.Context, a BAGC, rng *rand.Rand) (*bagcRun, error) {
	mdl.refresh()
	mdl.updateGlobal()
	out := &bagcRun{elbo: make([]float64, 0, min(a.MaxSweeps, maxPrealloc))}
	order := make([]int, mdl.n)
	for sweep := 1; sweep <= a.MaxSweeps; sweep++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if sweep <= a.WarmSweeps {
			mdl.warmStart()
		}
		for i, p := range rng.Perm(mdl.n) {
			order[i] = p
		}
		mdl.sweep(order)
		mdl.refresh()
		mdl.updateGlobal()
		l := mdl.elbo()
		out.elbo = append(out.elbo, l)
		if sweep > a.WarmSweeps && sweep > 1 {
			prev := out.elbo[len(out.elbo)-2]
			if math.Abs(l-prev) < a.Tol*math.Abs(prev) {
				out.converged = true
				break
			}
		}
	}
	return out, nil
}

// bagcEdgePattern returns the 0/1 pattern of the entries > 0 of adj off its diagonal, and
// an error if that pattern is not symmetric.
func bagcEdgePattern(adj *sparse.CSR) (*sparse.CSR, error) {
	p := bagcPattern(adj.WithoutDiagonal())
	pt := p.T()
	n, _ := p.Dims()
	for i := 0; i < n; i++ {
		a, _ := p.Row(i)
		b, _ := pt.Row(i)
		if len(a) != len(b) {
			return nil, fmt.Errorf("bagc: adjacency is not symmetric (row %d)", i)
		}
		for q := range a {
			if a[q] != b[q] {
				return nil, fmt.Errorf("bagc: adjacency is not symmetric (row %d)", i)
			}
		}
	}
	return p, nil
}

// bagcBinaryPattern returns the 0/1 pattern of the entries > 0 of x.
func bagcBinaryPattern(x *sparse.CSR) *sparse.CSR { return bagcPattern(x) }

// bagcPattern returns a copy of a keeping only its entries > 0, each set to 1.
func bagcPattern(a *sparse.CSR) *sparse.CSR {
	r, c := a.Dims()
	ptr := make([]int, r+1)
	ind := make([]int, 0, a.NNZ())
	for i := 0; i < r; i++ {
		cols, vals := a.Row(i)
		for q, j := range cols {
			if vals[q] > 0 {
				ind = append(ind, j)
			}
		}
		ptr[i+1] = len(ind)
	}
	val := make([]float64, len(ind))
	for i := range val {
		val[i] = 1
	}
	p, err := sparse.NewCSR(r, c, ptr, ind, val)
	if err != nil {
		panic("bagc: pattern of a valid CSR is invalid: " + err.Error())
	}
	return p
}

// bagcModel holds the data, priors and variational state of one BAGC fit.
type bagcModel struct {
	n, m, k           int
	adj, x            *sparse.CSR // 0/1 patterns; adj symmetric without diagonal
	edges             int         // undirected edges |E|
	xi, gamma, mu, nu float64

	tau *mat.Dense // n×K responsibilities
	b   *mat.Dense // n×K neighbour mass Aτ
	s   []float64  // K cluster masses Σ_i τ_i

	c1         []float64 // m×K: c1[t*K+k] = Σ_i τ_ik y_it
	eKL, nKL   []float64 // K×K symmetric expected edges / non-edges per block
	eLogAlpha  []float64 // K
	attrD      []float64 // m×K: D_kt at [t*K+k]
	attrBase   []float64 // K
	wEdge      []float64 // K×K: E log φ − E log(1−φ)
	wNon       []float64 // K×K: E log(1−φ)
	logit, tmp []float64 // K scratch
}

func newBagcModel(adj, x *sparse.CSR, k int, xi, gamma, mu, nu float64) *bagcModel {
	n, _ := adj.Dims()
	_, m := x.Dims()
	return &bagcModel{
		n: n, m: m, k: k, adj: adj, x: x, edges: adj.NNZ() / 2,
		xi: xi, gamma: gamma, mu: mu, nu: nu,
		tau:       mat.NewDense(n, k, nil),
		b:         mat.NewDense(n, k, nil),
		s:         make([]float64, k),
		c1:        make([]float64, m*k),
		eKL:       make([]float64, k*k),
		nKL:       make([]float64, k*k),
		eLogAlpha: make([]float64, k),
		attrD:     make([]float64, m*k),
		attrBase:  make([]float64, k),
		wEdge:     make([]float64, k*k),
		wNon:      make([]float64, k*k),
		logit:     make([]float64, k),
		tmp:       make([]float64, k),
	}
}

// randomTau sets every row of τ to a Dirichlet(1,…,1) draw.
func (mdl *bagcModel) randomTau(rng *rand.Rand) {
	for i := 0; i < mdl.n; i++ {
		row := mdl.tau.RawRowView(i)
		sum := 0.0
		for l := range row {
			row[l] = rng.ExpFloat64()
			sum += row[l]
		}
		for l := range row {
			row[l] /= sum
		}
	}
}

// refresh recomputes s, B, the attribute counts and the block counts exactly from τ.
// Cost O((|E| + nnz(X))·K + n·K²).
func (mdl *bagcModel) refresh() {
	k := mdl.k
	sparse.MulDense(mdl.b, mdl.adj, mdl.tau)
	clear(mdl.s)
	clear(mdl.c1)
	eT := make([]float64, k*k) // τᵀB
	pT := make([]float64, k*k) // τᵀτ
	for i := 0; i < mdl.n; i++ {
		ti, bi := mdl.tau.RawRowView(i), mdl.b.RawRowView(i)
		for a, ta := range ti {
			mdl.s[a] += ta
			if ta == 0 {
				continue
			}
			ea, pa := eT[a*k:(a+1)*k], pT[a*k:(a+1)*k]
			for l := range ti {
				ea[l] += ta * bi[l]
				pa[l] += ta * ti[l]
			}
		}
		cols, _ := mdl.x.Row(i)
		for _, t := range cols {
			ct := mdl.c1[t*k : (t+1)*k]
			for a, ta := range ti {
				ct[a] += ta
			}
		}
	}
	for a := 0; a < k; a++ {
		for l := 0; l < k; l++ {
			// E and P are symmetric in exact arithmetic; average the two halves so that
			// the block counts are symmetric in floating point too.
			e := (eT[a*k+l] + eT[l*k+a]) / 2
			p := (pT[a*k+l] + pT[l*k+a]) / 2
			non := mdl.s[a]*mdl.s[l] - p - e
			if a == l {
				e, non = e/2, non/2
			}
			mdl.eKL[a*k+l] = e
			mdl.nKL[a*k+l] = max(non, 0)
		}
	}
}

// updateGlobal sets the expectations under the optimal global factors for the counts of
// the last refresh. Cost O(m·K + K²) digamma evaluations.
func (mdl *bagcModel) updateGlobal() {
	k := mdl.k
	sumXi := mdl.xi*float64(k) + bagcSum(mdl.s)
	psiSum := mathext.Digamma(sumXi)
	for a := 0; a < k; a++ {
		mdl.eLogAlpha[a] = mathext.Digamma(mdl.xi+mdl.s[a]) - psiSum
	}
	clear(mdl.attrBase)
	for t := 0; t < mdl.m; t++ {
		ct, dt := mdl.c1[t*k:(t+1)*k], mdl.attrD[t*k:(t+1)*k]
		for a := 0; a < k; a++ {
			c0 := max(mdl.s[a]-ct[a], 0)
			psi0 := mathext.Digamma(mdl.gamma + c0)
			dt[a] = mathext.Digamma(mdl.gamma+ct[a]) - psi0
			mdl.attrBase[a] += psi0
		}
	}
	for a := 0; a < k; a++ {
		mdl.attrBase[a] -= float64(mdl.m) * mathext.Digamma(2*mdl.gamma+mdl.s[a])
	}
	for q := range mdl.eKL {
		mt, nt := mdl.mu+mdl.eKL[q], mdl.nu+mdl.nKL[q]
		psiAll := mathext.Digamma(mt + nt)
		mdl.wEdge[q] = mathext.Digamma(mt) - mathext.Digamma(nt)
		mdl.wNon[q] = mathext.Digamma(nt) - psiAll
	}
}

// warmStart replaces the edge expectations by the assortative warm start (see BAGC). It
// does nothing on a graph without edges.
func (mdl *bagcModel) warmStart() {
	if mdl.edges == 0 || mdl.n < 2 {
		return
	}
	rho := float64(mdl.edges) / (float64(mdl.n) * float64(mdl.n-1) / 2)
	pIn, pOut := math.Min(0.9, float64(mdl.k)*rho), rho/2
	for a := 0; a < mdl.k; a++ {
		for l := 0; l < mdl.k; l++ {
			p := pOut
			if a == l {
				p = pIn
			}
			mdl.wEdge[a*mdl.k+l] = math.Log(p) - math.Log1p(-p)
			mdl.wNon[a*mdl.k+l] = math.Log1p(-p)
		}
	}
}

// sweep updates τ_i for the vertices in order, one at a time, keeping s and B current.
// The global expectations stay fixed. Cost O((|E| + nnz(X))·K + n·K²).
func (mdl *bagcModel) sweep(order []int) {
	k := mdl.k
	logit, rest := mdl.logit, mdl.tmp
	braw := mdl.b.RawMatrix()
	for _, i := range order {
		ti, bi := mdl.tau.RawRowView(i), mdl.b.RawRowView(i)
		for a := range logit {
			logit[a] = mdl.eLogAlpha[a] + mdl.attrBase[a]
		}
		cols, _ := mdl.x.Row(i)
		for _, t := range cols {
			for a, d := range mdl.attrD[t*k : (t+1)*k] {
				logit[a] += d
			}
		}
		for l := range rest {
			rest[l] = mdl.s[l] - ti[l]
		}
		for a := range logit {
			we, wn := mdl.wEdge[a*k:(a+1)*k], mdl.wNon[a*k:(a+1)*k]
			acc := 0.0
			for l := range we {
				acc += bi[l]*we[l] + rest[l]*wn[l]
			}
			logit[a] += acc
		}
		bagcSoftmax(logit)
		// logit now holds the new τ_i; turn rest into the change.
		for a := range rest {
			rest[a] = logit[a] - ti[a]
			mdl.s[a] += rest[a]
			ti[a] = logit[a]
		}
		nbrs, _ := mdl.adj.Row(i)
		for _, j := range nbrs {
			bj := braw.Data[j*braw.Stride : j*braw.Stride+k]
			for a, d := range rest {
				bj[a] += d
			}
		}
	}
}

// bagcSoftmax replaces v by softmax(v), subtracting the maximum first.
func bagcSoftmax(v []float64) {
	top := math.Inf(-1)
	for _, x := range v {
		top = max(top, x)
	}
	sum := 0.0
	for a, x := range v {
		v[a] = math.Exp(x - top)
		sum += v[a]
	}
	for a := range v {
		v[a] /= sum
	}
}

// elbo returns L for the current τ and the counts of the last refresh.
// Cost O(n·K + m·K + K²) lgamma evaluations at most.
func (mdl *bagcModel) elbo() float64 {
	k := mdl.k
	l := 0.0
	for _, t := range mdl.tau.RawMatrix().Data {
		if t > 0 {
			l -= t * math.Log(t)
		}
	}
	// log Bdir(ξ̃)/Bdir(ξ)
	sumXi := 0.0
	for a := 0; a < k; a++ {
		x := mdl.xi + mdl.s[a]
		l += bagcLgamma(x) - bagcLgamma(mdl.xi)
		sumXi += x
	}
	l += bagcLgamma(mdl.xi*float64(k)) - bagcLgamma(sumXi)
	// Σ_kt log Beta(γ̃1, γ̃0)/Beta(γ, γ)
	priorAttr := 2*bagcLgamma(mdl.gamma) - bagcLgamma(2*mdl.gamma)
	for a := 0; a < k; a++ {
		norm := bagcLgamma(2*mdl.gamma + mdl.s[a])
		for t := 0; t < mdl.m; t++ {
			c1 := mdl.c1[t*k+a]
			c0 := max(mdl.s[a]-c1, 0)
			l += bagcLgamma(mdl.gamma+c1) + bagcLgamma(mdl.gamma+c0) - norm - priorAttr
		}
	}
	// Σ_{k≤l} log Beta(μ̃, ν̃)/Beta(μ, ν)
	priorEdge := bagcLgamma(mdl.mu) + bagcLgamma(mdl.nu) - bagcLgamma(mdl.mu+mdl.nu)
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			mt, nt := mdl.mu+mdl.eKL[a*k+b], mdl.nu+mdl.nKL[a*k+b]
			l += bagcLgamma(mt) + bagcLgamma(nt) - bagcLgamma(mt+nt) - priorEdge
		}
	}
	return l
}

// bagcLgamma is log Γ(x) for x > 0.
func bagcLgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

func bagcSum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

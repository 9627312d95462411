package algorithms

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"

	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// BAGC protocols (the protocol option).
const (
	// BAGCProtocolVariant is the default: the sequential mean-field fit with an
	// assortative warm start documented on BAGC.
	BAGCProtocolVariant = "variant"
	// BAGCProtocolReference does what BAGC's public MATLAB code (Zhiqiang Xu, 2012) does,
	// the code behind the NAGC paper's BAGC cells; see fitReference.
	BAGCProtocolReference = "reference"
)

// bagcReference holds the fixed constants of BAGC's public code.
const (
	bagcRefIterNum   = 5                   // iter_num: the outer loop runs iter_num − 1 times
	bagcRefInner     = 4                   // inner (Jacobi) sweeps at most per outer iteration
	bagcRefOuterTol  = 1e-10               // |1 − L/L_old| that stops the outer loop
	bagcRefInnerTol  = 1e-4                // max |Δβ| that stops the inner loop
	bagcRefPrune     = 1e-10               // posterior entries below it are set to 0 (not renormalised)
	bagcRefWalkPrune = 0.005               // the initial walk drops entries in (0, 0.005] after each step ≥ 2
	bagcRefRestart   = 0.15                // restart probability of the initial walk
	bagcRefWalkSteps = 10                  // steps of the initial walk
	bagcRefLogMin    = -708.39641853226410 // log(realmin): logits are clamped below at it
)

// fitReference runs BAGC as its public MATLAB code does (protocol: reference); its
// partitions equal that code's under GNU Octave on the paper's four graphs
// (specs/bagc-reference.md).
//
// Input: the adjacency pattern (entries > 0, symmetric) with its self-loops kept as
// A_ii = 1; each attribute column a categorical variable whose categories are its sorted
// distinct values (see categorical: a 0/1 column has two, so absence is evidence).
//
// Computed: the code's deterministic initialisation (a pruned walk with restart on the
// attribute-augmented graph, every vertex to the centre of largest walk score; each row
// of R by a sparse accumulator, the walk out of a row's value-0 attribute vertices summed
// in bulk), then iter_num − 1 outer iterations of closed-form updates, a lower bound L
// and up to 4 Jacobi sweeps of β. Every formula and threshold is in
// docs/methods-discussed.md#the-reference-protocol-step-by-step. Labels: row argmax of β,
// first maximum; clusters may be empty. L may fall between outer iterations; it is
// Result.Objective.
//
// Cost: the initialisation O(n·(n + nnz(X)) + Σ_i deg_i·T) time and O(n + M) memory
// (M the number of categories); each Jacobi sweep O((|E| + n·K)·K), each outer iteration
// O(nnz(X)·K + M·K) digamma evaluations. Memory O((n + M)·K) beyond the inputs.
func (a BAGC) fitReference(ctx context.Context, in Input, k int) (*Result, error) {
	start := time.Now()
	adj, err := bagcRefPattern(in.Adj)
	if err != nil {
		return nil, err
	}
	n := in.N()
	x, _ := in.ExplicitAttributes() // validated: sparse rows
	cat := newCategorical(x)
	m := cat.categories()
	need := memory.Add(memory.Bytes(int64(n)*int64(k), 8*6), memory.Bytes(int64(m)*int64(k), 8*2),
		memory.Bytes(int64(n+m), 8*2), memory.Bytes(int64(n)*int64(k), 8))
	if err := memory.Check(fmt.Sprintf("bagc (protocol reference) on %d vertices, %d attribute values, k = %d", n, m, k), need); err != nil {
		return nil, err
	}
	labels0, centres := bagcRefInit(adj, cat, k)
	initTime := time.Since(start)
	iterNum := a.IterNum
	if iterNum == 0 {
		iterNum = bagcRefIterNum
	}
	opt := newBagcRefOpt(adj, cat, k, a.Xi, a.Gamma, a.Mu, a.Nu, labels0)
	bounds, sweeps, err := opt.run(ctx, iterNum)
	if err != nil {
		return nil, err
	}
	labels := ArgmaxRows(opt.beta)
	used := map[int]bool{}
	for _, l := range labels {
		used[l] = true
	}
	return &Result{
		Labels:     labels,
		Iterations: len(bounds),
		Objective:  bounds,
		FitTime:    time.Since(start) - initTime,
		InitTime:   initTime,
		Factors:    map[string]*mat.Dense{"tau": opt.beta},
		Info: map[string]string{
			"protocol":      BAGCProtocolReference,
			"objective":     "lower bound of BAGC's public code, before each outer iteration's update",
			"priors":        fmt.Sprintf("ξ=%g γ=%g μ=%g ν=%g", a.Xi, a.Gamma, a.Mu, a.Nu),
			"schedule":      fmt.Sprintf("iter_num %d: up to %d outer iterations of up to %d Jacobi sweeps", iterNum, iterNum-1, bagcRefInner),
			"inner_sweeps":  fmt.Sprint(sweeps),
			"init":          "random walk with restart on the attribute-augmented graph, k highest-degree centres (ties to the larger index)",
			"centres":       fmt.Sprint(centres),
			"edges":         "adjacency entries > 0, self-loops kept (A_ii = 1)",
			"attributes":    "each column a categorical variable over its distinct values",
			"clusters_used": strconv.Itoa(len(used)),
		},
	}, nil
}

// bagcRefPattern returns the 0/1 pattern of the entries > 0 of adj, diagonal included,
// and an error if it is not symmetric.
func bagcRefPattern(adj *sparse.CSR) (*sparse.CSR, error) {
	p := bagcPattern(adj)
	pt := p.T()
	n, _ := p.Dims()
	for i := 0; i < n; i++ {
		a, _ := p.Row(i)
		b, _ := pt.Row(i)
		if !slices.Equal(a, b) {
			return nil, fmt.Errorf("bagc: adjacency is not symmetric (row %d)", i)
		}
	}
	return p, nil
}

// bagcRefCentres returns the k vertices of largest degree (row count of adj, a self-loop
// counted once), largest first, ties to the larger index: the last k of a stable
// ascending sort by degree, read from the end.
func bagcRefCentres(adj *sparse.CSR, k int) []int {
	n, _ := adj.Dims()
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return adj.RowNNZ(x) - adj.RowNNZ(y) })
	c := make([]int, k)
	for r := range c {
		c[r] = order[n-1-r]
	}
	return c
}

// bagcRefInit returns the initial labels of BAGC's public code and its centres (see
// fitReference). Cost O(n·(n + nnz(X)) + Σ_i deg_i·T).
func bagcRefInit(adj *sparse.CSR, cat *categorical, k int) (labels, centres []int) {
	n := cat.n
	centres = bagcRefCentres(adj, k)
	centreOf := make([]int, n)
	for i := range centreOf {
		centreOf[i] = -1
	}
	for r, c := range centres {
		centreOf[c] = r
	}
	w := newAugWalk(adj, cat, nil)
	labels = make([]int, n)
	rw := make([]float64, k)
	for i := 0; i < n; i++ {
		clear(rw)
		w.row(i, bagcRefWalkSteps, func(s int) float64 { return bagcRefWalkPrune }, func(j int, v float64) {
			if j < n && centreOf[j] >= 0 {
				rw[centreOf[j]] += v
			}
		})
		best := 0
		for r, v := range rw {
			if v > rw[best] {
				best = r
			}
		}
		labels[i] = best
	}
	for r, c := range centres {
		labels[c] = r
	}
	return labels, centres
}

// augWalk computes rows of the pruned random walk with restart on an attribute-augmented
// graph: n structure vertices (edges of adj, weight 1 each) plus one attribute vertex per
// category of cat (index n + category), vertex i linked to its category of every column
// with the column's weight (1 where weight is nil). The walk is 0.85·D⁻¹·Aug, restart
// 0.15: v_1 = 0.15·F_i, v_s = prune_s(v_{s−1}·F). Rows are independent, so a row costs
// O(n + nnz(X) + Σ_{j ∈ support} (deg_j + T)) per step with the bulk sum over the
// attribute vertices of value 0.
type augWalk struct {
	n, t   int
	adj    *sparse.CSR
	cat    *categorical
	weight []float64 // per column; nil for all 1
	// fprune, when > 0, drops every entry of 0.85·P that is ≤ fprune before the walk
	// (SA-Cluster's public code), judged at the weights pruneW (nil: weight's values
	// when the walk was made), so that later weight changes rescale the kept entries only.
	fprune  float64
	pruneW  []float64
	inv     []float64 // 1/row sum of Aug for every augmented vertex
	acc     []float64 // dense accumulator over the n + M augmented vertices
	touched []int
	mark    []bool
	zval    []float64 // per column: pending walk mass leaving its value-0 vertex
	zcols   []int
	cur     []int
	curV    []float64
}

func newAugWalk(adj *sparse.CSR, cat *categorical, weight []float64) *augWalk {
	n, m := cat.n, cat.categories()
	w := &augWalk{n: n, t: cat.cols, adj: adj, cat: cat, weight: weight,
		inv: make([]float64, n+m), acc: make([]float64, n+m), mark: make([]bool, n+m),
		zval: make([]float64, cat.cols)}
	wsum := float64(cat.cols)
	if weight != nil {
		wsum = 0
		for _, x := range weight {
			wsum += x
		}
	}
	for i := 0; i < n; i++ {
		w.inv[i] = 1 / (float64(adj.RowNNZ(i)) + wsum)
	}
	for g := 0; g < m; g++ {
		if s := cat.size[g]; s > 0 {
			w.inv[n+g] = 1 / float64(s)
		}
	}
	return w
}

func (w *augWalk) colWeight(t int) float64 {
	if w.weight == nil {
		return 1
	}
	return w.weight[t]
}

func (w *augWalk) add(j int, v float64) {
	if !w.mark[j] {
		w.mark[j] = true
		w.touched = append(w.touched, j)
	}
	w.acc[j] += v
}

// spread adds mass a leaving augmented vertex j (one step of 0.85·P) to the accumulator;
// mass leaving a value-0 attribute vertex is deferred to flushZero.
func (w *augWalk) spread(j int, a float64) {
	n := w.n
	if j < n {
		f := (1 - bagcRefRestart) * w.inv[j]
		nb, _ := w.adj.Row(j)
		if f <= w.fprune {
			nb = nil
		}
		for _, u := range nb {
			w.add(u, a*f)
		}
		cols, cats := w.cat.row(j)
		p := 0
		for t := 0; t < w.t; t++ {
			g := w.cat.zero[t]
			if p < len(cols) && cols[p] == t {
				g = cats[p]
				p++
			}
			if w.fprune > 0 && f*w.pruneW[t] <= w.fprune {
				continue
			}
			w.add(n+g, a*f*w.colWeight(t))
		}
		return
	}
	g := j - n
	t := w.cat.col[g]
	f := (1 - bagcRefRestart) * w.inv[j]
	if f <= w.fprune {
		return
	}
	if g == w.cat.zero[t] {
		if w.zval[t] == 0 {
			w.zcols = append(w.zcols, t)
		}
		w.zval[t] += a * f
		return
	}
	w.cat.members(t, g, func(u int) { w.add(u, a*f) })
}

// flushZero adds the deferred mass of the value-0 vertices to their members: directly
// when they are few, else as a base for every vertex minus the columns it holds.
func (w *augWalk) flushZero() {
	if len(w.zcols) == 0 {
		return
	}
	direct := 0
	for _, t := range w.zcols {
		direct += w.cat.size[w.cat.zero[t]]
	}
	if direct <= w.n+len(w.cat.rowCol) {
		for _, t := range w.zcols {
			v := w.zval[t]
			w.cat.members(t, w.cat.zero[t], func(u int) { w.add(u, v) })
		}
	} else {
		base := 0.0
		for _, t := range w.zcols {
			base += w.zval[t]
		}
		for u := 0; u < w.n; u++ {
			s := base
			cols, _ := w.cat.row(u)
			for _, t := range cols {
				s -= w.zval[t]
			}
			w.add(u, s)
		}
	}
	for _, t := range w.zcols {
		w.zval[t] = 0
	}
	w.zcols = w.zcols[:0]
}

// row computes the walk from vertex i over steps steps, pruning after step s ≥ 2 the
// entries ≤ thr(s) (entries are ≥ 0 in exact arithmetic; a bulk sum's rounding below 0
// is pruned too), and calls emit for every entry of every step (entries may repeat
// across steps; their sum is the row of R).
func (w *augWalk) row(i, steps int, thr func(s int) float64, emit func(j int, v float64)) {
	w.cur, w.curV = w.cur[:0], w.curV[:0]
	// Step 1: 0.15·F_i, kept whole.
	w.spread(i, bagcRefRestart)
	w.flushZero()
	w.collect(math.Inf(-1))
	for q, j := range w.cur {
		emit(j, w.curV[q])
	}
	for s := 2; s <= steps && len(w.cur) > 0; s++ {
		for q, j := range w.cur {
			w.spread(j, w.curV[q])
		}
		w.flushZero()
		w.collect(thr(s))
		for q, j := range w.cur {
			emit(j, w.curV[q])
		}
	}
}

// collect moves the accumulator's entries above thr into cur, in the (deterministic)
// order they were first touched, and clears it.
func (w *augWalk) collect(thr float64) {
	w.cur, w.curV = w.cur[:0], w.curV[:0]
	for _, j := range w.touched {
		if v := w.acc[j]; v > thr && v != 0 {
			w.cur = append(w.cur, j)
			w.curV = append(w.curV, v)
		}
		w.acc[j], w.mark[j] = 0, false
	}
	w.touched = w.touched[:0]
}

// bagcRefOpt is the variational state of the reference optimisation.
type bagcRefOpt struct {
	n, k, m           int
	adj               *sparse.CSR
	cat               *categorical
	xi, gamma, mu, nu float64

	beta, old, ab, tmp, attr *mat.Dense // n×K
	s                        []float64  // K column sums
	cnt                      []float64  // M×K: γ̃ − γ per category
	muT, nuT, b1, b2         []float64  // K×K
	aCat                     []float64  // M×K: ψ(γ̃) − ψ(Σ_c γ̃) per category
}

func newBagcRefOpt(adj *sparse.CSR, cat *categorical, k int, xi, gamma, mu, nu float64, labels []int) *bagcRefOpt {
	n, m := cat.n, cat.categories()
	o := &bagcRefOpt{n: n, k: k, m: m, adj: adj, cat: cat, xi: xi, gamma: gamma, mu: mu, nu: nu,
		beta: mat.NewDense(n, k, nil), old: mat.NewDense(n, k, nil), ab: mat.NewDense(n, k, nil),
		tmp: mat.NewDense(n, k, nil), attr: mat.NewDense(n, k, nil),
		s: make([]float64, k), cnt: make([]float64, m*k), aCat: make([]float64, m*k),
		muT: make([]float64, k*k), nuT: make([]float64, k*k), b1: make([]float64, k*k), b2: make([]float64, k*k)}
	for i, l := range labels {
		o.beta.Set(i, l, 1)
	}
	return o
}

// run runs the outer loop iterNum − 1 times at most and returns the lower bound of each
// outer iteration and the inner sweeps each ran.
func (o *bagcRefOpt) run(ctx context.Context, iterNum int) ([]float64, []int, error) {
	var bounds []float64
	var sweeps []int
	for i := 1; i < iterNum; i++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		o.global()
		l := o.lowerBound()
		bounds = append(bounds, l)
		if i > 1 {
			prev := bounds[len(bounds)-2]
			if prev == 0 {
				return nil, nil, fmt.Errorf("bagc: lower bound 0 at outer iteration %d", i-1)
			}
			if math.Abs(1-l/prev) < bagcRefOuterTol {
				break
			}
		}
		o.attributeTerm()
		sweeps = append(sweeps, o.inner())
	}
	return bounds, sweeps, nil
}

// global sets s, μ̃, ν̃ and the category counts from β.
func (o *bagcRefOpt) global() {
	k := o.k
	clear(o.s)
	raw := o.beta.RawMatrix()
	for i := 0; i < o.n; i++ {
		for l, v := range raw.Data[i*raw.Stride : i*raw.Stride+k] {
			o.s[l] += v
		}
	}
	sparse.MulDense(o.ab, o.adj, o.beta)
	var btab, btb mat.Dense
	btab.Mul(o.beta.T(), o.ab)
	btb.Mul(o.beta.T(), o.beta)
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			mt := btab.At(a, b)
			nt := o.s[a]*o.s[b] - btb.At(a, b) - mt
			if a == b {
				mt, nt = mt/2, nt/2
			}
			o.muT[a*k+b] = o.mu + mt
			o.nuT[a*k+b] = o.nu + nt
		}
	}
	clear(o.cnt)
	for i := 0; i < o.n; i++ {
		bi := raw.Data[i*raw.Stride : i*raw.Stride+k]
		_, cats := o.cat.row(i)
		for _, g := range cats {
			c := o.cnt[g*k : (g+1)*k]
			for l, v := range bi {
				c[l] += v
			}
		}
	}
	for t := 0; t < o.cat.cols; t++ {
		z := o.cat.zero[t]
		if z < 0 {
			continue
		}
		cz := o.cnt[z*k : (z+1)*k]
		copy(cz, o.s)
		for g := o.cat.off[t]; g < o.cat.off[t+1]; g++ {
			if g == z {
				continue
			}
			for l := range cz {
				cz[l] -= o.cnt[g*k+l]
			}
		}
	}
}

// lowerBound returns the lower bound of the public code for the current global state.
func (o *bagcRefOpt) lowerBound() float64 {
	k := o.k
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	betaln := func(a, b float64) float64 { return lg(a) + lg(b) - lg(a+b) }
	// Constant part (priors).
	c := lg(o.xi*float64(k)) - float64(k)*lg(o.xi)
	pe := betaln(o.mu, o.nu)
	c -= (float64(k)*pe + float64(k*k)*pe) / 2
	for t := 0; t < o.cat.cols; t++ {
		mt := float64(o.cat.off[t+1] - o.cat.off[t])
		c += float64(k)*lg(mt*o.gamma) - float64(k)*mt*lg(o.gamma)
	}
	d := 0.0
	sumXi := 0.0
	for l := 0; l < k; l++ {
		x := o.xi + o.s[l]
		sumXi += x
		d += lg(x)
	}
	d -= lg(sumXi)
	diag, all := 0.0, 0.0
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			v := betaln(o.muT[a*k+b], o.nuT[a*k+b])
			all += v
			if a == b {
				diag += v
			}
		}
	}
	d += (diag + all) / 2
	for t := 0; t < o.cat.cols; t++ {
		for l := 0; l < k; l++ {
			row := 0.0
			for g := o.cat.off[t]; g < o.cat.off[t+1]; g++ {
				x := o.gamma + o.cnt[g*k+l]
				row += x
				d += lg(x)
			}
			d -= lg(row)
		}
	}
	for _, v := range o.beta.RawMatrix().Data {
		if v > 0 {
			d -= v * math.Log(v)
		}
	}
	return c + d
}

// attributeTerm sets B1, B2 and the fixed term ψ(ξ̃) − ψ(Σξ̃) + Σ_t Y_t(ψ(γ̃_t) −
// ψ(rowsum γ̃_t))ᵀ of every vertex.
func (o *bagcRefOpt) attributeTerm() {
	k := o.k
	for q := range o.b1 {
		pn := mathext.Digamma(o.nuT[q])
		o.b1[q] = mathext.Digamma(o.muT[q]) - pn
		o.b2[q] = pn - mathext.Digamma(o.muT[q]+o.nuT[q])
	}
	eLogA := make([]float64, k)
	sumXi := 0.0
	for l := 0; l < k; l++ {
		sumXi += o.xi + o.s[l]
	}
	psiSum := mathext.Digamma(sumXi)
	base := make([]float64, k)
	for l := 0; l < k; l++ {
		eLogA[l] = mathext.Digamma(o.xi+o.s[l]) - psiSum
	}
	rowSum := make([]float64, k)
	for t := 0; t < o.cat.cols; t++ {
		clear(rowSum)
		for g := o.cat.off[t]; g < o.cat.off[t+1]; g++ {
			for l := 0; l < k; l++ {
				rowSum[l] += o.gamma + o.cnt[g*k+l]
			}
		}
		for l := range rowSum {
			rowSum[l] = mathext.Digamma(rowSum[l])
		}
		for g := o.cat.off[t]; g < o.cat.off[t+1]; g++ {
			for l := 0; l < k; l++ {
				o.aCat[g*k+l] = mathext.Digamma(o.gamma+o.cnt[g*k+l]) - rowSum[l]
			}
		}
		if z := o.cat.zero[t]; z >= 0 {
			for l := 0; l < k; l++ {
				base[l] += o.aCat[z*k+l]
			}
		}
	}
	raw := o.attr.RawMatrix()
	for i := 0; i < o.n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+k]
		for l := range row {
			row[l] = eLogA[l] + base[l]
		}
		cols, cats := o.cat.row(i)
		for p, g := range cats {
			z := o.cat.zero[cols[p]]
			for l := range row {
				row[l] += o.aCat[g*k+l]
				if z >= 0 {
					row[l] -= o.aCat[z*k+l]
				}
			}
		}
	}
}

// inner runs the Jacobi sweeps of one outer iteration and returns how many ran.
func (o *bagcRefOpt) inner() int {
	k := o.k
	diff := bagcRefInnerTol + 1
	keepOn := true
	j := 1
	colsum := make([]float64, k)
	for diff > bagcRefInnerTol && j <= bagcRefInner && keepOn {
		o.old.Copy(o.beta)
		braw, traw := o.beta.RawMatrix(), o.tmp.RawMatrix()
		clear(colsum)
		for i := 0; i < o.n; i++ {
			bi, ti := braw.Data[i*braw.Stride:i*braw.Stride+k], traw.Data[i*traw.Stride:i*traw.Stride+k]
			for a := 0; a < k; a++ {
				v := 0.0
				for l, b := range bi {
					v += b * o.b2[a*k+l]
				}
				ti[a] = v
				colsum[a] += v
			}
		}
		sparse.MulDense(o.ab, o.adj, o.beta)
		araw, xraw := o.ab.RawMatrix(), o.attr.RawMatrix()
		for i := 0; i < o.n; i++ {
			bi, ti := braw.Data[i*braw.Stride:i*braw.Stride+k], traw.Data[i*traw.Stride:i*traw.Stride+k]
			ai, xi := araw.Data[i*araw.Stride:i*araw.Stride+k], xraw.Data[i*xraw.Stride:i*xraw.Stride+k]
			top := math.Inf(-1)
			for a := 0; a < k; a++ {
				v := 0.0
				for l, b := range ai {
					v += b * o.b1[a*k+l]
				}
				v += colsum[a] - ti[a] + xi[a]
				if v < bagcRefLogMin {
					v = bagcRefLogMin
				}
				bi[a] = v
				top = max(top, v)
			}
			sum := 0.0
			for a := range bi {
				bi[a] = math.Exp(bi[a] - top)
				sum += bi[a]
			}
			for a := range bi {
				bi[a] /= sum
				if bi[a] < bagcRefPrune {
					bi[a] = 0
				}
			}
		}
		d := 0.0
		oraw := o.old.RawMatrix()
		for i := 0; i < o.n; i++ {
			bi, oi := braw.Data[i*braw.Stride:i*braw.Stride+k], oraw.Data[i*oraw.Stride:i*oraw.Stride+k]
			for a := range bi {
				d = max(d, math.Abs(bi[a]-oi[a]))
			}
		}
		if j > 1 && d >= diff {
			keepOn = false
		}
		diff = d
		j++
	}
	return j - 1
}

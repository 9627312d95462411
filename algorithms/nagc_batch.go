package algorithms

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/sparse"
)

// BatchKey returns the lockstep group of a NAGC fit of in into k clusters: fits of the
// same attribute matrix X (the same *sparse.CSR) with equal k1, k2 and iterations share
// their passes over X, whatever their λ, ρ, initialisation and adjacency (a held-out fit
// joins the fits of the full graph). Graph-filtered fits share one only with fits of the
// same adjacency and filter, whose attributes are the same. The key is "" for options
// that do not validate, which FitBatch reports on their own. A fit with a transform is
// keyed by its transform and not validated here (that would form the transformed
// attributes before the batch runs): FitBatch validates it on them.
func (a NAGC) BatchKey(in Input, k int) string {
	a = a.withDefaults(k)
	t := a.attributeTransform()
	if t == "" && a.validate(in, k) != nil {
		return ""
	}
	key := fmt.Sprintf("nagc/x=%p/k1=%d/k2=%d/t=%d", in.X, k, a.K2, a.Iterations)
	if in.xKey != "" {
		key += "/" + in.xKey
	}
	if t != "" {
		key += "/transform=" + t
	}
	if a.Filter.P > 0 {
		key += fmt.Sprintf("/adj=%p/%s", in.Adj, a.Filter.key())
	}
	return key
}

// Fit runs NAGC with k1 = k vertex clusters. See the type's documentation. FitTime is the
// iterations' wall time (the objective after each included), InitTime the time before
// them (validation, initial factors, set-up), and InitCached tells whether the initial
// factors came from in.Cache.
func (a NAGC) Fit(ctx context.Context, in Input, k int, seed uint64) (*Result, error) {
	res, errs := a.FitBatch(ctx, k, seed, []BatchFit{{Method: a, In: in}})
	return res[0], errs[0]
}

// FitBatch fits NAGC for every one of fits (see BatchFitter). Fits that differ only in
// their number of iterations, on the same input, are one fit: it runs to the largest
// count and the others are read off it on the way (the iterations have no convergence
// test and draw nothing, so a fit of t iterations is the start of a longer one, bit for
// bit; Result.PrefixOf says so). The fits with equal BatchKey are then advanced together,
// one iteration of all of them at a time, with the products X·V and Xᵀ·f(UH) formed for
// all of them at once as products of width B·k2 (B the fits in the group), so that every
// stored entry of X is read once per product for the whole group. Everything else each
// fit computes on its own, with the same kernels as a fit alone; since each column of a
// sparse product is summed over the stored entries in the same order whatever the width,
// every fit's factors, objective and labels are those of its own Fit, bit for bit.
// FitTime of a fit of a group of B is the group's iteration time (up to its own last
// iteration) divided by B (Result.BatchSize = B). Methods other than NAGC in fits are
// fitted alone with their Fit. Extra memory: 2·(n + m)·B·k2 floats, and a copy of the
// factors of every fit read off a longer one.
func (a NAGC) FitBatch(ctx context.Context, k int, seed uint64, fits []BatchFit) ([]*Result, []error) {
	res, errs := make([]*Result, len(fits)), make([]error, len(fits))
	var chains []*nagcChain
	byKey := map[chainKey]*nagcChain{}
	for i, f := range fits {
		m, ok := f.Method.(NAGC)
		if !ok {
			res[i], errs[i] = f.Method.Fit(ctx, f.In, k, seed)
			continue
		}
		if m.attributeTransform() != "" {
			// The fit reads the transformed attributes, shared through f.In.Cache.
			in, err := m.transformed(ctx, "nagc", f.In)
			if err != nil {
				errs[i] = err
				continue
			}
			m.Transform, f.In = "", in
		}
		m = m.withDefaults(k)
		if m.fast() { // float32 iterations, alone (nagc_f32.go)
			res[i], errs[i] = m.fitFast(ctx, f.In, k, seed)
			continue
		}
		ck, chainable := newChainKey(m, f.In)
		c := byKey[ck]
		if !chainable || c == nil {
			c = &nagcChain{fit: BatchFit{Method: m, In: f.In}, at: map[int][]int{}}
			chains = append(chains, c)
			if chainable {
				byKey[ck] = c
			}
		}
		c.at[m.Iterations] = append(c.at[m.Iterations], i)
	}
	// Lockstep groups by the BatchKey of each chain's longest fit: a group shares t.
	groups := map[string][]*nagcChain{}
	var order []string
	for _, c := range chains {
		m := c.fit.Method.(NAGC)
		m.Iterations = c.iterations()
		c.fit.Method = m
		key := m.BatchKey(c.fit.In, k)
		if key == "" { // invalid options: fitLockstep reports why
			key = fmt.Sprintf("alone/%p", c)
		}
		if _, seen := groups[key]; !seen {
			order = append(order, key)
		}
		groups[key] = append(groups[key], c)
	}
	for _, key := range order {
		fitLockstep(ctx, k, seed, groups[key], res, errs)
	}
	return res, errs
}

// chainKey identifies the fits that differ only in their number of iterations: NAGC's
// options with Iterations zeroed, and the input they fit.
type chainKey struct {
	a           NAGC
	xKey        string
	adj         *sparse.CSR
	x           attr.Matrix
	cache       *Cache
	truth       *int
	nTruth      int
	noObjective bool
}

// newChainKey returns the chain key of a fit of in with options a (defaults applied),
// and false where the fit cannot share iterations (an input carrying its own attribute
// operator).
func newChainKey(a NAGC, in Input) (chainKey, bool) {
	if in.filtered {
		return chainKey{}, false
	}
	a.Iterations = 0
	ck := chainKey{a: a, xKey: in.xKey, adj: in.Adj, x: in.X, cache: in.Cache, nTruth: len(in.Truth), noObjective: in.NoObjective}
	if len(in.Truth) > 0 {
		ck.truth = &in.Truth[0]
	}
	return ck, true
}

// nagcChain is one fit of a lockstep group and the fits read off it: fit, run to the
// largest of the iteration counts, stands for the fits at[t] (indices in the batch) of
// each count t.
type nagcChain struct {
	fit BatchFit
	at  map[int][]int
}

// fail sets err as the error of the chain's fits of from iterations or more.
func (c *nagcChain) fail(err error, from int, errs []error) {
	for n, idx := range c.at {
		if n >= from {
			for _, i := range idx {
				errs[i] = err
			}
		}
	}
}

// iterations returns the largest iteration count of the chain.
func (c *nagcChain) iterations() int {
	t := 0
	for n := range c.at {
		t = max(t, n)
	}
	return t
}

// nagcMember is one fit of a lockstep group.
type nagcMember struct {
	chain  *nagcChain
	a      NAGC
	s      *NAGCSolver
	info   string
	init   time.Duration
	cached bool
	noObj  bool // the caller reads the labels only (Input.NoObjective)
	obj    []float64
}

// fitLockstep fits the chains of one lockstep group (NAGC fits of one BatchKey, so of one
// iteration count t) together, storing each fit's result or error at its index.
func fitLockstep(ctx context.Context, k int, seed uint64, chains []*nagcChain, res []*Result, errs []error) {
	var members []*nagcMember
	var x sparse.Operator // the attributes, shared by the group
	for _, c := range chains {
		if err := ctx.Err(); err != nil {
			c.fail(err, 0, errs)
			continue
		}
		start := time.Now()
		mb, err := prepareMember(ctx, c.fit, k, seed, &x)
		if err != nil {
			c.fail(err, 0, errs)
			continue
		}
		mb.chain, mb.init, mb.noObj = c, time.Since(start), c.fit.In.NoObjective
		members = append(members, mb)
	}
	if len(members) == 0 {
		return
	}
	l := newLockstep(members, x)
	t := members[0].a.Iterations
	for _, mb := range members {
		if !mb.noObj {
			mb.obj = make([]float64, 0, min(t, maxPrealloc))
		}
	}
	start := time.Now()
	for it := 1; it <= t; it++ {
		if err := ctx.Err(); err != nil {
			for _, mb := range members {
				mb.chain.fail(err, it, errs) // the fits not yet read off
			}
			return
		}
		l.step()
		for _, mb := range members {
			if !mb.noObj {
				mb.obj = append(mb.obj, mb.s.Objective())
			}
		}
		per := time.Since(start) / time.Duration(len(members))
		for _, mb := range members {
			mb.emit(it, t, per, len(members), res, errs)
		}
		reportProgress(ctx, "nagc iterations", it, t)
	}
}

// emit stores the result of the member's fits of it iterations, if any: the factors as
// they are after iteration it of the member's t. Results read off before the last
// iteration get copies of the factors and of the loss curve so far.
func (mb *nagcMember) emit(it, t int, fitTime time.Duration, batch int, res []*Result, errs []error) {
	idx := mb.chain.at[it]
	if len(idx) == 0 {
		return
	}
	s := mb.s
	if !allFinite(s.U) || !allFinite(s.V) || !allFinite(s.H) {
		for _, i := range idx {
			errs[i] = errors.New("nagc: factors diverged (Inf or NaN after the updates)")
		}
		return
	}
	for n, i := range idx {
		u, v, h, obj := s.U, s.V, s.H, mb.obj
		if it < t || n > 0 { // the solver goes on, or another fit gets the same factors
			u, v, h = mat.DenseCopyOf(u), mat.DenseCopyOf(v), mat.DenseCopyOf(h)
			obj = slices.Clone(obj)
		}
		var prefixOf int
		if it < t {
			prefixOf = t
		}
		res[i] = &Result{
			Labels:     ArgmaxRows(u),
			Iterations: it,
			Objective:  obj,
			FitTime:    fitTime,
			InitTime:   mb.init,
			InitCached: mb.cached,
			BatchSize:  batch,
			PrefixOf:   prefixOf,
			Factors:    map[string]*mat.Dense{"U": u, "V": v, "H": h},
			Info:       mb.a.info(mb.info, s.U.RawMatrix().Rows, s.scale),
		}
	}
}

// info returns what a fit on n vertices records of itself: how its factors were
// started, the U rule of its ρ, the scale of S and the objective.
func (a NAGC) info(init string, n int, scale float64) map[string]string {
	m := map[string]string{
		"init":      init,
		"u_rule":    (&NAGCSolver{rho: a.Rho}).ruleName(),
		"s_scale":   fmt.Sprint(scale),
		"objective": "½·L_ρ(S−UUᵀ) + (λ/2)‖X−f(UH)Vᵀ‖²",
	}
	if why := a.initNInitInfo(n); why != "" {
		m["init_n_init"] = why
	}
	return m
}

// prepareMember validates a fit's options, draws its initial factors and sets up its
// solver. *x is the group's attribute operator, made from the first fit's input.
func prepareMember(ctx context.Context, f BatchFit, k int, seed uint64, x *sparse.Operator) (*nagcMember, error) {
	a := f.Method.(NAGC).withDefaults(k)
	st, err := a.start(ctx, f.In, k, seed)
	if err != nil {
		return nil, err
	}
	if *x == nil {
		*x = st.in.Attributes()
	}
	s := NewNAGCSolverOp(st.in.Adj, *x, st.u, st.v, st.h, a.Lambda, a.Rho)
	return &nagcMember{a: a, s: s, info: st.info, cached: st.cached}, nil
}

// nagcStart is what a fit has before its iterations: the input it reads (the
// graph-filtered attributes where the options ask), its initial factors, how they were
// made, and whether they came from the input's cache.
type nagcStart struct {
	in      Input
	u, v, h *mat.Dense
	info    string
	cached  bool
}

// start validates a fit's options (defaults applied) and draws its initial factors.
func (a NAGC) start(ctx context.Context, in Input, k int, seed uint64) (nagcStart, error) {
	if err := a.validate(in, k); err != nil {
		return nagcStart{}, err
	}
	computed := false
	in.Cache = in.Cache.observed(&computed)
	in, err := in.WithFilteredAttributesContext(ctx, a.Filter)
	if err != nil {
		return nagcStart{}, fmt.Errorf("nagc: %w", err)
	}
	u, v, h, info, err := a.initialise(ctx, in, k, seed)
	if err != nil {
		return nagcStart{}, err
	}
	cached := a.InitU == nil && a.Init != InitRandom && in.Cache != nil && !computed
	return nagcStart{in: in, u: u, v: v, h: h, info: info, cached: cached}, nil
}

// lockstep advances the solvers of a group one iteration at a time, forming the products
// with X for all of them at once. Column block b (k2 wide) of the wide matrices belongs to
// solver b.
type lockstep struct {
	s      []*NAGCSolver
	x      sparse.Operator
	k2     int
	v, xtf *mat.Dense // m × B·k2: [V₁ … V_B] and Xᵀ[f₁ … f_B]
	f, xv  *mat.Dense // n × B·k2: [f₁ … f_B] and X[V₁ … V_B]
}

func newLockstep(members []*nagcMember, x sparse.Operator) *lockstep {
	l := &lockstep{x: x}
	for _, mb := range members {
		l.s = append(l.s, mb.s)
	}
	if len(l.s) == 1 {
		return l
	}
	n, m := l.s[0].U.RawMatrix().Rows, l.s[0].V.RawMatrix().Rows
	l.k2 = l.s[0].V.RawMatrix().Cols
	w := len(l.s) * l.k2
	l.v, l.xtf = mat.NewDense(m, w, nil), mat.NewDense(m, w, nil)
	l.f, l.xv = mat.NewDense(n, w, nil), mat.NewDense(n, w, nil)
	return l
}

// step runs one iteration of every solver: exactly NAGCSolver.Step for each, with the
// products with X formed for all at once.
func (l *lockstep) step() {
	if len(l.s) == 1 {
		l.s[0].Step()
		return
	}
	for b, s := range l.s {
		s.finishU()
		putBlock(l.f, b, s.f)
	}
	l.x.TMulDense(l.xtf, l.f)
	for b, s := range l.s {
		getBlock(s.xtf, l.xtf, b)
		s.finishV()
		putBlock(l.v, b, s.V)
	}
	l.x.MulDense(l.xv, l.v)
	for b, s := range l.s {
		getBlock(s.xv, l.xv, b)
		s.finishH()
	}
}

// putBlock copies src (r×c) into columns [b·c, (b+1)·c) of dst. Cost O(r·c).
func putBlock(dst *mat.Dense, b int, src *mat.Dense) {
	d, s := dst.RawMatrix(), src.RawMatrix()
	for i := 0; i < s.Rows; i++ {
		copy(d.Data[i*d.Stride+b*s.Cols:i*d.Stride+(b+1)*s.Cols], s.Data[i*s.Stride:i*s.Stride+s.Cols])
	}
}

// getBlock copies columns [b·c, (b+1)·c) of src into dst (r×c). Cost O(r·c).
func getBlock(dst, src *mat.Dense, b int) {
	d, s := dst.RawMatrix(), src.RawMatrix()
	for i := 0; i < d.Rows; i++ {
		copy(d.Data[i*d.Stride:i*d.Stride+d.Cols], s.Data[i*s.Stride+b*d.Cols:i*s.Stride+(b+1)*d.Cols])
	}
}

package algorithms

import (
	"context"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// saGraph is SA-Cluster's attribute-augmented graph: the n structure vertices plus one
// attribute vertex per (column, nonzero value) — per (column, bin) with binning — each
// structure vertex linked with weight w_t to the vertex of its value of column t, and to
// its neighbours with weight 1. Its walk matrix P splits into
//
//	Pv = D⁻¹A (n×n), Pa = D⁻¹·E·diag(w) (n×M), B = C⁻¹Eᵀ (M×n)
//
// with E the n×M vertex–value incidence, D_ii = deg_i + Σ_{t held by i} w_t and C the
// number of vertices of each value; attribute vertices link to structure vertices only,
// so the n×n block of P^γ obeys X_γ = Pv·X_{γ−1} + Pa·(B·X_{γ−2}), X_0 = I, X_1 = Pv.
type saGraph struct {
	n, m, cols int
	adj        *sparse.CSR // 0/1 pattern, self-loops kept
	inc        *sparse.CSR // n×M incidence E (0/1)
	valCol     []int       // column of each attribute vertex
	b          *sparse.CSR // M×n: 1/|members| from each attribute vertex to its members
}

// newSAGraph builds the augmented graph of adj (its pattern, self-loops kept) and x: one
// attribute vertex per distinct nonzero value of each column, or with bins > 0 per
// equal-frequency bin of the column's nonzero values (a column with at most bins distinct
// values keeps one vertex per value). A zero is no value: absent attributes link nothing.
// Cost O(nnz(X) log nnz(X)).
func newSAGraph(adj, x *sparse.CSR, bins int) *saGraph {
	n, cols := x.Dims()
	xt := x.T()
	valOf := make([]int, x.NNZ()) // attribute vertex of each entry of xt, in xt's order
	var valCol []int
	m := 0
	q := 0
	var vals []float64
	for t := 0; t < cols; t++ {
		_, vs := xt.Row(t)
		vals = vals[:0]
		for _, v := range vs {
			if v != 0 {
				vals = append(vals, v)
			}
		}
		slices.Sort(vals)
		distinct := slices.Compact(slices.Clone(vals))
		// code maps a value to its vertex offset within the column.
		var code func(v float64) int
		nv := len(distinct)
		if bins > 0 && len(distinct) > bins {
			// Equal-frequency bins: the b-th bin holds the values of rank in
			// [b·len/bins, (b+1)·len/bins); equal values share the bin of their first rank.
			sorted := vals
			nv = bins
			code = func(v float64) int {
				r := sort.SearchFloat64s(sorted, v)
				return min(r*bins/len(sorted), bins-1)
			}
		} else {
			code = func(v float64) int {
				k, _ := slices.BinarySearch(distinct, v)
				return k
			}
		}
		used := make([]bool, nv)
		for _, v := range vs {
			if v != 0 {
				used[code(v)] = true
			}
		}
		// Renumber used codes densely (binning may leave a bin empty).
		dense := make([]int, nv)
		for c, u := range used {
			if u {
				dense[c] = m
				valCol = append(valCol, t)
				m++
			}
		}
		for _, v := range vs {
			if v != 0 {
				valOf[q] = dense[code(v)]
			} else {
				valOf[q] = -1
			}
			q++
		}
	}
	// Incidence E, row-major.
	eb := sparse.NewBuilder(n, m)
	q = 0
	for t := 0; t < cols; t++ {
		rows, _ := xt.Row(t)
		for _, i := range rows {
			if g := valOf[q]; g >= 0 {
				_ = eb.Add(i, g, 1)
			}
			q++
		}
	}
	inc := eb.CSR(sparse.MaxDuplicates)
	it := inc.T()
	size := it.RowSums()
	bt := make([]float64, len(size))
	for g, s := range size {
		bt[g] = 1 / s
	}
	return &saGraph{n: n, m: m, cols: cols, adj: bagcPattern(adj), inc: inc, valCol: valCol, b: it.ScaleRows(bt)}
}

// walkMatrices returns Pv and Pa for attribute weights w (per column).
func (g *saGraph) walkMatrices(w []float64) (pv, pa *sparse.CSR) {
	inv := make([]float64, g.n)
	for i := 0; i < g.n; i++ {
		d := float64(g.adj.RowNNZ(i))
		cols, _ := g.inc.Row(i)
		for _, v := range cols {
			d += w[g.valCol[v]]
		}
		if d > 0 {
			inv[i] = 1 / d
		}
	}
	colW := make([]float64, g.m)
	for v, t := range g.valCol {
		colW[v] = w[t]
	}
	return g.adj.ScaleRows(inv), g.inc.ScaleColumns(colW).ScaleRows(inv)
}

// saWalk computes SA-Cluster's random-walk matrix R = Σ_{γ=1}^{l} c(1−c)^γ X_γ over the
// structure vertices, column block by column block (the columns of X_γ are independent),
// and, for Inc-Cluster, keeps the X_γ to update R incrementally after a weight change.
type saWalk struct {
	g        *saGraph
	restart  float64
	length   int
	block    int
	pv, pa   *sparse.CSR
	r        *mat.Dense   // n×n
	xs       []*mat.Dense // Inc-Cluster: X_1 … X_l (n×n each); nil for SA-Cluster
	bufs     chan *saBuf
	coefs    []float64
	weighted []float64 // the weights pv, pa were built for
	// transposed stores Rᵀ in r: row i of r is then the walk into vertex i from every
	// vertex (direction from-centre).
	transposed bool
	// ctx, when set, makes compute and update skip their remaining column blocks once it
	// is cancelled, leaving R incomplete: the caller then returns ctx's error.
	ctx context.Context
}

// saBuf is one worker's scratch for a column block.
type saBuf struct {
	x      [3]*mat.Dense // X_{γ−2}, X_{γ−1}, X_γ (n×b)
	d      [3]*mat.Dense // ΔX likewise (Inc-Cluster)
	t1, bx *mat.Dense    // n×b, M×b
	t2     *mat.Dense    // n×b
}

func newSAWalk(g *saGraph, restart float64, length, workers int, incremental bool) *saWalk {
	block := min(g.n, 64)
	w := &saWalk{g: g, restart: restart, length: length, block: block,
		r: mat.NewDense(g.n, g.n, nil), bufs: make(chan *saBuf, workers)}
	for s := 1; s <= length; s++ {
		w.coefs = append(w.coefs, restart*math.Pow(1-restart, float64(s)))
	}
	for q := 0; q < workers; q++ {
		b := &saBuf{t1: mat.NewDense(g.n, block, nil), t2: mat.NewDense(g.n, block, nil), bx: mat.NewDense(max(g.m, 1), block, nil)}
		for z := range b.x {
			b.x[z] = mat.NewDense(g.n, block, nil)
			if incremental {
				b.d[z] = mat.NewDense(g.n, block, nil)
			}
		}
		w.bufs <- b
	}
	if incremental {
		w.xs = make([]*mat.Dense, length)
		for s := range w.xs {
			w.xs[s] = mat.NewDense(g.n, g.n, nil)
		}
	}
	return w
}

// saWalkBytes estimates the memory of a walk: R and Inc-Cluster's l stored X_γ (n×n
// each), and every worker's scratch (five n×b and one M×b blocks, three more n×b for
// Inc-Cluster).
func saWalkBytes(n, m, length, workers int, incremental bool) (matrices, scratch uint64) {
	nn := memory.Bytes(int64(n)*int64(n), 8)
	block := int64(min(n, 64))
	perWorker := 5*int64(n) + int64(max(m, 1))
	copies := 1
	if incremental {
		perWorker += 3 * int64(n)
		copies += length
	}
	matrices = memory.Bytes(int64(copies), 1)
	if nn > 0 && matrices > math.MaxUint64/nn {
		matrices = math.MaxUint64
	} else {
		matrices *= nn
	}
	return matrices, memory.Bytes(int64(workers)*block*perWorker, 8)
}

// blocks calls fn for every column block [lo, hi) in parallel, with a worker's scratch.
func (w *saWalk) blocks(fn func(lo, hi int, b *saBuf)) {
	nb := (w.g.n + w.block - 1) / w.block
	parallel.Run(nb, func(q int) {
		if w.ctx != nil && w.ctx.Err() != nil {
			return
		}
		b := <-w.bufs
		lo := q * w.block
		hi := min(lo+w.block, w.g.n)
		fn(lo, hi, b)
		w.bufs <- b
	})
}

// view returns the first c columns of d.
func view(d *mat.Dense, c int) *mat.Dense {
	r, cc := d.Dims()
	if c == cc {
		return d
	}
	return d.Slice(0, r, 0, c).(*mat.Dense)
}

// compute sets R (and, for Inc-Cluster, every X_γ) for weights wt from scratch. Cost
// O(l·n·(nnz(A) + 2·nnz(X))).
func (w *saWalk) compute(wt []float64) {
	w.pv, w.pa = w.g.walkMatrices(wt)
	w.weighted = slices.Clone(wt)
	w.blocks(func(lo, hi int, b *saBuf) {
		c := hi - lo
		x0, x1, x2 := view(b.x[0], c), view(b.x[1], c), view(b.x[2], c)
		x0.Zero()
		for q := 0; q < c; q++ {
			x0.Set(lo+q, q, 1)
		}
		sparse.MulDense(x1, w.pv, x0) // X_1
		w.zeroR(lo, hi)
		w.addR(lo, hi, w.coefs[0], x1)
		if w.xs != nil {
			w.xs[0].Slice(0, w.g.n, lo, hi).(*mat.Dense).Copy(x1)
		}
		for s := 2; s <= w.length; s++ {
			w.step(x2, x1, x0, b, c)
			w.addR(lo, hi, w.coefs[s-1], x2)
			if w.xs != nil {
				w.xs[s-1].Slice(0, w.g.n, lo, hi).(*mat.Dense).Copy(x2)
			}
			x0, x1, x2 = x1, x2, x0
		}
	})
}

// step sets dst = Pv·prev + Pa·(B·prev2).
func (w *saWalk) step(dst, prev, prev2 *mat.Dense, b *saBuf, c int) {
	t1, bx := view(b.t1, c), view(b.bx, c)
	sparse.MulDense(dst, w.pv, prev)
	if w.g.m > 0 {
		sparse.MulDense(bx, w.g.b, prev2)
		sparse.MulDense(t1, w.pa, bx)
		dst.Add(dst, t1)
	}
}

// update moves R and the X_γ from the weights of the last compute or update to wt
// incrementally (Inc-Cluster): with ΔPv = Pv' − Pv and ΔPa = Pa' − Pa (sparse, the
// pattern of A and of E),
//
//	ΔX_1 = ΔPv,  ΔX_γ = Pv'·ΔX_{γ−1} + ΔPv·X_{γ−1} + Pa'·B·ΔX_{γ−2} + ΔPa·B·X_{γ−2},
//
// X_γ += ΔX_γ and R += Σ c(1−c)^γ ΔX_γ. It equals compute(wt) up to rounding. Cost that
// of compute plus O(l·n·(nnz(A) + nnz(X))).
func (w *saWalk) update(wt []float64) {
	pv, pa := w.g.walkMatrices(wt)
	dpv, dpa := csrDiff(pv, w.pv), csrDiff(pa, w.pa)
	w.pv, w.pa = pv, pa
	w.weighted = slices.Clone(wt)
	n := w.g.n
	w.blocks(func(lo, hi int, b *saBuf) {
		c := hi - lo
		d0, d1, d2 := view(b.d[0], c), view(b.d[1], c), view(b.d[2], c)
		x0 := view(b.x[0], c)
		x0.Zero()
		for q := 0; q < c; q++ {
			x0.Set(lo+q, q, 1)
		}
		d0.Zero() // ΔX_0 = 0
		sparse.MulDense(d1, dpv, x0)
		w.addR(lo, hi, w.coefs[0], d1)
		prevOld := x0 // X_{γ−2} before the update; X_0 = I
		for s := 2; s <= w.length; s++ {
			xOld1 := w.xs[s-2].Slice(0, n, lo, hi).(*mat.Dense) // X_{γ−1}, old
			t1, t2, bx := view(b.t1, c), view(b.t2, c), view(b.bx, c)
			sparse.MulDense(d2, pv, d1)
			sparse.MulDense(t1, dpv, xOld1)
			d2.Add(d2, t1)
			if w.g.m > 0 {
				sparse.MulDense(bx, w.g.b, d0)
				sparse.MulDense(t1, pa, bx)
				sparse.MulDense(bx, w.g.b, prevOld)
				sparse.MulDense(t2, dpa, bx)
				d2.Add(d2, t1)
				d2.Add(d2, t2)
			}
			// X_{γ−1} may now take its update; X_{γ−2} (prevOld) was read last.
			if s == 2 {
				prevOld = view(b.x[1], c)
			}
			prevOld.Copy(xOld1)
			xOld1.Add(xOld1, d1)
			w.addR(lo, hi, w.coefs[s-1], d2)
			d0, d1, d2 = d1, d2, d0
		}
		xl := w.xs[w.length-1].Slice(0, n, lo, hi).(*mat.Dense)
		xl.Add(xl, d1)
	})
}

// zeroR clears the part of R that column block [lo, hi) of the walk sets.
func (w *saWalk) zeroR(lo, hi int) {
	if w.transposed {
		w.r.Slice(lo, hi, 0, w.g.n).(*mat.Dense).Zero()
		return
	}
	w.r.Slice(0, w.g.n, lo, hi).(*mat.Dense).Zero()
}

// addR adds f·src, the columns [lo, hi) of a walk term, to R (to its rows [lo, hi) when R
// is stored transposed).
func (w *saWalk) addR(lo, hi int, f float64, src *mat.Dense) {
	if !w.transposed {
		addScaled(w.r.Slice(0, w.g.n, lo, hi).(*mat.Dense), f, src)
		return
	}
	sraw := src.RawMatrix()
	for q := 0; q < hi-lo; q++ {
		row := w.r.RawRowView(lo + q)
		for i := range row {
			row[i] += f * sraw.Data[i*sraw.Stride+q]
		}
	}
}

// csrDiff returns a − b for two matrices of the same pattern.
func csrDiff(a, b *sparse.CSR) *sparse.CSR {
	r, _ := a.Dims()
	ptr := make([]int, r+1)
	var ind []int
	var val []float64
	for i := 0; i < r; i++ {
		ca, va := a.Row(i)
		_, vb := b.Row(i)
		for q, j := range ca {
			ind = append(ind, j)
			val = append(val, va[q]-vb[q])
		}
		ptr[i+1] = len(ind)
	}
	_, c := a.Dims()
	d, err := sparse.NewCSR(r, c, ptr, ind, val)
	if err != nil {
		panic("sa-cluster: " + err.Error())
	}
	return d
}

// addScaled sets dst += f·src.
func addScaled(dst *mat.Dense, f float64, src *mat.Dense) {
	r, c := dst.Dims()
	for i := 0; i < r; i++ {
		d, s := dst.RawRowView(i)[:c], src.RawRowView(i)[:c]
		for j, v := range s {
			d[j] += f * v
		}
	}
}

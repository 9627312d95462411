package f32

import (
	"fmt"
	"math"
	"sync"

	"github.com/nagc-harness/nagc/sparse"
)

// CSR is a sparse matrix in compressed sparse row form with float32 values and int32
// column indices: row i's entries are Ind[Ptr[i]:Ptr[i+1]], Val[Ptr[i]:Ptr[i+1]].
type CSR struct {
	R, C int
	Ptr  []int
	Ind  []int32
	Val  []float32
}

// FromCSR returns a rounded to float32. Cost O(r + nnz); it refuses a matrix whose
// columns do not fit in int32.
func FromCSR(a *sparse.CSR) (*CSR, error) {
	r, c := a.Dims()
	if c > math.MaxInt32 {
		return nil, fmt.Errorf("f32: %d columns, more than int32 indices hold", c)
	}
	m := &CSR{R: r, C: c, Ptr: make([]int, r+1), Ind: make([]int32, 0, a.NNZ()), Val: make([]float32, 0, a.NNZ())}
	for i := 0; i < r; i++ {
		cols, vals := a.Row(i)
		for t, j := range cols {
			m.Ind = append(m.Ind, int32(j))
			m.Val = append(m.Val, float32(vals[t]))
		}
		m.Ptr[i+1] = len(m.Ind)
	}
	return m, nil
}

// MulDense sets dst = a·b for b a.C×c, every row of dst by AxpyRows over the row's
// entries. Cost O(nnz·c).
func (a *CSR) MulDense(dst, b *Mat) {
	mustDims("CSR.MulDense b", b, a.C, b.C)
	mustDims("CSR.MulDense dst", dst, a.R, b.C)
	Rows(a.R, a.Ptr[a.R]*b.C, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d := dst.Row(i)
			clear(d)
			p, q := a.Ptr[i], a.Ptr[i+1]
			AxpyRows(d, a.Val[p:q], a.Ind[p:q], b.Data, b.C)
		}
	})
}

// EdgeTerms sets, for the pattern of w (every stored entry read as 1) and u (n×k),
// su = Σ_{j∈N(i)} u_j and g = Σ_{j∈N(i)} (u_i·u_j) u_j row by row, and returns Σ_E u_i·u_j
// and Σ_E (u_i·u_j)² over the stored entries (in float64, by blocks added in block order).
// Cost O(nnz·k).
func EdgeTerms(su, g *Mat, w *CSR, u *Mat) (sum, sumSq float64) {
	n, k := u.R, u.C
	mustDims("EdgeTerms su", su, n, k)
	mustDims("EdgeTerms g", g, n, k)
	if w.R != n || w.C != n {
		panic(fmt.Sprintf("f32: EdgeTerms: pattern %d×%d, factor of %d rows", w.R, w.C, n))
	}
	nb := (n + BlockRows - 1) / BlockRows
	ps := getScratch64(2 * nb)
	defer putScratch64(ps)
	parts := *ps
	maxDeg := 0
	for i := 0; i < n; i++ {
		maxDeg = max(maxDeg, w.Ptr[i+1]-w.Ptr[i])
	}
	one := ones(maxDeg)
	checkRows(w.Ind, u.Data, k, k) // once, for the unchecked kernels below
	Rows(n, 3*w.Ptr[n]*k, func(lo, hi int) {
		ds := getScratch(maxDeg)
		defer putScratch(ds)
		d := *ds
		var s, q float64
		for i := lo; i < hi; i++ {
			if i+2 < n { // the neighbours of the row after next, while this row is summed
				prefetchRowsUnchecked(w.Ind[w.Ptr[i+2]:w.Ptr[i+3]], u.Data, k, k)
			}
			p, e := w.Ptr[i], w.Ptr[i+1]
			nb := w.Ind[p:e]
			sr, gr := su.Row(i), g.Row(i)
			clear(sr)
			if len(nb) > 0 {
				axpyRowsUnchecked(sr, one, 1, nb, u.Data, k)
			}
			dotRowsUnchecked(d, u.Row(i), nb, u.Data, k)
			for _, v := range d[:len(nb)] {
				s += float64(v)
				q += float64(v) * float64(v)
			}
			clear(gr)
			if len(nb) > 0 {
				axpyRowsUnchecked(gr, d, 1, nb, u.Data, k)
			}
		}
		b := lo / BlockRows
		parts[2*b], parts[2*b+1] = s, q
	})
	for b := 0; b < nb; b++ {
		sum += parts[2*b]
		sumSq += parts[2*b+1]
	}
	return sum, sumSq
}

// ones returns n ones.
func ones(n int) []float32 {
	onesMu.Lock()
	defer onesMu.Unlock()
	for len(onesBuf) < n {
		onesBuf = append(onesBuf, 1)
	}
	return onesBuf[:n:n]
}

var (
	onesMu  sync.Mutex
	onesBuf []float32
)

var scratch64Pool sync.Pool

func getScratch64(n int) *[]float64 {
	p, _ := scratch64Pool.Get().(*[]float64)
	if p == nil || cap(*p) < n {
		s := make([]float64, n)
		return &s
	}
	*p = (*p)[:n]
	clear(*p)
	return p
}

func putScratch64(p *[]float64) { scratch64Pool.Put(p) }

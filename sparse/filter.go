package sparse

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// LowPassFilter is the graph filter of AGC (Zhang et al., IJCAI 2019) and SSGC: p
// applications of the low-pass step Z ← ½(Z + Â Z), i.e. F = ((I + Â)/2)^p, where
// Â = D^-½ (A + wI) D^-½ is the symmetrically normalised adjacency with self-loop weight w
// (A's own diagonal is dropped first, so every vertex carries exactly w) and D its degree
// matrix. F is symmetric and maps non-negative matrices to non-negative matrices. p = 0 is
// the identity. Applying F costs O(p·(nnz(A) + n)·k) for k columns; no n×n matrix is
// formed.
type LowPassFilter struct {
	p    int
	norm *CSR // Â
}

// NewLowPassFilter returns the order-p filter of the square adjacency adj (values are
// used as edge weights; the diagonal is replaced by selfLoop).
func NewLowPassFilter(adj *CSR, p int, selfLoop float64) (*LowPassFilter, error) {
	if adj.r != adj.c {
		return nil, fmt.Errorf("sparse: filter of a %d×%d matrix", adj.r, adj.c)
	}
	if p < 0 {
		return nil, fmt.Errorf("sparse: filter order %d < 0", p)
	}
	if !(selfLoop >= 0) || math.IsInf(selfLoop, 0) {
		return nil, fmt.Errorf("sparse: self-loop weight %v, need a finite value ≥ 0", selfLoop)
	}
	for _, v := range adj.val {
		if v < 0 {
			return nil, errors.New("sparse: filter of a matrix with negative weights")
		}
	}
	return &LowPassFilter{p: p, norm: normalizedWithLoops(adj, selfLoop)}, nil
}

// normalizedWithLoops returns D^-½ (A + wI) D^-½ for the square a with its diagonal
// replaced by w (none for w = 0), D the degrees of A + wI (each row summed in column
// order, w last): every row of a is copied once, with its diagonal entry dropped and w
// put in column order, into arrays of the final size, rows in parallel; each value is
// then (aᵢⱼ·dᵢ^-½)·dⱼ^-½. Cost O(n + nnz); memory that of the result.
func normalizedWithLoops(a *CSR, w float64) *CSR {
	n := a.r
	ptr := make([]int, n+1)
	for i := 0; i < n; i++ {
		c := a.ptr[i+1] - a.ptr[i]
		if hasStored(a, i, i) {
			c--
		}
		if w > 0 {
			c++
		}
		ptr[i+1] = ptr[i] + c
	}
	ind, val := make([]int, ptr[n]), make([]float64, ptr[n])
	inv := make([]float64, n)
	parallelRowsOf(n, ptr[n], func(lo, hi int) {
		for i := lo; i < hi; i++ {
			q, placed := ptr[i], w == 0
			var deg float64
			for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
				j := a.ind[p]
				if j == i {
					continue
				}
				if !placed && j > i {
					ind[q], val[q], q, placed = i, w, q+1, true
				}
				ind[q], val[q] = j, a.val[p]
				deg += a.val[p]
				q++
			}
			if !placed {
				ind[q], val[q] = i, w
			}
			deg += w
			if deg > 0 {
				inv[i] = 1 / math.Sqrt(deg)
			}
		}
	})
	parallelRowsOf(n, ptr[n], func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for q := ptr[i]; q < ptr[i+1]; q++ {
				val[q] = val[q] * inv[i] * inv[ind[q]]
			}
		}
	})
	return &CSR{r: n, c: n, ptr: ptr, ind: ind, val: val}
}

// hasStored reports whether a stores an entry at (i, j). Cost O(log nnz of row i).
func hasStored(a *CSR, i, j int) bool {
	cols := a.ind[a.ptr[i]:a.ptr[i+1]]
	_, found := slices.BinarySearch(cols, j)
	return found
}

// Order returns p.
func (f *LowPassFilter) Order() int { return f.p }

// Normalized returns Â.
func (f *LowPassFilter) Normalized() *CSR { return f.norm }

// ApplyDense sets dst = F·b for a dense n×k b. dst may be b. Cost O(p·(nnz(Â) + n)·k);
// its n×k temporary comes from a pool, so repeated calls allocate (almost) nothing.
func (f *LowPassFilter) ApplyDense(dst, b *mat.Dense) {
	_ = f.ApplyDenseContext(context.Background(), dst, b) // a live context: no error
}

// ApplyDenseContext is ApplyDense that returns ctx's error, checked before every filter
// power, when ctx is cancelled (dst is then partly filtered).
func (f *LowPassFilter) ApplyDenseContext(ctx context.Context, dst, b *mat.Dense) error {
	r, c := b.Dims()
	mustDims("b", r, c, f.norm.r, c)
	if dst != b {
		dst.Copy(b)
	}
	if f.p == 0 || r == 0 || c == 0 {
		return ctx.Err()
	}
	buf := getScratch(r * c)
	defer putScratch(buf)
	tmp := mat.NewDense(r, c, (*buf)[:r*c])
	d, t := dst.RawMatrix(), tmp.RawMatrix()
	for s := 0; s < f.p; s++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		MulDense(tmp, f.norm, dst)
		if d.Stride == c {
			halfSum2(d.Data[:r*c], t.Data[:r*c])
			continue
		}
		for i := 0; i < r; i++ {
			halfSum2(d.Data[i*d.Stride:i*d.Stride+c], t.Data[i*t.Stride:i*t.Stride+c])
		}
	}
	return nil
}

// halfSum2 sets d[i] = 0.5·(d[i] + t[i]) for every i < len(d); len(t) ≥ len(d).
func halfSum2(d, t []float64) {
	t = t[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		dd, tt := d[i:i+4:i+4], t[i:i+4:i+4]
		dd[0] = 0.5 * (dd[0] + tt[0])
		dd[1] = 0.5 * (dd[1] + tt[1])
		dd[2] = 0.5 * (dd[2] + tt[2])
		dd[3] = 0.5 * (dd[3] + tt[3])
	}
	for ; i < len(d); i++ {
		d[i] = 0.5 * (d[i] + t[i])
	}
}

// scratch holds float64 buffers for the filter's temporaries.
var scratch sync.Pool

// getScratch returns a buffer of at least n floats (contents undefined).
func getScratch(n int) *[]float64 {
	if p, ok := scratch.Get().(*[]float64); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]float64, n)
	return &b
}

func putScratch(p *[]float64) { scratch.Put(p) }

// ApplyCSR returns F·x as a sparse matrix. Each step is a sparse–sparse product, so the
// result fills in with the p-hop neighbourhoods' attributes: cost O(p·flops) and memory
// O(nnz(F·x)). Exact zeros are not stored.
func (f *LowPassFilter) ApplyCSR(x *CSR) *CSR {
	z, _ := f.ApplyCSRContext(context.Background(), x) // a live context: no error
	return z
}

// ApplyCSRContext is ApplyCSR that returns ctx's error, checked before every filter power
// and every lowPassCheckRows rows of one, when ctx is cancelled.
func (f *LowPassFilter) ApplyCSRContext(ctx context.Context, x *CSR) (*CSR, error) {
	mustDims("x", x.r, x.c, f.norm.r, x.c)
	z := x
	for s := 0; s < f.p; s++ {
		var err error
		if z, err = lowPassStep(ctx, f.norm, z); err != nil {
			return nil, err
		}
	}
	return z, ctx.Err()
}

// lowPassCheckRows is how many rows lowPassStep computes between checks of its context:
// a check costs far less than a row block, and a block of a large graph's sparse–sparse
// product stays well under a second.
const lowPassCheckRows = 1 << 12

// lowPassStep returns ½(z + a·z): halfSum(z, MulCSR(a, z)) in one pass, with the same
// entries and bits (a·z summed in the same order, its exact zeros dropped before the
// half-sum), without forming a·z. Cost that of MulCSR(a, z). It returns ctx's error,
// checked every lowPassCheckRows rows, when ctx is cancelled.
func lowPassStep(ctx context.Context, a, z *CSR) (*CSR, error) {
	if a.c != z.r || a.r != z.r {
		panic(fmt.Sprintf("sparse: filter step of %d×%d and %d×%d", a.r, a.c, z.r, z.c))
	}
	acc, mark := newAccumulator(z.c)
	ptr := make([]int, z.r+1)
	ind := make([]int, 0, z.NNZ()+z.NNZ()/2)
	val := make([]float64, 0, cap(ind))
	var cols []int
	for i := 0; i < a.r; i++ {
		if i%lowPassCheckRows == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		cols = productRow(cols, acc, mark, a, z, i)
		// Merge row i of z with the non-zero entries of row i of a·z, as halfSum does.
		p, end := z.ptr[i], z.ptr[i+1]
		for _, j := range cols {
			if acc[j] == 0 {
				continue
			}
			for ; p < end && z.ind[p] < j; p++ {
				ind, val = append(ind, z.ind[p]), append(val, 0.5*z.val[p])
			}
			if p < end && z.ind[p] == j {
				ind, val = append(ind, j), append(val, 0.5*(z.val[p]+acc[j]))
				p++
				continue
			}
			ind, val = append(ind, j), append(val, 0.5*acc[j])
		}
		for ; p < end; p++ {
			ind, val = append(ind, z.ind[p]), append(val, 0.5*z.val[p])
		}
		ptr[i+1] = len(ind)
	}
	return &CSR{r: z.r, c: z.c, ptr: ptr, ind: ind, val: val}, nil
}

// MulCSR returns the sparse product a·b (Gustavson's row-by-row algorithm with a dense
// accumulator). Cost O(flops + r + Σ_rows min(c, k log k)) where flops = Σ over stored
// a_ik of nnz(row k of b) and k the columns of a row of the product; memory
// O(nnz(result) + columns of b).
func MulCSR(a, b *CSR) *CSR {
	if a.c != b.r {
		panic(fmt.Sprintf("sparse: MulCSR of %d×%d and %d×%d", a.r, a.c, b.r, b.c))
	}
	acc, mark := newAccumulator(b.c)
	ptr := make([]int, a.r+1)
	var ind []int
	var val []float64
	var cols []int
	for i := 0; i < a.r; i++ {
		cols = productRow(cols, acc, mark, a, b, i)
		for _, j := range cols {
			if acc[j] != 0 {
				ind = append(ind, j)
				val = append(val, acc[j])
			}
		}
		ptr[i+1] = len(ind)
	}
	return &CSR{r: a.r, c: b.c, ptr: ptr, ind: ind, val: val}
}

// newAccumulator returns productRow's dense accumulator and marks for c columns.
func newAccumulator(c int) (acc []float64, mark []int) {
	acc, mark = make([]float64, c), make([]int, c)
	for j := range mark {
		mark[j] = -1
	}
	return acc, mark
}

// productRow sums row i of a·b into acc, each entry over row i of a in storage order,
// marks its columns with i in mark (whose entries must be below i before), and returns
// them in increasing order in cols[:0]: a row with many columns (an eighth of b's or
// more) by a scan of mark, a row with few by a sort.
func productRow(cols []int, acc []float64, mark []int, a, b *CSR, i int) []int {
	cols = cols[:0]
	for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
		k, v := a.ind[p], a.val[p]
		for q := b.ptr[k]; q < b.ptr[k+1]; q++ {
			j := b.ind[q]
			if mark[j] != i {
				mark[j] = i
				acc[j] = 0
				cols = append(cols, j)
			}
			acc[j] += v * b.val[q]
		}
	}
	if 8*len(cols) < b.c {
		sortInts(cols)
		return cols
	}
	cols = cols[:0]
	for j, mk := range mark {
		if mk == i {
			cols = append(cols, j)
		}
	}
	return cols
}

// sortInts sorts a slice of column indices in place: insertion sort for short rows, the
// common case, else the standard library's sort.
func sortInts(s []int) {
	if len(s) > 32 {
		slices.Sort(s)
		return
	}
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// RowNormalized returns a copy of a with every non-zero row scaled to unit Euclidean norm
// (scikit-learn's normalize(norm="l2")). Cost O(nnz).
func (a *CSR) RowNormalized() *CSR { return a.ScaleRows(a.unitRowScale()) }

// unitRowScale returns the factors RowNormalized scales the rows by: 1/‖row i‖, and 0
// for a row of zeros. Cost O(nnz).
func (a *CSR) unitRowScale() []float64 {
	n := a.RowNormsSq()
	for i, v := range n {
		if v > 0 {
			n[i] = 1 / math.Sqrt(v)
		}
	}
	return n
}

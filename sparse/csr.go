package sparse

import (
	"errors"
	"fmt"
	"sort"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
)

// CSR is an r×c sparse matrix in compressed sparse row form. Row i's stored entries are
// Ind[Ptr[i]:Ptr[i+1]] (column indices, strictly increasing) with values
// Val[Ptr[i]:Ptr[i+1]]. A CSR is immutable once built; share it freely between goroutines.
type CSR struct {
	r, c int
	ptr  []int
	ind  []int
	val  []float64
	unit int32               // whether every value is 1: unitUnknown, unitYes or unitNo (see UnitValues)
	t    atomic.Pointer[CSR] // the transpose, once T has formed it
}

// NewCSR returns a CSR built from its three arrays, after checking that they describe a
// valid r×c matrix (monotone row pointers, in-range, strictly increasing column indices).
// The slices are used as given, not copied. Cost O(r + nnz).
func NewCSR(r, c int, ptr, ind []int, val []float64) (*CSR, error) {
	if r < 0 || c < 0 {
		return nil, fmt.Errorf("sparse: negative dimension %d×%d", r, c)
	}
	if len(ptr) != r+1 || ptr[0] != 0 {
		return nil, errors.New("sparse: row pointer must have r+1 entries starting at 0")
	}
	if len(ind) != len(val) || ptr[r] != len(ind) {
		return nil, errors.New("sparse: index and value arrays disagree with row pointer")
	}
	for i := 0; i < r; i++ {
		if ptr[i+1] < ptr[i] {
			return nil, fmt.Errorf("sparse: row pointer decreases at row %d", i)
		}
		for p := ptr[i]; p < ptr[i+1]; p++ {
			if ind[p] < 0 || ind[p] >= c {
				return nil, fmt.Errorf("sparse: column %d out of range in row %d", ind[p], i)
			}
			if p > ptr[i] && ind[p] <= ind[p-1] {
				return nil, fmt.Errorf("sparse: columns not strictly increasing in row %d", i)
			}
		}
	}
	return &CSR{r: r, c: c, ptr: ptr, ind: ind, val: val}, nil
}

// Dims returns the number of rows and columns.
func (a *CSR) Dims() (r, c int) { return a.r, a.c }

// NNZ returns the number of stored entries.
func (a *CSR) NNZ() int { return len(a.ind) }

// Row returns the column indices and values stored in row i. The slices alias the
// matrix and must not be modified. Cost O(1).
func (a *CSR) Row(i int) (cols []int, vals []float64) {
	lo, hi := a.ptr[i], a.ptr[i+1]
	return a.ind[lo:hi:hi], a.val[lo:hi:hi]
}

// RowNNZ returns the number of stored entries in row i.
func (a *CSR) RowNNZ(i int) int { return a.ptr[i+1] - a.ptr[i] }

// At returns element (i, j), zero where nothing is stored. Cost O(log nnz(row i)).
func (a *CSR) At(i, j int) float64 {
	if i < 0 || i >= a.r || j < 0 || j >= a.c {
		panic(mat.ErrIndexOutOfRange)
	}
	cols, vals := a.Row(i)
	k := sort.SearchInts(cols, j)
	if k < len(cols) && cols[k] == j {
		return vals[k]
	}
	return 0
}

// Sum returns the sum of all stored values. Cost O(nnz).
func (a *CSR) Sum() float64 {
	var s float64
	for _, v := range a.val {
		s += v
	}
	return s
}

// SumSq returns the sum of squares of all stored values (the squared Frobenius norm).
func (a *CSR) SumSq() float64 {
	var s float64
	for _, v := range a.val {
		s += v * v
	}
	return s
}

// Scaled returns a new matrix with the same pattern and every value multiplied by f.
// The pattern arrays are shared with a. Cost O(nnz).
func (a *CSR) Scaled(f float64) *CSR {
	val := make([]float64, len(a.val))
	for p, v := range a.val {
		val[p] = f * v
	}
	return &CSR{r: a.r, c: a.c, ptr: a.ptr, ind: a.ind, val: val}
}

// T returns the transpose (equivalently, a in compressed sparse column form). The first
// call forms it, at cost O(r + c + nnz) and memory that of a; later calls return the same
// (immutable) CSR at no cost, so that every fit of a sweep shares one Xᵀ.
func (a *CSR) T() *CSR {
	if t := a.t.Load(); t != nil {
		return t
	}
	t := a.transpose()
	t.t.Store(a)
	if !a.t.CompareAndSwap(nil, t) {
		return a.t.Load()
	}
	return t
}

// transpose returns the transpose as a new CSR.
func (a *CSR) transpose() *CSR {
	ptr := make([]int, a.c+1)
	for _, j := range a.ind {
		ptr[j+1]++
	}
	for j := 0; j < a.c; j++ {
		ptr[j+1] += ptr[j]
	}
	next := append([]int(nil), ptr[:a.c]...)
	ind := make([]int, len(a.ind))
	val := make([]float64, len(a.val))
	for i := 0; i < a.r; i++ {
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			j := a.ind[p]
			q := next[j]
			ind[q] = i
			val[q] = a.val[p]
			next[j]++
		}
	}
	return &CSR{r: a.c, c: a.r, ptr: ptr, ind: ind, val: val}
}

// ColSums returns the sum of each column. Cost O(c + nnz).
func (a *CSR) ColSums() []float64 {
	s := make([]float64, a.c)
	for p, j := range a.ind {
		s[j] += a.val[p]
	}
	return s
}

// RowSums returns the sum of each row (for an adjacency matrix: the degrees).
func (a *CSR) RowSums() []float64 {
	s := make([]float64, a.r)
	for i := 0; i < a.r; i++ {
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			s[i] += a.val[p]
		}
	}
	return s
}

// Dense returns a as a dense matrix. It allocates r×c: it is meant for tests, small
// matrices and matrices with a large share of their entries stored.
func (a *CSR) Dense() *mat.Dense {
	if a.r == 0 || a.c == 0 {
		return &mat.Dense{}
	}
	d := mat.NewDense(a.r, a.c, nil)
	for i := 0; i < a.r; i++ {
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			d.Set(i, a.ind[p], a.val[p])
		}
	}
	return d
}

// Duplicates says how a Builder combines entries given more than once at the same position.
type Duplicates int

const (
	// SumDuplicates adds repeated entries.
	SumDuplicates Duplicates = iota
	// MaxDuplicates keeps the largest repeated entry (for 0/1 adjacency: dedup).
	MaxDuplicates
	// LastDuplicates keeps the entry given last.
	LastDuplicates
)

// Builder accumulates (row, column, value) triplets and turns them into a CSR.
// The zero value is not usable; call NewBuilder.
type Builder struct {
	r, c  int
	rows  []int
	cols  []int
	vals  []float64
	order []int
}

// NewBuilder returns a Builder for an r×c matrix.
func NewBuilder(r, c int) *Builder { return &Builder{r: r, c: c} }

// Add records value v at (i, j). It returns an error where (i, j) lies outside the matrix.
func (b *Builder) Add(i, j int, v float64) error {
	if i < 0 || i >= b.r || j < 0 || j >= b.c {
		return fmt.Errorf("sparse: entry (%d, %d) outside %d×%d matrix", i, j, b.r, b.c)
	}
	b.rows = append(b.rows, i)
	b.cols = append(b.cols, j)
	b.vals = append(b.vals, v)
	return nil
}

// Len returns the number of triplets added so far.
func (b *Builder) Len() int { return len(b.rows) }

// CSR returns the matrix, combining repeated positions by dup. Explicit zeros are kept as
// stored entries. Cost O(t log t) for t triplets.
func (b *Builder) CSR(dup Duplicates) *CSR {
	t := len(b.rows)
	order := make([]int, t)
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(x, y int) bool {
		p, q := order[x], order[y]
		if b.rows[p] != b.rows[q] {
			return b.rows[p] < b.rows[q]
		}
		return b.cols[p] < b.cols[q]
	})
	ptr := make([]int, b.r+1)
	ind := make([]int, 0, t)
	val := make([]float64, 0, t)
	lastR, lastC := -1, -1
	for _, k := range order {
		i, j, v := b.rows[k], b.cols[k], b.vals[k]
		if i == lastR && j == lastC {
			q := len(val) - 1
			switch dup {
			case SumDuplicates:
				val[q] += v
			case MaxDuplicates:
				val[q] = max(val[q], v)
			case LastDuplicates:
				val[q] = v
			}
			continue
		}
		ind = append(ind, j)
		val = append(val, v)
		ptr[i+1]++
		lastR, lastC = i, j
	}
	for i := 0; i < b.r; i++ {
		ptr[i+1] += ptr[i]
	}
	return &CSR{r: b.r, c: b.c, ptr: ptr, ind: ind, val: val}
}

// FromDense returns the CSR of the non-zero entries of d. Meant for tests and small inputs.
func FromDense(d mat.Matrix) *CSR {
	r, c := d.Dims()
	b := NewBuilder(r, c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := d.At(i, j); v != 0 {
				_ = b.Add(i, j, v)
			}
		}
	}
	return b.CSR(SumDuplicates)
}

// MulDense sets dst = a·b (the package function MulDense), so that a CSR is an attribute
// matrix (attr.Matrix) and an Operator. Cost O(nnz·k).
func (a *CSR) MulDense(dst, b *mat.Dense) { MulDense(dst, a, b) }

// TMulDense sets dst = aᵀ·b, by MulDense with the transpose (formed once, see T).
// Cost O(nnz·k).
func (a *CSR) TMulDense(dst, b *mat.Dense) { MulDense(dst, a.T(), b) }

// RowTo sets dst (length at least c) to row i, zeros included, and returns dst[:c].
// Cost O(c).
func (a *CSR) RowTo(dst []float64, i int) []float64 {
	dst = dst[:a.c]
	clear(dst)
	for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
		dst[a.ind[p]] = a.val[p]
	}
	return dst
}

// FirstNegative returns the row and column of the first stored negative or NaN value in
// row-major order, and ok = false when there is none. Cost O(r + nnz).
func (a *CSR) FirstNegative() (i, j int, ok bool) {
	for i := 0; i < a.r; i++ {
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			if !(a.val[p] >= 0) {
				return i, a.ind[p], true
			}
		}
	}
	return 0, 0, false
}

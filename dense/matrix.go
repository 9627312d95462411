package dense

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Matrix is an r×c dense matrix stored row-major, as float32 or as float64: the form
// dense vertex attributes take in NumPy files and OGB's node features, and (float64, in
// CSR order: NewMatrix64CSROrder) the stored graph-filtered attributes of a sparse X. It
// is an attribute matrix (attr.Matrix) and a sparse.Operator, so that a method factorises
// it as it does a sparse attribute matrix, and it hands out its rows for methods that
// need them (k-means).
//
// Storage is float32 when the data came as float32 (a NumPy float32 array, OGB's
// features): it halves the memory of a large attribute matrix (ogbn-products: 0.98 GB
// instead of 1.96 GB) and loses nothing the file held. Every product converts entries to
// float64 and computes in float64, so results depend on the stored values only, never
// on the storage width beyond them.
//
// Products (except those of a matrix in CSR order, see NewMatrix64CSROrder) split the
// rows into blocks of BlockRows rows, fixed by r alone, and run them
// on parallel.Threads() goroutines: MulDense computes every output row on one goroutine;
// TMulDense, Sum and SumSq sum each block from zero and add the block sums in block
// order. Results are bit-identical for any thread count. A Matrix holds no buffers
// (float32 blocks are widened into pooled scratch), so goroutines may share it.
type Matrix struct {
	r, c     int
	f32      []float32
	f64      []float64
	csrOrder bool // sums as the CSR of its non-zeros (NewMatrix64CSROrder)
}

// NewMatrix64 returns the r×c matrix whose row-major entries are data (not copied).
// It panics if len(data) ≠ r·c.
func NewMatrix64(r, c int, data []float64) *Matrix {
	if r < 0 || c < 0 || len(data) != r*c {
		panic(fmt.Sprintf("dense: %d values for a %d×%d matrix", len(data), r, c))
	}
	return &Matrix{r: r, c: c, f64: data}
}

// NewMatrix32 returns the r×c matrix whose row-major float32 entries are data (not
// copied). It panics if len(data) ≠ r·c.
func NewMatrix32(r, c int, data []float32) *Matrix {
	if r < 0 || c < 0 || len(data) != r*c {
		panic(fmt.Sprintf("dense: %d values for a %d×%d matrix", len(data), r, c))
	}
	if data == nil {
		data = []float32{}
	}
	return &Matrix{r: r, c: c, f32: data}
}

// Dims returns the numbers of rows and columns.
func (x *Matrix) Dims() (r, c int) { return x.r, x.c }

// Float32 returns the row-major storage of a float32 matrix, nil for a float64 one.
func (x *Matrix) Float32() []float32 { return x.f32 }

// Float64 returns the row-major storage of a float64 matrix, nil for a float32 one.
func (x *Matrix) Float64() []float64 { return x.f64 }

// Is32 reports whether x is stored as float32.
func (x *Matrix) Is32() bool { return x.f32 != nil }

// ElemSize returns the bytes per stored entry: 4 or 8.
func (x *Matrix) ElemSize() int {
	if x.Is32() {
		return 4
	}
	return 8
}

// At returns entry (i, j).
func (x *Matrix) At(i, j int) float64 {
	if x.Is32() {
		return float64(x.f32[i*x.c+j])
	}
	return x.f64[i*x.c+j]
}

// RowTo sets dst (length at least c) to row i as float64 and returns dst[:c].
func (x *Matrix) RowTo(dst []float64, i int) []float64 {
	dst = dst[:x.c]
	if x.Is32() {
		for j, v := range x.f32[i*x.c : (i+1)*x.c] {
			dst[j] = float64(v)
		}
		return dst
	}
	copy(dst, x.f64[i*x.c:(i+1)*x.c])
	return dst
}

// NNZ returns the number of non-zero entries. Cost O(r·c).
func (x *Matrix) NNZ() int {
	n := 0
	if x.Is32() {
		for _, v := range x.f32 {
			if v != 0 {
				n++
			}
		}
		return n
	}
	for _, v := range x.f64 {
		if v != 0 {
			n++
		}
	}
	return n
}

// FirstNegative returns the row and column of the first negative or NaN entry in
// row-major order, and ok = false when there is none. Cost O(r·c).
func (x *Matrix) FirstNegative() (i, j int, ok bool) {
	for k := 0; k < x.r*x.c; k++ {
		var v float64
		if x.Is32() {
			v = float64(x.f32[k])
		} else {
			v = x.f64[k]
		}
		if !(v >= 0) {
			return k / x.c, k % x.c, true
		}
	}
	return 0, 0, false
}

// rows64 returns rows lo…hi−1 as a float64 matrix: a view of a float64 matrix, or the
// rows widened into buf (at least (hi−lo)·c long) for a float32 one.
func (x *Matrix) rows64(buf []float64, lo, hi int) blas64.General {
	g := blas64.General{Rows: hi - lo, Cols: x.c, Stride: max(x.c, 1)}
	if !x.Is32() {
		g.Data = x.f64[lo*x.c : hi*x.c]
		return g
	}
	g.Data = buf[:(hi-lo)*x.c]
	widen(g.Data, x.f32[lo*x.c:hi*x.c])
	return g
}

// blockScratch returns pooled scratch for one block of widened rows (nil for float64).
func (x *Matrix) blockScratch() *[]float64 {
	if !x.Is32() {
		return nil
	}
	return getScratch(BlockRows * x.c)
}

func (x *Matrix) putBlockScratch(sp *[]float64) {
	if sp != nil {
		putScratch(sp)
	}
}

// MulDense sets dst = x·b for a c×k b and an r×k dst, one output row at a time with the
// package's row kernels. Cost O(r·c·k); no allocation beyond pooled scratch.
func (x *Matrix) MulDense(dst, b *mat.Dense) {
	br, k := b.Dims()
	mustDims("Matrix.MulDense", "b", br, k, x.c, k)
	mustDims("Matrix.MulDense", "dst", rows(dst), cols(dst), x.r, k)
	if x.r == 0 || k == 0 {
		return
	}
	d, bw := dst.RawMatrix(), b.RawMatrix()
	if x.c == 0 {
		zero(d, x.r, k)
		return
	}
	block := func(lo, hi int) {
		sp := x.blockScratch()
		var buf []float64
		if sp != nil {
			buf = *sp
		}
		a := x.rows64(buf, lo, hi)
		dv := blas64.General{Rows: hi - lo, Cols: k, Stride: d.Stride, Data: d.Data[lo*d.Stride:]}
		mulRows(dv, a, bw, x.c, k, 0, hi-lo)
		x.putBlockScratch(sp)
	}
	if serial(x.r, x.r*x.c*k) {
		for lo := 0; lo < x.r; lo += BlockRows {
			block(lo, min(lo+BlockRows, x.r))
		}
		return
	}
	forBlocks(x.r, x.r*x.c*k, block)
}

// TMulDense sets dst = xᵀ·b for an r×k b and a c×k dst, summed per block of BlockRows
// rows and then in block order. Cost O(r·c·k).
func (x *Matrix) TMulDense(dst, b *mat.Dense) {
	_, k := b.Dims()
	mustDims("Matrix.TMulDense", "b", rows(b), k, x.r, k)
	mustDims("Matrix.TMulDense", "dst", rows(dst), cols(dst), x.c, k)
	if x.c == 0 || k == 0 {
		return
	}
	d, bw := dst.RawMatrix(), b.RawMatrix()
	if x.r == 0 {
		zero(d, x.c, k)
		return
	}
	if x.csrOrder {
		zero(d, x.c, k)
		x.tmulCSROrder(d, bw, k)
		return
	}
	block := func(part blas64.General, lo, hi int, add bool) {
		sp := x.blockScratch()
		var buf []float64
		if sp != nil {
			buf = *sp
		}
		a := x.rows64(buf, lo, hi)
		bv := blas64.General{Rows: hi - lo, Cols: k, Stride: bw.Stride, Data: bw.Data[lo*bw.Stride:]}
		tmulBlock(part, a, bv, x.c, k, 0, hi-lo, add)
		x.putBlockScratch(sp)
	}
	if serial(x.r, x.r*x.c*k) {
		for lo := 0; lo < x.r; lo += BlockRows {
			block(d, lo, min(lo+BlockRows, x.r), lo > 0)
		}
		return
	}
	reduceBlocks(d, x.c, k, x.r, x.r*x.c*k, func(part blas64.General, lo, hi int) { block(part, lo, hi, false) })
}

// blockSums returns Σ f(entry) over x: each block of BlockRows rows summed from zero in
// row-major order, then the block sums in block order (in parallel over blocks).
func (x *Matrix) blockSums(sq bool) float64 {
	nb := (x.r + BlockRows - 1) / BlockRows
	if nb == 0 || x.c == 0 {
		return 0
	}
	part := make([]float64, nb)
	sum := func(b int) {
		lo, hi := b*BlockRows*x.c, min((b+1)*BlockRows, x.r)*x.c
		var s float64
		if x.Is32() {
			for _, v := range x.f32[lo:hi] {
				if sq {
					s += float64(v) * float64(v)
				} else {
					s += float64(v)
				}
			}
		} else {
			for _, v := range x.f64[lo:hi] {
				if sq {
					s += v * v
				} else {
					s += v
				}
			}
		}
		part[b] = s
	}
	if serial(x.r, x.r*x.c) {
		for b := range part {
			sum(b)
		}
	} else {
		parallelBlocks(nb, x.r*x.c, sum)
	}
	var s float64
	for _, v := range part {
		s += v
	}
	return s
}

// Sum returns the sum of all entries. Cost O(r·c).
func (x *Matrix) Sum() float64 {
	if x.csrOrder {
		return x.sumsCSROrder(false)
	}
	return x.blockSums(false)
}

// SumSq returns the squared Frobenius norm. Cost O(r·c).
func (x *Matrix) SumSq() float64 {
	if x.csrOrder {
		return x.sumsCSROrder(true)
	}
	return x.blockSums(true)
}

// RowNormsSq returns the squared Euclidean norm of every row (a new slice). Cost O(r·c).
func (x *Matrix) RowNormsSq() []float64 {
	s := make([]float64, x.r)
	forRows(x.r, x.r*x.c, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			var q float64
			if x.Is32() {
				for _, v := range x.f32[i*x.c : (i+1)*x.c] {
					q += float64(v) * float64(v)
				}
			} else {
				for _, v := range x.f64[i*x.c : (i+1)*x.c] {
					q += v * v
				}
			}
			s[i] = q
		}
	})
	return s
}

// ColMax returns the largest entry of every column (0 for an empty matrix). Cost O(r·c).
func (x *Matrix) ColMax() []float64 {
	cm := make([]float64, x.c)
	for i := 0; i < x.r; i++ {
		for j := range cm {
			if v := x.At(i, j); i == 0 || v > cm[j] {
				cm[j] = v
			}
		}
	}
	return cm
}

// Scaled returns a new matrix of x's storage type with entry (i, j) multiplied by
// row[i]·col[j]; a nil row or col scales by 1. Cost O(r·c) time and memory.
func (x *Matrix) Scaled(row, col []float64) *Matrix {
	if row != nil && len(row) != x.r || col != nil && len(col) != x.c {
		panic(fmt.Sprintf("dense: scaling a %d×%d matrix by %d row and %d column factors", x.r, x.c, len(row), len(col)))
	}
	f := func(i, j int) float64 {
		s := 1.0
		if row != nil {
			s = row[i]
		}
		if col != nil {
			s *= col[j]
		}
		return s
	}
	if x.Is32() {
		out := make([]float32, len(x.f32))
		forRows(x.r, x.r*x.c, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				for j := 0; j < x.c; j++ {
					out[i*x.c+j] = float32(float64(x.f32[i*x.c+j]) * f(i, j))
				}
			}
		})
		return NewMatrix32(x.r, x.c, out)
	}
	out := make([]float64, len(x.f64))
	forRows(x.r, x.r*x.c, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := 0; j < x.c; j++ {
				out[i*x.c+j] = x.f64[i*x.c+j] * f(i, j)
			}
		}
	})
	return NewMatrix64(x.r, x.c, out)
}

// RowNormalized returns x with every non-zero row scaled to unit Euclidean length (zero
// rows stay zero), in x's storage type. Cost O(r·c).
func (x *Matrix) RowNormalized() *Matrix {
	s := x.RowNormsSq()
	for i, v := range s {
		if v > 0 {
			s[i] = 1 / math.Sqrt(v)
		}
	}
	return x.Scaled(s, nil)
}

// forRows calls fn over the blocks of BlockRows rows of [0, n), work multiply-adds in
// all, in parallel unless serial.
func forRows(n, work int, fn func(lo, hi int)) {
	if serial(n, work) {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	forBlocks(n, work, fn)
}

package sparse

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// DenseMatrix is an r×c matrix stored densely as an Operator whose products, sums and
// CSR are those of the CSR of its non-zero entries, bit for bit: every product entry is
// summed over the entries in index order (the zeros add exact zeros), as MulDense sums
// over stored entries and as MulDense with the CSR's transpose does for Dᵀ·b. It is the
// stored form of graph-filtered attributes, which fill in (FilterDense): 8 bytes an
// entry, where a CSR and the transpose its products need take 32.
type DenseMatrix struct {
	r, c   int
	data   []float64 // r×c, row-major
	ind    []int     // 0, 1, …, c−1: the column indices of a full row
	sum    float64
	sumSq  float64
	normSq []float64 // squared row norms
}

// newDenseMatrix returns the matrix of the r×c row-major data (taken over, not copied)
// and computes its sums. Cost O(r·c).
func newDenseMatrix(r, c int, data []float64) *DenseMatrix {
	d := &DenseMatrix{r: r, c: c, data: data, ind: make([]int, c), normSq: make([]float64, r)}
	for j := range d.ind {
		d.ind[j] = j
	}
	for i := 0; i < r; i++ {
		var s float64
		for _, v := range data[i*c : (i+1)*c] {
			s += v * v
		}
		d.normSq[i] = s
	}
	for _, v := range data { // CSR.Sum and SumSq: in storage order
		d.sum += v
		d.sumSq += v * v
	}
	return d
}

// Dims returns r, c.
func (d *DenseMatrix) Dims() (r, c int) { return d.r, d.c }

// MulDense sets dst = D·b (r×k), as MulDense of D's CSR. Cost O(r·c·k).
func (d *DenseMatrix) MulDense(dst, b *mat.Dense) {
	mulFullRows(dst, b, d.data, d.r, d.c, d.ind)
}

// TMulDense sets dst = Dᵀ·b (c×k), as MulDense of the transpose of D's CSR: row j of
// dst is Σᵢ dᵢⱼ·bᵢ summed over i in order, here by adding dᵢⱼ·bᵢ to it for i = 0, 1, …
// (a product rounded, then added: floats.AddScaled), no transpose stored. Threads take
// blocks of dst's columns. Cost O(r·c·k).
func (d *DenseMatrix) TMulDense(dst, b *mat.Dense) {
	br, k := b.Dims()
	dr, dc := dst.Dims()
	mustDims("b", br, k, d.r, k)
	mustDims("dst", dr, dc, d.c, k)
	braw, draw := b.RawMatrix(), dst.RawMatrix()
	for j := 0; j < d.c; j++ {
		clear(draw.Data[j*draw.Stride : j*draw.Stride+k])
	}
	if k == 0 || d.r == 0 {
		return
	}
	cols := func(c0, c1 int) {
		for i := 0; i < d.r; i++ {
			bi := braw.Data[i*braw.Stride+c0 : i*braw.Stride+c1]
			for j, v := range d.data[i*d.c : (i+1)*d.c] {
				if v != 0 {
					floats.AddScaled(draw.Data[j*draw.Stride+c0:j*draw.Stride+c1], v, bi)
				}
			}
		}
	}
	// One block of at least 4 columns per thread: each block reads all of D once.
	blocks := min(parallel.Threads(), max(1, k/4))
	if serialWork(k, d.r*d.c*k) || blocks == 1 {
		cols(0, k)
		return
	}
	size := (k + blocks - 1) / blocks
	parallel.Blocks(k, size, blocks, cols)
}

// mulFullRows sets dst = a·b for the r×c row-major a, each row as a CSR row storing all
// c columns (ind holds 0…c−1 or more).
func mulFullRows(dst, b *mat.Dense, a []float64, r, c int, ind []int) {
	br, k := b.Dims()
	dr, dc := dst.Dims()
	mustDims("b", br, k, c, k)
	mustDims("dst", dr, dc, r, k)
	if k == 0 || r == 0 {
		return
	}
	braw, draw := b.RawMatrix(), dst.RawMatrix()
	rows := func(lo, hi int) {
		ptr := []int{0, c}
		for i := lo; i < hi; i++ {
			row := &CSR{r: 1, c: c, ptr: ptr, ind: ind[:c], val: a[i*c : (i+1)*c]}
			out := blas64.General{Rows: 1, Cols: k, Stride: draw.Stride, Data: draw.Data[i*draw.Stride:]}
			mulDenseRows(out, row, braw, k, false, 0, 1)
		}
	}
	if serialWork(r, r*c*k) {
		rows(0, r)
		return
	}
	parallelRowsOf(r, r*c*k, rows)
}

// Sum returns the sum of the entries, in storage order. Cost O(1).
func (d *DenseMatrix) Sum() float64 { return d.sum }

// SumSq returns the squared Frobenius norm. Cost O(1).
func (d *DenseMatrix) SumSq() float64 { return d.sumSq }

// RowNormsSq returns the squared Euclidean norms of the rows (a new slice).
func (d *DenseMatrix) RowNormsSq() []float64 { return append([]float64(nil), d.normSq...) }

// CSR returns the non-zero entries as a CSR. Cost O(r·c); memory 16 bytes a non-zero.
func (d *DenseMatrix) CSR() *CSR {
	nnz := 0
	for _, v := range d.data {
		if v != 0 {
			nnz++
		}
	}
	ptr, ind, val := make([]int, d.r+1), make([]int, 0, nnz), make([]float64, 0, nnz)
	for i := 0; i < d.r; i++ {
		for j, v := range d.data[i*d.c : (i+1)*d.c] {
			if v != 0 {
				ind, val = append(ind, j), append(val, v)
			}
		}
		ptr[i+1] = len(ind)
	}
	return &CSR{r: d.r, c: d.c, ptr: ptr, ind: ind, val: val}
}

// filterDenseBlock is the number of columns filtered at a time by FilterDense: its
// temporary is n×32.
const filterDenseBlock = 32

// FilterDense returns Z = R·F·(S·x) stored densely (DenseMatrix): S scales every
// non-zero row of x to unit Euclidean length when normBefore (as x.RowNormalized), F is
// f, and R scales every non-zero row of F·S·x to unit length when unitRows (zero rows
// stay zero). Its entries, products and CSR are the bits of FilteredMatrix's CSR (F·S·x
// by sparse products, then R), at 8 bytes an entry, with no copy of x. The filter runs
// on 32 columns at a time. Cost O(p·(nnz(Â) + n)·m + n·m); memory 8·n·m bytes plus an
// n×32 temporary.
func FilterDense(f *LowPassFilter, x *CSR, normBefore, unitRows bool) *DenseMatrix {
	z, _ := FilterDenseContext(context.Background(), f, x, normBefore, unitRows) // live: no error
	return z
}

// FilterDenseContext is FilterDense that returns ctx's error, checked before every filter
// power of every block of columns, when ctx is cancelled.
func FilterDenseContext(ctx context.Context, f *LowPassFilter, x *CSR, normBefore, unitRows bool) (*DenseMatrix, error) {
	n, m := x.Dims()
	mustDims("x", n, m, f.norm.r, m)
	var inv []float64
	if normBefore {
		inv = x.unitRowScale()
	}
	data := make([]float64, n*m)
	parallelRowsOf(n, x.NNZ(), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := data[i*m : (i+1)*m]
			for p := x.ptr[i]; p < x.ptr[i+1]; p++ {
				if inv != nil {
					row[x.ind[p]] = x.val[p] * inv[i]
				} else {
					row[x.ind[p]] = x.val[p]
				}
			}
		}
	})
	z := mat.NewDense(n, m, data)
	for j0 := 0; j0 < m; j0 += filterDenseBlock {
		b := z.Slice(0, n, j0, min(j0+filterDenseBlock, m)).(*mat.Dense)
		if err := f.ApplyDenseContext(ctx, b, b); err != nil {
			return nil, err
		}
	}
	if unitRows {
		parallelRowsOf(n, n*m, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				row := data[i*m : (i+1)*m]
				var s float64
				for _, v := range row {
					s += v * v
				}
				if s > 0 {
					sc := 1 / math.Sqrt(s)
					for j := range row {
						row[j] *= sc
					}
				}
			}
		})
	}
	return newDenseMatrix(n, m, data), nil
}

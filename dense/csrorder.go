package dense

import (
	"github.com/nagc-harness/nagc/internal/parallel"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// NewMatrix64CSROrder returns the r×c float64 matrix of the row-major data (not copied)
// whose products and sums are those of the CSR of its non-zero entries, bit for bit:
// every entry of xᵀ·b and the sums are summed over the rows (the entries) in order from
// zero, as sparse.MulDense sums with the CSR's transpose and as CSR.Sum and CSR.SumSq
// sum, instead of per block of BlockRows rows; x·b is already summed as a CSR row is.
// It is the stored form of graph-filtered sparse attributes, which fill in: 8 bytes an
// entry where a CSR and the transpose its products need take 32. Scaled and
// RowNormalized return plain matrices. It panics if len(data) ≠ r·c.
func NewMatrix64CSROrder(r, c int, data []float64) *Matrix {
	x := NewMatrix64(r, c, data)
	x.csrOrder = true
	return x
}

// CSROrder reports whether x sums as the CSR of its non-zero entries
// (NewMatrix64CSROrder).
func (x *Matrix) CSROrder() bool { return x.csrOrder }

// tmulCSROrder sets dst = xᵀ·b with row j of dst the sum of x_ij·b_i over i in order
// (a product rounded, then added: floats.AddScaled), skipping zero entries as a CSR
// stores none. Threads take blocks of at least 4 of dst's k columns; each block reads
// all of x once. Cost O(r·c·k).
func (x *Matrix) tmulCSROrder(d, bw blas64.General, k int) {
	cols := func(c0, c1 int) {
		for i := 0; i < x.r; i++ {
			bi := bw.Data[i*bw.Stride+c0 : i*bw.Stride+c1]
			for j, v := range x.f64[i*x.c : (i+1)*x.c] {
				if v != 0 {
					floats.AddScaled(d.Data[j*d.Stride+c0:j*d.Stride+c1], v, bi)
				}
			}
		}
	}
	blocks := min(parallel.Threads(), max(1, k/4))
	work := x.r * x.c * k
	if serial(x.r, work) || blocks == 1 {
		cols(0, k)
		return
	}
	size := (k + blocks - 1) / blocks
	parallelBlocks(blocks, work, func(b int) {
		if c0 := b * size; c0 < k {
			cols(c0, min(c0+size, k))
		}
	})
}

// sumsCSROrder returns Σ f(entry) over x in row-major order from zero (f squares the
// entries when sq). Cost O(r·c).
func (x *Matrix) sumsCSROrder(sq bool) float64 {
	var s float64
	for _, v := range x.f64 {
		if sq {
			s += v * v
		} else {
			s += v
		}
	}
	return s
}

// Package attr defines Matrix, a graph's vertex attributes as the methods read them,
// and Operator, a matrix known through its products.
//
// It sits below both kernel packages and imports neither (sparse names its Operator from
// here): sparse.CSR, dense.Matrix and sparse.FilteredMatrix implement Matrix by their
// method sets alone, so datasets (which reads attributes) and algorithms (which
// factorises them) hold one attribute field of this type without importing one kernel
// package for the other's sake, and without a kernel package importing the readers or
// the methods.
package attr

import "gonum.org/v1/gonum/mat"

// Operator is an r×c matrix known through its products with dense matrices, so that a
// method can factorise a matrix that is never formed (sparse.FilteredMatrix) as well as
// a stored one (sparse.Operator is this type).
type Operator interface {
	// Dims returns the numbers of rows and columns.
	Dims() (r, c int)
	// MulDense sets dst = A·b for a c×k b and an r×k dst; dst must not alias b.
	MulDense(dst, b *mat.Dense)
	// TMulDense sets dst = Aᵀ·b for an r×k b and a c×k dst; dst must not alias b.
	TMulDense(dst, b *mat.Dense)
	// Sum returns the sum of all entries.
	Sum() float64
	// SumSq returns the squared Frobenius norm.
	SumSq() float64
}

// Matrix is an n×m vertex attribute matrix: stored sparse (sparse.CSR), stored dense
// (dense.Matrix) or known through its products (sparse.FilteredMatrix). Through its
// Operator a method factorises any form alike; a method that needs a form's rows asks
// for it by a type assertion.
type Matrix interface {
	Operator
	// RowNormsSq returns the squared Euclidean norm of every row (a new slice).
	RowNormsSq() []float64
	// RowTo sets dst (length at least c) to row i, zeros included, and returns dst[:c].
	RowTo(dst []float64, i int) []float64
	// NNZ returns the number of non-zero entries.
	NNZ() int
	// FirstNegative returns the row and column of the first negative or NaN entry in
	// row-major order, and ok = false when every entry is ≥ 0.
	FirstNegative() (i, j int, ok bool)
}

// Density returns the share of x's entries that are non-zero, nnz/(r·c), and 0 for a
// matrix without entries. Cost that of x.NNZ.
func Density(x Matrix) float64 {
	r, c := x.Dims()
	if r == 0 || c == 0 {
		return 0
	}
	return float64(x.NNZ()) / (float64(r) * float64(c))
}

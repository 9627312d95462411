// Package attrtest gives tests an attribute matrix in the form it is stored in.
package attrtest

import (
	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// Sparse returns x when it is a CSR, else nil.
func Sparse(x attr.Matrix) *sparse.CSR {
	c, _ := x.(*sparse.CSR)
	return c
}

// Dense returns x when it is a dense matrix, else nil.
func Dense(x attr.Matrix) *dense.Matrix {
	d, _ := x.(*dense.Matrix)
	return d
}

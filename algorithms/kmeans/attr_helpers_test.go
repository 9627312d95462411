package kmeans

import (
	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// sparseX returns x when it is a CSR, else nil.
func sparseX(x attr.Matrix) *sparse.CSR {
	c, _ := x.(*sparse.CSR)
	return c
}

// denseX returns x when it is a dense matrix, else nil.
func denseX(x attr.Matrix) *dense.Matrix {
	d, _ := x.(*dense.Matrix)
	return d
}

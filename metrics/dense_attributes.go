package metrics

import (
	"errors"

	"github.com/nagc-harness/nagc/dense"
)

// rowReader is an attribute matrix read row by row: the column indices and values of
// row i's non-zero entries (a CSR may also list stored zeros), in increasing column
// order, valid until the next call.
type rowReader interface {
	Dims() (r, c int)
	Row(i int) (cols []int, vals []float64)
}

// denseRows reads a dense matrix's rows as a rowReader: the non-zero entries of a row,
// gathered into buffers that the next call reuses. Not safe for concurrent use.
type denseRows struct {
	x    *dense.Matrix
	row  []float64
	cols []int
	vals []float64
}

func newDenseRows(x *dense.Matrix) *denseRows {
	_, m := x.Dims()
	return &denseRows{x: x, row: make([]float64, m), cols: make([]int, 0, m), vals: make([]float64, 0, m)}
}

func (d *denseRows) Dims() (r, c int) { return d.x.Dims() }

// Row returns the non-zero entries of row i. Cost O(m).
func (d *denseRows) Row(i int) (cols []int, vals []float64) {
	d.cols, d.vals = d.cols[:0], d.vals[:0]
	for j, v := range d.x.RowTo(d.row, i) {
		if v != 0 {
			d.cols, d.vals = append(d.cols, j), append(d.vals, v)
		}
	}
	return d.cols, d.vals
}

// AverageEntropyDense is AverageEntropy of a dense attribute matrix: the same measure of
// its zero pattern, equal (bit for bit) to AverageEntropy of a CSR storing the non-zero
// entries of x. Cost O(n·m) time, O(n + m + k) space.
func AverageEntropyDense(x *dense.Matrix, labels []int) (float64, error) {
	if x == nil {
		return 0, errors.New("metrics: AverageEntropy: nil attribute matrix")
	}
	return averageEntropy(newDenseRows(x), labels)
}

// AttributeModularityDense is AttributeModularity of a dense attribute matrix, equal (bit
// for bit) to AttributeModularity of a CSR storing the non-zero entries of x. x must be
// non-negative: signed attributes (embeddings) give negative cosine similarities, which
// are no edge weights; a negative entry is an error. Cost O(n·m) time, O(n + m + k)
// space.
func AttributeModularityDense(x *dense.Matrix, labels []int) (float64, error) {
	if x == nil {
		return 0, errors.New("metrics: AttributeModularity: nil attribute matrix")
	}
	return attributeModularity(newDenseRows(x), labels)
}

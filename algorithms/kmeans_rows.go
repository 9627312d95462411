package algorithms

import (
	"fmt"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// DenseRowsDensity is the share of stored entries from which the k-means of the kmeans
// method and of NAGC's k-means start cluster sparse attributes (CSR) as dense float64
// rows: there a row costs about as much to store densely as sparsely (a stored entry
// takes 16 bytes, an entry of a dense row 8) and its distance products run at the dense
// kernels' speed. The paper's graphs hold 0.9 % (Citeseer) to 17 % (Polblog) of their
// entries, far below it.
const DenseRowsDensity = 0.5

// denseRows returns the rows of x as a dense n×m float64 matrix (the same values) when
// at least DenseRowsDensity of its entries are stored and the copy, with FitDense's
// buffers for k clusters, fits the memory budget; else nil, and x is clustered as it is.
// The second result says which, for a run's info. Cost O(n·m).
func denseRows(x *sparse.CSR, k int) (*dense.Matrix, string) {
	n, m := x.Dims()
	if n == 0 || m == 0 {
		return nil, "sparse"
	}
	density := float64(x.NNZ()) / (float64(n) * float64(m))
	if density < DenseRowsDensity {
		return nil, fmt.Sprintf("sparse (density %.3f < %.1f)", density, DenseRowsDensity)
	}
	need := memory.Add(memory.Bytes(int64(n), 8*m), kmeansDenseBytes(n, m, k))
	if memory.Check("dense k-means rows", need) != nil {
		return nil, fmt.Sprintf("sparse (density %.3f, dense rows over the memory budget)", density)
	}
	data := make([]float64, n*m)
	for i := range n {
		cols, vals := x.Row(i)
		row := data[i*m : (i+1)*m]
		for p, j := range cols {
			row[j] += vals[p]
		}
	}
	return dense.NewMatrix64(n, m, data), fmt.Sprintf("dense (density %.3f ≥ %.1f)", density, DenseRowsDensity)
}

// rowsBytes is pointsBytes for the k-means that denseRows may hand dense rows: for a CSR
// dense enough, the larger of its sparse k-means and the dense copy with FitDense's
// buffers (the copy is made only where it fits the budget).
func rowsBytes(n, m, nnz, elem, k int) uint64 {
	b := pointsBytes(n, m, nnz, elem, k)
	if elem == 0 && n > 0 && m > 0 && float64(nnz) >= DenseRowsDensity*float64(n)*float64(m) {
		b = max(b, memory.Add(memory.Bytes(int64(n), 8*m), kmeansDenseBytes(n, m, k)))
	}
	return b
}

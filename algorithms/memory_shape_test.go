package algorithms

import (
	"testing"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// TestInputShapeDense checks that a dense attribute matrix counts in the shape a memory
// estimate reads: m its columns and nnz(X) all n·m entries.
func TestInputShapeDense(t *testing.T) {
	adj := sparse.NewBuilder(3, 3)
	adj.Add(0, 1, 1)
	adj.Add(1, 0, 1)
	in := Input{Adj: adj.CSR(sparse.SumDuplicates), XDense: dense.NewMatrix32(3, 4, make([]float32, 12))}
	n, m, nnzA, nnzX := InputShape(in)
	if n != 3 || m != 4 || nnzA != 2 || nnzX != 12 {
		t.Errorf("InputShape = n %d, m %d, nnz(A) %d, nnz(X) %d; want 3, 4, 2, 12", n, m, nnzA, nnzX)
	}
}

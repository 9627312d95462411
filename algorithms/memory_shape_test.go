package algorithms

import (
	"testing"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// TestInputShapeDense checks that a dense attribute matrix counts in the shape a memory
// estimate reads: m its columns, nnz(X) all n·m entries, and its entry size.
func TestInputShapeDense(t *testing.T) {
	adj := sparse.NewBuilder(3, 3)
	adj.Add(0, 1, 1)
	adj.Add(1, 0, 1)
	in := Input{Adj: adj.CSR(sparse.SumDuplicates), X: dense.NewMatrix32(3, 4, make([]float32, 12))}
	sh := InputShape(in, 2)
	n, m, nnzA, nnzX := sh.N, sh.M, sh.NNZA, sh.NNZX
	if n != 3 || m != 4 || nnzA != 2 || nnzX != 12 || sh.DenseX != 4 || sh.K != 2 {
		t.Errorf("InputShape = n %d, m %d, nnz(A) %d, nnz(X) %d, dense entry %d B, k %d; want 3, 4, 2, 12, 4, 2",
			n, m, nnzA, nnzX, sh.DenseX, sh.K)
	}
}

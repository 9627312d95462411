package metrics

import (
	"errors"
	"fmt"

	"github.com/nagc-harness/nagc/sparse"
)

// Connected reports, for each vertex of the graph with adjacency adj, whether it has at
// least one edge to another vertex (a stored non-zero off the diagonal in its row; a
// self-loop alone does not count). A vertex for which it is false is isolated: no method
// that clusters by the graph has evidence about it. adj must be square. Cost O(nnz + n).
func Connected(adj *sparse.CSR) ([]bool, error) {
	if adj == nil {
		return nil, errors.New("metrics: Connected: nil adjacency")
	}
	r, c := adj.Dims()
	if r != c {
		return nil, fmt.Errorf("metrics: Connected: adjacency is %d×%d, not square: %w", r, c, errLength)
	}
	conn := make([]bool, r)
	for u := range r {
		cols, vals := adj.Row(u)
		for p, v := range cols {
			if v != u && vals[p] != 0 {
				conn[u] = true
				break
			}
		}
	}
	return conn, nil
}

// ARIConnected returns the ARI (see ARI) of pred against truth restricted to the vertices
// with at least one edge to another vertex (see Connected). Where a graph has isolated
// vertices (polblog: 267 of 1 490), their clusters are set by the attributes or by a
// method's tie-breaking alone, and they can move the ARI of the whole graph more than the
// clustering of the rest does; this measure leaves them out. It equals ARI when no vertex
// is isolated; when every vertex is, nothing is left to compare and it returns 1, as ARI
// does for empty labelings. It returns an error when adj is nil or not n×n for
// n = len(truth), the lengths differ, or a label is negative.
// Cost O(nnz(adj) + n + #non-zero contingency cells).
func ARIConnected(truth, pred []int, adj *sparse.CSR) (float64, error) {
	if len(truth) != len(pred) {
		return 0, fmt.Errorf("metrics: ARIConnected: truth has %d labels, pred has %d: %w", len(truth), len(pred), errLength)
	}
	conn, err := Connected(adj)
	if err != nil {
		return 0, err
	}
	if len(conn) != len(truth) {
		return 0, fmt.Errorf("metrics: ARIConnected: adjacency is %d×%d, want %d×%d: %w", len(conn), len(conn), len(truth), len(truth), errLength)
	}
	var t, p []int
	for v, ok := range conn {
		if ok {
			t = append(t, truth[v])
			p = append(p, pred[v])
		}
	}
	return ARI(t, p)
}

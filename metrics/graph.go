package metrics

import (
	"errors"
	"fmt"
	"math"

	"github.com/nagc-harness/nagc/sparse"
)

// Modularity returns the modularity of the partition given by labels on the graph with
// adjacency matrix adj, as defined by the paper's authors: with
//
//	e_ij = (Σ adj[u][v] over u in cluster i, v in cluster j) / Σ adj,
//	a_i  = Σ_j e_ij,
//
// Q = Σ_i (e_ii − a_i²). The stored values are used as edge weights, so a scaled
// adjacency gives the same result; for a symmetric adjacency every undirected edge is
// counted in both directions. labels[v] is the cluster of vertex v (arbitrary
// non-negative ints). It returns an error when adj is nil, is not n×n for n = len(labels),
// has a zero total weight, or a label is negative. Cost O(nnz + n + k).
func Modularity(adj *sparse.CSR, labels []int) (float64, error) {
	if adj == nil {
		return 0, errors.New("metrics: Modularity: nil adjacency")
	}
	r, c := adj.Dims()
	if r != c || r != len(labels) {
		return 0, fmt.Errorf("metrics: Modularity: adjacency is %d×%d, want %d×%d: %w", r, c, len(labels), len(labels), errLength)
	}
	idx, uniq, err := compress(labels, "labels")
	if err != nil {
		return 0, err
	}
	k := len(uniq)
	within := make([]float64, k) // Σ over edges inside cluster i
	out := make([]float64, k)    // Σ over edges leaving a vertex of cluster i
	var total float64
	for u := 0; u < r; u++ {
		cu := idx[u]
		cols, vals := adj.Row(u)
		for p, v := range cols {
			w := vals[p]
			out[cu] += w
			total += w
			if idx[v] == cu {
				within[cu] += w
			}
		}
	}
	if total == 0 {
		return 0, errors.New("metrics: Modularity: adjacency has zero total weight")
	}
	var q float64
	for i := range within {
		ai := out[i] / total
		q += within[i]/total - ai*ai
	}
	return q, nil
}

// AverageEntropy returns the paper's average entropy of the attribute matrix x (n×m,
// one row per vertex) under the partition labels: for every attribute t and cluster c,
// let p be the share of members of c whose entry x[·][t] is zero (not stored, or stored
// as zero); then
//
//	E = Σ_t Σ_c |c| · H(p, 1−p) / (n · m),
//
// with H the binary entropy in nats and 0·log 0 = 0. Lower is better (more homogeneous
// clusters). labels are arbitrary non-negative ints; empty clusters do not occur.
// It returns an error when x is nil, has a number of rows other than len(labels), has no
// rows or no columns, or a label is negative. Cost O(nnz(x) + n + m) time and
// O(n + m + k) space: only (cluster, attribute) pairs with a non-zero entry contribute,
// so no n×m or k×m table is formed.
func AverageEntropy(x *sparse.CSR, labels []int) (float64, error) {
	if x == nil {
		return 0, errors.New("metrics: AverageEntropy: nil attribute matrix")
	}
	n, m := x.Dims()
	if n != len(labels) {
		return 0, fmt.Errorf("metrics: AverageEntropy: attribute matrix has %d rows, want %d: %w", n, len(labels), errLength)
	}
	if n == 0 || m == 0 {
		return 0, fmt.Errorf("metrics: AverageEntropy: empty %d×%d attribute matrix", n, m)
	}
	idx, uniq, err := compress(labels, "labels")
	if err != nil {
		return 0, err
	}
	k := len(uniq)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	order = countingOrder(order, idx, k) // vertices grouped by cluster

	count := make([]int, m) // per attribute: members of the current cluster with non-zero entry
	touched := make([]int, 0, m)
	var e float64
	for lo := 0; lo < n; {
		c := idx[order[lo]]
		hi := lo
		for hi < n && idx[order[hi]] == c {
			u := order[hi]
			cols, vals := x.Row(u)
			for p, t := range cols {
				if vals[p] == 0 {
					continue
				}
				if count[t] == 0 {
					touched = append(touched, t)
				}
				count[t]++
			}
			hi++
		}
		size := float64(hi - lo)
		for _, t := range touched {
			nz := float64(count[t])
			// Attributes with no non-zero member have p = 1 and zero entropy.
			e += size * binaryEntropy((size-nz)/size, nz/size)
			count[t] = 0
		}
		touched = touched[:0]
		lo = hi
	}
	return e / (float64(n) * float64(m)), nil
}

// binaryEntropy returns −p log p − q log q (natural log, 0·log 0 = 0) for p + q = 1.
func binaryEntropy(p, q float64) float64 {
	var h float64
	if p > 0 {
		h -= p * math.Log(p)
	}
	if q > 0 {
		h -= q * math.Log(q)
	}
	return h
}

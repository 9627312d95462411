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
	return averageEntropy(x, labels)
}

// averageEntropy is AverageEntropy of the rows of x.
func averageEntropy(x rowReader, labels []int) (float64, error) {
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

// AttributeModularity returns the modularity of the partition labels on the attribute
// similarity graph of x: vertices i ≠ j joined with weight x̂ᵢ·x̂ⱼ, the cosine similarity
// of their attribute rows (x̂ᵢ = xᵢ/‖xᵢ‖; vertices without attributes are isolated), the
// same Q = Σ_c (e_cc − a_c²) as Modularity. It is the attribute-side counterpart of
// Modularity: high when clusters gather vertices with similar attributes, compared with
// what the similarity degrees alone predict. The n×n similarity graph is never formed:
// with s_c = Σ_{i∈c} x̂ᵢ, s = Σ_c s_c and n_c the vertices of c with attributes,
// Σ_{i≠j∈c} x̂ᵢ·x̂ⱼ = ‖s_c‖² − n_c, the degree sum of c is s_c·s − n_c and the total weight
// is ‖s‖² − Σ_c n_c. x must be non-negative (as attribute matrices are) so that the
// weights are. A similarity graph without weight (no two vertices share an attribute)
// has no structure to find: the result is then 0. It returns an error when x is nil, has
// a number of rows other than len(labels), or a negative entry or label.
// Cost O(nnz(x) + n + m + k) time and O(n + m + k) space.
func AttributeModularity(x *sparse.CSR, labels []int) (float64, error) {
	if x == nil {
		return 0, errors.New("metrics: AttributeModularity: nil attribute matrix")
	}
	return attributeModularity(x, labels)
}

// attributeModularity is AttributeModularity of the rows of x.
func attributeModularity(x rowReader, labels []int) (float64, error) {
	n, _ := x.Dims()
	if n != len(labels) {
		return 0, fmt.Errorf("metrics: AttributeModularity: %d attribute rows for %d labels: %w", n, len(labels), errLength)
	}
	idx, uniq, err := compress(labels, "labels")
	if err != nil {
		return 0, err
	}
	k := len(uniq)
	norm, total, err := unitRows(x)
	if err != nil {
		return 0, err
	}
	in, deg, attributed := clusterSums(x, norm, total, idx, k)
	var two float64
	for _, v := range total {
		two += v * v
	}
	two -= attributed
	if !(two > 1e-12*math.Max(1, attributed)) {
		return 0, nil
	}
	var q float64
	for c := 0; c < k; c++ {
		a := deg[c] / two
		q += in[c]/two - a*a
	}
	return q, nil
}

// unitRows returns, for the rows of x, the inverse of each row's norm (0 for an empty
// row) and s, the sum of the rows scaled to unit norm; a negative or NaN entry is an
// error. Cost: two passes over x.
func unitRows(x rowReader) (norm, total []float64, err error) {
	n, m := x.Dims()
	norm = make([]float64, n)
	total = make([]float64, m) // s
	for i := 0; i < n; i++ {
		_, vals := x.Row(i)
		var sq float64
		for _, v := range vals {
			if v < 0 || math.IsNaN(v) {
				return nil, nil, fmt.Errorf("metrics: AttributeModularity: entry %v in row %d; need non-negative attributes", v, i)
			}
			sq += v * v
		}
		if sq > 0 {
			norm[i] = 1 / math.Sqrt(sq)
		}
		cols, _ := x.Row(i)
		for p, j := range cols {
			total[j] += vals[p] * norm[i]
		}
	}
	return norm, total, nil
}

// clusterSums returns, for each of the k clusters c of idx, ‖s_c‖² − n_c (in) and
// s_c·s − n_c (deg), where s_c sums the unit rows (norm) of its n_c attributed vertices
// and s is total, and the number of attributed vertices. It visits the vertices cluster
// by cluster, accumulating s_c in one reused vector. Cost: one pass over x.
func clusterSums(x rowReader, norm, total []float64, idx []int, k int) (in, deg []float64, attributed float64) {
	n, m := x.Dims()
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	order = countingOrder(order, idx, k)
	sc := make([]float64, m)
	mark := make([]int, m) // mark[j] = c+1 once column j is in touched for cluster c
	var touched []int
	in = make([]float64, k)
	deg = make([]float64, k)
	for start := 0; start < n; {
		c := idx[order[start]]
		end := start
		var nc float64
		for ; end < n && idx[order[end]] == c; end++ {
			i := order[end]
			if norm[i] == 0 {
				continue
			}
			nc++
			cols, vals := x.Row(i)
			for p, j := range cols {
				if mark[j] != c+1 {
					mark[j] = c + 1
					touched = append(touched, j)
				}
				sc[j] += vals[p] * norm[i]
			}
		}
		var sq, dot float64
		for _, j := range touched {
			sq += sc[j] * sc[j]
			dot += sc[j] * total[j]
			sc[j] = 0
		}
		touched = touched[:0]
		in[c] = sq - nc
		deg[c] = dot - nc
		attributed += nc
		start = end
	}
	return in, deg, attributed
}

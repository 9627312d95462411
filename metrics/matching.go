package metrics

import (
	"fmt"
	"math"
)

// Hungarian returns a minimum-cost assignment for the r×c cost matrix cost: for every
// row i, the column assigned to it, or -1 when row i is left unassigned (which happens
// only when r > c). Each column is used at most once, min(r, c) rows are assigned and the
// sum of the assigned costs is minimal. Rectangular matrices of either orientation are
// handled. It uses the Kuhn-Munkres algorithm with potentials (the O(n²m) shortest
// augmenting path form), costing O(min(r,c)²·max(r,c)) time and O(r + c) extra space.
//
// Hungarian panics if the rows of cost have different lengths or a cost is NaN or
// infinite.
func Hungarian(cost [][]float64) []int {
	r := len(cost)
	if r == 0 {
		return []int{}
	}
	c := len(cost[0])
	for i, row := range cost {
		if len(row) != c {
			panic(fmt.Sprintf("metrics: Hungarian: row %d has %d columns, want %d", i, len(row), c))
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				panic(fmt.Sprintf("metrics: Hungarian: non-finite cost %v at (%d, %d)", v, i, j))
			}
		}
	}
	assign := make([]int, r)
	for i := range assign {
		assign[i] = -1
	}
	if c == 0 {
		return assign
	}
	if r <= c {
		for i, j := range kuhnMunkres(func(i, j int) float64 { return cost[i][j] }, r, c) {
			assign[i] = j
		}
		return assign
	}
	// More rows than columns: solve the transpose, then invert.
	for j, i := range kuhnMunkres(func(i, j int) float64 { return cost[j][i] }, c, r) {
		assign[i] = j
	}
	return assign
}

// kuhnMunkres solves the n×m assignment problem, n ≤ m, with cost a(i, j), returning the
// column of every row. Rows are added one at a time; each addition runs a Dijkstra-like
// search for the shortest augmenting path under reduced costs a(i,j) − u[i] − v[j].
func kuhnMunkres(a func(i, j int) float64, n, m int) []int {
	// 1-based internally; column 0 and row 0 are sentinels.
	u := make([]float64, n+1)
	v := make([]float64, m+1)
	p := make([]int, m+1)   // p[j]: row matched to column j (0 = none)
	way := make([]int, m+1) // previous column on the augmenting path
	minv := make([]float64, m+1)
	used := make([]bool, m+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := p[j0]
			delta := math.Inf(1)
			j1 := 0
			for j := 1; j <= m; j++ {
				if used[j] {
					continue
				}
				if cur := a(i0-1, j-1) - u[i0] - v[j]; cur < minv[j] {
					minv[j] = cur
					way[j] = j0
				}
				if minv[j] < delta {
					delta = minv[j]
					j1 = j
				}
			}
			for j := 0; j <= m; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	rowCol := make([]int, n)
	for j := 1; j <= m; j++ {
		if p[j] != 0 {
			rowCol[p[j]-1] = j - 1
		}
	}
	return rowCol
}

// matching returns, for every cluster index of c, the class index it is matched to
// (or -1) by a maximum-weight one-to-one matching on the contingency counts, and the
// number of elements on matched cells. Cost O(k1·k2 + min(k1,k2)²·max(k1,k2)).
func (c *contingency) matching() (clusterClass []int, matched int) {
	k1, k2 := len(c.classes), len(c.clusters)
	cost := make([][]float64, k2)
	flat := make([]float64, k1*k2)
	for j := range cost {
		cost[j] = flat[j*k1 : (j+1)*k1 : (j+1)*k1]
	}
	for k, v := range c.nij {
		cost[c.cj[k]][c.ci[k]] = -float64(v)
	}
	clusterClass = Hungarian(cost)
	for j, i := range clusterClass {
		if i >= 0 {
			matched -= int(cost[j][i])
		}
	}
	return clusterClass, matched
}

// Accuracy returns the clustering accuracy of pred against truth: the fraction of
// elements whose predicted cluster is matched to their true class, under the one-to-one
// matching of clusters to classes that maximises that fraction (Hungarian algorithm on
// the contingency table; the numbers of clusters and classes may differ, surplus clusters
// count as wrong). Empty input gives 1. It returns an error when the lengths differ or a
// label is negative. Cost O(n + k1·k2 + min(k1,k2)²·max(k1,k2)) for k1 classes and k2
// clusters.
func Accuracy(truth, pred []int) (float64, error) {
	c, err := newContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	if c.n == 0 {
		return 1, nil
	}
	_, matched := c.matching()
	return float64(matched) / float64(c.n), nil
}

// Match returns the matching used by Accuracy, mapping every predicted cluster label to
// the true class label it is matched to, or to -1 for clusters left unmatched (when there
// are more clusters than classes). A vertex v is counted correct by Accuracy exactly when
// Match(truth, pred)[pred[v]] == truth[v]. It returns an error when the lengths differ or a
// label is negative. Cost as Accuracy.
func Match(truth, pred []int) (map[int]int, error) {
	c, err := newContingency(truth, pred)
	if err != nil {
		return nil, err
	}
	clusterClass, _ := c.matching()
	m := make(map[int]int, len(c.clusters))
	for j, i := range clusterClass {
		if i >= 0 {
			m[c.clusters[j]] = c.classes[i]
		} else {
			m[c.clusters[j]] = -1
		}
	}
	return m, nil
}

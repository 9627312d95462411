package datasets

import (
	"math"
	"sort"

	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// Graph is an attributed graph, with a ground-truth class per vertex when the data has
// labels, as a clustering method sees it.
type Graph struct {
	// Name is the dataset name: the base name of the folder it was read from,
	// or "synthetic".
	Name string

	// IDs holds the vertex ids in file order (files of a folder in sorted
	// file-name order, lines in order). Vertex i of every matrix is IDs[i].
	IDs []string

	// Labels holds the class index of each vertex, an index into ClassNames, or
	// Unlabeled for a vertex of a partly labelled graph that has no label. It is nil
	// for an unlabeled graph.
	Labels []int

	// ClassNames maps a class index to its name. Classes are sorted by name
	// (numerically when every name is an integer). It is nil for an unlabeled
	// graph, so K() is 0.
	ClassNames []string

	// Adj is the n×n symmetric adjacency matrix: 1 per edge for an unweighted
	// graph, the edge weight (> 0) for a weighted one. Self-loops are stored on
	// the diagonal.
	Adj *sparse.CSR

	// X is the n×m attribute matrix: a *sparse.CSR (only non-zero values stored) or,
	// when the data stores it dense, a *dense.Matrix. It is nil for a graph without
	// attributes.
	X attr.Matrix

	// Dangling is the number of edge lines that were dropped because they name
	// an id that has no attribute line.
	Dangling int
}

// Unlabeled is the label of a vertex without one in a partly labelled graph (a label
// file naming only some vertices, as Planetoid's training labels do). Such vertices are
// clustered like the others; the metrics that read labels score only labelled vertices.
const Unlabeled = -1

// LabeledCount returns the number of vertices with a label (0 for an unlabeled graph).
// Cost O(n).
func (g *Graph) LabeledCount() int {
	c := 0
	for _, l := range g.Labels {
		if l >= 0 {
			c++
		}
	}
	return c
}

// N returns the number of vertices.
func (g *Graph) N() int { return len(g.IDs) }

// M returns the number of attribute columns.
func (g *Graph) M() int {
	if g.X == nil {
		return 0
	}
	_, m := g.X.Dims()
	return m
}

// HasAttributes reports whether the graph has an attribute matrix, sparse or dense.
func (g *Graph) HasAttributes() bool { return g.X != nil }

// StoredX returns X in the form it is stored in: a CSR, or a dense matrix; both nil for
// a graph without attributes. It is the one place that asks X for its type.
func (g *Graph) StoredX() (*sparse.CSR, *dense.Matrix) {
	switch x := g.X.(type) {
	case *sparse.CSR:
		return x, nil
	case *dense.Matrix:
		return nil, x
	}
	return nil, nil
}

// NoColumns returns the n×0 sparse matrix: no attributes, for n vertices.
func NoColumns(n int) *sparse.CSR {
	x, err := sparse.NewCSR(n, 0, make([]int, n+1), nil, nil)
	if err != nil {
		panic(err)
	}
	return x
}

// AttributeNNZ returns the number of non-zero attribute values: the stored entries of a
// sparse X, the non-zero entries of a dense one (cost O(n·m)).
func (g *Graph) AttributeNNZ() int {
	if g.X == nil {
		return 0
	}
	return g.X.NNZ()
}

// K returns the number of classes, 0 for an unlabeled graph.
func (g *Graph) K() int { return len(g.ClassNames) }

// Labeled reports whether the graph has a ground-truth class per vertex.
func (g *Graph) Labeled() bool { return g.Labels != nil }

// Isolated returns the number of vertices without an edge to another vertex (a vertex
// whose only edge is a self-loop counts as isolated). Cost O(n).
func (g *Graph) Isolated() int {
	if g.Adj == nil {
		return g.N()
	}
	r, _ := g.Adj.Dims()
	s := 0
	for i := 0; i < r; i++ {
		cols, _ := g.Adj.Row(i)
		if len(cols) == 0 || len(cols) == 1 && cols[0] == i {
			s++
		}
	}
	return s
}

// Weighted reports whether some stored adjacency value differs from 1. Cost O(nnz).
func (g *Graph) Weighted() bool {
	return g.Adj != nil && !g.Adj.UnitValues()
}

// SelfLoops returns the number of vertices with a self-loop, that is the number of
// stored diagonal entries of Adj. Cost O(n log d) for maximum degree d.
func (g *Graph) SelfLoops() int {
	if g.Adj == nil {
		return 0
	}
	r, _ := g.Adj.Dims()
	s := 0
	for i := 0; i < r; i++ {
		cols, _ := g.Adj.Row(i)
		if k := sort.SearchInts(cols, i); k < len(cols) && cols[k] == i {
			s++
		}
	}
	return s
}

// Edges returns the number of distinct undirected edges, self-loops included:
// (nnz(Adj) + SelfLoops) / 2. Cost O(n log d).
func (g *Graph) Edges() int {
	if g.Adj == nil {
		return 0
	}
	return (g.Adj.NNZ() + g.SelfLoops()) / 2
}

// Density returns the fraction (Edges − SelfLoops) / n² of observed edges, as in the
// dataset table of the NAGC paper. The paper writes the formula as |E|/n², but its
// figures (WebKB 0.18 %, Citeseer 0.04 %, Cora 0.07 %, polblog 0.75 %) are matched only
// when self-loops are left out of |E|: with them WebKB would be 1480/877² = 0.19 %.
// Density returns 0 for an empty graph. Cost O(n log d).
func (g *Graph) Density() float64 {
	n := g.N()
	if n == 0 {
		return 0
	}
	e := g.Edges() - g.SelfLoops()
	return float64(e) / (float64(n) * float64(n))
}

// ClassSizes returns the number of vertices of each class, indexed like ClassNames.
// Cost O(n).
func (g *Graph) ClassSizes() []int {
	s := make([]int, len(g.ClassNames))
	for _, l := range g.Labels {
		if l >= 0 && l < len(s) {
			s[l]++
		}
	}
	return s
}

// Stats summarises a graph: the columns of the paper's dataset table (N, Edges, M, K,
// Density, with the meanings of the Graph methods of the same names) and a few more:
// NNZX is the number of stored entries of X, SelfLoops and Dangling are as in Graph,
// Labeled is LabeledCount.
type Stats struct {
	Name      string  `json:"name"`
	N         int     `json:"n"`
	Edges     int     `json:"edges"`
	M         int     `json:"m"`
	K         int     `json:"k"`
	NNZX      int     `json:"nnz_x"`
	SelfLoops int     `json:"self_loops"`
	Isolated  int     `json:"isolated"` // vertices without an edge to another vertex, as the load report's isolated=
	Dangling  int     `json:"dangling"` // edge lines dropped for naming an unknown id (the table's "dropped edges")
	Density   float64 `json:"density"`
	// Labeled is the number of vertices with a label: N for a fully labelled graph,
	// fewer for a partly labelled one (the vertices the label-reading metrics score),
	// 0 for an unlabeled one.
	Labeled int `json:"labeled"`
}

// Stats returns the summary statistics of g. Cost O(n log d).
func (g *Graph) Stats() Stats {
	s := Stats{
		Name:      g.Name,
		N:         g.N(),
		Edges:     g.Edges(),
		M:         g.M(),
		K:         g.K(),
		SelfLoops: g.SelfLoops(),
		Isolated:  g.Isolated(),
		Dangling:  g.Dangling,
		Density:   g.Density(),
		Labeled:   g.LabeledCount(),
	}
	s.NNZX = g.AttributeNNZ()
	return s
}

// patternCSR returns the r×c 0/1 matrix with a one at every (rows[k], cols[k]),
// repeated positions stored once. It sorts by counting rows and then sorting each
// row, so it costs O(r + t + Σ_i d_i log d_i) for t pairs.
func patternCSR(r, c int, rows, cols []int32) (*sparse.CSR, error) {
	ptr, next := rowOffsets(r, rows)
	ind := make([]int, len(rows))
	for k, i := range rows {
		ind[next[i]] = int(cols[k])
		next[i]++
	}
	next = nil
	// Sort each row and compact duplicates in place.
	w := 0
	for i := 0; i < r; i++ {
		lo, hi := ptr[i], ptr[i+1]
		row := ind[lo:hi]
		sortSmall(row)
		ptr[i] = w
		last := -1
		for _, j := range row {
			if j == last {
				continue
			}
			ind[w] = j
			w++
			last = j
		}
	}
	ptr[r] = w
	ind = ind[:w:w]
	val := make([]float64, w)
	for k := range val {
		val[k] = 1
	}
	return sparse.NewCSR(r, c, ptr, ind, val)
}

// sortSmall sorts s in increasing order, by insertion for short slices.
func sortSmall(s []int) {
	if len(s) > 24 {
		sort.Ints(s)
		return
	}
	for i := 1; i < len(s); i++ {
		v := s[i]
		j := i
		for j > 0 && s[j-1] > v {
			s[j] = s[j-1]
			j--
		}
		s[j] = v
	}
}

// validProb reports whether p is a probability.
func validProb(p float64) bool { return p >= 0 && p <= 1 && !math.IsNaN(p) }

// rowOffsets returns the CSR row pointer of an r-row matrix whose entries lie in rows
// (entry k in row rows[k]), by counting, and a copy of its first r entries: the next free
// slot of each row, for placing the entries. Cost O(r + len(rows)).
func rowOffsets(r int, rows []int32) (ptr, next []int) {
	ptr = make([]int, r+1)
	for _, i := range rows {
		ptr[i+1]++
	}
	for i := 0; i < r; i++ {
		ptr[i+1] += ptr[i]
	}
	next = make([]int, r)
	copy(next, ptr[:r])
	return ptr, next
}

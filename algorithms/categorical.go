package algorithms

import (
	"slices"

	"github.com/nagc-harness/nagc/sparse"
)

// categorical reads each attribute column as one categorical variable whose categories
// are the distinct values the column holds, sorted: a 0/1 column has two categories (0
// and 1), so absence is a value like presence; a column whose every vertex holds the
// same value has one. This is how BAGC's and SA-Cluster's public code read an attribute
// table, and how SA-Cluster's attribute vertices are made: one per (column, value).
//
// Only the nonzero entries are stored, with the category of value 0 of each column (the
// vertices not listed) kept implicit, so that the cost is O(nnz(X)) and not O(n·m).
// Categories have global ids: those of column t are off[t] … off[t+1]−1.
type categorical struct {
	n, cols int
	off     []int // categories of column t: off[t] … off[t+1]−1
	zero    []int // global id of the category of value 0 in column t, −1 when no vertex holds 0
	size    []int // vertices in each category (global id)
	col     []int // column of each category (global id)

	// Row-major nonzero entries: vertex i holds category rowCat[p] of column rowCol[p] for
	// p in rowPtr[i] … rowPtr[i+1]−1 (columns increasing).
	rowPtr, rowCol, rowCat []int
	// Column-major nonzero entries: column t is held with a nonzero value by the vertices
	// colRow[p], in category colCat[p], for p in colPtr[t] … colPtr[t+1]−1.
	colPtr, colRow, colCat []int
}

// newCategorical reads the columns of x as categorical variables. Cost O(nnz(X) log) for
// sorting each column's distinct values, memory O(n + m + nnz(X)).
func newCategorical(x *sparse.CSR) *categorical {
	n, m := x.Dims()
	xt := x.T()
	c := &categorical{n: n, cols: m, off: make([]int, m+1), zero: make([]int, m),
		colPtr: make([]int, m+1), colRow: make([]int, 0, x.NNZ()), colCat: make([]int, 0, x.NNZ())}
	catOf := make([]int, x.NNZ()) // category of each entry of xt, in xt's order
	q := 0
	var vals []float64
	for t := 0; t < m; t++ {
		rows, vs := xt.Row(t)
		vals = vals[:0]
		nz := 0
		for _, v := range vs {
			if v != 0 {
				vals = append(vals, v)
				nz++
			}
		}
		if nz < n {
			vals = append(vals, 0)
		}
		slices.Sort(vals)
		vals = slices.Compact(vals)
		base := c.off[t]
		c.off[t+1] = base + len(vals)
		c.zero[t] = -1
		if k, ok := slices.BinarySearch(vals, 0); ok && nz < n {
			c.zero[t] = base + k
		}
		c.size = append(c.size, make([]int, len(vals))...)
		for range vals {
			c.col = append(c.col, t)
		}
		for p, i := range rows {
			v := vs[p]
			if v == 0 {
				catOf[q] = -1
				q++
				continue
			}
			k, _ := slices.BinarySearch(vals, v)
			catOf[q] = base + k
			c.size[base+k]++
			c.colRow = append(c.colRow, i)
			c.colCat = append(c.colCat, base+k)
			q++
		}
		c.colPtr[t+1] = len(c.colRow)
		if c.zero[t] >= 0 {
			c.size[c.zero[t]] = n - nz
		}
	}
	// Row-major copy of the nonzero entries, columns increasing within a row.
	c.rowPtr = make([]int, n+1)
	for _, i := range c.colRow {
		c.rowPtr[i+1]++
	}
	for i := 0; i < n; i++ {
		c.rowPtr[i+1] += c.rowPtr[i]
	}
	c.rowCol = make([]int, len(c.colRow))
	c.rowCat = make([]int, len(c.colRow))
	next := slices.Clone(c.rowPtr[:n])
	for t := 0; t < m; t++ {
		for p := c.colPtr[t]; p < c.colPtr[t+1]; p++ {
			i := c.colRow[p]
			c.rowCol[next[i]] = t
			c.rowCat[next[i]] = c.colCat[p]
			next[i]++
		}
	}
	return c
}

// categories returns the total number of categories over all columns.
func (c *categorical) categories() int { return c.off[c.cols] }

// row returns the nonzero entries of vertex i: their columns and categories.
func (c *categorical) row(i int) (cols, cats []int) {
	lo, hi := c.rowPtr[i], c.rowPtr[i+1]
	return c.rowCol[lo:hi:hi], c.rowCat[lo:hi:hi]
}

// category returns the category vertex i holds in column t. Cost O(log nnz(x_i)).
func (c *categorical) category(i, t int) int {
	cols, cats := c.row(i)
	if k, ok := slices.BinarySearch(cols, t); ok {
		return cats[k]
	}
	return c.zero[t]
}

// members calls fn for every vertex of category g of column t. Cost O(size) for a
// nonzero category, O(n) for the category of value 0.
func (c *categorical) members(t, g int, fn func(i int)) {
	if g == c.zero[t] {
		p := c.colPtr[t]
		for i := 0; i < c.n; i++ {
			if p < c.colPtr[t+1] && c.colRow[p] == i {
				p++
				continue
			}
			fn(i)
		}
		return
	}
	for p := c.colPtr[t]; p < c.colPtr[t+1]; p++ {
		if c.colCat[p] == g {
			fn(c.colRow[p])
		}
	}
}

package kmeans

import (
	"slices"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/internal/parallel"
)

// maxColBlocks caps the column blocks sumRows splits its work into, and so the row
// offsets it keeps ((maxColBlocks−1)·n ints).
const maxColBlocks = 4

// sumRows adds every row of x into the row of w.centers of its cluster, rows in row
// order, so that each entry of a centre is the sum of its members' entries in row order,
// as one pass over the rows gives. On several goroutines the columns are split into
// blocks of about equal stored entries, one block a goroutine, each reading the rows in
// row order and adding their entries of its columns: an entry is summed by one block, in
// the same order for any split, so the bits do not depend on it. The rows are read in
// memory order, never gathered by cluster. Cost O(nnz(x)); the blocks' row offsets
// (colCuts) once per fit and number of blocks, O(nnz(x)).
func (w *workspace) sumRows() {
	n, _ := w.x.Dims()
	blocks := dense.Grain().Workers(min(parallel.Threads(), maxColBlocks), w.x.NNZ())
	cut := w.colCuts(blocks)
	c := w.centers.RawMatrix()
	parallel.RunOn(blocks, blocks, func(b int) {
		for i := 0; i < n; i++ {
			cols, vals := w.x.Row(i)
			lo, hi := 0, len(cols)
			if b > 0 {
				lo = cut[b-1][i]
			}
			if b < blocks-1 {
				hi = cut[b][i]
			}
			row := c.Data[w.labels[i]*c.Stride:]
			for p := lo; p < hi; p++ {
				row[cols[p]] += vals[p]
			}
		}
	})
}

// colCuts returns, for the columns of x split into blocks column blocks of about equal
// stored entries, cut[b][i]: the offset in row i of its first entry in a column of block
// b+1 (the rows' column indices are increasing). It is kept for the next call with the
// same number of blocks. Cost O(nnz(x) + m) on a new number of blocks.
func (w *workspace) colCuts(blocks int) [][]int {
	if blocks <= 1 || len(w.cut) == blocks-1 {
		return w.cut
	}
	n, m := w.x.Dims()
	perCol := make([]int, m)
	for i := 0; i < n; i++ {
		cols, _ := w.x.Row(i)
		for _, j := range cols {
			perCol[j]++
		}
	}
	bounds := make([]int, 0, blocks-1) // first column of blocks 1, …, blocks−1
	var seen int
	for j, c := range perCol {
		for len(bounds) < blocks-1 && seen >= (len(bounds)+1)*w.x.NNZ()/blocks {
			bounds = append(bounds, j)
		}
		seen += c
	}
	for len(bounds) < blocks-1 {
		bounds = append(bounds, m)
	}
	w.cut = make([][]int, blocks-1)
	for b, j := range bounds {
		w.cut[b] = make([]int, n)
		for i := 0; i < n; i++ {
			cols, _ := w.x.Row(i)
			w.cut[b][i], _ = slices.BinarySearch(cols, j)
		}
	}
	return w.cut
}

// countLabels counts the rows of each cluster into w.counts.
func (w *workspace) countLabels() {
	clear(w.counts)
	for _, c := range w.labels {
		w.counts[c]++
	}
}

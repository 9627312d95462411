package algorithms

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
)

// gsBlockRows is the number of rows of one block of the Gram–Schmidt's sums: every dot
// product over a column's rows is summed in order within each block of gsBlockRows rows,
// and the blocks' sums are then added in block order. A constant, so that the bits do not
// depend on the thread count; a matrix of at most gsBlockRows rows (every graph of the
// paper) is one block, summed in row order as a serial loop sums it.
const gsBlockRows = 1 << 16

// nmfOrthonormalise makes the columns of q orthonormal in place by modified Gram–Schmidt
// applied twice; a column that is (numerically) dependent on the previous ones is set to
// zero. Cost O(r·c²), split by blocks of rows over sparse.Threads; it allocates r·c floats
// (orthonormaliser reuses them).
func nmfOrthonormalise(q *mat.Dense) {
	var o orthonormaliser
	o.apply(q)
}

// orthonormaliser is nmfOrthonormalise with its r·c column buffer, its per-block sums
// and its block task kept between calls, so that an orthonormalisation allocates nothing
// once the buffer is large enough.
type orthonormaliser struct{ g gramSchmidt }

// apply makes the columns of q orthonormal in place, as nmfOrthonormalise. The columns
// are copied out and back in one pass over q's rows each, and every projection's update
// of column j is fused with the next dot product it feeds (the next projection's, or the
// final norm's), which reads the updated entries in the same order: the arithmetic and so
// the bits are those of separate passes, with half the passes over memory.
//
// Rows are cut into blocks of gsBlockRows; each pass runs its blocks on up to
// sparse.Threads goroutines (sparse.ParallelTasks), each block summing its rows in order,
// and a dot product is the blocks' sums added in block order. The result is the same for
// any thread count, and for r ≤ gsBlockRows it is the serial loop's, bit for bit.
func (o *orthonormaliser) apply(q *mat.Dense) {
	r, c := q.Dims()
	if r == 0 || c == 0 {
		return
	}
	g := &o.g
	g.reset(q)
	g.run(gsCopyIn, nil, nil, nil, 0)
	for j := 0; j < c; j++ {
		v := g.col(j)
		orig := math.Sqrt(g.run(gsDot, v, v, nil, 0))
		// Two passes of projections on columns 0…j−1; p is the dot product of the next
		// projection's column with v as v stands, and the last sweep leaves ‖v‖².
		var p float64
		if j > 0 {
			p = g.run(gsDot, g.col(0), v, nil, 0)
		} else {
			p = g.run(gsDot, v, v, nil, 0)
		}
		for step := 0; step < 2*j; step++ {
			next := v
			if step+1 < 2*j {
				next = g.col((step + 1) % j)
			}
			p = g.run(gsProject, v, g.col(step%j), next, p)
		}
		nrm := math.Sqrt(p)
		if nrm <= 1e-10*orig || nrm == 0 {
			clear(v)
			continue
		}
		g.run(gsDivide, v, nil, nil, nrm)
	}
	g.run(gsCopyOut, nil, nil, nil, 0)
}

// The passes of gramSchmidt.run.
const (
	gsCopyIn  = iota // q's rows into the columns
	gsCopyOut        // the columns back into q's rows
	gsDot            // parts = a·b
	gsProject        // a ← a − p·b, then parts = next·a
	gsDivide         // a ← a / p
)

// gramSchmidt is one orthonormalisation's columns (column j is buf[j·r : (j+1)·r]), the
// per-block sums of its dot products, and the operands of the pass under way, read by
// task, which runs the pass on one block of rows.
type gramSchmidt struct {
	q     *mat.Dense
	buf   []float64
	r     int
	parts []float64 // one sum per block of gsBlockRows rows

	op         int
	a, b, next []float64
	p          float64
	task       func(block int) // g.block, bound to owner
	owner      *gramSchmidt
}

// reset prepares g for q, growing its buffers where needed.
func (g *gramSchmidt) reset(q *mat.Dense) {
	r, c := q.Dims()
	if cap(g.buf) < r*c {
		g.buf = make([]float64, r*c)
	}
	nb := (r + gsBlockRows - 1) / gsBlockRows
	if cap(g.parts) < nb {
		g.parts = make([]float64, nb)
	}
	g.q, g.buf, g.r, g.parts = q, g.buf[:r*c], r, g.parts[:nb]
	if g.owner != g { // first use, or g was copied: bind the task to this g
		g.task, g.owner = g.block, g
	}
}

func (g *gramSchmidt) col(j int) []float64 { return g.buf[j*g.r : (j+1)*g.r] }

// run runs pass op over every block of rows, on up to sparse.Threads goroutines when there
// is more than one block, and returns the blocks' sums added in block order (passes that
// sum nothing return 0).
func (g *gramSchmidt) run(op int, a, b, next []float64, p float64) float64 {
	g.op, g.a, g.b, g.next, g.p = op, a, b, next, p
	nb := len(g.parts)
	if nb <= 1 || sparse.Threads() <= 1 {
		for blk := 0; blk < nb; blk++ {
			g.task(blk)
		}
	} else {
		sparse.ParallelTasks(nb, g.task)
	}
	g.a, g.b, g.next = nil, nil, nil
	if op != gsDot && op != gsProject {
		return 0
	}
	s := g.parts[0]
	for _, x := range g.parts[1:] {
		s += x
	}
	return s
}

// block runs the current pass on rows blk·gsBlockRows … of block blk, summing its rows in
// order.
func (g *gramSchmidt) block(blk int) {
	lo, hi := blk*gsBlockRows, min((blk+1)*gsBlockRows, g.r)
	switch g.op {
	case gsCopyIn:
		for i := lo; i < hi; i++ {
			for j, v := range g.q.RawRowView(i) {
				g.buf[j*g.r+i] = v
			}
		}
	case gsCopyOut:
		for i := lo; i < hi; i++ {
			row := g.q.RawRowView(i)
			for j := range row {
				row[j] = g.buf[j*g.r+i]
			}
		}
	case gsDot:
		a, b := g.a[lo:hi], g.b[lo:hi]
		var s float64
		for i, x := range a {
			s += x * b[i]
		}
		g.parts[blk] = s
	case gsProject:
		v, c, next, p := g.a[lo:hi], g.b[lo:hi], g.next[lo:hi], g.p
		var s float64
		for i := range v {
			v[i] -= p * c[i]
			s += next[i] * v[i]
		}
		g.parts[blk] = s
	case gsDivide:
		v, nrm := g.a[lo:hi], g.p
		for i := range v {
			v[i] /= nrm
		}
	}
}

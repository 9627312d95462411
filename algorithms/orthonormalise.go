package algorithms

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// gsBlockRows is the number of rows of one block of the Gram–Schmidt's sums: every dot
// product over a column's rows is summed in order within each block of gsBlockRows rows,
// and the blocks' sums are then added in block order. A constant, so that the bits do not
// depend on the thread count; a matrix of at most gsBlockRows rows (every graph of the
// paper) is one block, summed in row order as a serial loop sums it.
const gsBlockRows = 1 << 16

// orthonormaliser makes the columns of a matrix orthonormal in place by modified
// Gram–Schmidt applied twice (a column numerically dependent on the previous ones is set
// to zero), at cost O(r·c²) split by blocks of rows over parallel.Threads; it keeps its
// r·c column buffer, its per-block sums and its block task between calls, so that an
// orthonormalisation allocates nothing once the buffer is large enough.
type orthonormaliser struct{ g gramSchmidt }

// apply makes the columns of q orthonormal in place (see orthonormaliser). The columns
// are copied out and back in one pass over q's rows each, and every projection's update
// of column j is fused with the next dot product it feeds (the next projection's, or the
// final norm's), which reads the updated entries in the same order: the arithmetic and so
// the bits are those of separate passes, with half the passes over memory.
//
// Rows are cut into blocks of gsBlockRows; each pass runs its blocks on up to
// parallel.Threads goroutines (parallel.Run), each block summing its rows in order,
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
// task, which runs the pass on one group of gsGroup blocks of rows.
type gramSchmidt struct {
	q     *mat.Dense
	buf   []float64
	r     int
	parts []float64 // one sum per block of gsBlockRows rows

	op         int
	a, b, next []float64
	p          float64
	task       func(group int) // g.group, bound to owner
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
		g.task, g.owner = g.group, g
	}
}

func (g *gramSchmidt) col(j int) []float64 { return g.buf[j*g.r : (j+1)*g.r] }

// run runs pass op over every block of rows, a group of gsGroup blocks a task, on up to
// parallel.Threads goroutines when there is more than one group, and returns the blocks'
// sums added in block order (passes that sum nothing return 0).
func (g *gramSchmidt) run(op int, a, b, next []float64, p float64) float64 {
	g.op, g.a, g.b, g.next, g.p = op, a, b, next, p
	groups := (len(g.parts) + gsGroup - 1) / gsGroup
	if groups <= 1 || parallel.Threads() <= 1 {
		for grp := 0; grp < groups; grp++ {
			g.task(grp)
		}
	} else {
		parallel.Run(groups, g.task)
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

// gsGroup is the number of consecutive blocks of rows one task of gramSchmidt.run takes:
// their dot products are summed side by side, each block's in its own accumulator and in
// row order, so that four additions are in flight instead of one (a single sum is bound
// by the latency of its additions) with each block's sum the same bits.
const gsGroup = 4

// group runs the current pass on the blocks of group grp: side by side where it has
// gsGroup full blocks and the pass sums, else one block after the other.
func (g *gramSchmidt) group(grp int) {
	first := grp * gsGroup
	last := min(first+gsGroup, len(g.parts)) // one past
	if last-first == gsGroup && last*gsBlockRows <= g.r && (g.op == gsDot || g.op == gsProject) {
		g.group4(first)
		return
	}
	for blk := first; blk < last; blk++ {
		g.block(blk)
	}
}

// group4 runs the current pass (gsDot or gsProject) on the gsGroup full blocks from block
// first, the blocks' sums side by side, each in row order.
func (g *gramSchmidt) group4(first int) {
	const n = gsBlockRows
	lo := first * n
	a0, a1, a2, a3 := g.a[lo:lo+n], g.a[lo+n:lo+2*n], g.a[lo+2*n:lo+3*n], g.a[lo+3*n:lo+4*n]
	b0, b1, b2, b3 := g.b[lo:lo+n], g.b[lo+n:lo+2*n], g.b[lo+2*n:lo+3*n], g.b[lo+3*n:lo+4*n]
	var s0, s1, s2, s3 float64
	if g.op == gsDot {
		for i := 0; i < n; i++ {
			s0 += a0[i] * b0[i]
			s1 += a1[i] * b1[i]
			s2 += a2[i] * b2[i]
			s3 += a3[i] * b3[i]
		}
	} else {
		x := g.next
		x0, x1, x2, x3 := x[lo:lo+n], x[lo+n:lo+2*n], x[lo+2*n:lo+3*n], x[lo+3*n:lo+4*n]
		p := g.p
		for i := 0; i < n; i++ {
			a0[i] -= p * b0[i]
			s0 += x0[i] * a0[i]
			a1[i] -= p * b1[i]
			s1 += x1[i] * a1[i]
			a2[i] -= p * b2[i]
			s2 += x2[i] * a2[i]
			a3[i] -= p * b3[i]
			s3 += x3[i] * a3[i]
		}
	}
	g.parts[first], g.parts[first+1], g.parts[first+2], g.parts[first+3] = s0, s1, s2, s3
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

package render

import (
	"math"
	"math/rand/v2"

	"github.com/nagc-harness/nagc/sparse"
)

// point2 is a position in the plane.
type point2 struct{ X, Y float64 }

// edgesOf returns the undirected edges {i, j}, i < j, of a symmetric adjacency matrix,
// self-loops left out, in row order.
func edgesOf(adj *sparse.CSR) [][2]int {
	if adj == nil {
		return nil
	}
	n, _ := adj.Dims()
	var out [][2]int
	for i := 0; i < n; i++ {
		cols, _ := adj.Row(i)
		for _, j := range cols {
			if j > i {
				out = append(out, [2]int{i, j})
			}
		}
	}
	return out
}

// forceLayout places n vertices in the plane with the Fruchterman–Reingold force-directed
// algorithm: all pairs repel (k²/d), the ends of an edge attract (d²/k), and a weak
// gravity towards the origin keeps disconnected components in view; the step is limited
// by a temperature that cools linearly. The start positions come from seed, and every
// loop runs in index order, so the layout is a deterministic function of its arguments.
// Positions are scaled into [-1, 1]². Cost O(iterations · (n² + |E|)).
//
// Not gonum's graph/layout: it offers Eades' spring embedder (EadesR2, with a
// Barnes–Hut approximation and its own random start) and Isomap, not
// Fruchterman–Reingold with gravity, which keeps WebKB's many small components in view
// as the paper's Gephi drawing does; switching would redraw the layout figure.
func forceLayout(n int, edges [][2]int, iterations int, seed uint64) []point2 {
	pos := make([]point2, n)
	if n == 0 {
		return pos
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for i := range pos {
		pos[i] = point2{rng.Float64() - 0.5, rng.Float64() - 0.5}
	}
	k := math.Sqrt(1 / float64(n))
	const gravity = 1.0
	disp := make([]point2, n)
	for it := 0; it < iterations; it++ {
		for i := range disp {
			disp[i] = point2{}
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				dx, dy := pos[i].X-pos[j].X, pos[i].Y-pos[j].Y
				d2 := dx*dx + dy*dy
				if d2 < 1e-12 {
					dx, dy, d2 = 1e-6*float64(i-j), 1e-6, 1e-12
				}
				f := k * k / d2 // (k²/d) along the unit vector (dx, dy)/d
				disp[i].X += dx * f
				disp[i].Y += dy * f
				disp[j].X -= dx * f
				disp[j].Y -= dy * f
			}
		}
		for _, e := range edges {
			u, v := e[0], e[1]
			dx, dy := pos[u].X-pos[v].X, pos[u].Y-pos[v].Y
			d := math.Hypot(dx, dy)
			f := d / k // (d²/k) along the unit vector
			disp[u].X -= dx * f
			disp[u].Y -= dy * f
			disp[v].X += dx * f
			disp[v].Y += dy * f
		}
		t := 0.1 * (1 - float64(it)/float64(iterations))
		for i := range pos {
			disp[i].X -= gravity * pos[i].X
			disp[i].Y -= gravity * pos[i].Y
			d := math.Hypot(disp[i].X, disp[i].Y)
			if d > 0 {
				s := math.Min(d, t) / d
				pos[i].X += disp[i].X * s
				pos[i].Y += disp[i].Y * s
			}
		}
	}
	scale := 0.0
	for _, p := range pos {
		scale = math.Max(scale, math.Max(math.Abs(p.X), math.Abs(p.Y)))
	}
	if scale > 0 {
		for i := range pos {
			pos[i].X /= scale
			pos[i].Y /= scale
		}
	}
	return pos
}

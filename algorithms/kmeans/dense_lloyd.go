package kmeans

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"
)

// lloyd runs Lloyd's iterations from the seeded centres, with Hamerly's bounds, until the
// labels stop changing, the total squared centre shift is at most tol, or maxIter; then it
// assigns the rows to the final centres. It returns the iterations and the inertia.
func (f *denseFitter[T]) lloyd(ctx context.Context, maxIter int, tol float64) (int, float64, error) {
	f.full, f.recount, f.moved = true, true, false
	iter := 0
	for iter < maxIter {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		iter++
		changed := f.assign()
		shift := f.update(changed)
		if iter > 1 && changed == 0 {
			break
		}
		if shift <= tol {
			break
		}
	}
	f.assign()
	f.pool.Run(f.tasks, f.inertiaFn)
	var inertia float64
	for _, v := range f.partial[:f.tasks] {
		inertia += v
	}
	return iter, inertia, nil
}

// assign labels every row with its nearest centre and returns how many rows changed.
func (f *denseFitter[T]) assign() int {
	k, m := f.k, f.m
	for c := range k {
		r := f.centers[c*m : (c+1)*m]
		if f.x32 != nil { // the products see the centres rounded to float32
			var s float64
			for j, v := range r {
				v32 := float32(v)
				f.ct32[j*f.kp+c], f.c32[c*m+j] = v32, v32
				s += float64(v32) * float64(v32)
			}
			f.cnorm[c] = s
			continue
		}
		f.cnorm[c] = floats.Dot(r, r)
		for j, v := range r {
			f.ct64[j*f.kp+c] = v
		}
	}
	if k > 1 {
		f.pool.Run(k, f.halfFn)
	} else {
		f.half[0] = math.Inf(1)
	}
	f.pool.Run(f.tasks, f.assignFn)
	n := 0
	for _, c := range f.changed {
		n += c
	}
	if f.full {
		f.recount = true
	}
	f.full, f.moved = false, false
	return n
}

// dist returns the distance from row i to centre c: in float32 for float32 data (as the
// products), else in float64.
func (f *denseFitter[T]) dist(i, c int) float64 {
	m := f.m
	if f.x32 != nil {
		return math.Sqrt(float64(dist2x32(f.x32[i*m:(i+1)*m], f.c32[c*m:(c+1)*m])))
	}
	return math.Sqrt(dist2(f.row(i), f.centers[c*m:(c+1)*m]))
}

// prefetchAhead is how many rows ahead assignTask prefetches the rows it tightens.
const prefetchAhead = 4

// halfTask sets half[c] to half the distance from centre c to its nearest other centre.
func (f *denseFitter[T]) halfTask(_, c int) {
	m := f.m
	a := f.centers[c*m : (c+1)*m]
	d := math.Inf(1)
	for o := range f.k {
		if o != c {
			d = min(d, dist2(a, f.centers[o*m:(o+1)*m]))
		}
	}
	f.half[c] = math.Sqrt(d) / 2
}

// assignTask labels task t's rows. A row keeps its centre a without computing any distance
// where its upper bound is at most max(its lower bound, half[a]) (Hamerly's test);
// otherwise the upper bound is tightened to the exact distance and, if still above, the
// row's distances to every centre are computed, with the others of its block of rows, in
// one product, and its bounds reset to the nearest and second nearest distances.
func (f *denseFitter[T]) assignTask(w, t int) {
	s := &f.work[w]
	lo, hi := f.rowsOf(t)
	k := f.k
	changed := 0
	for c0 := lo; c0 < hi; c0 += chunkRows {
		rows := s.rows[:0]
		if f.full {
			for i := c0; i < min(c0+chunkRows, hi); i++ {
				rows = append(rows, i)
			}
		} else {
			// Hamerly's test first (no row of x read), then the rows that fail it
			// tightened, each prefetched a few rows ahead.
			fail := s.fail[:0]
			for i := c0; i < min(c0+chunkRows, hi); i++ {
				a := f.labels[i]
				if f.moved {
					f.upper[i] += f.drift[a]
					if a == f.maxDriftAt {
						f.lower[i] -= f.maxDrift[1]
					} else {
						f.lower[i] -= f.maxDrift[0]
					}
				}
				if f.upper[i] > max(f.lower[i], f.half[a]) {
					fail = append(fail, i)
				}
			}
			for q, i := range fail {
				if q+prefetchAhead < len(fail) {
					prefetch(f.row(fail[q+prefetchAhead]))
				}
				a := f.labels[i]
				f.upper[i] = f.dist(i, a)
				if f.upper[i] > max(f.lower[i], f.half[a]) {
					rows = append(rows, i)
				}
			}
		}
		if len(rows) == 0 {
			continue
		}
		f.product(s, rows, f.ct64, f.ct32, f.kp, k)
		for p, i := range rows {
			// the nearest and second nearest centres, without branches
			dots := s.dots[p*k : (p+1)*k]
			cnorm := f.cnorm[:len(dots)]
			best, d1, d2 := 0, math.Inf(1), math.Inf(1)
			for c, v := range dots {
				d := cnorm[c] - 2*v
				d2 = min(d2, max(d1, d))
				if d < d1 {
					best = c
				}
				d1 = min(d1, d)
			}
			d1, d2 = max(0, f.norms[i]+d1), max(0, f.norms[i]+d2)
			if !f.full && best != f.labels[i] {
				f.chRow[lo+changed], f.chFrom[lo+changed] = i, f.labels[i]
				changed++
			}
			f.labels[i], f.upper[i], f.lower[i] = best, math.Sqrt(d1), math.Sqrt(d2)
		}
	}
	f.changed[t] = changed
}

// update sets every centre to the mean of its rows (an empty cluster takes the row
// farthest from its centre, as scikit-learn does), records the shifts for the bounds and
// returns the total squared shift. The clusters' sums are moved by the rows that
// changed cluster when they are fewer than n/2, else summed afresh.
func (f *denseFitter[T]) update(changed int) float64 {
	k, m := f.k, f.m
	if f.recount || 2*changed >= f.n {
		f.recount = false
		clear(f.counts)
		for _, c := range f.labels {
			f.counts[c]++
		}
		f.start[0] = 0
		for c := range k {
			f.start[c+1] = f.start[c] + f.counts[c]
		}
		copy(f.next, f.start[:k])
		for i, c := range f.labels {
			f.order[f.next[c]] = i
			f.next[c]++
		}
		f.pool.Run(k, f.sumsFn)
	} else if changed > 0 {
		for t := range f.tasks {
			lo, _ := f.rowsOf(t)
			for p := lo; p < lo+f.changed[t]; p++ {
				f.counts[f.chFrom[p]]--
				f.counts[f.labels[f.chRow[p]]]++
			}
		}
		f.pool.Run(k, f.moveFn)
	}
	for c := range k {
		if f.counts[c] == 0 {
			f.relocate(c)
			f.recount = true
		}
	}
	copy(f.old, f.centers)
	var shift float64
	f.maxDrift, f.maxDriftAt = [2]float64{}, -1
	for c := range k {
		row := f.centers[c*m : (c+1)*m]
		if f.counts[c] > 0 {
			inv := 1 / float64(f.counts[c])
			for j, v := range f.sums[c*m : (c+1)*m] {
				row[j] = v * inv
			}
		}
		d2 := dist2(row, f.old[c*m:(c+1)*m])
		shift += d2
		d := math.Sqrt(d2)
		f.drift[c] = d
		switch {
		case d > f.maxDrift[0]:
			f.maxDrift[1], f.maxDrift[0], f.maxDriftAt = f.maxDrift[0], d, c
		case d > f.maxDrift[1]:
			f.maxDrift[1] = d
		}
	}
	f.moved = true
	return shift
}

// sumsTask sums cluster c's rows in row order into sums[c].
func (f *denseFitter[T]) sumsTask(_, c int) {
	m := f.m
	dst := f.sums[c*m : (c+1)*m]
	clear(dst)
	for _, i := range f.order[f.start[c]:f.start[c+1]] {
		f.addRow(dst, i, 1)
	}
}

// moveTask moves cluster c's sum by the rows that left it or joined it, in row order.
func (f *denseFitter[T]) moveTask(_, c int) {
	m := f.m
	dst := f.sums[c*m : (c+1)*m]
	for t := range f.tasks {
		lo, _ := f.rowsOf(t)
		for p := lo; p < lo+f.changed[t]; p++ {
			i := f.chRow[p]
			if f.chFrom[p] == c {
				f.addRow(dst, i, -1)
			}
			if f.labels[i] == c {
				f.addRow(dst, i, 1)
			}
		}
	}
}

// addRow adds sign·row i to dst.
func (f *denseFitter[T]) addRow(dst []float64, i int, sign float64) {
	m := f.m
	if f.x64 != nil {
		if sign > 0 {
			floats.Add(dst, f.x64[i*m:(i+1)*m])
		} else {
			floats.Sub(dst, f.x64[i*m:(i+1)*m])
		}
		return
	}
	dst = dst[:m]
	if sign > 0 {
		for j, v := range f.row(i) {
			dst[j] += float64(v)
		}
	} else {
		for j, v := range f.row(i) {
			dst[j] -= float64(v)
		}
	}
}

// relocate gives empty cluster c the row farthest from its centre among clusters of two
// or more rows, moving the row's values from its cluster's sum to c's (its label is left
// for the next assignment, whose bounds stay valid).
func (f *denseFitter[T]) relocate(c int) {
	m := f.m
	far, farD := -1, -1.0
	for i, l := range f.labels {
		if f.counts[l] < 2 {
			continue
		}
		if d := dist2(f.row(i), f.centers[l*m:(l+1)*m]); d > farD {
			far, farD = i, d
		}
	}
	if far < 0 {
		return
	}
	l := f.labels[far]
	src, dst := f.sums[l*m:(l+1)*m], f.sums[c*m:(c+1)*m]
	for j, v := range f.row(far) {
		src[j] -= float64(v)
		dst[j] = float64(v)
	}
	f.counts[l]--
	f.counts[c] = 1
}

// inertiaTask sums task t's squared distances to their centres, computed directly.
func (f *denseFitter[T]) inertiaTask(_, t int) {
	lo, hi := f.rowsOf(t)
	var s float64
	for i := lo; i < hi; i++ {
		a := f.labels[i]
		s += dist2(f.row(i), f.centers[a*f.m:(a+1)*f.m])
	}
	f.partial[t] = s
}

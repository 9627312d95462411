package kmeans

import (
	"context"
	"math"
	"math/rand/v2"
)

// seed picks the initial centres by greedy k-means++ (scikit-learn's _kmeans_plusplus):
// a first row drawn uniformly, then at each step 2 + ⌊ln K⌋ candidate rows drawn with
// probability proportional to their squared distance to the nearest chosen centre, keeping
// the candidate that lowers the total (the potential) most. The candidates' distances are
// computed only for rows that could come closer: a row whose nearest centre c lies at
// distance D from it is at least ‖cand − c‖ − D from a candidate, so where
// ‖cand − c‖ ≥ 2D the candidate cannot beat c for that row.
func (f *denseFitter[T]) seed(ctx context.Context, rng *rand.Rand) error {
	first := rng.IntN(f.n)
	f.setCenter(0, first)
	f.chosen = 1
	f.pool.Run(f.tasks, f.firstFn)
	for f.chosen < f.k {
		if err := ctx.Err(); err != nil {
			return err
		}
		pot := sum(f.closest)
		for t := range f.cand {
			f.cand[t] = sampleProportional(f.closest, pot, rng)
		}
		for t, r := range f.cand {
			x := f.row(r)
			if f.x32 != nil {
				for j, v := range f.x32[r*f.m : (r+1)*f.m] {
					f.cand32[j*f.tp+t] = v
				}
			} else {
				for j, v := range f.x64[r*f.m : (r+1)*f.m] {
					f.cand64[j*f.tp+t] = v
				}
			}
			f.candNorm[t] = f.norms[r]
			for c := range f.chosen {
				f.candCent[t*f.k+c] = math.Sqrt(dist2(x, f.centers[c*f.m:(c+1)*f.m]))
			}
		}
		f.pool.Run(f.tasks, f.trialFn)
		best, bestPot := 0, math.Inf(1)
		for t := range f.cand {
			var p float64
			for b := range f.tasks {
				p += f.partial[b*f.trials+t]
			}
			if p < bestPot {
				best, bestPot = t, p
			}
		}
		f.setCenter(f.chosen, f.cand[best])
		f.keep = best
		f.pool.Run(f.tasks, f.keepFn)
		f.chosen++
	}
	return nil
}

// setCenter sets centre c to row r.
func (f *denseFitter[T]) setCenter(c, r int) {
	dst := f.centers[c*f.m : (c+1)*f.m]
	for j, v := range f.row(r) {
		dst[j] = float64(v)
	}
}

// firstTask sets the rows' squared distances to the first centre.
func (f *denseFitter[T]) firstTask(_, t int) {
	lo, hi := f.rowsOf(t)
	c := f.centers[:f.m]
	for i := lo; i < hi; i++ {
		f.closest[i] = dist2(f.row(i), c)
		f.nearest[i] = 0
	}
}

// trialTask sets candDist for task t's rows and their potential per candidate.
func (f *denseFitter[T]) trialTask(w, t int) {
	s := &f.work[w]
	lo, hi := f.rowsOf(t)
	tr := f.trials
	for c0 := lo; c0 < hi; c0 += chunkRows {
		rows := s.rows[:0]
		for i := c0; i < min(c0+chunkRows, hi); i++ {
			d := f.candDist[i*tr : (i+1)*tr]
			twice := 2 * math.Sqrt(f.closest[i])
			cc := f.candCent[f.nearest[i]:]
			need := false
			for q := range d {
				d[q] = f.closest[i]
				if cc[q*f.k] < twice {
					need = true
				}
			}
			if need {
				rows = append(rows, i)
			}
		}
		if len(rows) == 0 {
			continue
		}
		f.product(s, rows, f.cand64, f.cand32, f.tp, tr)
		for p, i := range rows {
			d, dots := f.candDist[i*tr:(i+1)*tr], s.dots[p*tr:(p+1)*tr]
			for q := range d {
				if v := max(0, f.norms[i]-2*dots[q]+f.candNorm[q]); v < d[q] {
					d[q] = v
				}
			}
		}
	}
	part := f.partial[t*tr : (t+1)*tr]
	clear(part)
	for i := lo; i < hi; i++ {
		for q, v := range f.candDist[i*tr : (i+1)*tr] {
			part[q] += v
		}
	}
}

// keepTask moves task t's rows to the kept candidate where it is nearer.
func (f *denseFitter[T]) keepTask(_, t int) {
	lo, hi := f.rowsOf(t)
	q := f.keep
	for i := lo; i < hi; i++ {
		if v := f.candDist[i*f.trials+q]; v < f.closest[i] {
			f.closest[i], f.nearest[i] = v, f.chosen
		}
	}
}

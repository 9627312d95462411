package kmeans

// The sparse path of k-means as it was before it ran on several threads (commit 6f01dca),
// kept verbatim (renamed) as the reference the current one must equal bit for bit.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// oldFitContext is Fit that stops with ctx's error, checked before every restart and Lloyd
// iteration, when ctx is cancelled.
func oldFitContext(ctx context.Context, x *sparse.CSR, cfg Config, rng *rand.Rand) (*Result, error) {
	cfg = cfg.withDefaults()
	n, m := x.Dims()
	switch {
	case cfg.K < 1:
		return nil, fmt.Errorf("kmeans: K = %d, need at least 1", cfg.K)
	case cfg.K > n:
		return nil, fmt.Errorf("kmeans: K = %d clusters for %d rows", cfg.K, n)
	case m == 0:
		return nil, errors.New("kmeans: data has no columns")
	case cfg.NInit < 1 || cfg.MaxIter < 1 || cfg.Tol < 0:
		return nil, fmt.Errorf("kmeans: invalid settings %+v", cfg)
	}
	w := newOldWorkspace(x, cfg.K)
	tol := cfg.Tol * oldMeanVariance(x)
	var best *Result
	for run := 0; run < cfg.NInit; run++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		w.seed(rng)
		res, err := w.lloyd(ctx, cfg.MaxIter, tol)
		if err != nil {
			return nil, err
		}
		if best == nil || res.Inertia < best.Inertia {
			best = res
		}
	}
	return best, nil
}

// oldMeanVariance returns the mean over columns of each column's variance.
func oldMeanVariance(x *sparse.CSR) float64 {
	n, m := x.Dims()
	sum := x.ColSums()
	sq := make([]float64, m)
	for i := 0; i < n; i++ {
		cols, vals := x.Row(i)
		for p, j := range cols {
			sq[j] += vals[p] * vals[p]
		}
	}
	var v float64
	for j := range sum {
		mean := sum[j] / float64(n)
		v += sq[j]/float64(n) - mean*mean
	}
	return v / float64(m)
}

// oldWorkspace holds the buffers of one k-means fit, reused across restarts.
type oldWorkspace struct {
	x       *sparse.CSR
	full    *mat.Dense // x stored densely where denseEnough says so, else nil
	sums    *mat.Dense // k×m: the clusters' sums of rows, with full
	k       int
	norms   []float64  // ‖xᵢ‖²
	centers *mat.Dense // k×m
	ct      *mat.Dense // m×k, centres transposed for the sparse product
	dots    *mat.Dense // n×k, xᵢ·cⱼ
	labels  []int
	counts  []float64
}

func newOldWorkspace(x *sparse.CSR, k int) *oldWorkspace {
	n, m := x.Dims()
	w := &oldWorkspace{
		x: x, k: k,
		norms:   x.RowNormsSq(),
		centers: mat.NewDense(k, m, nil),
		ct:      mat.NewDense(m, k, nil),
		dots:    mat.NewDense(n, k, nil),
		labels:  make([]int, n),
		counts:  make([]float64, k),
	}
	if useFull && denseEnough(x) {
		w.sums, w.full = mat.NewDense(k, m, nil), x.Dense()
	}
	return w
}

// mul sets dst (n×l) = x·b for b m×l, each entry summed over row i's stored entries in
// column order (from the dense copy where there is one, with the same bits).
func (w *oldWorkspace) mul(dst, b *mat.Dense) {
	if w.full != nil {
		dense.Mul(dst, w.full, b)
		return
	}
	sparse.MulDense(dst, w.x, b)
}

// distances sets column t of dst (n×len(rows)) to ‖xᵢ − x_rows[t]‖² for every row i, as
// ‖xᵢ‖² + ‖x_r‖² − 2·xᵢ·x_r (at least 0), from one product of x with the candidate rows;
// b is an m×len(rows) scratch matrix. Cost O(nnz(x)·len(rows)).
func (w *oldWorkspace) distances(dst, b *mat.Dense, rows []int) {
	b.Zero()
	for t, r := range rows {
		cols, vals := w.x.Row(r)
		for p, j := range cols {
			b.Set(j, t, vals[p])
		}
	}
	w.mul(dst, b)
	n, _ := w.x.Dims()
	for i := 0; i < n; i++ {
		d := dst.RawRowView(i)
		for t, r := range rows {
			d[t] = max(0, w.norms[i]+w.norms[r]-2*d[t])
		}
	}
}

// seed picks initial centres by greedy k-means++ (scikit-learn's _kmeans_plusplus). The
// local trials of a step are drawn first (their draws do not depend on one another) and
// their distances computed in one product.
func (w *oldWorkspace) seed(rng *rand.Rand) {
	n, m := w.x.Dims()
	trials := 2 + int(math.Log(float64(w.k)))
	cand := make([]float64, n)
	bestCand := make([]float64, n)
	chosen := make([]int, 0, w.k)
	dist, b := mat.NewDense(n, trials, nil), mat.NewDense(m, trials, nil)
	idx := make([]int, trials)

	first := rng.IntN(n)
	chosen = append(chosen, first)
	w.distances(dist.Slice(0, n, 0, 1).(*mat.Dense), b.Slice(0, m, 0, 1).(*mat.Dense), []int{first})
	closest := mat.Col(nil, 0, dist)
	for len(chosen) < w.k {
		pot := sum(closest)
		for t := range idx {
			idx[t] = sampleProportional(closest, pot, rng)
		}
		w.distances(dist, b, idx)
		bestPot, bestIdx := math.Inf(1), -1
		d := dist.RawMatrix()
		for t := range idx {
			var p float64
			for i := range cand {
				cand[i] = min(d.Data[i*d.Stride+t], closest[i])
				p += cand[i]
			}
			if p < bestPot {
				bestPot, bestIdx = p, idx[t]
				copy(bestCand, cand)
			}
		}
		chosen = append(chosen, bestIdx)
		copy(closest, bestCand)
	}
	w.centers.Zero()
	for c, idx := range chosen {
		cols, vals := w.x.Row(idx)
		row := w.centers.RawRowView(c)
		for p, j := range cols {
			row[j] = vals[p]
		}
	}
}

// assign sets every row's label to its nearest centre and returns the inertia. With sum
// (and the dense copy), it also sums the rows of each cluster into w.sums and counts them
// into w.counts, as update would, in the same pass: block by block, so that each block of
// rows is read from memory once per Lloyd iteration instead of twice.
func (w *oldWorkspace) assign(sum bool) float64 {
	n, m := w.x.Dims()
	w.ct.CloneFrom(w.centers.T())
	cnorm := make([]float64, w.k)
	for c := 0; c < w.k; c++ {
		r := w.centers.RawRowView(c)
		cnorm[c] = dot(r, r)
	}
	sum = sum && w.full != nil
	block := n
	if sum {
		w.sums.Zero()
		clear(w.counts)
		block = assignBlock
	} else {
		w.mul(w.dots, w.ct)
	}
	var inertia float64
	var dots, rows mat.Dense // views of a block of w.dots and w.full
	for lo := 0; lo < n; lo += block {
		hi := min(lo+block, n)
		if sum {
			d, f := w.dots.RawMatrix(), w.full.RawMatrix()
			dots.SetRawMatrix(blas64.General{Rows: hi - lo, Cols: w.k, Stride: d.Stride, Data: d.Data[lo*d.Stride:]})
			rows.SetRawMatrix(blas64.General{Rows: hi - lo, Cols: m, Stride: f.Stride, Data: f.Data[lo*f.Stride:]})
			dense.Mul(&dots, &rows, w.ct)
		}
		for i := lo; i < hi; i++ {
			d := w.dots.RawRowView(i)
			best, bestD := 0, math.Inf(1)
			for c := 0; c < w.k; c++ {
				if v := w.norms[i] - 2*d[c] + cnorm[c]; v < bestD {
					best, bestD = c, v
				}
			}
			w.labels[i] = best
			inertia += max(0, bestD)
			if sum {
				w.counts[best]++
				floats.Add(w.sums.RawRowView(best), w.full.RawRowView(i)) // + 0 where x stores nothing: no bit changes
			}
		}
	}
	return inertia
}

// update recomputes centres as member means, after assign(true) (which, with the dense
// copy, has summed the clusters' rows into w.sums and counted them); an empty cluster
// takes the row farthest from its centre. It returns the total squared centre shift.
func (w *oldWorkspace) update(old *mat.Dense) float64 {
	n, _ := w.x.Dims()
	old.Copy(w.centers)
	if w.full != nil {
		w.centers.Copy(w.sums)
	} else {
		w.centers.Zero()
		clear(w.counts)
		for i := 0; i < n; i++ {
			c := w.labels[i]
			w.counts[c]++
			row := w.centers.RawRowView(c)
			cols, vals := w.x.Row(i)
			for p, j := range cols {
				row[j] += vals[p]
			}
		}
	}
	for c := 0; c < w.k; c++ {
		if w.counts[c] == 0 {
			w.relocate(c, old)
			continue
		}
		row := w.centers.RawRowView(c)
		inv := 1 / w.counts[c]
		for j := range row {
			row[j] *= inv
		}
	}
	var shift float64
	for c := 0; c < w.k; c++ {
		a, b := w.centers.RawRowView(c), old.RawRowView(c)
		for j := range a {
			d := a[j] - b[j]
			shift += d * d
		}
	}
	return shift
}

// relocate moves empty cluster c onto the row farthest from its current (old) centre.
func (w *oldWorkspace) relocate(c int, old *mat.Dense) {
	n, _ := w.x.Dims()
	far, farD := 0, -1.0
	for i := 0; i < n; i++ {
		l := w.labels[i]
		cr := old.RawRowView(l)
		d := w.norms[i] - 2*w.dots.At(i, l) + dot(cr, cr)
		if d > farD && w.counts[l] > 1 {
			far, farD = i, d
		}
	}
	row := w.centers.RawRowView(c)
	clear(row)
	cols, vals := w.x.Row(far)
	for p, j := range cols {
		row[j] = vals[p]
	}
	w.counts[w.labels[far]]--
	w.labels[far] = c
	w.counts[c] = 1
}

func (w *oldWorkspace) lloyd(ctx context.Context, maxIter int, tol float64) (*Result, error) {
	_, m := w.x.Dims()
	old := mat.NewDense(w.k, m, nil)
	prev := make([]int, len(w.labels))
	iter := 0
	for iter < maxIter {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		iter++
		w.assign(true)
		shift := w.update(old)
		if iter > 1 && equalInts(prev, w.labels) {
			break
		}
		copy(prev, w.labels)
		if shift <= tol {
			break
		}
	}
	inertia := w.assign(false)
	return &Result{
		Labels:     append([]int(nil), w.labels...),
		Centers:    mat.DenseCopyOf(w.centers),
		Inertia:    inertia,
		Iterations: iter,
	}, nil
}

// assignBlock is the number of rows of the dense copy that assign reads at a time (so
// that they stay in cache between the product and the sums).
const assignBlock = 16

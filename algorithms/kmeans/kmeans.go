// Package kmeans is Lloyd's k-means with greedy k-means++ seeding on sparse rows, as a
// reusable piece: the k-means baseline, NAGC's and JWNMF's k-means initialisation all call
// it. It follows scikit-learn's KMeans of the paper's time (≤ 1.1): greedy k-means++ with
// 2 + ⌊ln k⌋ local trials, n_init restarts kept by lowest inertia, max_iter 300, and a
// tolerance relative to the mean per-feature variance of the data.
package kmeans

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
)

// Config holds the k-means settings. The zero value of a field means its default.
type Config struct {
	K       int     // number of clusters (required)
	NInit   int     // restarts kept by lowest inertia; default 10
	MaxIter int     // Lloyd iterations per restart; default 300
	Tol     float64 // relative tolerance on the squared centre shift; default 1e-4
}

// WithDefaults returns c with every zero field at its default (NInit 10, MaxIter 300,
// Tol 1e-4).
func (c Config) WithDefaults() Config { return c.withDefaults() }

func (c Config) withDefaults() Config {
	if c.NInit == 0 {
		c.NInit = 10
	}
	if c.MaxIter == 0 {
		c.MaxIter = 300
	}
	if c.Tol == 0 {
		c.Tol = 1e-4
	}
	return c
}

// Result is the best restart's clustering.
type Result struct {
	Labels     []int      // cluster of each row, in [0, K)
	Centers    *mat.Dense // K×m centroids
	Inertia    float64    // sum of squared distances of rows to their centroid
	Iterations int        // Lloyd iterations of the kept restart
}

// Fit clusters the rows of x (n×m, sparse) into cfg.K clusters, drawing every random
// number from rng. Cost per Lloyd iteration O(nnz(x)·K + K·m); seeding O(nnz(x)·K·log K).
// Memory O((n + m)·K).
func Fit(x *sparse.CSR, cfg Config, rng *rand.Rand) (*Result, error) {
	return FitContext(context.Background(), x, cfg, rng)
}

// FitContext is Fit that stops with ctx's error, checked before every restart and Lloyd
// iteration, when ctx is cancelled.
func FitContext(ctx context.Context, x *sparse.CSR, cfg Config, rng *rand.Rand) (*Result, error) {
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
	w := newWorkspace(x, cfg.K)
	tol := cfg.Tol * meanVariance(x)
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

// meanVariance returns the mean over columns of each column's variance.
func meanVariance(x *sparse.CSR) float64 {
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

// workspace holds the buffers of one k-means fit, reused across restarts.
type workspace struct {
	x       *sparse.CSR
	k       int
	norms   []float64  // ‖xᵢ‖²
	centers *mat.Dense // k×m
	ct      *mat.Dense // m×k, centres transposed for the sparse product
	dots    *mat.Dense // n×k, xᵢ·cⱼ
	labels  []int
	counts  []float64
}

func newWorkspace(x *sparse.CSR, k int) *workspace {
	n, m := x.Dims()
	return &workspace{
		x: x, k: k,
		norms:   x.RowNormsSq(),
		centers: mat.NewDense(k, m, nil),
		ct:      mat.NewDense(m, k, nil),
		dots:    mat.NewDense(n, k, nil),
		labels:  make([]int, n),
		counts:  make([]float64, k),
	}
}

// rowDistSq returns ‖xᵢ − xⱼ‖² for all i, for the fixed row j, into dst.
func (w *workspace) rowDistSq(dst []float64, j int, scratch []float64) {
	cols, vals := w.x.Row(j)
	for p, c := range cols {
		scratch[c] = vals[p]
	}
	n, _ := w.x.Dims()
	for i := 0; i < n; i++ {
		ci, vi := w.x.Row(i)
		var d float64
		for p, c := range ci {
			d += vi[p] * scratch[c]
		}
		dst[i] = max(0, w.norms[i]+w.norms[j]-2*d)
	}
	for _, c := range cols {
		scratch[c] = 0
	}
}

// seed picks initial centres by greedy k-means++ (scikit-learn's _kmeans_plusplus).
func (w *workspace) seed(rng *rand.Rand) {
	n, m := w.x.Dims()
	trials := 2 + int(math.Log(float64(w.k)))
	scratch := make([]float64, m)
	closest := make([]float64, n)
	cand := make([]float64, n)
	bestCand := make([]float64, n)
	chosen := make([]int, 0, w.k)

	first := rng.IntN(n)
	chosen = append(chosen, first)
	w.rowDistSq(closest, first, scratch)
	for len(chosen) < w.k {
		pot := sum(closest)
		bestPot, bestIdx := math.Inf(1), -1
		for t := 0; t < trials; t++ {
			idx := sampleProportional(closest, pot, rng)
			w.rowDistSq(cand, idx, scratch)
			var p float64
			for i := range cand {
				cand[i] = min(cand[i], closest[i])
				p += cand[i]
			}
			if p < bestPot {
				bestPot, bestIdx = p, idx
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

func sum(s []float64) float64 {
	var t float64
	for _, v := range s {
		t += v
	}
	return t
}

// sampleProportional draws index i with probability weight[i]/total (uniform if total is 0).
func sampleProportional(weight []float64, total float64, rng *rand.Rand) int {
	if total <= 0 {
		return rng.IntN(len(weight))
	}
	r := rng.Float64() * total
	var acc float64
	for i, v := range weight {
		acc += v
		if r < acc {
			return i
		}
	}
	for i := len(weight) - 1; i >= 0; i-- {
		if weight[i] > 0 {
			return i
		}
	}
	return len(weight) - 1
}

// assign sets every row's label to its nearest centre and returns the inertia.
func (w *workspace) assign() float64 {
	n, _ := w.x.Dims()
	w.ct.CloneFrom(w.centers.T())
	sparse.MulDense(w.dots, w.x, w.ct)
	cnorm := make([]float64, w.k)
	for c := 0; c < w.k; c++ {
		r := w.centers.RawRowView(c)
		cnorm[c] = dot(r, r)
	}
	var inertia float64
	for i := 0; i < n; i++ {
		d := w.dots.RawRowView(i)
		best, bestD := 0, math.Inf(1)
		for c := 0; c < w.k; c++ {
			if v := w.norms[i] - 2*d[c] + cnorm[c]; v < bestD {
				best, bestD = c, v
			}
		}
		w.labels[i] = best
		inertia += max(0, bestD)
	}
	return inertia
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// update recomputes centres as member means; an empty cluster takes the row farthest from
// its centre. It returns the total squared centre shift.
func (w *workspace) update(old *mat.Dense) float64 {
	n, _ := w.x.Dims()
	old.Copy(w.centers)
	w.centers.Zero()
	clear(w.counts)
	for i := 0; i < n; i++ {
		c := w.labels[i]
		w.counts[c]++
		cols, vals := w.x.Row(i)
		row := w.centers.RawRowView(c)
		for p, j := range cols {
			row[j] += vals[p]
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
func (w *workspace) relocate(c int, old *mat.Dense) {
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

func (w *workspace) lloyd(ctx context.Context, maxIter int, tol float64) (*Result, error) {
	_, m := w.x.Dims()
	old := mat.NewDense(w.k, m, nil)
	prev := make([]int, len(w.labels))
	iter := 0
	for iter < maxIter {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		iter++
		w.assign()
		shift := w.update(old)
		if iter > 1 && equalInts(prev, w.labels) {
			break
		}
		copy(prev, w.labels)
		if shift <= tol {
			break
		}
	}
	inertia := w.assign()
	return &Result{
		Labels:     append([]int(nil), w.labels...),
		Centers:    mat.DenseCopyOf(w.centers),
		Inertia:    inertia,
		Iterations: iter,
	}, nil
}

func equalInts(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Distances sets dst[i][j] to the Euclidean distance between row i of x and row j of
// centers. dst must be n×k. Cost O(nnz(x)·k + k·m).
func Distances(dst *mat.Dense, x *sparse.CSR, centers *mat.Dense) {
	n, _ := x.Dims()
	k, _ := centers.Dims()
	ct := mat.DenseCopyOf(centers.T())
	sparse.MulDense(dst, x, ct)
	norms := x.RowNormsSq()
	cnorm := make([]float64, k)
	for c := 0; c < k; c++ {
		r := centers.RawRowView(c)
		cnorm[c] = dot(r, r)
	}
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for c := range row {
			row[c] = math.Sqrt(max(0, norms[i]-2*row[c]+cnorm[c]))
		}
	}
}

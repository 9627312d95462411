// Package kmeans is Lloyd's k-means with greedy k-means++ seeding, on sparse or dense
// rows.
//
// It is a reusable piece: the k-means baseline, NAGC's and JWNMF's k-means initialisation
// all call it (Fit on sparse rows, FitDense on dense ones). It follows scikit-learn's
// KMeans of the paper's time (≤ 1.1): greedy k-means++ with 2 + ⌊ln k⌋ local trials,
// n_init restarts kept by lowest inertia, max_iter 300, and a tolerance relative to the
// mean per-feature variance of the data.
package kmeans

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// Config holds the k-means settings. The zero value of a field means its default.
type Config struct {
	K       int     // number of clusters (required)
	NInit   int     // restarts kept by lowest inertia; default 10
	MaxIter int     // Lloyd iterations per restart; default 300
	Tol     float64 // relative tolerance on the squared centre shift; default 1e-4
	// FMA, for float32 data (FitDense), forms the distance products by fused
	// multiply-adds (package dense/f32's Mul4: AVX-512 or AVX2 where the processor has
	// them), the fast precision's arithmetic: faster, its bits depending on the kind of
	// processor. Without it, or for float64 data, every level gives the same bits.
	FMA bool
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

// FitContext is Fit that stops with ctx's error, checked before every restart, k-means++
// centre and Lloyd iteration, when ctx is cancelled.
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
		if err := w.seed(ctx, rng); err != nil {
			return nil, err
		}
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
	full    *mat.Dense // x stored densely where denseEnough says so, else nil
	sums    *mat.Dense // k×m: the clusters' sums of rows, with full
	k       int
	norms   []float64  // ‖xᵢ‖²
	centers *mat.Dense // k×m
	ct      *mat.Dense // m×k, centres transposed for the sparse product
	dots    *mat.Dense // n×k, xᵢ·cⱼ
	labels  []int
	counts  []float64
	cnorm   []float64 // ‖c‖²
	best    []float64 // each row's least ‖x‖² − 2x·c + ‖c‖²
	order   []int     // rows grouped by cluster (groupRows)
	start   []int
	next    []int
	cut     [][]int // the row offsets of sumRows' column blocks (colCuts)
}

func newWorkspace(x *sparse.CSR, k int) *workspace {
	n, m := x.Dims()
	w := &workspace{
		x: x, k: k,
		norms:   x.RowNormsSq(),
		centers: mat.NewDense(k, m, nil),
		ct:      mat.NewDense(m, k, nil),
		dots:    mat.NewDense(n, k, nil),
		labels:  make([]int, n),
		counts:  make([]float64, k),
		cnorm:   make([]float64, k),
		best:    make([]float64, n),
		order:   make([]int, n),
		start:   make([]int, k+1),
		next:    make([]int, k),
	}
	if useFull && denseEnough(x) {
		w.sums, w.full = mat.NewDense(k, m, nil), x.Dense()
	}
	return w
}

// useFull lets k-means keep a dense copy of x (denseEnough); tests turn it off to compare.
var useFull = true

// maxFull caps the entries of the dense copy of x (512 MiB).
const maxFull = 1 << 26

// denseEnough reports whether k-means keeps a dense copy of x: where a quarter or more of
// its entries are stored (graph-filtered attributes fill in so), at most maxFull entries,
// all finite and non-negative. The products with the dense copy then read no indices and
// add, where x stores nothing, products that are exact zeros: added to sums of
// non-negative terms, they change no bit, so every distance, centre and label is the
// same as from the sparse rows.
func denseEnough(x *sparse.CSR) bool {
	n, m := x.Dims()
	if n*m == 0 || n*m > maxFull || 4*x.NNZ() < n*m {
		return false
	}
	for i := 0; i < n; i++ {
		_, vals := x.Row(i)
		for _, v := range vals {
			if !(v >= 0) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}

// mul sets dst (n×l) = x·b for b m×l, each entry summed over row i's stored entries in
// column order (from the dense copy where there is one, with the same bits).
func (w *workspace) mul(dst, b *mat.Dense) {
	if w.full != nil {
		dense.Mul(dst, w.full, b)
		return
	}
	sparse.MulDense(dst, w.x, b)
}

// distances sets column t of dst (n×len(rows)) to ‖xᵢ − x_rows[t]‖² for every row i, as
// ‖xᵢ‖² + ‖x_r‖² − 2·xᵢ·x_r (at least 0), from one product of x with the candidate rows;
// b is an m×len(rows) scratch matrix. Cost O(nnz(x)·len(rows)).
func (w *workspace) distances(dst, b *mat.Dense, rows []int) {
	b.Zero()
	for t, r := range rows {
		cols, vals := w.x.Row(r)
		for p, j := range cols {
			b.Set(j, t, vals[p])
		}
	}
	w.mul(dst, b)
	n, _ := w.x.Dims()
	dense.Grain().Run((n+labelBlock-1)/labelBlock, n*len(rows), func(blk int) {
		for i := blk * labelBlock; i < min((blk+1)*labelBlock, n); i++ {
			d := dst.RawRowView(i)
			for t, r := range rows {
				d[t] = max(0, w.norms[i]+w.norms[r]-2*d[t])
			}
		}
	})
}

// seed picks initial centres by greedy k-means++ (scikit-learn's _kmeans_plusplus). The
// local trials of a step are drawn first (their draws do not depend on one another) and
// their distances computed in one product. It returns ctx's error, checked before every
// centre, when ctx is cancelled.
func (w *workspace) seed(ctx context.Context, rng *rand.Rand) error {
	n, m := w.x.Dims()
	trials := 2 + int(math.Log(float64(w.k)))
	cands := mat.NewDense(trials, n, nil) // row t: each row's distance to its nearest centre with trial t
	pots := make([]float64, trials)
	chosen := make([]int, 0, w.k)
	dist, b := mat.NewDense(n, trials, nil), mat.NewDense(m, trials, nil)
	idx := make([]int, trials)

	first := rng.IntN(n)
	chosen = append(chosen, first)
	w.distances(dist.Slice(0, n, 0, 1).(*mat.Dense), b.Slice(0, m, 0, 1).(*mat.Dense), []int{first})
	closest := mat.Col(nil, 0, dist)
	for len(chosen) < w.k {
		if err := ctx.Err(); err != nil {
			return err
		}
		pot := sum(closest)
		for t := range idx {
			idx[t] = sampleProportional(closest, pot, rng)
		}
		w.distances(dist, b, idx)
		w.trialPotentials(pots, cands, dist, closest)
		best, bestPot := 0, math.Inf(1) // the first trial of least potential (the first if none is finite)
		for t, p := range pots {
			if p < bestPot {
				best, bestPot = t, p
			}
		}
		chosen = append(chosen, idx[best])
		copy(closest, cands.RawRowView(best))
	}
	w.centers.Zero()
	for c, idx := range chosen {
		cols, vals := w.x.Row(idx)
		row := w.centers.RawRowView(c)
		for p, j := range cols {
			row[j] = vals[p]
		}
	}
	return nil
}

// trialPotentials sets row t of cands to each row's least distance to the centres chosen
// and trial t (column t of dist), and pots[t] to its sum in row order: one task a trial,
// on as many goroutines as the work pays for, so that the sums are those of one thread.
// Cost O(n·trials).
func (w *workspace) trialPotentials(pots []float64, cands, dist *mat.Dense, closest []float64) {
	d := dist.RawMatrix()
	dense.Grain().Run(len(pots), len(closest)*len(pots), func(t int) {
		cand := cands.RawRowView(t)
		var p float64
		for i, c := range closest {
			cand[i] = min(d.Data[i*d.Stride+t], c)
			p += cand[i]
		}
		pots[t] = p
	})
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

// assign sets every row's label to its nearest centre and returns the inertia. With sum
// (and the dense copy), it also sums the rows of each cluster into w.sums and counts them
// into w.counts, as update would. The products and the labels are computed on
// as many goroutines as their work pays for (dense.Grain), each row's alone; the inertia is summed in row order and
// each cluster's rows are summed in row order (clusters in parallel), so every bit is that
// of one thread.
func (w *workspace) assign(sum bool) float64 {
	n, _ := w.x.Dims()
	w.ct.CloneFrom(w.centers.T())
	for c := 0; c < w.k; c++ {
		r := w.centers.RawRowView(c)
		w.cnorm[c] = dot(r, r)
	}
	w.mul(w.dots, w.ct)
	dense.Grain().Run((n+labelBlock-1)/labelBlock, n*w.k, func(b int) {
		for i := b * labelBlock; i < min((b+1)*labelBlock, n); i++ {
			d := w.dots.RawRowView(i)
			best, bestD := 0, math.Inf(1)
			for c := 0; c < w.k; c++ {
				if v := w.norms[i] - 2*d[c] + w.cnorm[c]; v < bestD {
					best, bestD = c, v
				}
			}
			w.labels[i], w.best[i] = best, bestD
		}
	})
	var inertia float64
	for _, d := range w.best {
		inertia += max(0, d)
	}
	if sum && w.full != nil {
		w.groupRows()
		w.sums.Zero()
		_, m := w.x.Dims()
		dense.Grain().Run(w.k, n*m, func(c int) {
			dst := w.sums.RawRowView(c)
			for _, i := range w.order[w.start[c]:w.start[c+1]] {
				floats.Add(dst, w.full.RawRowView(i)) // + 0 where x stores nothing: no bit changes
			}
		})
	}
	return inertia
}

// groupRows counts the clusters' rows into w.counts and lists them, in row order, in
// w.order[w.start[c]:w.start[c+1]].
func (w *workspace) groupRows() {
	clear(w.counts)
	for _, c := range w.labels {
		w.counts[c]++
	}
	w.start[0] = 0
	for c := 0; c < w.k; c++ {
		w.start[c+1] = w.start[c] + int(w.counts[c])
	}
	copy(w.next, w.start[:w.k])
	for i, c := range w.labels {
		w.order[w.next[c]] = i
		w.next[c]++
	}
}

// labelBlock is the number of rows whose labels one task of assign sets.
const labelBlock = 1024

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// update recomputes centres as member means, after assign(true) (which, with the dense
// copy, has summed the clusters' rows into w.sums and counted them); an empty cluster
// takes the row farthest from its centre. It returns the total squared centre shift.
func (w *workspace) update(old *mat.Dense) float64 {
	old.Copy(w.centers)
	if w.full != nil {
		w.centers.Copy(w.sums)
	} else {
		w.centers.Zero()
		w.countLabels()
		w.sumRows()
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

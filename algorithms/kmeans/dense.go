package kmeans

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/dense/f32"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/memory"
)

// FitDense clusters the n rows of x (row-major n×m, len(x) = n·m) into cfg.K clusters with
// the protocol of Fit (greedy k-means++ with 2 + ⌊ln K⌋ local trials, NInit restarts kept
// by lowest inertia, MaxIter, Tol relative to the mean column variance), drawing every
// random number from rng. It stops with ctx's error, checked before every restart, every
// k-means++ step and every Lloyd iteration.
//
// Each Lloyd iteration is Hamerly's (distance bounds; only rows whose bounds overlap get
// their distances recomputed, blockwise as x_block·Cᵀ), k-means++ skips rows by the
// triangle inequality, and centroid sums move with the rows that changed cluster: see
// docs/kmeans.md#how-fitdense-is-fast. Rows run in fixed blocks on at most
// parallel.Threads() goroutines (fitWorkers), every sum over rows in a fixed order, so the
// result is bit for bit the same for any thread count. Labels agree with plain Lloyd
// iterations except where two centres tie within rounding. float32 input stays float32,
// its distance products float32 (norms, centroids and the inertia float64), by fused
// multiply-adds with cfg.FMA (the fast precision: its bits then depend on the kind of
// processor, not on the thread count); float64 input is computed in float64.
//
// Cost per start: k-means++ at most (K−1)·(2+⌊ln K⌋) products of n·m; the first iteration
// n·m·K; later ones O(n) plus m·K per row whose bounds overlap and m per row that changed
// cluster. Memory about n·(72 + 8·(2+⌊ln K⌋)) bytes besides x, checked against the memory
// budget (package memory) before it is taken. See docs/kmeans.md.
func FitDense[T float32 | float64](ctx context.Context, x []T, n, m int, cfg Config, rng *rand.Rand) (*Result, error) {
	cfg = cfg.withDefaults()
	switch {
	case n < 1 || m < 1:
		return nil, fmt.Errorf("kmeans: data is %d×%d, need at least one row and one column", n, m)
	case len(x) != n*m:
		return nil, fmt.Errorf("kmeans: data holds %d values, want %d rows × %d columns = %d", len(x), n, m, n*m)
	case cfg.K < 1:
		return nil, fmt.Errorf("kmeans: K = %d, need at least 1", cfg.K)
	case cfg.K > n:
		return nil, fmt.Errorf("kmeans: K = %d clusters for %d rows", cfg.K, n)
	case cfg.NInit < 1 || cfg.MaxIter < 1 || cfg.Tol < 0:
		return nil, fmt.Errorf("kmeans: invalid settings %+v", cfg)
	}
	for p, v := range x {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("kmeans: row %d, column %d is %v; k-means needs finite values", p/m+1, p%m+1, f)
		}
	}
	if err := memory.Check(fmt.Sprintf("k-means of %d rows × %d columns into %d clusters", n, m, cfg.K),
		denseBytes(n, m, cfg.K, fitWorkers(n, m, cfg.K))); err != nil {
		return nil, err
	}
	f := newDenseFitter(x, n, m, cfg.K, fitWorkers(n, m, cfg.K))
	f.fma = cfg.FMA && f.x32 != nil
	defer f.pool.Close()
	tol := cfg.Tol * f.meanVariance()
	var best *Result
	for run := 0; run < cfg.NInit; run++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := f.seed(ctx, rng); err != nil {
			return nil, err
		}
		iter, inertia, err := f.lloyd(ctx, cfg.MaxIter, tol)
		if err != nil {
			return nil, err
		}
		if best == nil || inertia < best.Inertia {
			if best == nil {
				best = &Result{Labels: make([]int, n), Centers: mat.NewDense(f.k, m, nil)}
			}
			copy(best.Labels, f.labels)
			copy(best.Centers.RawMatrix().Data, f.centers)
			best.Inertia, best.Iterations = inertia, iter
		}
	}
	return best, nil
}

// denseBytes estimates the memory FitDense takes besides x.
func denseBytes(n, m, k, threads int) uint64 {
	trials := 2 + int(math.Log(float64(k)))
	perRow := memory.Bytes(int64(n), 8*(9+trials)) // norms, bounds, closest, labels, nearest, order, changes, candidate distances
	centres := memory.Bytes(int64(k)*int64(m), 8*6)
	scratch := memory.Bytes(int64(threads)*chunkRows*int64(m+k+trials), 8)
	return memory.Add(perRow, centres, scratch)
}

// chunkRows is the number of rows of one distance product (dense.BlockRows, which keeps
// each product on the calling goroutine).
const chunkRows = dense.BlockRows

// taskRows is the number of rows of one parallel task; the tasks (and so every sum over
// rows) are fixed by n alone. A variable so that tests can use many small tasks.
var taskRows = 2048

// fitWorkers returns the goroutines a fit of n rows × m columns into k clusters runs on:
// as many as the work of its smallest frequent phase (a seeding step's distances to
// 2 + ⌊ln k⌋ candidates, n·m·(2 + ⌊ln k⌋) multiply-adds) pays for on this machine
// (dense.Grain), at most parallel.Threads().
func fitWorkers(n, m, k int) int {
	trials := 2 + int(math.Log(float64(k)))
	return dense.Grain().Workers((n+taskRows-1)/taskRows, n*m*trials)
}

// denseFitter holds the data and buffers of one FitDense call, reused across restarts.
type denseFitter[T float32 | float64] struct {
	x       []T
	x64     []float64 // x itself when T is float64, else nil
	x32     []float32 // x itself when T is float32, else nil
	fma     bool      // float32 data: the distance products by fused multiply-adds (Config.FMA)
	n, m, k int
	norms   []float64 // ‖xᵢ‖²
	pool    *parallel.Pool
	tasks   int // ⌈n/taskRows⌉

	centers, old, sums []float64  // k×m
	ct64               []float64  // float64 data: the centres transposed, m×kp
	ct32, c32          []float32  // float32 data: the centres in float32, transposed (m×kp) and not (k×m)
	kp                 int        // k rounded up to a multiple of tileCols
	cnorm, half, drift []float64  // ‖c‖², ½ distance to the nearest other centre, last shift
	maxDrift           [2]float64 // the largest shift and the second largest
	maxDriftAt         int        // the cluster with the largest shift
	counts             []int
	start, order, next []int // rows grouped by cluster, in row order: order[start[c]:start[c+1]]

	labels       []int
	upper, lower []float64 // Hamerly's bounds on the distance to the own centre and to any other
	moved        bool      // the centres moved since the bounds were last updated
	full         bool      // the next assignment computes every distance (first iteration)
	changed      []int     // per task: rows that changed cluster, listed from the task's first row in chRow, chFrom
	chRow        []int     // rows that changed cluster
	chFrom       []int     // their former cluster
	partial      []float64 // per task: inertia, or the k-means++ potential per trial
	recount      bool      // the next update sums the clusters afresh

	// k-means++
	trials   int
	closest  []float64 // squared distance to the nearest chosen centre
	nearest  []int     // which chosen centre
	cand     []int     // the step's candidate rows
	cand64   []float64 // float64 data: the candidates transposed, m×tp
	cand32   []float32 // float32 data: the candidates transposed, m×tp
	tp       int       // trials rounded up to a multiple of tileCols
	candNorm []float64
	candCent []float64 // trials×k: distance of candidate t to chosen centre j
	candDist []float64 // n×trials: min(closest, squared distance to candidate t)
	chosen   int       // centres chosen so far
	keep     int       // the kept candidate of the step

	work []denseScratch

	// stored method values: run by the pool without allocating
	assignFn, sumsFn, moveFn, inertiaFn, halfFn, firstFn, trialFn, keepFn func(worker, task int)
}

type denseScratch struct {
	dots      []float64 // chunkRows×max(k, trials) products
	pack, out []float32 // float32 data: a tile's rows copied together, the tiles' products
	pack64    []float64 // float64 data: a tile's rows copied together
	out64     []float64 // float64 data: the tiles' products
	rows      []int
	fail      []int // the rows of a chunk that fail Hamerly's test
}

func newDenseFitter[T float32 | float64](x []T, n, m, k, threads int) *denseFitter[T] {
	trials := 2 + int(math.Log(float64(k)))
	f := &denseFitter[T]{
		x: x, n: n, m: m, k: k,
		norms: make([]float64, n),
		pool:  parallel.NewPool(threads),
		tasks: (n + taskRows - 1) / taskRows,

		centers: make([]float64, k*m), old: make([]float64, k*m), sums: make([]float64, k*m),
		cnorm: make([]float64, k), half: make([]float64, k), drift: make([]float64, k),
		counts: make([]int, k), start: make([]int, k+1), order: make([]int, n), next: make([]int, k),
		labels: make([]int, n), upper: make([]float64, n), lower: make([]float64, n),
		chRow: make([]int, n), chFrom: make([]int, n),

		trials:  trials,
		closest: make([]float64, n), nearest: make([]int, n),
		cand: make([]int, trials), candNorm: make([]float64, trials),
		candCent: make([]float64, trials*k), candDist: make([]float64, n*trials),
	}
	f.x64, _ = any(x).([]float64)
	f.x32, _ = any(x).([]float32)
	f.kp, f.tp = roundUp(k, tileCols), roundUp(trials, tileCols)
	if f.x32 != nil {
		f.ct32, f.c32, f.cand32 = make([]float32, m*f.kp), make([]float32, k*m), make([]float32, m*f.tp)
	} else {
		f.ct64, f.cand64 = make([]float64, m*f.kp), make([]float64, m*f.tp)
	}
	f.changed = make([]int, f.tasks)
	f.partial = make([]float64, f.tasks*max(1, trials))
	f.work = make([]denseScratch, f.pool.Workers())
	outLen := roundUp(chunkRows, tileRows) * max(f.kp, f.tp)
	for w := range f.work {
		f.work[w] = denseScratch{
			dots: make([]float64, chunkRows*max(k, trials)),
			rows: make([]int, chunkRows),
			fail: make([]int, chunkRows),
		}
		if f.x32 != nil {
			f.work[w].pack, f.work[w].out = make([]float32, tileRows*m), make([]float32, outLen)
		} else {
			f.work[w].pack64, f.work[w].out64 = make([]float64, tileRows*m), make([]float64, outLen)
		}
	}
	for i := range n {
		f.norms[i] = sumSq(x[i*m : (i+1)*m])
	}
	f.assignFn, f.sumsFn, f.moveFn, f.inertiaFn, f.halfFn = f.assignTask, f.sumsTask, f.moveTask, f.inertiaTask, f.halfTask
	f.firstFn, f.trialFn, f.keepFn = f.firstTask, f.trialTask, f.keepTask
	return f
}

// rowsOf returns task t's rows [lo, hi).
func (f *denseFitter[T]) rowsOf(t int) (lo, hi int) { return t * taskRows, min((t+1)*taskRows, f.n) }

func (f *denseFitter[T]) row(i int) []T { return f.x[i*f.m : (i+1)*f.m] }

// meanVariance returns the mean over columns of each column's variance (two passes).
func (f *denseFitter[T]) meanVariance() float64 {
	mean := make([]float64, f.m)
	for i := range f.n {
		for j, v := range f.row(i) {
			mean[j] += float64(v)
		}
	}
	floats.Scale(1/float64(f.n), mean)
	sq := make([]float64, f.m)
	for i := range f.n {
		for j, v := range f.row(i) {
			d := float64(v) - mean[j]
			sq[j] += d * d
		}
	}
	return floats.Sum(sq) / float64(f.n) / float64(f.m)
}

// product sets s.dots (len(rows)×l, row-major) to the rows of x listed in rows times the
// m×l matrix held, its columns padded to lp (a multiple of tileCols), in b64 for float64
// data and in b32 for float32 data, whose products are float32.
func (f *denseFitter[T]) product(s *denseScratch, rows []int, b64 []float64, b32 []float32, lp, l int) {
	if f.fma {
		productFMA(f.x32, f.m, s.pack, s.out, s.dots, rows, b32, lp, l)
		return
	}
	if f.x32 != nil {
		productTiles(f.x32, f.m, s.pack, s.out, s.dots, rows, b32, lp, l, tile12x8)
		return
	}
	productTiles(f.x64, f.m, s.pack64, s.out64, s.dots, rows, b64, lp, l, tile12x8f64)
}

// sumSq returns ‖v‖² in float64, with four partial sums.
func sumSq[T float32 | float64](v []T) float64 {
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(v); j += 4 {
		a, b, c, d := float64(v[j]), float64(v[j+1]), float64(v[j+2]), float64(v[j+3])
		s0 += a * a
		s1 += b * b
		s2 += c * c
		s3 += d * d
	}
	for ; j < len(v); j++ {
		a := float64(v[j])
		s0 += a * a
	}
	return (s0 + s1) + (s2 + s3)
}

// dist2 returns ‖x − c‖² computed directly, with four partial sums.
func dist2[T float32 | float64](x []T, c []float64) float64 {
	c = c[:len(x)]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(x); j += 4 {
		a, b, e, d := float64(x[j])-c[j], float64(x[j+1])-c[j+1], float64(x[j+2])-c[j+2], float64(x[j+3])-c[j+3]
		s0 += a * a
		s1 += b * b
		s2 += e * e
		s3 += d * d
	}
	for ; j < len(x); j++ {
		a := float64(x[j]) - c[j]
		s0 += a * a
	}
	return (s0 + s1) + (s2 + s3)
}

// productTiles sets dots (len(rows)×l) to the rows of x (m columns) listed in rows times
// b (m×lp), by tiles of tileRows rows: read in place where they are consecutive rows of x,
// else copied together into pack (the last padded with zero rows); out holds the tiles'
// products, lp to a row.
func productTiles[E float32 | float64](x []E, m int, pack, out []E, dots []float64, rows []int, b []E, lp, l int,
	tile func(a []E, aStride int, b []E, bStride, m int, dst []E, dStride int)) {
	for p := 0; p < len(rows); p += tileRows {
		a := rowsAt(x, m, pack, rows[p:min(p+tileRows, len(rows))], tileRows)
		for c := 0; c < lp; c += tileCols {
			tile(a, m, b[c:], lp, m, out[p*lp+c:], lp)
		}
	}
	widen(dots, out, len(rows), lp, l)
}

// rowsAt returns the rows of x (m columns) listed in rs, at most group of them, as group
// consecutive rows: x itself from the first where they are consecutive rows of x, else
// pack holding copies of them, padded with zero rows.
func rowsAt[E float32 | float64](x []E, m int, pack []E, rs []int, group int) []E {
	if len(rs) == group && rs[group-1]-rs[0] == group-1 {
		return x[rs[0]*m:]
	}
	for q, i := range rs {
		copy(pack[q*m:(q+1)*m], x[i*m:(i+1)*m])
	}
	clear(pack[len(rs)*m : group*m])
	return pack
}

// widen sets the first rows×l entries of dots (l to a row) to the first l of each row of
// out (lp to a row), widened to float64.
func widen[E float32 | float64](dots []float64, out []E, rows, lp, l int) {
	for q := range rows {
		d, o := dots[q*l:(q+1)*l], out[q*lp:q*lp+l]
		for c, v := range o {
			d[c] = float64(v)
		}
	}
}

// productFMA is productTiles with fused multiply-adds: four rows at a time, read in place
// where they are consecutive rows of x, else copied together into pack (the last padded
// with zero rows), times the first l columns of b by f32.Mul4, each entry one chain of
// fused multiply-adds in the order of the columns of x.
func productFMA(x []float32, m int, pack, out []float32, dots []float64, rows []int, b []float32, lp, l int) {
	const group = 4
	for p := 0; p < len(rows); p += group {
		a := rowsAt(x, m, pack, rows[p:min(p+group, len(rows))], group)
		f32.Mul4(out[p*lp:], lp, a, m, m, b, lp, l)
	}
	widen(dots, out, len(rows), lp, l)
}

func roundUp(v, to int) int { return (v + to - 1) / to * to }

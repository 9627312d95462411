package sparse

import (
	"fmt"
	"sync/atomic"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

//go:generate go run gen_kernels.go

// minRowsPerTask keeps goroutine overhead negligible against the row work.
const minRowsPerTask = 256

func mustDims(what string, gotR, gotC, wantR, wantC int) {
	if gotR != wantR || gotC != wantC {
		panic(fmt.Sprintf("sparse: %s is %d×%d, want %d×%d", what, gotR, gotC, wantR, wantC))
	}
}

// MulDense sets dst = a·b, where a is r×c sparse, b is c×k dense and dst is r×k.
// dst must not alias b. Cost O(nnz(a)·k). Each row of dst is summed over the row's stored
// entries in order, with the partial sums of up to 8 columns (12 when every stored value
// of a is 1, which skips the multiplications) held in registers.
func MulDense(dst *mat.Dense, a *CSR, b *mat.Dense) {
	br, k := b.Dims()
	dr, dc := dst.Dims()
	mustDims("b", br, k, a.c, k)
	mustDims("dst", dr, dc, a.r, k)
	if k == 0 || a.r == 0 {
		return
	}
	braw, draw := b.RawMatrix(), dst.RawMatrix()
	unit := a.UnitValues()
	if serialWork(a.r, a.NNZ()*k) {
		mulDenseRows(draw, a, braw, k, unit, 0, a.r)
		return
	}
	parallelRowsOf(a.r, a.NNZ()*k, func(lo, hi int) { mulDenseRows(draw, a, braw, k, unit, lo, hi) })
}

// serialWork reports whether a row-parallel kernel over n rows of work multiply-adds in
// all runs on the calling goroutine: one thread, too little work for two goroutines on
// this machine (productGrain), or a single row. A product with few but long rows (Xᵀ·B
// for a tall X with few columns) has plenty of work in its few rows, so the decision is
// by work, not by rows.
func serialWork(n, work int) bool { return productGrain.Serial(n, work) }

// parallelRowsOf calls fn over [0, n) split into contiguous blocks of about equal row
// counts, up to four per thread, none with less than the grain of the work (spread
// evenly over the rows) or, with many rows, fewer than minRowsPerTask rows, on as many
// goroutines as the work pays for. Each row is computed by one call, so results do not
// depend on the split.
func parallelRowsOf(n, work int, fn func(lo, hi int)) {
	blocks := min(parallel.Threads()*4, n, max(1, work/productGrain.Min()))
	if n >= 2*minRowsPerTask {
		blocks = min(blocks, (n+minRowsPerTask-1)/minRowsPerTask)
	}
	split := productGrain.Split(blocks, work)
	defer split.Done()
	if split.Workers <= 1 {
		fn(0, n)
		return
	}
	parallel.Blocks(n, (n+blocks-1)/blocks, split.Workers, fn)
}

func mulDenseRows(dst blas64.General, a *CSR, b blas64.General, k int, unit bool, lo, hi int) {
	if useAVX2 {
		gatherRowsAVX2Range(dst, a, b, k, unit, lo, hi)
		return
	}
	// The k columns are cut into the fewest chunks of at most widest columns, as equal as
	// possible: the first rem chunks are w0+1 wide, the others w0.
	widest := maxWeighted
	if unit {
		widest = maxUnit
	}
	nc := (k + widest - 1) / widest
	w0, rem := k/nc, k%nc
	for i := lo; i < hi; i++ {
		out := dst.Data[i*dst.Stride : i*dst.Stride+k]
		p0, p1 := a.ptr[i], a.ptr[i+1]
		cols := a.ind[p0:p1]
		for q, c := 0, 0; q < nc; q++ {
			w := w0
			if q < rem {
				w++
			}
			if unit {
				gatherUnit(w, out[c:], cols, b.Data[c:], b.Stride)
			} else {
				gather(w, out[c:], cols, a.val[p0:p1], b.Data[c:], b.Stride)
			}
			c += w
		}
	}
}

// UnitValues reports whether every stored value is exactly 1 (a 0/1 matrix such as an
// adjacency or binary attributes). It is computed once, in O(nnz), and then remembered.
func (a *CSR) UnitValues() bool {
	switch atomic.LoadInt32(&a.unit) {
	case unitYes:
		return true
	case unitNo:
		return false
	}
	u := int32(unitYes)
	for _, v := range a.val {
		if v != 1 {
			u = unitNo
			break
		}
	}
	atomic.StoreInt32(&a.unit, u)
	return u == unitYes
}

// States of CSR.unit.
const (
	unitUnknown = iota
	unitYes
	unitNo
)

// PatternGramMul sets dst = (U Uᵀ ⊙ W) U, where W is the 0/1 pattern of w's stored entries
// (its values are ignored), U is n×k and dst is n×k: row i of dst is
// Σ_{j stored in row i} (uᵢ·uⱼ) uⱼ. dst must not alias u. Cost O(nnz(w)·k); no n×n matrix
// is formed.
func PatternGramMul(dst *mat.Dense, w *CSR, u *mat.Dense) {
	PatternSumGramMul(nil, dst, w, u)
}

// PatternSumGramMul sets sum = W U (if sum is not nil) and gram = (U Uᵀ ⊙ W) U (if gram is
// not nil) in one pass over w, where W is the 0/1 pattern of w's stored entries (its
// values are ignored), U is n×k and sum, gram are n×k: row i of sum is Σ_{j stored in row
// i} uⱼ and row i of gram is Σ_{j stored in row i} (uᵢ·uⱼ) uⱼ. Neither may alias u.
// Cost O(nnz(w)·k).
func PatternSumGramMul(sum, gram *mat.Dense, w *CSR, u *mat.Dense) {
	n, k := u.Dims()
	mustDims("w", w.r, w.c, n, n)
	var sraw, graw blas64.General
	if sum != nil {
		r, c := sum.Dims()
		mustDims("sum", r, c, n, k)
		sraw = sum.RawMatrix()
	}
	if gram != nil {
		r, c := gram.Dims()
		mustDims("gram", r, c, n, k)
		graw = gram.RawMatrix()
	}
	if k == 0 || n == 0 {
		return
	}
	uraw := u.RawMatrix()
	if serialWork(n, w.NNZ()*k) {
		patternRows(sraw, graw, w, uraw, k, 0, n)
		return
	}
	parallelRowsOf(n, w.NNZ()*k, func(lo, hi int) { patternRows(sraw, graw, w, uraw, k, lo, hi) })
}

// patternRows computes rows [lo, hi) of PatternSumGramMul; a destination with nil Data is
// skipped.
func patternRows(sum, gram blas64.General, w *CSR, u blas64.General, k, lo, hi int) {
	if useAVX2 && sum.Data != nil {
		gatherRowsAVX2Range(sum, w, u, k, true, lo, hi)
		sum.Data = nil
	}
	if useAVX2 && gram.Data != nil && k <= maxPattern {
		patternGramRowsAVX2Range(gram, w, u, k, lo, hi)
		gram.Data = nil
	}
	if sum.Data == nil && gram.Data == nil {
		return
	}
	for i := lo; i < hi; i++ {
		ui := u.Data[i*u.Stride : i*u.Stride+k]
		cols := w.ind[w.ptr[i]:w.ptr[i+1]]
		if sum.Data != nil {
			out := sum.Data[i*sum.Stride : i*sum.Stride+k]
			if k <= maxUnit {
				gatherUnit(k, out, cols, u.Data, u.Stride)
			} else {
				clear(out)
				for _, j := range cols {
					uj := u.Data[j*u.Stride : j*u.Stride+k]
					uj = uj[:len(out)]
					for l := range out {
						out[l] += uj[l]
					}
				}
			}
		}
		if gram.Data == nil {
			continue
		}
		out := gram.Data[i*gram.Stride : i*gram.Stride+k]
		if k <= maxPattern {
			patternGram(k, out, ui, cols, u.Data, u.Stride)
			continue
		}
		patternWideRow(out, ui, cols, u.Data, u.Stride, 0, 0)
	}
}

// PatternSumGramDots does PatternSumGramMul(sum, gram, w, u) (gram must not be nil) and
// returns PatternDots(w, u), from one pass over w's stored entries: each zᵢⱼ = uᵢ·uⱼ is
// computed once and serves both. The results are the same bits as the two calls give.
// Cost O(nnz(w)·k); no allocation on one goroutine.
func PatternSumGramDots(sum, gram *mat.Dense, w *CSR, u *mat.Dense) (dotSum, dotSumSq float64) {
	n, k := u.Dims()
	mustDims("w", w.r, w.c, n, n)
	var sraw blas64.General
	if sum != nil {
		r, c := sum.Dims()
		mustDims("sum", r, c, n, k)
		sraw = sum.RawMatrix()
	}
	r, c := gram.Dims()
	mustDims("gram", r, c, n, k)
	graw := gram.RawMatrix()
	if n == 0 || k == 0 {
		return 0, 0
	}
	uraw := u.RawMatrix()
	// The rows go in PatternDots' blocks, whose sums are added in block order.
	nb := (n + minRowsPerTask - 1) / minRowsPerTask
	split := productGrain.Split(nb, w.NNZ()*k)
	defer split.Done()
	workers := split.Workers
	if workers == 1 {
		for b := 0; b < nb; b++ {
			s, q := patternSumGramDotsBlock(sraw, graw, w, uraw, k, b, n)
			dotSum += s
			dotSumSq += q
		}
		return dotSum, dotSumSq
	}
	part := make([]float64, 2*nb)
	parallel.RunOn(nb, workers, func(b int) {
		part[2*b], part[2*b+1] = patternSumGramDotsBlock(sraw, graw, w, uraw, k, b, n)
	})
	for b := 0; b < nb; b++ {
		dotSum += part[2*b]
		dotSumSq += part[2*b+1]
	}
	return dotSum, dotSumSq
}

// patternSumGramDotsBlock does PatternSumGramDots for the rows of block b (of
// minRowsPerTask rows) of n, returning the block's dot sums.
func patternSumGramDotsBlock(sum, gram blas64.General, w *CSR, u blas64.General, k, b, n int) (s, q float64) {
	lo, hi := b*minRowsPerTask, min((b+1)*minRowsPerTask, n)
	if k > maxPattern {
		return patternGramDotsWide(sum, gram, w, u, k, lo, hi)
	}
	if !useAVX2 {
		patternRows(sum, gram, w, u, k, lo, hi)
		return patternDotRows(w, u, k, lo, hi)
	}
	if sum.Data != nil {
		gatherRowsAVX2Range(sum, w, u, k, true, lo, hi)
	}
	return patternGramDotsRowsAVX2Range(gram, w, u, k, lo, hi)
}

// patternGramDotsWide sets rows [lo, hi) of sum (unless its Data is nil) and gram as
// patternRows does for k > maxPattern and returns patternDotRows(w, u, k, lo, hi),
// computing each zᵢⱼ = uᵢ·uⱼ once for both (the same bits as the separate calls, which
// compute it twice). It goes row by row, each row's AU, zᵢⱼ and weighted gather one after
// the other: the neighbour rows of U come from memory once, for AU, and are still in the
// cache for the zᵢⱼ and the gather. On AVX2 processors the next row's neighbours are
// prefetched into L2 while a row is computed (prefetchRows64Range; no result changes): at
// the ogbn-products shape the pass waited on one row's misses at a time, and took about
// 1.7× as long without.
func patternGramDotsWide(sum, gram blas64.General, w *CSR, u blas64.General, k, lo, hi int) (s, q float64) {
	scratch := wideScratch.Get().(*wideRowScratch)
	defer wideScratch.Put(scratch)
	for i := lo; i < hi; i++ {
		if useAVX2 && i+1 < w.r {
			prefetchRows64Range(w.ind[w.ptr[i+1]:w.ptr[i+2]], u.Data, u.Stride, w.c, k)
		}
		if sum.Data != nil {
			if useAVX2 {
				gatherRowsAVX2Block(sum, w, u, k, true, i, i+1)
			} else {
				patternRows(sum, blas64.General{}, w, u, k, i, i+1)
			}
		}
		ui := u.Data[i*u.Stride : i*u.Stride+k]
		out := gram.Data[i*gram.Stride : i*gram.Stride+k]
		cols := w.ind[w.ptr[i]:w.ptr[i+1]]
		if useAVX2 {
			// The zᵢⱼ first, then (UUᵀ⊙W)U's row as the weighted gather Σ zᵢⱼ·uⱼ,
			// 4 columns per instruction in the same order of edges.
			z := scratch.forDegree(len(cols))
			s, q = patternWideDotsRowAVX2(z, ui, cols, u, w.c, s, q)
			gatherRowAVX2(out, scratch.ptr[:], cols, z[:len(cols)], u, w.c, k)
			continue
		}
		s, q = patternWideRow(out, ui, cols, u.Data, u.Stride, s, q)
	}
	return s, q
}

// dot returns x·y for len(y) ≥ len(x), summed in order (as the unrolled pattern kernels
// do).
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var z float64
	for l, v := range x {
		z += float64(v * y[l])
	}
	return z
}

// PatternDots returns, over the stored positions (i, j) of w (values ignored), the sums
// Σ zᵢⱼ and Σ zᵢⱼ², where zᵢⱼ = uᵢ·uⱼ is the entry of U Uᵀ. Cost O(nnz(w)·k).
// The sums are accumulated per block of rows and then in block order, the blocks being
// fixed by n alone, so they do not depend on the thread count. It allocates nothing when
// it runs on one goroutine.
func PatternDots(w *CSR, u *mat.Dense) (sum, sumSq float64) {
	n, k := u.Dims()
	mustDims("w", w.r, w.c, n, n)
	if n == 0 || k == 0 {
		return 0, 0
	}
	uraw := u.RawMatrix()
	nb := (n + minRowsPerTask - 1) / minRowsPerTask
	split := productGrain.Split(nb, w.NNZ()*k)
	defer split.Done()
	workers := split.Workers
	if workers == 1 {
		for b := 0; b < nb; b++ {
			s, q := patternDotRows(w, uraw, k, b*minRowsPerTask, min((b+1)*minRowsPerTask, n))
			sum += s
			sumSq += q
		}
		return sum, sumSq
	}
	part := make([]float64, 2*nb)
	parallel.RunOn(nb, workers, func(b int) {
		part[2*b], part[2*b+1] = patternDotRows(w, uraw, k, b*minRowsPerTask, min((b+1)*minRowsPerTask, n))
	})
	for b := 0; b < nb; b++ {
		sum += part[2*b]
		sumSq += part[2*b+1]
	}
	return sum, sumSq
}

func patternDotRows(w *CSR, u blas64.General, k, lo, hi int) (s, q float64) {
	if useAVX2 && k <= maxPattern {
		return patternDotsRowsAVX2Range(w, u, k, lo, hi)
	}
	for i := lo; i < hi; i++ {
		ui := u.Data[i*u.Stride : i*u.Stride+k]
		cols := w.ind[w.ptr[i]:w.ptr[i+1]]
		if k <= maxPattern {
			ps, pq := patternDots(k, ui, cols, u.Data, u.Stride)
			s += ps
			q += pq
			continue
		}
		s, q = patternWideRow(nil, ui, cols, u.Data, u.Stride, s, q)
	}
	return s, q
}

// DotDense returns Σ aᵢⱼ·bᵢⱼ over the stored entries of a, for a dense b of the same
// shape: the Frobenius inner product ⟨a, b⟩. Cost O(nnz(a)).
func DotDense(a *CSR, b *mat.Dense) float64 {
	br, bc := b.Dims()
	mustDims("b", br, bc, a.r, a.c)
	braw := b.RawMatrix()
	var s float64
	for i := 0; i < a.r; i++ {
		row := braw.Data[i*braw.Stride:]
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			s += a.val[p] * row[a.ind[p]]
		}
	}
	return s
}

// RowNormsSq returns the squared Euclidean norm of every row. Cost O(nnz).
func (a *CSR) RowNormsSq() []float64 {
	s := make([]float64, a.r)
	for i := 0; i < a.r; i++ {
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			s[i] += a.val[p] * a.val[p]
		}
	}
	return s
}

// ScaleColumns returns a new matrix with column j multiplied by f[j]. Cost O(nnz).
func (a *CSR) ScaleColumns(f []float64) *CSR {
	if len(f) != a.c {
		panic(fmt.Sprintf("sparse: %d column factors for %d columns", len(f), a.c))
	}
	val := make([]float64, len(a.val))
	for p, v := range a.val {
		val[p] = v * f[a.ind[p]]
	}
	return &CSR{r: a.r, c: a.c, ptr: a.ptr, ind: a.ind, val: val}
}

// ScaleRows returns a new matrix with row i multiplied by f[i]. Cost O(nnz).
func (a *CSR) ScaleRows(f []float64) *CSR {
	if len(f) != a.r {
		panic(fmt.Sprintf("sparse: %d row factors for %d rows", len(f), a.r))
	}
	val := make([]float64, len(a.val))
	for i := 0; i < a.r; i++ {
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			val[p] = a.val[p] * f[i]
		}
	}
	return &CSR{r: a.r, c: a.c, ptr: a.ptr, ind: a.ind, val: val}
}

// ColMax returns the largest stored value of each column (0 for an empty column).
func (a *CSR) ColMax() []float64 {
	m := make([]float64, a.c)
	for p, j := range a.ind {
		m[j] = max(m[j], a.val[p])
	}
	return m
}

// WithoutDiagonal returns a copy of a square matrix with its diagonal entries removed.
func (a *CSR) WithoutDiagonal() *CSR {
	ptr := make([]int, a.r+1)
	ind := make([]int, 0, len(a.ind))
	val := make([]float64, 0, len(a.val))
	for i := 0; i < a.r; i++ {
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			if a.ind[p] != i {
				ind = append(ind, a.ind[p])
				val = append(val, a.val[p])
			}
		}
		ptr[i+1] = len(ind)
	}
	return &CSR{r: a.r, c: a.c, ptr: ptr, ind: ind, val: val}
}

// ColumnMaxNormalised returns a copy of a with every column divided by its largest value
// (columns of zeros left as they are): the authors' scaling of the attributes before
// their k-means start. Cost O(nnz + c).
func (a *CSR) ColumnMaxNormalised() *CSR {
	cm := a.ColMax()
	for j, v := range cm {
		if v > 0 {
			cm[j] = 1 / v
		} else {
			cm[j] = 1
		}
	}
	return a.ScaleColumns(cm)
}

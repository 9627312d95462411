package sparse

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
)

var threads atomic.Int32

func init() { threads.Store(1) }

// SetThreads sets how many goroutines the row-parallel kernels use (n < 1 means all
// cores) and returns the previous setting. Results are bit-identical for any setting:
// each output row is computed by exactly one goroutine, and reductions are summed per row
// and then in row order. The default is 1, because the experiment runner parallelises
// across runs.
func SetThreads(n int) int {
	if n < 1 {
		n = runtime.GOMAXPROCS(0)
	}
	return int(threads.Swap(int32(n)))
}

// Threads returns the current kernel thread count.
func Threads() int { return int(threads.Load()) }

// minRowsPerTask keeps goroutine overhead negligible against the row work.
const minRowsPerTask = 256

// parallelRows calls fn over [0, n) split into contiguous blocks, in parallel where the
// thread setting allows and the work is large enough.
func parallelRows(n int, fn func(lo, hi int)) {
	t := Threads()
	if t <= 1 || n < 2*minRowsPerTask {
		fn(0, n)
		return
	}
	blocks := min(t*4, (n+minRowsPerTask-1)/minRowsPerTask)
	size := (n + blocks - 1) / blocks
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < t; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				b := int(next.Add(1)) - 1
				lo := b * size
				if lo >= n {
					return
				}
				fn(lo, min(lo+size, n))
			}
		}()
	}
	wg.Wait()
}

func mustDims(what string, gotR, gotC, wantR, wantC int) {
	if gotR != wantR || gotC != wantC {
		panic(fmt.Sprintf("sparse: %s is %d×%d, want %d×%d", what, gotR, gotC, wantR, wantC))
	}
}

// MulDense sets dst = a·b, where a is r×c sparse, b is c×k dense and dst is r×k.
// dst must not alias b. Cost O(nnz(a)·k).
func MulDense(dst *mat.Dense, a *CSR, b *mat.Dense) {
	br, k := b.Dims()
	dr, dc := dst.Dims()
	mustDims("b", br, k, a.c, k)
	mustDims("dst", dr, dc, a.r, k)
	braw, draw := b.RawMatrix(), dst.RawMatrix()
	parallelRows(a.r, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out := draw.Data[i*draw.Stride : i*draw.Stride+k]
			clear(out)
			for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
				v := a.val[p]
				row := braw.Data[a.ind[p]*braw.Stride : a.ind[p]*braw.Stride+k]
				for l, x := range row {
					out[l] += v * x
				}
			}
		}
	})
}

// PatternGramMul sets dst = (U Uᵀ ⊙ W) U, where W is the 0/1 pattern of w's stored entries
// (its values are ignored), U is n×k and dst is n×k: row i of dst is
// Σ_{j stored in row i} (uᵢ·uⱼ) uⱼ. dst must not alias u. Cost O(nnz(w)·k); no n×n matrix
// is formed.
func PatternGramMul(dst *mat.Dense, w *CSR, u *mat.Dense) {
	n, k := u.Dims()
	dr, dc := dst.Dims()
	mustDims("w", w.r, w.c, n, n)
	mustDims("dst", dr, dc, n, k)
	uraw, draw := u.RawMatrix(), dst.RawMatrix()
	parallelRows(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ui := uraw.Data[i*uraw.Stride : i*uraw.Stride+k]
			out := draw.Data[i*draw.Stride : i*draw.Stride+k]
			clear(out)
			for p := w.ptr[i]; p < w.ptr[i+1]; p++ {
				uj := uraw.Data[w.ind[p]*uraw.Stride : w.ind[p]*uraw.Stride+k]
				var z float64
				for l, x := range ui {
					z += x * uj[l]
				}
				for l, x := range uj {
					out[l] += z * x
				}
			}
		}
	})
}

// PatternDots returns, over the stored positions (i, j) of w (values ignored), the sums
// Σ zᵢⱼ and Σ zᵢⱼ², where zᵢⱼ = uᵢ·uⱼ is the entry of U Uᵀ. Cost O(nnz(w)·k).
// The sums are accumulated per row and then in row order, so they do not depend on the
// thread count.
func PatternDots(w *CSR, u *mat.Dense) (sum, sumSq float64) {
	n, k := u.Dims()
	mustDims("w", w.r, w.c, n, n)
	uraw := u.RawMatrix()
	rowSum := make([]float64, n)
	rowSq := make([]float64, n)
	parallelRows(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ui := uraw.Data[i*uraw.Stride : i*uraw.Stride+k]
			var s, q float64
			for p := w.ptr[i]; p < w.ptr[i+1]; p++ {
				uj := uraw.Data[w.ind[p]*uraw.Stride : w.ind[p]*uraw.Stride+k]
				var z float64
				for l, x := range ui {
					z += x * uj[l]
				}
				s += z
				q += z * z
			}
			rowSum[i], rowSq[i] = s, q
		}
	})
	for i := range rowSum {
		sum += rowSum[i]
		sumSq += rowSq[i]
	}
	return sum, sumSq
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

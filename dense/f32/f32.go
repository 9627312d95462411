package f32

import (
	"math"

	"github.com/nagc-harness/nagc/internal/simd"
)

// Level is the instruction set the kernels run with.
type Level = simd.Level

const (
	LevelGo     = simd.Go     // the Go forms, on any processor
	LevelAVX2   = simd.AVX2   // 256-bit vectors with FMA
	LevelAVX512 = simd.AVX512 // 512-bit vectors (AVX-512 F, DQ and VL, with FMA)
)

// level is the level in use: bestLevel, lowered by SetLevel.
var level = bestLevel

// KernelLevel returns the instruction set the kernels use.
func KernelLevel() Level { return level }

// BestLevel returns the best instruction set the processor (and build) offers.
func BestLevel() Level { return bestLevel }

// SetLevel sets the kernels' level, at most BestLevel, and returns the former one. It is
// meant for tests and benchmarks that compare the levels; it is not safe to call while
// kernels run.
func SetLevel(l Level) Level {
	old := level
	level = min(l, bestLevel)
	return old
}

// fma returns x·y + z rounded to float32 (see the package documentation for when it
// differs from the processor's single rounding).
func fma(x, y, z float32) float32 {
	return float32(math.FMA(float64(x), float64(y), float64(z)))
}

// AxpyRows adds Σₜ a[t]·b[idx[t]·stride + j] to dst[j] for every column j < len(dst), in
// the order the package documentation defines. Rows of b are read at idx[t]·stride; idx
// and a must have the same length. Cost O(len(a)·len(dst)).
func AxpyRows(dst, a []float32, idx []int32, b []float32, stride int) {
	AxpyRowsStrided(dst, a, 1, idx, b, stride)
}

// AxpyRowsStrided is AxpyRows with the coefficients a[t·aStride], t < len(idx) (a
// column of a row-major matrix, say).
func AxpyRowsStrided(dst, a []float32, aStride int, idx []int32, b []float32, stride int) {
	if len(dst) == 0 || len(idx) == 0 {
		return
	}
	_ = a[(len(idx)-1)*aStride]
	axpyRows(dst, a, aStride, idx, b, stride)
}

// AxpyRowsGo is AxpyRowsStrided in Go.
func AxpyRowsGo(dst, a []float32, aStride int, idx []int32, b []float32, stride int) {
	c, k := len(dst), len(idx)
	for j := 0; j < c; j++ {
		s0, s1 := dst[j], float32(0)
		t := 0
		for ; t+1 < k; t += 2 {
			s0 = fma(a[t*aStride], b[int(idx[t])*stride+j], s0)
			s1 = fma(a[(t+1)*aStride], b[int(idx[t+1])*stride+j], s1)
		}
		if t < k {
			s0 = fma(a[t*aStride], b[int(idx[t])*stride+j], s0)
		}
		dst[j] = s0 + s1
	}
}

// PrefetchRows asks the processor to bring the first c floats of the rows idx[t]
// (stride floats apart) of b into its L2 cache. It changes no value.
func PrefetchRows(idx []int32, b []float32, stride, c int) {
	if len(idx) == 0 || c == 0 {
		return
	}
	checkRows(idx, b, stride, c)
	prefetchRowsUnchecked(idx, b, stride, c)
}

// Dot returns Σ x[j]·y[j] summed as the package documentation defines. y must be at least
// as long as x. Cost O(len(x)).
func Dot(x, y []float32) float32 {
	y = y[:len(x)]
	if len(x) == 0 {
		return 0
	}
	return dot(x, y)
}

// DotGo is Dot in Go.
func DotGo(x, y []float32) float32 {
	var s [16]float32
	for j := range x {
		s[j&15] = fma(x[j], y[j], s[j&15])
	}
	return reduce16(&s)
}

// DotRows sets d[t] = Dot(x, b[idx[t]·stride:]) for t < len(idx), in one call: the same
// bits as Dot row by row. d must be at least as long as idx, and every row idx[t] of
// len(x) floats must lie inside b. Cost O(len(idx)·len(x)).
func DotRows(d, x []float32, idx []int32, b []float32, stride int) {
	if len(idx) == 0 {
		return
	}
	_ = d[len(idx)-1]
	if len(x) == 0 {
		clear(d[:len(idx)])
		return
	}
	checkRows(idx, b, stride, len(x))
	dotRowsUnchecked(d, x, idx, b, stride)
}

// DotRowsGo is DotRows in Go.
func DotRowsGo(d, x []float32, idx []int32, b []float32, stride int) {
	for t, r := range idx {
		d[t] = DotGo(x, b[int(r)*stride:][:len(x)])
	}
}

// reduce16 adds the 16 lanes pairwise: l and l+8, l and l+4, l and l+2, then 0 and 1.
func reduce16(s *[16]float32) float32 {
	for w := 8; w >= 1; w /= 2 {
		for l := 0; l < w; l++ {
			s[l] += s[l+w]
		}
	}
	return s[0]
}

// checkRows panics unless every row idx[t] of c floats, stride floats apart, lies
// inside b, so that the assembly reads nothing outside it. Cost O(len(idx)).
func checkRows(idx []int32, b []float32, stride, c int) {
	hi := int32(0)
	for _, r := range idx {
		if r < 0 {
			panic("f32: negative row index")
		}
		hi = max(hi, r)
	}
	_ = b[int(hi)*stride+c-1]
}

// Mul4 sets, for each of the four rows r < 4, dst[r·dStride + j] = Σₜ a[r·aStride + t]·
// b[t·stride + j] for j < c and t < k: one chain of fused multiply-adds per entry, from
// zero, in the order of t. It is the kernel of Mul: each row of b, loaded once, serves
// four output rows. Cost O(k·c).
func Mul4(dst []float32, dStride int, a []float32, aStride, k int, b []float32, stride, c int) {
	Mul4Strided(dst, dStride, a, aStride, 1, k, b, stride, c)
}

// Mul4Go is Mul4 in Go.
func Mul4Go(dst []float32, dStride int, a []float32, aStride, k int, b []float32, stride, c int) {
	Mul4StridedGo(dst, dStride, a, aStride, 1, k, b, stride, c)
}

// Mul4Strided is Mul4 with the coefficients a[r·aStride + t·aTStride]: with aStride 1 and
// aTStride the row length of a row-major a, the four rows are four adjacent columns of
// a, and Mul4Strided forms four rows of aᵀ·b (the kernel of TMul). Cost O(k·c).
func Mul4Strided(dst []float32, dStride int, a []float32, aStride, aTStride, k int, b []float32, stride, c int) {
	if c == 0 {
		return
	}
	_ = dst[3*dStride+c-1]
	if k == 0 {
		for r := 0; r < 4; r++ {
			clear(dst[r*dStride : r*dStride+c])
		}
		return
	}
	_ = a[3*aStride+(k-1)*aTStride]
	_ = b[(k-1)*stride+c-1]
	mul4(dst, dStride, a, aStride, aTStride, k, b, stride, c)
}

// Mul4StridedGo is Mul4Strided in Go.
func Mul4StridedGo(dst []float32, dStride int, a []float32, aStride, aTStride, k int, b []float32, stride, c int) {
	for r := 0; r < 4; r++ {
		for j := 0; j < c; j++ {
			var s float32
			for t := 0; t < k; t++ {
				s = fma(a[r*aStride+t*aTStride], b[t*stride+j], s)
			}
			dst[r*dStride+j] = s
		}
	}
}

// MulElems sets dst[i] = x[i]·y[i] for i < len(dst), 16 (AVX-512) or 8 (AVX2) lanes at
// once where the processor has them; one rounded product each, so every level gives the
// same bits. x and y must be at least as long as dst. Cost O(len(dst)).
func MulElems(dst, x, y []float32) {
	x, y = x[:len(dst)], y[:len(dst)]
	done := mulElems(dst, x, y)
	MulElemsGo(dst[done:], x[done:], y[done:])
}

// MulElemsGo is MulElems in Go.
func MulElemsGo(dst, x, y []float32) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = x[i] * y[i]
	}
}

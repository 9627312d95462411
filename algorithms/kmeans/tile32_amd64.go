//go:build amd64 && !purego

package kmeans

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// bestLevel is the best level the processor has. The assembly kernels (tile32_amd64.s,
// tile64_amd64.s) compute every entry with the same operations in the same order as their
// Go forms (a product rounded, then added; no fused multiply-add), so the results do not
// depend on it.
var bestLevel = func() Level {
	switch {
	case cpu.X86.HasAVX512F:
		return LevelAVX512
	case cpu.X86.HasAVX2:
		return LevelAVX2
	}
	return LevelGo
}()

//go:noescape
func tile12x8AVX2(a *float32, aStride int, b *float32, bStride, m int, dst *float32, dStride int, next *float32)

// tile12x8 is tile12x8Go, in AVX2 where the processor has it. With aStride == m and a
// long enough, it prefetches the next tile's rows (a[tileRows·m:]) as it goes.
func tile12x8(a []float32, aStride int, b []float32, bStride, m int, dst []float32, dStride int) {
	if level < LevelAVX2 {
		tile12x8Go(a, aStride, b, bStride, m, dst, dStride)
		return
	}
	next := tileBounds(a, aStride, b, bStride, m, dst, dStride)
	tile12x8AVX2(&a[0], aStride, &b[0], bStride, m, &dst[0], dStride, next)
}

//go:noescape
func tile6x8f64AVX2(a *float64, aStride int, b *float64, bStride, m int, dst *float64, dStride int, next *float64)

//go:noescape
func tile12x8f64AVX512(a *float64, aStride int, b *float64, bStride, m int, dst *float64, dStride int, next *float64)

// tile12x8f64 is tile12x8Go in float64, in AVX-512 or AVX2 (two tiles of six rows) where the
// processor has them. With aStride == m and a long enough, it prefetches the next tile's
// rows (a[tileRows·m:]) as it goes.
func tile12x8f64(a []float64, aStride int, b []float64, bStride, m int, dst []float64, dStride int) {
	if level < LevelAVX2 {
		tile12x8Go(a, aStride, b, bStride, m, dst, dStride)
		return
	}
	next := tileBounds(a, aStride, b, bStride, m, dst, dStride)
	if level >= LevelAVX512 {
		tile12x8f64AVX512(&a[0], aStride, &b[0], bStride, m, &dst[0], dStride, next)
		return
	}
	const half = tileRows / 2
	mid := &a[half*aStride]
	tile6x8f64AVX2(&a[0], aStride, &b[0], bStride, m, &dst[0], dStride, mid)
	tile6x8f64AVX2(mid, aStride, &b[0], bStride, m, &dst[half*dStride], dStride, next)
}

// tileBounds checks that a, b and dst hold a whole tile (so that the assembly reads and
// writes nothing past them) and returns the row the kernel prefetches as it goes: the
// next tile's first row where aStride == m and a holds it, else a's first.
func tileBounds[T float32 | float64](a []T, aStride int, b []T, bStride, m int, dst []T, dStride int) *T {
	_ = a[(tileRows-1)*aStride+m-1]
	_ = b[(m-1)*bStride+tileCols-1]
	_ = dst[(tileRows-1)*dStride+tileCols-1]
	if aStride == m && len(a) >= 2*tileRows*m {
		return &a[tileRows*m]
	}
	return &a[0]
}

//go:noescape
func dist2x16AVX2(x, c *float32, n int) float32

// dist2x32 returns ‖x − c‖² in float32 (see dist2x32Go).
func dist2x32(x, c []float32) float32 {
	n := len(x) &^ 15
	if level < LevelAVX2 || n == 0 {
		return dist2x32Go(x, c)
	}
	c = c[:len(x)]
	s := dist2x16AVX2(&x[0], &c[0], n)
	for j := n; j < len(x); j++ {
		d := x[j] - c[j]
		s += float32(d * d)
	}
	return s
}

//go:noescape
func prefetchAVX2(p unsafe.Pointer, lines int)

// prefetch asks the processor to bring row (its cache lines) into cache; it changes no
// value.
func prefetch[T float32 | float64](row []T) {
	if len(row) == 0 {
		return
	}
	bytes := len(row) * int(unsafe.Sizeof(row[0]))
	prefetchAVX2(unsafe.Pointer(&row[0]), (bytes+63)/64)
}

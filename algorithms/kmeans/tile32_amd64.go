//go:build amd64 && !purego

package kmeans

import "golang.org/x/sys/cpu"

// useAVX2 reports whether tile12x8 runs its AVX2 form (tile32_amd64.s), which computes
// every entry with the same float32 operations in the same order as tile12x8Go (a product
// rounded, then added; no fused multiply-add), so the results do not depend on it.
var useAVX2 = cpu.X86.HasAVX2

//go:noescape
func tile12x8AVX2(a *float32, aStride int, b *float32, bStride, m int, dst *float32, dStride int)

func tile12x8(a []float32, aStride int, b []float32, bStride, m int, dst []float32, dStride int) {
	if !useAVX2 {
		tile12x8Go(a, aStride, b, bStride, m, dst, dStride)
		return
	}
	_ = a[(tileRows-1)*aStride+m-1]
	_ = b[(m-1)*bStride+tileCols-1]
	_ = dst[(tileRows-1)*dStride+tileCols-1]
	tile12x8AVX2(&a[0], aStride, &b[0], bStride, m, &dst[0], dStride)
}

//go:noescape
func dist2x16AVX2(x, c *float32, n int) float32

// dist2x32 returns ‖x − c‖² in float32 (see dist2x32Go).
func dist2x32(x, c []float32) float32 {
	n := len(x) &^ 15
	if !useAVX2 || n == 0 {
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

//go:build !amd64 || purego

package kmeans

func tile12x8(a []float32, aStride int, b []float32, bStride, m int, dst []float32, dStride int) {
	tile12x8Go(a, aStride, b, bStride, m, dst, dStride)
}

func tile12x8f64(a []float64, aStride int, b []float64, bStride, m int, dst []float64, dStride int) {
	tile12x8Go(a, aStride, b, bStride, m, dst, dStride)
}

// bestLevel is LevelGo: the assembly kernels are amd64's.
const bestLevel = LevelGo

func dist2x32(x, c []float32) float32 { return dist2x32Go(x, c) }

func prefetch[T float32 | float64](row []T) {}

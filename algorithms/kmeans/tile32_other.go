//go:build !amd64 || purego

package kmeans

func tile12x8(a []float32, aStride int, b []float32, bStride, m int, dst []float32, dStride int) {
	tile12x8Go(a, aStride, b, bStride, m, dst, dStride)
}

func dist2x32(x, c []float32) float32 { return dist2x32Go(x, c) }

func prefetch[T float32 | float64](row []T) {}

//go:build !amd64 || purego

package f32

var bestLevel = LevelGo

func axpyRows(dst, a []float32, aStride int, idx []int32, b []float32, stride int) {
	AxpyRowsGo(dst, a, aStride, idx, b, stride)
}

func dot(x, y []float32) float32 { return DotGo(x, y) }

func axpyRowsUnchecked(dst, a []float32, aStride int, idx []int32, b []float32, stride int) {
	AxpyRowsGo(dst, a, aStride, idx, b, stride)
}

func prefetchRowsUnchecked(idx []int32, b []float32, stride, c int) {}

func mul4(dst []float32, dStride int, a []float32, aStride, aTStride, k int, b []float32, stride, c int) {
	Mul4StridedGo(dst, dStride, a, aStride, aTStride, k, b, stride, c)
}

func sigmoidSlope(f, fp []float32) int { return 0 }

func mulElems(dst, x, y []float32) int { return 0 }

func dotRowsUnchecked(d, x []float32, idx []int32, b []float32, stride int) {
	DotRowsGo(d, x, idx, b, stride)
}

//go:build !amd64 || purego

package f32

var bestLevel = LevelGo

func axpyRows(dst, a []float32, idx []int32, b []float32, stride int) {
	AxpyRowsGo(dst, a, idx, b, stride)
}

func dot(x, y []float32) float32 { return DotGo(x, y) }

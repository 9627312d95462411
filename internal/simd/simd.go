// Package simd names the instruction sets the assembly kernels are written for.
//
// Each kernel package (dense, dense/f32, algorithms/kmeans) detects for itself which of
// them it can use, since each needs its own extensions (dense's float64 row and column
// products and sigmoid AVX-512 F and VL, the float32 kernels F, DQ, VL and FMA, the
// k-means tiles F alone), and reports it as a Level.
package simd

// Level is an instruction set a kernel runs with.
type Level int

const (
	Go     Level = iota // the Go forms, on any processor
	AVX2                // 256-bit vectors
	AVX512              // 512-bit vectors
)

// String returns the level's name as the runs' info writes it: go, avx2 or avx512.
func (l Level) String() string {
	switch l {
	case AVX2:
		return "avx2"
	case AVX512:
		return "avx512"
	}
	return "go"
}

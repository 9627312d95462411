//go:build !amd64 || purego

package dense

// useAVX512 is false where the AVX-512 kernels are not built.
const useAVX512 = false

// widestAVX512 is widest: the Go kernels' chunks.
const widestAVX512 = widest

// The AVX-512 kernel tables, empty: never used, since useAVX512 is false.
var (
	rowMulAVX512 [widestAVX512 + 1]func(out []float64, ds int, a []float64, as int, b []float64, bs, k, rows int)
	colAccAVX512 [widestAVX512 + 1]func(out []float64, ds int, x []float64, xs, k int, b []float64, bs, n int, cont bool)
)

func sigmoidAVX512(f, fp []float64, tbl *[32]float64) int { return 0 }

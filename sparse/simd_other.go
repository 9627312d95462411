//go:build !amd64 || purego

package sparse

import "gonum.org/v1/gonum/blas/blas64"

// useAVX2 is false where the AVX2 kernels are not built (other architectures, or the
// purego build tag): the Go kernels of kernels_gen.go run.
const useAVX2 = false

func gatherRowsAVX2Range(dst blas64.General, a *CSR, b blas64.General, k int, unit bool, lo, hi int) {
	panic("sparse: AVX2 kernels are not built")
}

func gatherRowsAVX2Block(dst blas64.General, a *CSR, b blas64.General, k int, unit bool, lo, hi int) {
	panic("sparse: AVX2 kernels are not built")
}

func patternGramRowsAVX2Range(gram blas64.General, w *CSR, u blas64.General, k, lo, hi int) {
	panic("sparse: AVX2 kernels are not built")
}

func patternDotsRowsAVX2Range(w *CSR, u blas64.General, k, lo, hi int) (s, q float64) {
	panic("sparse: AVX2 kernels are not built")
}

func patternGramDotsRowsAVX2Range(gram blas64.General, w *CSR, u blas64.General, k, lo, hi int) (s, q float64) {
	panic("sparse: AVX2 kernels are not built")
}

func gatherRowAVX2(out []float64, ptr []int, cols []int, val []float64, b blas64.General, rows, k int) {
	panic("sparse: AVX2 kernels are not built")
}

func patternWideDotsRowAVX2(z, ui []float64, cols []int, u blas64.General, rows int, s, q float64) (float64, float64) {
	panic("sparse: AVX2 kernels are not built")
}

func prefetchRows64Range(cols []int, u []float64, us, rows, k int) {}

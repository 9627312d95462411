//go:build !amd64 || purego

package dense

// useAVX2 is false where the AVX2 kernels are not built (other architectures, or the
// purego build tag): the Go kernels run.
const useAVX2 = false

// widestAVX2 is widest: the Go kernels' chunks.
const widestAVX2 = widest

// The AVX2 kernel tables, empty: never used, since useAVX2 is false.
var (
	rowMulAVX2 [widestAVX2 + 1]func(out []float64, ds int, a []float64, as int, b []float64, bs, k, rows int)
	colAccAVX2 [widestAVX2 + 1]func(out []float64, ds int, x []float64, xs, k int, b []float64, bs, n int, cont bool)
)

func sigmoidAVX2(f, fp []float64, tbl *[32]float64) int { return 0 }

func dotAVX2(x, y []float64) float64 { panic("dense: AVX2 kernels are not built") }

func ratioUpdateAVX2(x, num, den []float64, c *[5]float64) int         { return 0 }
func puUpdateAVX2(x, su, g, uutu, an, ad []float64, c *[5]float64) int { return 0 }
func symUpdateAVX2(x, su, uutu, an, ad []float64, c *[5]float64) int   { return 0 }

func mulElemAVX2(dst, x, y []float64) int        { return 0 }
func addElemAVX2(dst, src []float64) int         { return 0 }
func widenAVX2(dst []float64, src []float32) int { return 0 }

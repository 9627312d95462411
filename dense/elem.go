package dense

// The entry-wise steps that prepare the operands of the row and column kernels and add
// up their block sums: each entry one IEEE operation, 4 at a time in AVX2 where useAVX2
// (the same results), the rest in Go.

// mulElem sets dst[i] = x[i]·y[i]. x and y must be at least as long as dst.
func mulElem(dst, x, y []float64) {
	x, y = x[:len(dst)], y[:len(dst)]
	i := 0
	if useAVX2 {
		i = mulElemAVX2(dst, x, y)
	}
	for ; i < len(dst); i++ {
		dst[i] = x[i] * y[i]
	}
}

// addElem sets dst[i] += src[i]. src must be at least as long as dst.
func addElem(dst, src []float64) {
	src = src[:len(dst)]
	i := 0
	if useAVX2 {
		i = addElemAVX2(dst, src)
	}
	for ; i < len(dst); i++ {
		dst[i] += src[i]
	}
}

// widen sets dst[i] = float64(src[i]). src must be at least as long as dst.
func widen(dst []float64, src []float32) {
	src = src[:len(dst)]
	i := 0
	if useAVX2 {
		i = widenAVX2(dst, src)
	}
	for ; i < len(dst); i++ {
		dst[i] = float64(src[i])
	}
}

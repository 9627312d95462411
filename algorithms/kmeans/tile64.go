package kmeans

// tile12x8f64Go is tile12x8Go in float64: dst[r·dStride+c] = Σⱼ a[r·aStride+j]·b[j·bStride+c]
// for r < tileRows, c < tileCols, summed in order j = 0…m−1, each product rounded before it
// is added (no fused multiply-add), as package dense's Mul sums, so that the two give the
// same bits.
func tile12x8f64Go(a []float64, aStride int, b []float64, bStride, m int, dst []float64, dStride int) {
	var acc [tileRows][tileCols]float64
	for j := range m {
		bj := b[j*bStride : j*bStride+tileCols]
		for r := range acc {
			av := a[r*aStride+j]
			for c, bv := range bj {
				acc[r][c] += float64(av * bv)
			}
		}
	}
	for r := range acc {
		copy(dst[r*dStride:r*dStride+tileCols], acc[r][:])
	}
}

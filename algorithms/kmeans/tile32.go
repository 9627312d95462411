package kmeans

// The float32 distance products of FitDense: a block of rows (copied together, the last
// tile padded with zero rows) times the centres transposed and padded to a multiple of
// tileCols columns (m×kp), in tiles of tileRows×tileCols outputs whose partial sums stay
// in registers.
const (
	tileRows = 12
	tileCols = 8
)

// tile12x8Go sets dst[r·dStride+c] = Σⱼ a[r·aStride+j]·b[j·bStride+c] for r < tileRows,
// c < tileCols, summed in order j = 0…m−1, each product rounded to E before it is added
// (the explicit conversion forbids a fused multiply-add). In float64 that is the sum
// package dense's Mul takes, so the two give the same bits.
func tile12x8Go[E float32 | float64](a []E, aStride int, b []E, bStride, m int, dst []E, dStride int) {
	var acc [tileRows][tileCols]E
	for j := range m {
		bj := b[j*bStride : j*bStride+tileCols]
		for r := range acc {
			av := a[r*aStride+j]
			for c, bv := range bj {
				acc[r][c] += E(av * bv)
			}
		}
	}
	for r := range acc {
		copy(dst[r*dStride:r*dStride+tileCols], acc[r][:])
	}
}

// dist2x32Go returns ‖x − c‖² in float32: over the first ⌊len/16⌋·16 entries in sixteen
// lanes (lane l sums the squared differences l, l+16, …), lanes l and l+8 added, then those
// eight as ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)); then the rest in order.
func dist2x32Go(x, c []float32) float32 {
	c = c[:len(x)]
	n := len(x) &^ 15
	var s float32
	if n > 0 {
		var l [16]float32
		for j := 0; j < n; j += 16 {
			for q := range l {
				d := x[j+q] - c[j+q]
				l[q] += float32(d * d)
			}
		}
		for q := range 8 {
			l[q] += l[q+8]
		}
		a0, a1, a2, a3 := l[0]+l[4], l[1]+l[5], l[2]+l[6], l[3]+l[7]
		s = (a0 + a2) + (a1 + a3)
	}
	for j := n; j < len(x); j++ {
		d := x[j] - c[j]
		s += float32(d * d)
	}
	return s
}

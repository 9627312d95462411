package kmeans

// The float32 distance products of FitDense: a block of rows packed in panels of tileRows
// rows (each panel stored column by column, m×tileRows), times the centres transposed and
// padded to a multiple of tileCols columns (m×kp), in tiles of tileRows×tileCols outputs
// whose partial sums stay in registers.
const (
	tileRows = 12
	tileCols = 8
)

// tile12x8Go sets dst[r·dStride+c] = Σⱼ a[j·tileRows+r]·b[j·bStride+c] for r < tileRows,
// c < tileCols, summed in order j = 0…m−1, each product rounded to float32 before it is
// added (the explicit conversion forbids a fused multiply-add).
func tile12x8Go(a, b []float32, bStride, m int, dst []float32, dStride int) {
	var acc [tileRows][tileCols]float32
	for j := range m {
		bj := b[j*bStride : j*bStride+tileCols]
		aj := a[j*tileRows : (j+1)*tileRows]
		for r, av := range aj {
			for c, bv := range bj {
				acc[r][c] += float32(av * bv)
			}
		}
	}
	for r := range acc {
		copy(dst[r*dStride:r*dStride+tileCols], acc[r][:])
	}
}

// dist2x32Go returns ‖x − c‖² in float32: over the first ⌊len/8⌋·8 entries in eight lanes
// (lane l sums the squared differences l, l+8, …), the lanes added as
// ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)), then the rest in order.
func dist2x32Go(x, c []float32) float32 {
	c = c[:len(x)]
	n := len(x) &^ 7
	var s float32
	if n > 0 {
		var l [8]float32
		for j := 0; j < n; j += 8 {
			for q := range l {
				d := x[j+q] - c[j+q]
				l[q] += float32(d * d)
			}
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

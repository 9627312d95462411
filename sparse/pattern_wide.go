package sparse

import "sync"

// The edge pass for k > maxPattern, where no unrolled kernel holds a row of U in
// registers. Each zᵢⱼ = uᵢ·uⱼ is a chain of k dependent additions; summed one edge after
// the other (dot), the pass waits on the latency of the adder. patternWideRow takes a
// row's edges eight (then four, then one) at a time with a chain per edge, so that the
// chains overlap, while every zᵢⱼ is still summed from +0 in order of the coordinates,
// the sums Σz and Σz² and every entry of the row of (UUᵀ⊙W)U still take the edges in
// order: the same bits as dot edge by edge (TestPatternWideRowMatchesReference).

// patternWideRow returns s + Σ_p zₚ and q + Σ_p zₚ² over the edges p of cols, added to
// s and q one edge at a time in order, where
// zₚ = ui·u[cols[p]·us : cols[p]·us+k] with k = len(ui), and, unless out is nil, sets
// out[:k] = Σ_p zₚ·u[cols[p]·us : …+k], each sum from +0 in order of p (of the
// coordinates for zₚ), each product rounded before it is added. Cost O(len(cols)·k); no
// allocation.
func patternWideRow(out, ui []float64, cols []int, u []float64, us int, s, q float64) (float64, float64) {
	k := len(ui)
	if out != nil {
		out = out[:k]
		clear(out)
	}
	p := 0
	for ; p+8 <= len(cols); p += 8 {
		c := cols[p : p+8 : p+8]
		u0 := u[c[0]*us:][:k]
		u1 := u[c[1]*us:][:k]
		u2 := u[c[2]*us:][:k]
		u3 := u[c[3]*us:][:k]
		u4 := u[c[4]*us:][:k]
		u5 := u[c[5]*us:][:k]
		u6 := u[c[6]*us:][:k]
		u7 := u[c[7]*us:][:k]
		var z0, z1, z2, z3, z4, z5, z6, z7 float64
		for l, v := range ui {
			z0 += float64(v * u0[l])
			z1 += float64(v * u1[l])
			z2 += float64(v * u2[l])
			z3 += float64(v * u3[l])
			z4 += float64(v * u4[l])
			z5 += float64(v * u5[l])
			z6 += float64(v * u6[l])
			z7 += float64(v * u7[l])
		}
		s += z0
		q += float64(z0 * z0)
		s += z1
		q += float64(z1 * z1)
		s += z2
		q += float64(z2 * z2)
		s += z3
		q += float64(z3 * z3)
		s += z4
		q += float64(z4 * z4)
		s += z5
		q += float64(z5 * z5)
		s += z6
		q += float64(z6 * z6)
		s += z7
		q += float64(z7 * z7)
		if out == nil {
			continue
		}
		for l := range out {
			o := out[l]
			o += float64(z0 * u0[l])
			o += float64(z1 * u1[l])
			o += float64(z2 * u2[l])
			o += float64(z3 * u3[l])
			o += float64(z4 * u4[l])
			o += float64(z5 * u5[l])
			o += float64(z6 * u6[l])
			o += float64(z7 * u7[l])
			out[l] = o
		}
	}
	for ; p+4 <= len(cols); p += 4 {
		c := cols[p : p+4 : p+4]
		u0 := u[c[0]*us:][:k]
		u1 := u[c[1]*us:][:k]
		u2 := u[c[2]*us:][:k]
		u3 := u[c[3]*us:][:k]
		var z0, z1, z2, z3 float64
		for l, v := range ui {
			z0 += float64(v * u0[l])
			z1 += float64(v * u1[l])
			z2 += float64(v * u2[l])
			z3 += float64(v * u3[l])
		}
		s += z0
		q += float64(z0 * z0)
		s += z1
		q += float64(z1 * z1)
		s += z2
		q += float64(z2 * z2)
		s += z3
		q += float64(z3 * z3)
		if out == nil {
			continue
		}
		for l := range out {
			o := out[l]
			o += float64(z0 * u0[l])
			o += float64(z1 * u1[l])
			o += float64(z2 * u2[l])
			o += float64(z3 * u3[l])
			out[l] = o
		}
	}
	for ; p < len(cols); p++ {
		uj := u[cols[p]*us:][:k]
		z := dot(ui, uj)
		s += z
		q += float64(z * z)
		if out == nil {
			continue
		}
		for l := range out {
			out[l] += float64(z * uj[l])
		}
	}
	return s, q
}

// maxWideDegree is the row degree the scratch of the AVX2 path of the wide edge pass is
// made for; a goroutine's scratch grows, once, to the largest degree it meets.
const maxWideDegree = 512

// wideRowScratch is what the AVX2 path of the wide edge pass needs for one row besides
// its output: the row's zᵢⱼ (room for the degree rounded up to 8) and the row pointer
// {0, degree} of the weighted gather, kept here so that neither is allocated per row.
type wideRowScratch struct {
	z   []float64
	ptr [2]int
}

// wideScratch holds the scratch of the goroutines running the wide edge pass (taken from
// the pool; none is allocated once every goroutine has one large enough).
var wideScratch = sync.Pool{New: func() any { return &wideRowScratch{z: make([]float64, maxWideDegree)} }}

// forDegree returns the scratch's zᵢⱼ buffer, grown if a row of degree d needs more
// (len(cols) rounded up to 8), and sets its row pointer to {0, d}.
func (w *wideRowScratch) forDegree(d int) []float64 {
	if need := (d + 7) &^ 7; len(w.z) < need {
		w.z = make([]float64, need)
	}
	w.ptr = [2]int{0, d}
	return w.z
}

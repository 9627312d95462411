//go:build amd64 && !purego

package f32

import "golang.org/x/sys/cpu"

// bestLevel is the best level the processor has: AVX-512 F with DQ and VL (the kernels
// use VEXTRACTF32X8 and masked 256-bit forms), or AVX2 with FMA.
var bestLevel = func() Level {
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL && cpu.X86.HasFMA:
		return LevelAVX512
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		return LevelAVX2
	}
	return LevelGo
}()

//go:noescape
func axpyRowsAVX512(dst *float32, mask uint64, nv int, a *float32, aStride int, idx *int32, k int, b *float32, stride int)

//go:noescape
func axpyRowsAVX2(dst *float32, c int, a *float32, aStride int, idx *int32, k int, b *float32, stride int)

//go:noescape
func dotAVX512(x, y *float32, n int) float32

//go:noescape
func dotAVX2(x, y *float32, n int) float32

// axpyRows is AxpyRowsGo in assembly, 64 columns a call in AVX-512 and 32 in AVX2, after
// checking that every row read lies inside b.
func axpyRows(dst, a []float32, aStride int, idx []int32, b []float32, stride int) {
	if level == LevelGo {
		AxpyRowsGo(dst, a, aStride, idx, b, stride)
		return
	}
	checkRows(idx, b, stride, len(dst))
	axpyRowsUnchecked(dst, a, aStride, idx, b, stride)
}

// axpyRowsUnchecked is axpyRows for rows known to lie inside b.
func axpyRowsUnchecked(dst, a []float32, aStride int, idx []int32, b []float32, stride int) {
	if len(idx) == 0 {
		return
	}
	if level == LevelGo {
		AxpyRowsGo(dst, a, aStride, idx, b, stride)
		return
	}
	width := 32
	if level == LevelAVX512 {
		width = 64
	}
	for lo := 0; lo < len(dst); lo += width {
		c := min(width, len(dst)-lo)
		if level == LevelAVX512 {
			axpyRowsAVX512(&dst[lo], 1<<c-1, max(2, (c+15)/16), &a[0], aStride, &idx[0], len(idx), &b[lo], stride)
		} else {
			axpyRowsAVX2(&dst[lo], c, &a[0], aStride, &idx[0], len(idx), &b[lo], stride)
		}
	}
}

//go:noescape
func prefetchRowsAsm(idx *int32, n int, b *float32, stride, lines int)

// prefetchRowsUnchecked is PrefetchRows for rows known to lie inside b.
func prefetchRowsUnchecked(idx []int32, b []float32, stride, c int) {
	if len(idx) == 0 {
		return
	}
	prefetchRowsAsm(&idx[0], len(idx), &b[0], stride, (c*4+63)/64)
}

// dot is DotGo in assembly.
func dot(x, y []float32) float32 {
	switch level {
	case LevelAVX512:
		return dotAVX512(&x[0], &y[0], len(x))
	case LevelAVX2:
		return dotAVX2(&x[0], &y[0], len(x))
	}
	return DotGo(x, y)
}

//go:noescape
func mul4AVX512(dst *float32, dStride int, mask uint64, nv int, a *float32, aStride, aTStride int, k int, b *float32, stride int)

//go:noescape
func mul4AVX512Y(dst *float32, dStride int, c int, a *float32, aStride, aTStride int, k int, b *float32, stride int)

//go:noescape
func mul4AVX2(dst *float32, dStride int, c int, a *float32, aStride, aTStride int, k int, b *float32, stride int)

// mul4 is Mul4StridedGo in assembly, 64 columns a call in AVX-512 (33 to 40 as two
// 16-lane vectors and an 8-lane one) and 16 in AVX2; the caller has checked the bounds.
func mul4(dst []float32, dStride int, a []float32, aStride, aTStride, k int, b []float32, stride, c int) {
	switch level {
	case LevelAVX512:
		for lo := 0; lo < c; lo += 64 {
			w := min(64, c-lo)
			if w > 32 && w <= 40 {
				mul4AVX512Y(&dst[lo], dStride, w, &a[0], aStride, aTStride, k, &b[lo], stride)
				continue
			}
			mul4AVX512(&dst[lo], dStride, 1<<w-1, max(2, (w+15)/16), &a[0], aStride, aTStride, k, &b[lo], stride)
		}
	case LevelAVX2:
		for lo := 0; lo < c; lo += 16 {
			mul4AVX2(&dst[lo], dStride, min(16, c-lo), &a[0], aStride, aTStride, k, &b[lo], stride)
		}
	default:
		Mul4StridedGo(dst, dStride, a, aStride, aTStride, k, b, stride, c)
	}
}

//go:noescape
func sigmoidSlopeAVX512(f, fp *float32, n int, c *[14][4]uint64)

//go:noescape
func sigmoidSlopeAVX2(f, fp *float32, n int, c *[14][4]uint64)

// sigmoidSlope is SigmoidSlopeGo in assembly on the first multiple of 8 (AVX-512) or 4
// (AVX2) entries of f, and returns how many it did (0 at LevelGo).
func sigmoidSlope(f, fp []float32) int {
	var n int
	switch level {
	case LevelAVX512:
		if n = len(f) &^ 7; n > 0 {
			sigmoidSlopeAVX512(&f[0], &fp[0], n, &sigmoidConsts)
		}
	case LevelAVX2:
		if n = len(f) &^ 3; n > 0 {
			sigmoidSlopeAVX2(&f[0], &fp[0], n, &sigmoidConsts)
		}
	}
	return n
}

//go:noescape
func mulElemsAVX512(dst, x, y *float32, n int)

//go:noescape
func mulElemsAVX2(dst, x, y *float32, n int)

// mulElems is MulElemsGo in assembly on the first multiple of 16 (AVX-512) or 8 (AVX2)
// entries, and returns how many it did (0 at LevelGo).
func mulElems(dst, x, y []float32) int {
	var n int
	switch level {
	case LevelAVX512:
		if n = len(dst) &^ 15; n > 0 {
			mulElemsAVX512(&dst[0], &x[0], &y[0], n)
		}
	case LevelAVX2:
		if n = len(dst) &^ 7; n > 0 {
			mulElemsAVX2(&dst[0], &x[0], &y[0], n)
		}
	}
	return n
}

//go:noescape
func dotRowsAVX512(d, x *float32, n int, idx *int32, m int, b *float32, stride int)

//go:noescape
func dotRowsAVX2(d, x *float32, n int, idx *int32, m int, b *float32, stride int)

// dotRowsUnchecked is DotRowsGo in assembly, for rows known to lie inside b.
func dotRowsUnchecked(d, x []float32, idx []int32, b []float32, stride int) {
	if len(idx) == 0 {
		return
	}
	if len(x) == 0 {
		clear(d[:len(idx)])
		return
	}
	d = d[:len(idx)]
	switch level {
	case LevelAVX512:
		dotRowsAVX512(&d[0], &x[0], len(x), &idx[0], len(idx), &b[0], stride)
	case LevelAVX2:
		dotRowsAVX2(&d[0], &x[0], len(x), &idx[0], len(idx), &b[0], stride)
	default:
		DotRowsGo(d, x, idx, b, stride)
	}
}

package dense

import "github.com/nagc-harness/nagc/internal/simd"

// Level is an instruction set the kernels run with. Every level gives the same bits (each
// kernel computes its Go form's operations in its order), so the level changes only the
// speed.
type Level = simd.Level

const (
	LevelGo     = simd.Go     // the Go kernels, on any processor
	LevelAVX2   = simd.AVX2   // 256-bit vectors
	LevelAVX512 = simd.AVX512 // 512-bit vectors (AVX-512 F and VL): row, column and sigmoid kernels
)

// KernelLevel returns the instruction set the kernels use on this processor.
func KernelLevel() Level {
	switch {
	case useAVX512:
		return LevelAVX512
	case useAVX2:
		return LevelAVX2
	}
	return LevelGo
}

// kernelChunks returns the split of l columns into the chunks the row and column kernels
// run: where the AVX-512 kernels run, ⌈l/widestAVX512⌉ chunks, all but the last a multiple
// of 8 columns wide (whole 512-bit registers); splitCols otherwise. Any split gives the
// same bits: each column is summed alone.
func kernelChunks(l int) colSplit {
	if !useAVX512 || l == 0 {
		return splitCols(l)
	}
	nc := (l + widestAVX512 - 1) / widestAVX512
	step := min(widestAVX512, ((l+nc-1)/nc+7)/8*8)
	return colSplit{nc: (l + step - 1) / step, step: step, l: l}
}

// rowMulAt is rowMul by the best kernel the processor has: the AVX-512 one where
// useAVX512 (with rowMul's bounds checks), else rowMul's dispatch.
func rowMulAt(w int, out []float64, ds int, a []float64, as int, b []float64, bs, k, rows int) {
	if useAVX512 && 1 <= w && w <= widestAVX512 {
		if rows > 0 {
			_ = out[(rows-1)*ds+w-1]
			if k > 0 {
				_ = a[(rows-1)*as+k-1]
				_ = b[(k-1)*bs+w-1]
			}
		}
		rowMulAVX512[w](out, ds, a, as, b, bs, k, rows)
		return
	}
	rowMul(w, out, ds, a, as, b, bs, k, rows)
}

// colAccAt is colAcc by the best kernel the processor has: the AVX-512 one where
// useAVX512 (with colAcc's bounds checks), else colAcc's dispatch.
func colAccAt(w int, out []float64, ds int, x []float64, xs, k int, b []float64, bs, n int, cont bool) {
	if useAVX512 && 1 <= w && w <= widestAVX512 {
		if k > 0 {
			_ = out[(k-1)*ds+w-1]
			if n > 0 {
				_ = x[(n-1)*xs+k-1]
				_ = b[(n-1)*bs+w-1]
			}
		}
		colAccAVX512[w](out, ds, x, xs, k, b, bs, n, cont)
		return
	}
	colAcc(w, out, ds, x, xs, k, b, bs, n, cont)
}

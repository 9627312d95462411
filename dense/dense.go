package dense

import (
	"fmt"
	"sync"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

//go:generate go run gen_kernels.go

// BlockRows is the number of rows per block: the unit of parallel work, and the unit in
// which TMul, TMulHadamard, Gram and Dot sum over rows (so it fixes their rounding).
const BlockRows = 128

// Mul sets dst = a·b for a n×k, b k×l and dst n×l. Cost O(n·k·l).
func Mul(dst, a, b *mat.Dense) {
	n, k := a.Dims()
	br, l := b.Dims()
	mustDims("Mul", "b", br, l, k, l)
	mustDims("Mul", "dst", rows(dst), cols(dst), n, l)
	if n == 0 || l == 0 {
		return
	}
	d, ar, bw := dst.RawMatrix(), a.RawMatrix(), b.RawMatrix()
	if serial(n, n*k*l) {
		mulRows(d, ar, bw, k, l, 0, n)
		return
	}
	forBlocks(n, n*k*l, func(lo, hi int) { mulRows(d, ar, bw, k, l, lo, hi) })
}

// mulRows sets rows lo…hi−1 of d = a·b, a block of BlockRows rows at a time so that the
// block of a stays in cache across the column chunks.
func mulRows(d, a, b blas64.General, k, l, lo, hi int) {
	if k > maxInner && !useAVX2 { // the Go kernels copy b's block to the stack
		mulRowsLargeK(d, a, b, k, l, lo, hi)
		return
	}
	sp := kernelChunks(l)
	for ; lo < hi; lo += BlockRows {
		rows := min(BlockRows, hi-lo)
		for q, c := 0, 0; q < sp.nc; q++ {
			w := sp.width(q)
			rowMulAt(w, d.Data[lo*d.Stride+c:], d.Stride, a.Data[lo*a.Stride:], a.Stride, b.Data[c:], b.Stride, k, rows)
			c += w
		}
	}
}

// mulRowsLargeK is mulRows for k > maxInner without AVX2: a plain loop per row, with the
// kernels' order of summation.
func mulRowsLargeK(d, a, b blas64.General, k, l, lo, hi int) {
	for i := lo; i < hi; i++ {
		x := a.Data[i*a.Stride : i*a.Stride+k]
		out := d.Data[i*d.Stride : i*d.Stride+l]
		clear(out)
		for t, v := range x {
			r := b.Data[t*b.Stride : t*b.Stride+l]
			r = r[:len(out)]
			for j := range out {
				out[j] += float64(v * r[j])
			}
		}
	}
}

// MulHadamard sets dst = (a⊙b)·c for a, b n×k, c k×l and dst n×l, forming a⊙b one
// block of BlockRows rows at a time in pooled scratch, never whole. Cost O(n·k·l).
func MulHadamard(dst, a, b, c *mat.Dense) {
	n, k := a.Dims()
	cr, l := c.Dims()
	mustDims("MulHadamard", "b", rows(b), cols(b), n, k)
	mustDims("MulHadamard", "c", cr, l, k, l)
	mustDims("MulHadamard", "dst", rows(dst), cols(dst), n, l)
	if n == 0 || l == 0 {
		return
	}
	d, ar, br, cw := dst.RawMatrix(), a.RawMatrix(), b.RawMatrix(), c.RawMatrix()
	if serial(n, n*k*(l+1)) {
		mulHadamardRows(d, ar, br, cw, k, l, 0, n)
		return
	}
	forBlocks(n, n*k*(l+1), func(lo, hi int) { mulHadamardRows(d, ar, br, cw, k, l, lo, hi) })
}

// mulHadamardRows sets rows lo…hi−1 of d = (a⊙b)·c, a block of BlockRows rows at a time:
// it forms the block's rows of a⊙b in pooled scratch (the same rounded products the
// entry-by-entry formulation multiplies by c) and multiplies them by c with mulRows, so
// each product aᵢₜ·bᵢₜ is formed once instead of once per column chunk of c.
func mulHadamardRows(d, a, b, c blas64.General, k, l, lo, hi int) {
	sp := getScratch(min(BlockRows, hi-lo) * k)
	for ; lo < hi; lo += BlockRows {
		rows := min(BlockRows, hi-lo)
		h := hadamardRows(*sp, a, b, k, lo, lo+rows)
		dv := blas64.General{Rows: rows, Cols: l, Stride: d.Stride, Data: d.Data[lo*d.Stride:]}
		mulRows(dv, h, c, k, l, 0, rows)
	}
	putScratch(sp)
}

// hadamardRows sets buf to rows lo…hi−1 of a⊙b (their first c columns) and returns it as a
// (hi−lo)×c matrix. buf must hold at least (hi−lo)·c entries.
func hadamardRows(buf []float64, a, b blas64.General, c, lo, hi int) blas64.General {
	h := blas64.General{Rows: hi - lo, Cols: c, Stride: max(c, 1), Data: buf[:(hi-lo)*c]}
	if a.Stride == c && b.Stride == c { // contiguous: one pass over the block
		mulElem(h.Data, a.Data[lo*c:hi*c], b.Data[lo*c:hi*c])
		return h
	}
	for i := lo; i < hi; i++ {
		mulElem(h.Data[(i-lo)*c:(i-lo+1)*c], a.Data[i*a.Stride:i*a.Stride+c], b.Data[i*b.Stride:i*b.Stride+c])
	}
	return h
}

// MulBT sets dst = a·bᵀ for a n×k, b l×k and dst n×l: each entry is a dot product of a
// row of a and a row of b. Cost O(n·k·l).
func MulBT(dst, a, b *mat.Dense) {
	n, k := a.Dims()
	l, bc := b.Dims()
	mustDims("MulBT", "b", l, bc, l, k)
	mustDims("MulBT", "dst", rows(dst), cols(dst), n, l)
	if n == 0 || l == 0 {
		return
	}
	d, ar, bw := dst.RawMatrix(), a.RawMatrix(), b.RawMatrix()
	if serial(n, n*k*l) {
		mulBTRows(d, ar, bw, k, l, 0, n)
		return
	}
	forBlocks(n, n*k*l, func(lo, hi int) { mulBTRows(d, ar, bw, k, l, lo, hi) })
}

func mulBTRows(d, a, b blas64.General, k, l, lo, hi int) {
	for i := lo; i < hi; i++ {
		x := a.Data[i*a.Stride : i*a.Stride+k]
		out := d.Data[i*d.Stride : i*d.Stride+l]
		for j := range out {
			out[j] = dot(x, b.Data[j*b.Stride:j*b.Stride+k])
		}
	}
}

// dot returns x·y for len(y) ≥ len(x), summed in four interleaved partial sums (the
// AVX2 kernel, where useAVX2 and x is long enough to repay the call, keeps them in the
// lanes of one register: same result). Each product is rounded before it is added
// (float64() stops the compiler fusing them).
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	if useAVX2 && len(x) >= 32 {
		return dotAVX2(x, y)
	}
	var s0, s1, s2, s3 float64
	l := 0
	for ; l+4 <= len(x); l += 4 {
		s0 += float64(x[l] * y[l])
		s1 += float64(x[l+1] * y[l+1])
		s2 += float64(x[l+2] * y[l+2])
		s3 += float64(x[l+3] * y[l+3])
	}
	for ; l < len(x); l++ {
		s0 += float64(x[l] * y[l])
	}
	return (s0 + s1) + (s2 + s3)
}

// TMul sets dst = aᵀ·b for a n×k, b n×l and dst k×l. The sum over rows is taken per
// block of BlockRows rows and then in block order (see the package documentation).
// Cost O(n·k·l).
func TMul(dst, a, b *mat.Dense) {
	n, k := a.Dims()
	_, l := b.Dims()
	mustDims("TMul", "b", rows(b), l, n, l)
	mustDims("TMul", "dst", rows(dst), cols(dst), k, l)
	if k == 0 || l == 0 {
		return
	}
	ar, br := a.RawMatrix(), b.RawMatrix()
	d := dst.RawMatrix()
	if n == 0 {
		zero(d, k, l)
		return
	}
	if serial(n, n*k*l) {
		for lo := 0; lo < n; lo += BlockRows {
			tmulBlock(d, ar, br, k, l, lo, min(lo+BlockRows, n), lo > 0)
		}
		return
	}
	reduceBlocks(d, k, l, n, n*k*l, func(part blas64.General, lo, hi int) { tmulBlock(part, ar, br, k, l, lo, hi, false) })
}

// tmulBlock sets (add: adds to) d the sum over rows lo…hi−1 of a_iᵀ b_i.
func tmulBlock(d, a, b blas64.General, k, l, lo, hi int, add bool) {
	colSums(d, a.Data[lo*a.Stride:], a.Stride, k, false, b.Data[lo*b.Stride:], b.Stride, l, hi-lo, add)
}

// colRows is the number of rows per piece of a column-kernel sum: a piece of both operands
// (16 rows of 100 and 47 float64 columns: 19 KB at the ogbn-products shape) stays in the
// first-level cache while every chunk of output columns and group of output rows sweeps it.
const colRows = 16

// colSums sets (add: adds to) d (k×l) the sum over rows t < n of x_tᵀ·b_t, where x_t is
// row t of x (stride xs, k columns) and b_t row t of b (stride bs, l columns): each entry
// summed from +0 in order of t, as one column-kernel call over all n rows would, then
// added to d. The rows go in pieces of colRows, the kernels continuing each piece's sums
// from where the last one left them in d (or, when adding, in pooled scratch), so that
// the operands are read from the first-level cache. tri (Gram): for the columns c…c+w−1
// of a chunk only the rows p < c+w are computed; the rest of d is left alone.
func colSums(d blas64.General, x []float64, xs, k int, tri bool, b []float64, bs, l, n int, add bool) {
	t := d
	var sp *[]float64
	if add {
		sp = getScratch(k * l)
		t = blas64.General{Rows: k, Cols: l, Stride: l, Data: *sp}
	}
	split := kernelChunks(l)
	for lo := 0; lo == 0 || lo < n; lo += colRows {
		rows := min(colRows, n-lo)
		xr, br := x[lo*xs:], b[lo*bs:]
		for q, c := 0, 0; q < split.nc; q++ {
			w := split.width(q)
			kk := k
			if tri {
				kk = c + w
			}
			colAccAt(w, t.Data[c:], t.Stride, xr, xs, kk, br[c:], bs, rows, lo > 0)
			c += w
		}
	}
	if !add {
		return
	}
	if !tri {
		for p := 0; p < k; p++ {
			addElem(d.Data[p*d.Stride:p*d.Stride+l], t.Data[p*t.Stride:p*t.Stride+l])
		}
	} else { // k = l: row p holds sums from the chunk holding column p on
		for q, c := 0, 0; q < split.nc; q++ {
			w := split.width(q)
			for p := c; p < c+w; p++ {
				addElem(d.Data[p*d.Stride+c:p*d.Stride+l], t.Data[p*t.Stride+c:p*t.Stride+l])
			}
			c += w
		}
	}
	putScratch(sp)
}

// TMulHadamard sets dst = aᵀ·(b⊙c) for a n×k, b, c n×l and dst k×l, forming b⊙c one
// block of BlockRows rows at a time in pooled scratch, never whole. Summed per block of
// rows like TMul. Cost O(n·k·l).
func TMulHadamard(dst, a, b, c *mat.Dense) {
	n, k := a.Dims()
	_, l := b.Dims()
	mustDims("TMulHadamard", "b", rows(b), l, n, l)
	mustDims("TMulHadamard", "c", rows(c), cols(c), n, l)
	mustDims("TMulHadamard", "dst", rows(dst), cols(dst), k, l)
	if k == 0 || l == 0 {
		return
	}
	ar, br, cr := a.RawMatrix(), b.RawMatrix(), c.RawMatrix()
	d := dst.RawMatrix()
	if n == 0 {
		zero(d, k, l)
		return
	}
	if serial(n, n*(k+1)*l) {
		for lo := 0; lo < n; lo += BlockRows {
			tmulHadamardBlock(d, ar, br, cr, k, l, lo, min(lo+BlockRows, n), lo > 0)
		}
		return
	}
	reduceBlocks(d, k, l, n, n*(k+1)*l, func(part blas64.General, lo, hi int) {
		tmulHadamardBlock(part, ar, br, cr, k, l, lo, hi, false)
	})
}

// tmulHadamardBlock sets (add: adds to) d the sum over rows lo…hi−1 of a_iᵀ(b_i⊙c_i): it
// forms those rows of b⊙c in pooled scratch (the same rounded products the column kernels
// would form per group of output rows) and sums with tmulBlock.
func tmulHadamardBlock(d, a, b, c blas64.General, k, l, lo, hi int, add bool) {
	sp := getScratch((hi - lo) * l)
	h := hadamardRows(*sp, b, c, l, lo, hi)
	av := blas64.General{Rows: hi - lo, Cols: k, Stride: a.Stride, Data: a.Data[lo*a.Stride:]}
	tmulBlock(d, av, h, k, l, 0, hi-lo, add)
	putScratch(sp)
}

// Gram sets dst = aᵀ·a for a n×k and dst k×k. It computes the upper triangle (summed per
// block of rows like TMul) and copies it to the lower one, so dst is exactly symmetric.
// Cost O(n·k²/2).
func Gram(dst, a *mat.Dense) {
	n, k := a.Dims()
	mustDims("Gram", "dst", rows(dst), cols(dst), k, k)
	if k == 0 {
		return
	}
	ar := a.RawMatrix()
	d := dst.RawMatrix()
	switch {
	case n == 0:
		zero(d, k, k)
	case serial(n, n*k*k/2):
		for lo := 0; lo < n; lo += BlockRows {
			gramBlock(d, ar, k, lo, min(lo+BlockRows, n), lo > 0)
		}
	default:
		reduceBlocks(d, k, k, n, n*k*k/2, func(part blas64.General, lo, hi int) {
			// gramBlock leaves part of the lower triangle alone, and the lower triangle of
			// dst is overwritten below: clear it so that the sums stay finite.
			for p := 1; p < k; p++ {
				clear(part.Data[p*part.Stride : p*part.Stride+p])
			}
			gramBlock(part, ar, k, lo, hi, false)
		})
	}
	for p := 1; p < k; p++ {
		for j := 0; j < p; j++ {
			d.Data[p*d.Stride+j] = d.Data[j*d.Stride+p]
		}
	}
}

// gramBlock sets (add: adds to) d the sum over rows lo…hi−1 of a_iᵀ a_i, at least on
// and above the diagonal: for the columns c…c+w−1 of a chunk it computes rows 0…c+w−1
// only, so a few entries below the diagonal are computed and the rest are left alone.
func gramBlock(d, a blas64.General, k, lo, hi int, add bool) {
	x := a.Data[lo*a.Stride:]
	colSums(d, x, a.Stride, k, true, x, a.Stride, k, hi-lo, add)
}

// Dot returns Σᵢⱼ aᵢⱼ·bᵢⱼ (the Frobenius inner product) for a, b of the same shape, summed
// per block of rows like TMul. Cost O(n·k).
func Dot(a, b *mat.Dense) float64 {
	n, k := a.Dims()
	mustDims("Dot", "b", rows(b), cols(b), n, k)
	if n == 0 || k == 0 {
		return 0
	}
	ar, br := a.RawMatrix(), b.RawMatrix()
	nb := (n + BlockRows - 1) / BlockRows
	var s float64
	if serial(n, n*k) {
		for blk := 0; blk < nb; blk++ {
			s += dotBlock(ar, br, k, blk*BlockRows, min((blk+1)*BlockRows, n))
		}
		return s
	}
	sp := getScratch(nb)
	part := *sp
	parallelBlocks(nb, n*k, func(blk int) {
		part[blk] = dotBlock(ar, br, k, blk*BlockRows, min((blk+1)*BlockRows, n))
	})
	for _, v := range part[:nb] {
		s += v
	}
	putScratch(sp)
	return s
}

func dotBlock(a, b blas64.General, k, lo, hi int) float64 {
	if a.Stride == k && b.Stride == k { // contiguous: one dot product over the block
		return dot(a.Data[lo*k:hi*k], b.Data[lo*k:hi*k])
	}
	var s float64
	for i := lo; i < hi; i++ {
		s += dot(a.Data[i*a.Stride:i*a.Stride+k], b.Data[i*b.Stride:i*b.Stride+k])
	}
	return s
}

// SigmoidMul sets f = σ(a·b) and fp = σ'(a·b) entry-wise, for a n×k, b k×l and f, fp n×l,
// where σ(z) = 1/(1+e^{−z}) and σ'(z) = e^{−z}/(1+e^{−z})². For −350 ≤ z ≤ 700 they are
// computed from one exponential e as r = 1/(1+e), σ = r, σ' = e·r·r (equal to e/(1+e)² up
// to rounding), with a table-driven exp of about one ulp of error; elsewhere literally, with
// math.Exp. f and fp must be distinct. Cost O(n·k·l) plus n·l exponentials.
func SigmoidMul(f, fp, a, b *mat.Dense) {
	n, k := a.Dims()
	br, l := b.Dims()
	mustDims("SigmoidMul", "b", br, l, k, l)
	mustDims("SigmoidMul", "f", rows(f), cols(f), n, l)
	mustDims("SigmoidMul", "fp", rows(fp), cols(fp), n, l)
	if n == 0 || l == 0 {
		return
	}
	fr, pr, ar, bw := f.RawMatrix(), fp.RawMatrix(), a.RawMatrix(), b.RawMatrix()
	if serial(n, n*(k+ExpWork)*l) {
		sigmoidRows(fr, pr, ar, bw, k, l, 0, n)
		return
	}
	forBlocks(n, n*(k+ExpWork)*l, func(lo, hi int) { sigmoidRows(fr, pr, ar, bw, k, l, lo, hi) })
}

func sigmoidRows(f, fp, a, b blas64.General, k, l, lo, hi int) {
	for ; lo < hi; lo += BlockRows {
		bhi := min(lo+BlockRows, hi)
		mulRows(f, a, b, k, l, lo, bhi)
		if f.Stride == l && fp.Stride == l {
			sigmoid(f.Data[lo*l:bhi*l], fp.Data[lo*l:bhi*l])
			continue
		}
		for i := lo; i < bhi; i++ {
			sigmoid(f.Data[i*f.Stride:i*f.Stride+l], fp.Data[i*fp.Stride:i*fp.Stride+l])
		}
	}
}

// colSplit cuts l columns into nc = ⌈l/widest⌉ chunks for the kernels (widestAVX2 for the
// AVX2 kernels), as equal as possible: the first rem chunks are w+1 wide, the others w.
type colSplit struct {
	nc, w, rem int
	// step > 0 replaces the above by chunks of step columns, the last one of what remains
	// of l (kernelChunks).
	step, l int
}

func splitCols(l int) colSplit {
	if l == 0 {
		return colSplit{}
	}
	widest := widest
	if useAVX2 {
		widest = widestAVX2 // any split gives the same bits: each column is summed alone
	}
	nc := (l + widest - 1) / widest
	return colSplit{nc: nc, w: l / nc, rem: l % nc}
}

// width returns the width of chunk q.
func (s colSplit) width(q int) int {
	if s.step > 0 {
		return min(s.step, s.l-q*s.step)
	}
	if q < s.rem {
		return s.w + 1
	}
	return s.w
}

func zero(d blas64.General, r, c int) {
	for i := 0; i < r; i++ {
		clear(d.Data[i*d.Stride : i*d.Stride+c])
	}
}

func rows(m *mat.Dense) int { r, _ := m.Dims(); return r }
func cols(m *mat.Dense) int { _, c := m.Dims(); return c }

func mustDims(fn, what string, gotR, gotC, wantR, wantC int) {
	if gotR != wantR || gotC != wantC {
		panic(fmt.Sprintf("dense: %s: %s is %d×%d, want %d×%d", fn, what, gotR, gotC, wantR, wantC))
	}
}

// serial reports whether a kernel over n rows and work multiply-adds runs on the calling
// goroutine: one thread, fewer than two blocks, or too little work to pay for a second
// goroutine on this machine (Grain).
func serial(n, work int) bool { return grain.Serial((n+BlockRows-1)/BlockRows, work) }

// forBlocks calls fn(lo, hi) for every block of BlockRows rows of [0, n), on as many
// goroutines as work multiply-adds pay for (Grain.Split).
func forBlocks(n, work int, fn func(lo, hi int)) {
	s := grain.Split((n+BlockRows-1)/BlockRows, work)
	parallel.Blocks(n, BlockRows, s.Workers, fn)
	s.Done()
}

// parallelBlocks calls fn(0), …, fn(nb−1) on as many goroutines as work multiply-adds in
// all pay for.
func parallelBlocks(nb, work int, fn func(b int)) { grain.Run(nb, work, fn) }

// ExpWork is what one exponential of a sigmoid costs, in multiply-adds: the unit in which
// the kernels that form one (SigmoidMul here, f32.SigmoidMul) weigh it against the grain.
const ExpWork = 16

// reduceBlocks sets d (r×c) to the sum of block(part, lo, hi) over the blocks of
// BlockRows rows of [0, n), where block sets part (r×c) to its block's sum. The blocks run
// in waves: a wave's blocks in parallel, each into its own part of a scratch of about
// reduceWaveBytes (so the parts stay in the cache), then the parts are added to d in
// block order before the next wave starts. Every entry of d is therefore the first
// block's sum plus the next ones' in block order, whatever the waves and the threads.
// Scratch O(wave·r·c), not O(n/BlockRows·r·c).
func reduceBlocks(d blas64.General, r, c, n, work int, block func(part blas64.General, lo, hi int)) {
	nb := (n + BlockRows - 1) / BlockRows
	size := r * c
	split := grain.Split(nb, work)
	defer split.Done()
	workers := split.Workers
	wave := min(nb, max(workers, reduceWaveBytes/(8*max(size, 1))))
	sp := getScratch(wave * size)
	buf := *sp
	var w0 int // the wave's first block; one closure serves every wave
	sumBlock := func(b int) {
		lo := (w0 + b) * BlockRows
		block(blas64.General{Rows: r, Cols: c, Stride: c, Data: buf[b*size : (b+1)*size]}, lo, min(lo+BlockRows, n))
	}
	for w0 = 0; w0 < nb; w0 += wave {
		w1 := min(w0+wave, nb)
		parallel.RunOn(w1-w0, workers, sumBlock)
		for b := w0; b < w1; b++ {
			part := buf[(b-w0)*size : (b-w0+1)*size]
			for i := 0; i < r; i++ {
				out := d.Data[i*d.Stride : i*d.Stride+c]
				if b == 0 {
					copy(out, part[i*c:(i+1)*c])
				} else {
					addElem(out, part[i*c:(i+1)*c])
				}
			}
		}
	}
	putScratch(sp)
}

// reduceWaveBytes is the scratch one wave of reduceBlocks fills with block sums (at least
// one block per thread): 512 KiB, the size of a second-level cache.
var reduceWaveBytes = 512 << 10

var scratch = sync.Pool{New: func() any { return new([]float64) }}

// getScratch returns a pooled slice of at least n elements (contents undefined).
func getScratch(n int) *[]float64 {
	sp := scratch.Get().(*[]float64)
	if cap(*sp) < n {
		*sp = make([]float64, n)
	}
	*sp = (*sp)[:n]
	return sp
}

func putScratch(sp *[]float64) { scratch.Put(sp) }

package f32

import (
	"fmt"
	"math"
	"sync"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/internal/parallel"

	"gonum.org/v1/gonum/mat"
)

// Mat is an r×c float32 matrix stored row-major without padding (stride c).
type Mat struct {
	R, C int
	Data []float32
}

// NewMat returns a zero r×c matrix.
func NewMat(r, c int) *Mat { return &Mat{R: r, C: c, Data: make([]float32, r*c)} }

// FromDense returns d rounded to float32.
func FromDense(d *mat.Dense) *Mat {
	r, c := d.Dims()
	m := NewMat(r, c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Data[i*c+j] = float32(d.At(i, j))
		}
	}
	return m
}

// Dense returns m widened to float64.
func (m *Mat) Dense() *mat.Dense {
	d := make([]float64, len(m.Data))
	for i, v := range m.Data {
		d[i] = float64(v)
	}
	return mat.NewDense(m.R, m.C, d)
}

// Row returns row i.
func (m *Mat) Row(i int) []float32 { return m.Data[i*m.C : (i+1)*m.C] }

// BlockRows is the number of rows of a block: row-wise kernels run blocks on the
// threads, and reductions over rows sum each block from zero and add the block sums in
// block order, in float64, so that no result depends on the thread count.
const BlockRows = 1024

// Rows runs fn on the blocks of BlockRows of n rows, on as many goroutines as work
// multiply-adds in all pay for on this machine (the package's grain, parallel.Grain.Split),
// at most parallel.Threads().
func Rows(n, work int, fn func(lo, hi int)) {
	nb := (n + BlockRows - 1) / BlockRows
	if nb <= 1 || parallel.Threads() <= 1 {
		for b := 0; b < nb; b++ {
			fn(b*BlockRows, min((b+1)*BlockRows, n))
		}
		return
	}
	grain.Run(nb, work, func(b int) { fn(b*BlockRows, min((b+1)*BlockRows, n)) })
}

func mustDims(what string, m *Mat, r, c int) {
	if m.R != r || m.C != c || len(m.Data) != r*c {
		panic(fmt.Sprintf("f32: %s is %d×%d (%d values), want %d×%d", what, m.R, m.C, len(m.Data), r, c))
	}
}

// Mul sets dst = a·b for a n×k and b k×c (small), four rows at a time by Mul4. Cost
// O(n·k·c).
func Mul(dst, a, b *Mat) {
	mustDims("Mul dst", dst, a.R, b.C)
	mustDims("Mul b", b, a.C, b.C)
	Rows(a.R, a.R*a.C*b.C, func(lo, hi int) { mulBlock(dst, a.Data, b, lo, hi) })
}

// mulBlock sets rows [lo, hi) of dst to those of a·b, a given by its row-major data (b.R
// columns): four rows a call of Mul4, the last one to three through a padded scratch.
func mulBlock(dst *Mat, a []float32, b *Mat, lo, hi int) {
	k, c := b.R, b.C
	i := lo
	for ; i+4 <= hi; i += 4 {
		Mul4(dst.Data[i*c:], c, a[i*k:], k, k, b.Data, c, c)
	}
	if i == hi {
		return
	}
	sa, sd := getScratch(4*k), getScratch(4*c)
	defer putScratch(sa)
	defer putScratch(sd)
	copy(*sa, a[i*k:hi*k])
	Mul4(*sd, c, *sa, k, k, b.Data, c, c)
	copy(dst.Data[i*c:hi*c], *sd)
}

// MulHadamard sets dst = (x⊙y)·b for x, y n×k and b k×c, a block of rows of x⊙y at a
// time in scratch. Cost O(n·k·c).
func MulHadamard(dst, x, y, b *Mat) {
	mustDims("MulHadamard y", y, x.R, x.C)
	mustDims("MulHadamard dst", dst, x.R, b.C)
	mustDims("MulHadamard b", b, x.C, b.C)
	k := x.C
	Rows(x.R, x.R*k*(b.C+1), func(lo, hi int) {
		ws := getScratch((hi - lo) * k)
		defer putScratch(ws)
		w := *ws
		MulElems(w, x.Data[lo*k:], y.Data[lo*k:])
		// w holds rows [lo, hi): shift so that row i of the product reads w[(i−lo)·k:].
		sub := &Mat{R: hi - lo, C: b.C, Data: dst.Data[lo*b.C : hi*b.C]}
		mulBlock(sub, w, b, 0, hi-lo)
	})
}

// TMul sets dst = aᵀ·w for a n×k and w n×c (dst k×c): each block of BlockRows rows is
// summed from zero, four rows of the block's sum a call of Mul4Strided over four
// columns of a (one fused chain per entry, in row order; the last one to three rows
// through a zero-padded scratch), and the block sums are added in block order in
// float64. If y is not nil, w⊙y takes the place of w. Cost O(n·k·c).
func TMul(dst, a, w, y *Mat) {
	n, k, c := a.R, a.C, w.C
	mustDims("TMul w", w, n, c)
	mustDims("TMul dst", dst, k, c)
	if y != nil {
		mustDims("TMul y", y, n, c)
	}
	nb := (n + BlockRows - 1) / BlockRows
	ss := getScratch(nb * k * c)
	defer putScratch(ss)
	sums := *ss
	Rows(n, n*k*c, func(lo, hi int) {
		rows := hi - lo
		wb := w.Data[lo*c : hi*c]
		if y != nil {
			wbs := getScratch(rows * c)
			defer putScratch(wbs)
			wb = *wbs
			MulElems(wb, w.Data[lo*c:], y.Data[lo*c:])
		}
		s := sums[lo/BlockRows*k*c:][:k*c]
		ab := a.Data[lo*k : hi*k]
		p := 0
		for ; p+4 <= k; p += 4 {
			Mul4Strided(s[p*c:], c, ab[p:], 1, k, rows, wb, c, c)
		}
		if p == k {
			return
		}
		sa, sd := getScratch(4*rows), getScratch(4*c)
		defer putScratch(sa)
		defer putScratch(sd)
		for t := 0; t < rows; t++ {
			copy((*sa)[4*t:4*t+k-p], ab[t*k+p:(t+1)*k])
		}
		Mul4Strided(*sd, c, *sa, 1, 4, rows, wb, c, c)
		copy(s[p*c:], (*sd)[:(k-p)*c])
	})
	for t := range dst.Data {
		var v float64
		for b := 0; b < nb; b++ {
			v += float64(sums[b*k*c+t])
		}
		dst.Data[t] = float32(v)
	}
}

// Gram sets dst = aᵀa (TMul of a with itself).
func Gram(dst, a *Mat) { TMul(dst, a, a, nil) }

// DotAll returns ⟨a, b⟩ = Σ a⊙b, by rows (Dot) added in float64 in row order. Cost
// O(len(a.Data)).
func DotAll(a, b *Mat) float64 {
	mustDims("DotAll b", b, a.R, a.C)
	var s float64
	for i := 0; i < a.R; i++ {
		s += float64(Dot(a.Row(i), b.Row(i)))
	}
	return s
}

// SigmoidMul sets f = σ(u·h) and fp = f⊙(1−f), σ the logistic sigmoid (see Sigmoid), a
// block of rows at a time: the block's product (as Mul), then its sigmoid. Cost O(n·k·c)
// for u n×k, h k×c.
func SigmoidMul(f, fp, u, h *Mat) {
	mustDims("SigmoidMul f", f, u.R, h.C)
	mustDims("SigmoidMul fp", fp, u.R, h.C)
	mustDims("SigmoidMul h", h, u.C, h.C)
	c := h.C
	Rows(u.R, u.R*c*(u.C+dense.ExpWork), func(lo, hi int) {
		mulBlock(f, u.Data, h, lo, hi)
		SigmoidSlope(f.Data[lo*c:hi*c], fp.Data[lo*c:hi*c])
	})
}

// Sigmoid returns 1/(1+e⁻ˣ) in float32, with e⁻ˣ = 2ⁿ·2ᶠ (n = round(−x·log₂e), |f| ≤ ½)
// and 2ᶠ by a degree-6 polynomial in float64 (relative error below 2⁻²⁴ before the final
// rounding; within two ulps of the rounded sigmoid); for |x·log₂e| beyond 1000 it
// returns 0 or 1, as float32 rounds the sigmoid, and for NaN a NaN. Every step is one
// rounded float64 operation (the conversions keep the compiler from fusing them), so
// that the vector forms of SigmoidSlope give the same bits. Cost O(1).
func Sigmoid(x float32) float32 {
	z := -float64(x) * math.Log2E
	switch {
	case z > 1000:
		return 0
	case z < -1000:
		return 1
	case z != z:
		return float32(z)
	}
	n := (z + 0x1.8p52) - 0x1.8p52 // z rounded to an integer, without a call
	f := z - n
	// 2^f = e^(f·ln2), Taylor to degree 6 (truncation below 2⁻²⁹ for |f| ≤ ½).
	t := f * math.Ln2
	p := 1.0 / 720
	for _, c := range [...]float64{1.0 / 120, 1.0 / 24, 1.0 / 6, 1.0 / 2, 1, 1} {
		p = float64(t*p) + c
	}
	e := p * math.Float64frombits(uint64(int64(n)+1023)<<52)
	return float32(1 / (1 + e))
}

// SigmoidSlope sets f[i] = σ(f[i]) and fp[i] = σ(f[i])·(1−σ(f[i])) for i < len(f), σ as
// Sigmoid computes it, in AVX-512 (8 lanes of float64) or AVX2 (4 lanes) where the
// processor has them: the same operations in the same order, so the same bits as
// SigmoidSlopeGo at every level. fp must be at least as long as f. Cost O(len(f)).
func SigmoidSlope(f, fp []float32) {
	fp = fp[:len(f)]
	done := sigmoidSlope(f, fp)
	SigmoidSlopeGo(f[done:], fp[done:])
}

// SigmoidSlopeGo is SigmoidSlope in Go.
func SigmoidSlopeGo(f, fp []float32) {
	fp = fp[:len(f)]
	for i, x := range f {
		s := Sigmoid(x)
		f[i], fp[i] = s, s*(1-s)
	}
}

// sigmoidConsts are the constants of the vector forms of Sigmoid, each four times (one
// 32-byte vector): the sign bit, log₂e, 1.5·2⁵², 1000, −1000, ln 2, the polynomial's
// coefficients 1/720, 1/120, 1/24, 1/6, 1/2, 1, the exponent bias 1023 (an integer) and
// float32 1 twice.
var sigmoidConsts = func() (c [14][4]uint64) {
	bits := []uint64{1 << 63}
	for _, v := range []float64{math.Log2E, 0x1.8p52, 1000, -1000, math.Ln2, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 1.0 / 2, 1} {
		bits = append(bits, math.Float64bits(v))
	}
	one32 := uint64(math.Float32bits(1))
	bits = append(bits, 1023, one32<<32|one32)
	for i, b := range bits {
		c[i] = [4]uint64{b, b, b, b}
	}
	return c
}()

// scratchPool holds the kernels' scratch slices, so that iterations allocate nothing
// once warm.
var scratchPool sync.Pool

// getScratch returns a zeroed slice of n floats from the pool.
func getScratch(n int) *[]float32 {
	p, _ := scratchPool.Get().(*[]float32)
	if p == nil || cap(*p) < n {
		s := make([]float32, n)
		return &s
	}
	*p = (*p)[:n]
	clear(*p)
	return p
}

func putScratch(p *[]float32) { scratchPool.Put(p) }

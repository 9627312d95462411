package algorithms

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/internal/parallel"
)

// rowPasses runs NAGCSolver's passes over the blocks of dense.BlockRows rows of its
// n-row matrices. Each pass does, block by block, the work of several whole-matrix
// kernels, so that each matrix is read from memory once a pass instead of once a kernel:
// the kernels of package dense are called on the block's rows, which gives the bits of the
// whole-matrix calls because those work block by block on the same blocks. A pass's sums
// over the rows (UᵀU, fᵀf, the sums of H's rule) are formed per block into partial sums,
// which are added in block order as the whole-matrix kernels add theirs; the blocks go
// in waves whose partial sums fill about passWaveBytes. All scratch is allocated once
// (more only when the thread count grows), so a pass allocates nothing.
type rowPasses struct {
	s      *NAGCSolver
	n      int
	blocks int // ⌈n / dense.BlockRows⌉

	free    chan int       // indices of the idle per-goroutine scratch
	scratch []blockScratch // one per goroutine of a pass
	parts   []float64      // a wave's partial sums, size floats a block

	xvDots, fvtvDots []float64 // every block's share of ⟨XV, f⟩ and ⟨f VᵀV, f⟩

	// The passes: multiply-adds, floats of partial sums a block, and the block and
	// partial-sum functions, bound once.
	updateWork, hWork, attributeWork    int
	updateSize, hSize                   int
	updateBlock, hBlock, attributeBlock func(t, blk int, part []float64)
	addUpdate, addH                     func(blk int, part []float64)

	// The pass running: its block function, partial-sum size and first block of the wave.
	block    func(t, blk int, part []float64)
	size, w0 int
	callOne  func(b int) // runOne, bound once
}

// blockScratch holds one goroutine's views of a block's rows and its block-sized work
// matrices.
type blockScratch struct {
	u, f, fp, xv mat.Dense // views of the block's rows of U, f, f', XV
	an, ad, uu   mat.Dense // rows×k1: ((XV)⊙f')Hᵀ, ((f VᵀV)⊙f')Hᵀ, U(UᵀU)
	fv           mat.Dense // rows×k2: f·VᵀV
	p1, p2       mat.Dense // views of the block's partial sums
	data         []float64 // backs an, ad, uu and fv
}

// passWaveBytes is the size of the partial sums of one wave of blocks (at least one block
// per goroutine): 512 KiB, the size of a second-level cache. (A variable so that tests
// can force a wave per block.)
var passWaveBytes = 512 << 10

// bind sizes the passes for solver s and binds their functions.
func (p *rowPasses) bind(s *NAGCSolver) {
	n, k1 := s.U.Dims()
	_, k2 := s.V.Dims()
	p.s, p.n, p.blocks = s, n, (n+dense.BlockRows-1)/dense.BlockRows
	p.xvDots, p.fvtvDots = make([]float64, p.blocks), make([]float64, p.blocks)
	const exp = dense.ExpWork
	p.updateWork = n * (3*k1*k2 + k2*k2 + k1*k1 + exp*k2 + (k1*k1+k2*k2)/2)
	p.hWork = 2 * n * (k1 + 1) * k2
	p.attributeWork = n * (k1*k2 + exp*k2 + k2*k2 + 2*k2)
	p.updateSize, p.hSize = k1*k1+k2*k2, 2*k1*k2
	p.updateBlock, p.hBlock, p.attributeBlock = p.updateRows, p.hRows, p.attributeRows
	p.addUpdate, p.addH = p.addUpdateSums, p.addHSums
	p.callOne = p.runOne
}

// run calls block(t, blk, part) for every block blk, t the index of the goroutine's
// scratch and part the block's size floats of partial sums, on as many goroutines as
// work multiply-adds pay for; after each wave of blocks it calls add(blk, part) for the
// wave's blocks in block order (add nil and size 0: no partial sums, one wave).
func (p *rowPasses) run(work, size int, block func(t, blk int, part []float64), add func(blk int, part []float64)) {
	split := dense.Grain().Split(p.blocks, work)
	defer split.Done()
	workers := split.Workers
	p.ensure(workers)
	wave := p.blocks
	if size > 0 {
		wave = min(p.blocks, max(workers, passWaveBytes/(8*size)))
		if len(p.parts) < wave*size {
			p.parts = make([]float64, wave*size)
		}
	}
	p.block, p.size = block, size
	for p.w0 = 0; p.w0 < p.blocks; p.w0 += wave {
		w1 := min(p.w0+wave, p.blocks)
		parallel.RunOn(w1-p.w0, workers, p.callOne)
		if add == nil {
			continue
		}
		for b := p.w0; b < w1; b++ {
			add(b, p.parts[(b-p.w0)*size:(b-p.w0+1)*size])
		}
	}
}

// runOne runs block w0 + b of the pass running on an idle scratch.
func (p *rowPasses) runOne(b int) {
	t := <-p.free
	p.block(t, p.w0+b, p.parts[b*p.size:(b+1)*p.size])
	p.free <- t
}

// ensure makes room for workers goroutines' scratch.
func (p *rowPasses) ensure(workers int) {
	if len(p.scratch) >= workers {
		return
	}
	_, k1 := p.s.U.Dims()
	_, k2 := p.s.V.Dims()
	p.free = make(chan int, workers)
	p.scratch = make([]blockScratch, workers)
	for t := range p.scratch {
		p.scratch[t].data = make([]float64, dense.BlockRows*(3*k1+k2))
		p.free <- t
	}
}

// views points b's views at rows [lo, hi) of U, f, f' and XV, and its work matrices at
// hi − lo rows of its own data.
func (p *rowPasses) views(b *blockScratch, lo, hi int) {
	s := p.s
	_, k1 := s.U.Dims()
	_, k2 := s.V.Dims()
	rowsOf(&b.u, s.U, lo, hi, k1)
	rowsOf(&b.f, s.f, lo, hi, k2)
	rowsOf(&b.fp, s.fp, lo, hi, k2)
	rowsOf(&b.xv, s.xv, lo, hi, k2)
	r, d := hi-lo, b.data
	own := func(m *mat.Dense, c int) {
		m.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: c, Data: d[:r*c]})
		d = d[r*c:]
	}
	own(&b.an, k1)
	own(&b.ad, k1)
	own(&b.uu, k1)
	own(&b.fv, k2)
}

// blockViews returns the solver and goroutine t's scratch, its views pointed at block
// blk's rows [lo, hi).
func (p *rowPasses) blockViews(t, blk int) (s *NAGCSolver, b *blockScratch, lo, hi int) {
	b = &p.scratch[t]
	lo, hi = blk*dense.BlockRows, min((blk+1)*dense.BlockRows, p.n)
	p.views(b, lo, hi)
	return p.s, b, lo, hi
}

// updateRows is U's pass on block blk: the attribute terms of U's rule and U(UᵀU) from the
// current factors, the rule on the block's rows of U, then f(UH), f'(UH) of the new rows
// over the old, and the block's partial sums of the new UᵀU and fᵀf.
func (p *rowPasses) updateRows(t, blk int, part []float64) {
	s, b, lo, hi := p.blockViews(t, blk)
	dense.MulHadamard(&b.an, &b.xv, &b.fp, s.ht) // ((XV)⊙f')Hᵀ
	dense.Mul(&b.fv, &b.f, s.vtv)                // f·VᵀV
	dense.MulHadamard(&b.ad, &b.fv, &b.fp, s.ht) // ((f VᵀV)⊙f')Hᵀ
	dense.Mul(&b.uu, &b.u, s.utu)                // U(UᵀU)
	s.updateU(b, lo, hi)
	dense.SigmoidMul(&b.f, &b.fp, &b.u, s.H)
	_, k1 := s.U.Dims()
	_, k2 := s.V.Dims()
	matrixOf(&b.p1, part[:k1*k1], k1, k1)
	matrixOf(&b.p2, part[k1*k1:], k2, k2)
	dense.Gram(&b.p1, &b.u)
	dense.Gram(&b.p2, &b.f)
}

// addUpdateSums adds block blk's partial sums of UᵀU and fᵀf.
func (p *rowPasses) addUpdateSums(blk int, part []float64) {
	k1 := p.s.utuNext.RawMatrix().Rows
	addPart(p.s.utuNext, part[:k1*k1], blk)
	addPart(p.s.ftf, part[k1*k1:], blk)
}

// hRows is H's pass on block blk: its partial sums of Uᵀ(f'⊙XV) and Uᵀ(f'⊙f).
func (p *rowPasses) hRows(t, blk int, part []float64) {
	s, b, _, _ := p.blockViews(t, blk)
	k1, k2 := s.H.Dims()
	matrixOf(&b.p1, part[:k1*k2], k1, k2)
	matrixOf(&b.p2, part[k1*k2:], k1, k2)
	dense.TMulHadamard(&b.p1, &b.u, &b.fp, &b.xv)
	dense.TMulHadamard(&b.p2, &b.u, &b.fp, &b.f)
}

// addHSums adds block blk's partial sums of H's rule.
func (p *rowPasses) addHSums(blk int, part []float64) {
	k1, k2 := p.s.H.Dims()
	addPart(p.s.hnum, part[:k1*k2], blk)
	addPart(p.s.hk, part[k1*k2:], blk)
}

// attributeRows is the attribute pass on block blk: f(UH) and f'(UH), and the block's
// shares of ⟨XV, f⟩ and ⟨f VᵀV, f⟩.
func (p *rowPasses) attributeRows(t, blk int, _ []float64) {
	s, b, _, _ := p.blockViews(t, blk)
	dense.SigmoidMul(&b.f, &b.fp, &b.u, s.H)
	dense.Mul(&b.fv, &b.f, s.vtv)
	p.fvtvDots[blk] = dense.Dot(&b.fv, &b.f)
	p.xvDots[blk] = dense.Dot(&b.xv, &b.f)
}

// updateU applies U's rule (see NewNAGCSolverOp) to rows [lo, hi) of U, with b holding
// those rows' U(UᵀU) and attribute terms.
func (s *NAGCSolver) updateU(b *blockScratch, lo, hi int) {
	_, k1 := s.U.Dims()
	ur := s.U.RawMatrix()
	uu, an, ad := b.uu.RawMatrix().Data, b.an.RawMatrix().Data, b.ad.RawMatrix().Data
	if ur.Stride == k1 { // U row by row, contiguous
		s.updateEntries(ur.Data[lo*k1:hi*k1], uu, an, ad, lo*k1)
		return
	}
	for i := lo; i < hi; i++ {
		r := (i - lo) * k1
		s.updateEntries(ur.Data[i*ur.Stride:i*ur.Stride+k1], uu[r:r+k1], an[r:r+k1], ad[r:r+k1], i*k1)
	}
}

// updateEntries applies U's rule to u, the entries [o, o+len(u)) of U's data taken row by
// row (without its stride), with uutu, an and ad the same entries of U(UᵀU) and of the
// attribute terms.
func (s *NAGCSolver) updateEntries(u, uutu, an, ad []float64, o int) {
	su := s.su.RawMatrix().Data[o : o+len(u)]
	if s.rho == 0.5 {
		dense.SymUpdate(u, su, uutu, an, ad, s.coef)
		return
	}
	dense.PUUpdate(u, su, s.g.RawMatrix().Data[o:o+len(u)], uutu, an, ad, s.coef)
}

// rowsOf makes dst a view of rows [lo, hi) of m (c columns), allocating nothing.
func rowsOf(dst *mat.Dense, m *mat.Dense, lo, hi, c int) {
	r := m.RawMatrix()
	dst.SetRawMatrix(blas64.General{Rows: hi - lo, Cols: c, Stride: r.Stride, Data: r.Data[lo*r.Stride : (hi-1)*r.Stride+c]})
}

// matrixOf makes dst an r×c view of data.
func matrixOf(dst *mat.Dense, data []float64, r, c int) {
	dst.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: c, Data: data[:r*c]})
}

// addPart sets the contiguous d to part (the first block's) or adds part to it.
func addPart(d *mat.Dense, part []float64, blk int) {
	dd := d.RawMatrix().Data[:len(part)]
	if blk == 0 {
		copy(dd, part)
		return
	}
	floats.Add(dd, part)
}

// Command gensparse writes the AVX2 sparse×dense kernels of package sparse
// (kernels_amd64.s, its stubs and the dispatch tables). Run it with `go generate` in
// package sparse.
//
// The kernels sum every output entry over the row's stored entries in storage order,
// as the Go kernels do, with one IEEE addition (and, weighted, one multiplication) per
// stored entry and lane: they give the Go kernels' bits. They are vectorised across the
// w output columns and keep two CSR rows in flight, whose sums are independent, so that
// the latency of one row's additions overlaps the other's.
package main

import (
	"flag"
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/nagc-harness/nagc/sparse/asm/vec"
)

// maxWidth is the widest gather kernel: two rows of 24 columns are 12 YMM accumulators,
// beside the broadcast value and a temporary (16 in all).
const maxWidth = 24

// maxPattern is the widest pattern kernel, as in package sparse (gen_kernels.go).
const maxPattern = 8

func main() {
	tables := flag.String("tables", "", "Go file for the dispatch tables")
	flag.Parse()
	ConstraintExpr("amd64,!purego")
	for w := 1; w <= maxWidth; w++ {
		vec.GatherRows(name(w, false), w, false, newRow, YMM)
		vec.GatherRows(name(w, true), w, true, newRow, YMM)
	}
	for k := 1; k <= maxPattern; k++ {
		patternRows(k, true, false)
		patternRows(k, false, true)
		patternRows(k, true, true)
	}
	wideDots()
	prefetchRows()
	Generate()
	if *tables != "" {
		writeTables(*tables)
	}
}

func name(w int, weighted bool) string {
	if weighted {
		return fmt.Sprintf("gatherRows%dAVX2", w)
	}
	return fmt.Sprintf("gatherUnitRows%dAVX2", w)
}

func newRow(w int) vec.GatherRow { return vec.NewRow(w) }

func patternName(k int, gram, dots bool) string {
	switch {
	case gram && dots:
		return fmt.Sprintf("patternGramDotsRows%dAVX2", k)
	case dots:
		return fmt.Sprintf("patternDotsRows%dAVX2", k)
	}
	return fmt.Sprintf("patternGramRows%dAVX2", k)
}

// patternRows emits, for k columns and the rows i < len(ptr)−1 of a 0/1 pattern with
// uᵢ = x[i·us : i·us+k] and uⱼ = u[j·us : j·us+k]: (dots false) the row kernel of
// PatternSumGramMul, out[i·os : i·os+k] = Σ_{j∈row i} zᵢⱼ·uⱼ, or (dots true) that of
// PatternDots, returning Σ_rows (Σ_{j∈row i} zᵢⱼ) and Σ_rows (Σ_{j∈row i} zᵢⱼ²), or
// (gram and dots) both from one pass, with zᵢⱼ = uᵢ·uⱼ. As the Go kernels (patternGram, patternDots): z is summed in order of the
// columns, each product rounded; each row's sums start from +0 and go in storage order.
// The products of z are vectorised, its sum is taken lane by lane in order.
func patternRows(k int, gram, dots bool) {
	name := patternName(k, gram, dots)
	switch {
	case gram && dots:
		TEXT(name, NOSPLIT, "func(out []float64, os int, ptr []int, ind []int, x []float64, u []float64, us int) (s, q float64)")
		Doc(name+" sets patternGram for the rows of ptr, for x's rows, into out's rows, and returns",
			"patternDots summed over those rows (each row from 0, then in row order), from one pass.")
	case dots:
		TEXT(name, NOSPLIT, "func(ptr []int, ind []int, x []float64, u []float64, us int) (s, q float64)")
		Doc(name + " returns patternDots summed over the rows of ptr (each row from 0, then in row order), for x's rows.")
	default:
		TEXT(name, NOSPLIT, "func(out []float64, os int, ptr []int, ind []int, x []float64, u []float64, us int)")
		Doc(name + " sets patternGram for the rows of ptr, for x's rows, into out's rows.")
	}
	Pragma("noescape")
	var outp, os8 reg.Register
	if gram {
		outp = Load(Param("out").Base(), GP64())
		os8 = Load(Param("os"), GP64())
		SHLQ(U8(3), os8)
	}
	ptrp := Load(Param("ptr").Base(), GP64())
	rows := Load(Param("ptr").Len(), GP64())
	DECQ(rows)
	indb := Load(Param("ind").Base(), GP64())
	xp := Load(Param("x").Base(), GP64())
	ub := Load(Param("u").Base(), GP64())
	us8 := Load(Param("us"), GP64())
	SHLQ(U8(3), us8)
	o, j := GP64(), GP64()

	segs := vec.Segs(k)
	xi, r, acc := vec.NewRow(k), vec.NewRow(k), vec.NewRow(k)
	z, tp, zb := XMM(), YMM(), YMM()
	t := tp.AsX()
	var S, Q, rs, rq reg.VecVirtual
	if dots {
		S, Q, rs, rq = XMM(), XMM(), XMM(), XMM()
		VXORPD(S, S, S)
		VXORPD(Q, Q, Q)
	}
	Label("row")
	TESTQ(rows, rows)
	JZ(LabelRef("done"))
	xi.Load(vec.Mem0(xp))
	if dots {
		VXORPD(rs, rs, rs)
		VXORPD(rq, rq, rq)
	}
	if gram {
		acc.Zero()
	}
	MOVQ(Mem{Base: ptrp}, o)
	Label("nbr")
	CMPQ(o, Mem{Base: ptrp, Disp: 8})
	JGE(LabelRef("end"))
	MOVQ(vec.Idx(indb, o, 8), j)
	IMULQ(us8, j)
	r.Load(vec.Idx(ub, j, 1))
	// z = Σ_l x_l·r_l in order of l: the products lane-wise, then their sum lane by lane.
	first := true
	for i, sg := range segs {
		prods := tp
		if sg.N == 1 {
			VMULSD(xi.Regs[i], r.Regs[i], t)
		} else if sg.N == 2 {
			VMULPD(xi.Regs[i], r.Regs[i], t)
		} else {
			VMULPD(xi.Regs[i], r.Regs[i], tp)
		}
		// Lanes of prods in order: 0, 1 (low half), 2, 3 (high half).
		lane := XMM()
		for l := 0; l < sg.N; l++ {
			switch l {
			case 0:
				if first {
					VMOVAPD(prods.AsX(), z)
					first = false
					continue
				}
				VADDSD(prods.AsX(), z, z)
				continue
			case 1:
				VUNPCKHPD(prods.AsX(), prods.AsX(), lane)
			case 2:
				VEXTRACTF128(U8(1), prods, lane)
			case 3:
				VEXTRACTF128(U8(1), prods, lane)
				VUNPCKHPD(lane, lane, lane)
			}
			VADDSD(lane, z, z)
		}
	}
	if dots {
		VADDSD(z, rs, rs)
		VMULSD(z, z, t)
		VADDSD(t, rq, rq)
	}
	if gram {
		VBROADCASTSD(z, zb)
		acc.AddScaled(zb, tp, r)
	}
	INCQ(o)
	JMP(LabelRef("nbr"))
	Label("end")
	if dots {
		VADDSD(rs, S, S)
		VADDSD(rq, Q, Q)
	}
	if gram {
		acc.Store(vec.Mem0(outp))
		ADDQ(os8, outp)
	}
	ADDQ(us8, xp)
	ADDQ(U8(8), ptrp)
	DECQ(rows)
	JMP(LabelRef("row"))
	Label("done")
	VZEROUPPER()
	if dots {
		Store(S, Return("s"))
		Store(Q, Return("q"))
	}
	RET()
}

// wideDots emits wideDotsAVX2(z, ui, cols, u, us): z[p] = ui·u[cols[p]·us : …+k] for
// every p < len(cols), with k = len(ui), each from +0 in order of the coordinates, each
// product rounded before it is added, as the Go loop (dot) sums it. One YMM lane per
// edge: eight edges at a time in two chains of four lanes (whose additions overlap), the
// coordinates of four rows put in lanes by loading two at a time from each row and
// interleaving (VINSERTF128, VUNPCKLPD/VUNPCKHPD), then one coordinate if k is odd. A
// last group of fewer than eight (or four) edges repeats its last edge in the spare
// lanes, so z must hold len(cols) rounded up to 8 (4 when that group is of at most four
// edges) entries; the spare entries are overwritten with copies.
func wideDots() {
	TEXT("wideDotsAVX2", NOSPLIT, "func(z []float64, ui []float64, cols []int, u []float64, us int)")
	Doc("wideDotsAVX2 sets z[p] = ui·u[cols[p]·us : cols[p]·us+len(ui)] for p < len(cols), each from +0 in order",
		"of the coordinates; z must have room for len(cols) rounded up to 8 (the spare lanes of",
		"the last group are overwritten).")
	Pragma("noescape")
	zLoc, colsLoc, remLoc := AllocLocal(8), AllocLocal(8), AllocLocal(8)
	t := GP64()
	Load(Param("z").Base(), t)
	MOVQ(t, zLoc)
	Load(Param("cols").Base(), t)
	MOVQ(t, colsLoc)
	Load(Param("cols").Len(), t)
	MOVQ(t, remLoc)

	zA, zB := YMM(), YMM()
	Label("group")
	last := GP64()
	MOVQ(remLoc, last)
	DECQ(last)
	JL(LabelRef("done"))
	colsp := GP64()
	MOVQ(colsLoc, colsp)
	ub := Load(Param("u").Base(), GP64())
	us8 := Load(Param("us"), GP64())
	SHLQ(U8(3), us8)
	// r[e] is the row of edge min(e, last) of the group.
	var r [8]reg.GPVirtual
	for e := range r {
		x := GP64()
		MOVQ(U32(e), x)
		CMPQ(x, last)
		CMOVQGT(last, x)
		r[e] = GP64()
		MOVQ(vec.Idx(colsp, x, 8), r[e])
		IMULQ(us8, r[e])
		ADDQ(ub, r[e])
	}
	CMPQ(last, U8(3))
	JLE(LabelRef("four"))
	dotsGroup(r[:], zA, zB, "eight")
	zp := GP64()
	MOVQ(zLoc, zp)
	VMOVUPD(zA, Mem{Base: zp})
	VMOVUPD(zB, Mem{Base: zp, Disp: 32})
	ADDQ(U8(64), zp)
	MOVQ(zp, zLoc)
	ADDQ(U8(64), colsLoc)
	SUBQ(U8(8), remLoc)
	JMP(LabelRef("group"))

	Label("four")
	dotsGroup(r[:4], zA, zB, "four")
	MOVQ(zLoc, zp)
	VMOVUPD(zA, Mem{Base: zp})

	Label("done")
	VZEROUPPER()
	RET()
}

// dotsGroup emits the sums z of the edges whose rows are r (four or eight, in lanes of zA
// and then zB), as wideDots describes; its labels end in lbl.
func dotsGroup(r []reg.GPVirtual, zA, zB reg.VecVirtual, lbl string) {
	chains := []reg.VecVirtual{zA, zB}[:len(r)/4]
	for _, z := range chains {
		VXORPD(z, z, z)
	}
	uip := Load(Param("ui").Base(), GP64())
	pairs := Load(Param("ui").Len(), GP64())
	SHRQ(U8(1), pairs)
	l8 := GP64()
	XORQ(l8, l8)
	b0, b1 := YMM(), YMM()
	lo, hi, c0, c1 := YMM(), YMM(), YMM(), YMM()
	TESTQ(pairs, pairs)
	JZ(LabelRef("odd" + lbl))
	Label("pair" + lbl)
	VBROADCASTSD(vec.Idx(uip, l8, 1), b0)
	VBROADCASTSD(Mem{Base: uip, Index: l8, Scale: 1, Disp: 8}, b1)
	for c, z := range chains {
		q := r[4*c : 4*c+4]
		// lo = [q0[l], q0[l+1], q2[l], q2[l+1]], hi the same of q1 and q3.
		VMOVUPD(vec.Idx(q[0], l8, 1), lo.AsX())
		VINSERTF128(U8(1), vec.Idx(q[2], l8, 1), lo, lo)
		VMOVUPD(vec.Idx(q[1], l8, 1), hi.AsX())
		VINSERTF128(U8(1), vec.Idx(q[3], l8, 1), hi, hi)
		VUNPCKLPD(hi, lo, c0) // coordinate l of q0…q3
		VUNPCKHPD(hi, lo, c1) // coordinate l+1
		VMULPD(c0, b0, c0)
		VADDPD(c0, z, z)
		VMULPD(c1, b1, c1)
		VADDPD(c1, z, z)
	}
	ADDQ(U8(16), l8)
	DECQ(pairs)
	JNZ(LabelRef("pair" + lbl))
	Label("odd" + lbl)
	k := Load(Param("ui").Len(), GP64())
	ANDQ(U8(1), k)
	JZ(LabelRef("end" + lbl))
	VBROADCASTSD(vec.Idx(uip, l8, 1), b0)
	for c, z := range chains {
		q := r[4*c : 4*c+4]
		VMOVSD(vec.Idx(q[0], l8, 1), lo.AsX())
		VMOVHPD(vec.Idx(q[1], l8, 1), lo.AsX(), lo.AsX())
		VMOVSD(vec.Idx(q[2], l8, 1), hi.AsX())
		VMOVHPD(vec.Idx(q[3], l8, 1), hi.AsX(), hi.AsX())
		VINSERTF128(U8(1), hi.AsX(), lo, c0)
		VMULPD(c0, b0, c0)
		VADDPD(c0, z, z)
	}
	Label("end" + lbl)
}

// prefetchRows emits prefetchRows64(cols, src, ss, k): a PREFETCHT1 (into the L2 cache)
// of every cache line of the float64 rows src[cols[p]·ss : cols[p]·ss+k], p < len(cols)
// (a line at every 64 bytes from the row's start, and the line of its last entry). The
// wide edge pass asks for the next row's neighbours while it computes the current row, so
// that its loads find them in the cache: without, it waits on one row's misses at a time.
// Into L2 rather than L1 (PREFETCHT0): the L2 keeps more misses in flight, and the lines
// do not evict the current row's from L1. Prefetches change no result.
func prefetchRows() {
	TEXT("prefetchRows64", NOSPLIT, "func(cols []int, src []float64, ss int, k int)")
	Doc("prefetchRows64 prefetches (into L2) the cache lines of src[cols[p]·ss : cols[p]·ss+k] for every",
		"p < len(cols); k ≥ 1.")
	Pragma("noescape")
	colsp := Load(Param("cols").Base(), GP64())
	rows := Load(Param("cols").Len(), GP64())
	sb := Load(Param("src").Base(), GP64())
	sBytes := Load(Param("ss"), GP64())
	SHLQ(U8(3), sBytes)
	last := Load(Param("k"), GP64())
	DECQ(last)
	SHLQ(U8(3), last) // the offset of the row's last entry
	j, l := GP64(), GP64()
	Label("row")
	TESTQ(rows, rows)
	JZ(LabelRef("done"))
	MOVQ(Mem{Base: colsp}, j)
	IMULQ(sBytes, j)
	ADDQ(sb, j)
	XORQ(l, l)
	Label("line")
	PREFETCHT1(Mem{Base: j, Index: l, Scale: 1})
	ADDQ(U8(64), l)
	CMPQ(l, last)
	JLE(LabelRef("line"))
	PREFETCHT1(Mem{Base: j, Index: last, Scale: 1})
	ADDQ(U8(8), colsp)
	DECQ(rows)
	JMP(LabelRef("row"))
	Label("done")
	RET()
}

// writeTables writes the Go tables that index the kernels by width.
func writeTables(path string) {
	vec.WriteTables(path, "asm/gensparse", "sparse",
		fmt.Sprintf("// maxGatherAVX2 is the widest AVX2 gather kernel.\nconst maxGatherAVX2 = %d\n", maxWidth),
		[]vec.Table{
			{Var: "patternGramRowsAVX2", Bound: "maxPattern", Sig: "func(out []float64, os int, ptr []int, ind []int, x []float64, u []float64, us int)", Max: maxPattern, Name: func(k int) string { return patternName(k, true, false) }},
			{Var: "patternDotsRowsAVX2", Bound: "maxPattern", Sig: "func(ptr []int, ind []int, x []float64, u []float64, us int) (s, q float64)", Max: maxPattern, Name: func(k int) string { return patternName(k, false, true) }},
			{Var: "patternGramDotsRowsAVX2", Bound: "maxPattern", Sig: "func(out []float64, os int, ptr []int, ind []int, x []float64, u []float64, us int) (s, q float64)", Max: maxPattern, Name: func(k int) string { return patternName(k, true, true) }},
			{Var: "gatherUnitRowsAVX2", Bound: "maxGatherAVX2", Sig: "func(out []float64, os int, ptr []int, ind []int, b []float64, bs int)", Max: maxWidth, Name: func(w int) string { return name(w, false) }},
			{Var: "gatherRowsAVX2", Bound: "maxGatherAVX2", Sig: "func(out []float64, os int, ptr []int, ind []int, val []float64, b []float64, bs int)", Max: maxWidth, Name: func(w int) string { return name(w, true) }},
		})
}

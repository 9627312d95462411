// Command gendense writes the AVX2 kernels of package dense (kernels_amd64.s, its stubs
// and the dispatch tables). Run it with `go generate` in package dense.
//
// Every kernel computes each output entry with the same IEEE operations in the same
// order as the Go kernel it replaces (kernels_gen.go, exp.go), one lane per output column
// or entry and no fused multiply-add, so it gives the same bits. The speed comes from
// doing 4 columns per instruction and from working on several independent output rows
// (row kernels) or output rows of a reduction (column kernels) at once, so that their
// chains of additions overlap.
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/nagc-harness/nagc/sparse/asm/vec"
)

// widest is the widest row and column kernel (dense's widestAVX2): 12 columns are at
// most 4 registers (4+4+2+1), so that two or more rows of accumulators fit.
const widest = 12

func main() {
	tables := flag.String("tables", "", "Go file for the dispatch tables")
	flag.Parse()
	ConstraintExpr("amd64,!purego")
	consts()
	for w := 1; w <= widest; w++ {
		rowKernel(w)
		colKernel(w)
	}
	sigmoidKernel()
	expKernel()
	dotKernel()
	elemKernels()
	updateKernel("ratioUpdateAVX2", []string{"x", "num", "den"}, ratioUpdate)
	updateKernel("puUpdateAVX2", []string{"x", "su", "g", "uutu", "an", "ad"}, puUpdate)
	updateKernel("symUpdateAVX2", []string{"x", "su", "uutu", "an", "ad"}, symUpdate)
	Generate()
	if *tables != "" {
		writeTables(*tables)
	}
}

// rowName and colName name the kernels of width w.
func rowName(w int) string { return fmt.Sprintf("rowMul%dAVX2", w) }

func colName(w int) string { return fmt.Sprintf("colAcc%dAVX2", w) }

// group returns how many rows of nseg accumulators fit in the 16 YMM registers beside
// nseg + extra others, at most 4.
func group(nseg, extra int) int {
	g := 4
	for g*nseg+nseg+extra > 16 {
		g--
	}
	return g
}

// rowKernel emits rowMul of width w: for each row i < rows,
// out[i·ds : i·ds+w] = Σ_{t<k} a[i·as+t]·b[t·bs : t·bs+w], each sum from +0 in order of t,
// as the Go kernel does. Rows are done R at a time (then the last rows % R in one group):
// for each t, b's row t is loaded into registers once and serves the R rows, each
// broadcasting its a[i·as+t], so that a group makes w/4 + R loads per R·w multiply-adds.
func rowKernel(w int) {
	name := rowName(w)
	TEXT(name, NOSPLIT, "func(out []float64, ds int, a []float64, as int, b []float64, bs, k, rows int)")
	Pragma("noescape")
	Doc(name + " is the AVX2 form of " + strings.TrimSuffix(name, "AVX2") + ", with the same results.")
	segs := vec.Segs(w)
	R := group(len(segs), 2)

	outp := Load(Param("out").Base(), GP64())
	ds8 := Load(Param("ds"), GP64())
	SHLQ(U8(3), ds8)
	a0 := Load(Param("a").Base(), GP64())
	as8 := Load(Param("as"), GP64())
	SHLQ(U8(3), as8)
	as3 := GP64()
	LEAQ(Mem{Base: as8, Index: as8, Scale: 2}, as3)
	bs8 := Load(Param("bs"), GP64())
	SHLQ(U8(3), bs8)
	rows := Load(Param("rows"), GP64())
	bt, cnt := GP64(), GP64()
	// rowAt returns element t of row r of the group, for the current t (the base
	// pointer advances by 8 bytes per t).
	rowAt := func(r int) Mem {
		switch r {
		case 0:
			return Mem{Base: a0}
		case 1:
			return Mem{Base: a0, Index: as8, Scale: 1}
		case 2:
			return Mem{Base: a0, Index: as8, Scale: 2}
		default:
			return Mem{Base: a0, Index: as3, Scale: 1}
		}
	}
	accs := make([]vec.Row, R)
	for r := range accs {
		accs[r] = vec.NewRow(w)
	}
	brow := vec.NewRow(w)
	v, tmp := YMM(), YMM()

	// body emits one group of g rows.
	body := func(g int, lbl string) {
		for r := 0; r < g; r++ {
			accs[r].Zero()
		}
		Load(Param("b").Base(), bt)
		Load(Param("k"), cnt)
		// step emits the work of t (off 0) or t+1 (off 1), in order.
		step := func(off int) {
			if off == 0 {
				brow.Load(Mem{Base: bt})
			} else {
				brow.Load(Mem{Base: bt, Index: bs8, Scale: 1})
			}
			for r := 0; r < g; r++ {
				VBROADCASTSD(rowAt(r).Offset(8*off), v)
				accs[r].AddScaled(v, tmp, brow)
			}
		}
		// Two values of t a pass, then the last one if k is odd.
		Label("t" + lbl)
		CMPQ(cnt, U8(2))
		JLT(LabelRef("last" + lbl))
		step(0)
		step(1)
		ADDQ(U8(16), a0)
		LEAQ(Mem{Base: bt, Index: bs8, Scale: 2}, bt)
		SUBQ(U8(2), cnt)
		JMP(LabelRef("t" + lbl))
		Label("last" + lbl)
		TESTQ(cnt, cnt)
		JZ(LabelRef("store" + lbl))
		step(0)
		ADDQ(U8(8), a0)
		Label("store" + lbl)
		MOVQ(outp, bt)
		for r := 0; r < g; r++ {
			accs[r].Store(Mem{Base: bt})
			ADDQ(ds8, bt)
		}
		MOVQ(bt, outp)
		// Move a from the group's row ends to the next group's row starts.
		Load(Param("k"), cnt)
		SHLQ(U8(3), cnt)
		SUBQ(cnt, a0)
		for r := 0; r < g; r++ {
			ADDQ(as8, a0)
		}
	}
	vec.Groups(rows, R, body)
	VZEROUPPER()
	RET()
}

// colKernel emits colAcc of width w (vec.ColAcc): P output rows' sums at once, as many as
// fit in the 16 YMM registers, the last k % P output rows in one group.
func colKernel(w int) {
	name := colName(w)
	vec.ColAcc(name, name+" is the AVX2 form of "+strings.TrimSuffix(name, "AVX2")+", with the same results.",
		w, group(len(vec.Segs(w)), 2), vec.NewRow, YMM, vec.Groups)
}

// The constants of the exponential, each in the 4 lanes of a 32-byte slot of expConsts.
const (
	cInvLn2x32 = iota
	cShift
	cLn2Hi
	cLn2Lo
	cTiny
	cSixth
	cHalf
	c120th
	c24th
	c720th
	cOne
	cKMin // sigmoid's fast-path limits on k = round(32z/ln2), as floats
	cKMax
	cXMin // exp's fast-path limits on x
	cXMax
	cMask31 // 31 in each int32 lane
	nConsts
)

var expConsts Mem

// consts emits expConsts; the values are dense's (exp.go). The table of 2^(j/32) is
// dense's exp2Table, passed by the caller.
func consts() {
	f := map[int]float64{
		cInvLn2x32: vec.ExpInvLn2x32,
		cShift:     vec.ExpShift,
		cLn2Hi:     vec.ExpLn2Hi,
		cLn2Lo:     vec.ExpLn2Lo,
		cTiny:      vec.ExpTiny,
		cSixth:     1.0 / 6,
		cHalf:      1.0 / 2,
		c120th:     1.0 / 120,
		c24th:      1.0 / 24,
		c720th:     1.0 / 720,
		cOne:       1,
		cKMin:      vec.ExpKMin,
		cKMax:      vec.ExpKMax,
		cXMin:      -700,
		cXMax:      700,
	}
	expConsts = GLOBL("expConsts", RODATA|NOPTR)
	for i := 0; i < nConsts; i++ {
		for l := 0; l < 4; l++ {
			if i == cMask31 {
				DATA(32*i+8*l, U64(31|31<<32))
			} else {
				DATA(32*i+8*l, U64(math.Float64bits(f[i])))
			}
		}
	}
}

func cst(i int) Mem { return expConsts.Offset(32 * i) }

// lanes is the registers of one group of 4 entries in the exponential kernels.
type lanes struct {
	x, kf, r, e, q, a, b, t, mask reg.VecVirtual
	k                             reg.VecVirtual // int32 lanes (XMM)
}

func newLanes() lanes {
	return lanes{YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), XMM()}
}

// step is one instruction (or a few dependent ones) of a group's computation; the
// kernels emit the steps of two groups alternately, so that the processor's scheduler
// holds independent work from both while one waits on a long chain.
type step func(g lanes)

// interleave emits the steps for each group in turn, step by step.
func interleave(steps []step, gs ...lanes) {
	for _, s := range steps {
		for _, g := range gs {
			s(g)
		}
	}
}

// roundK: kf = round(32·x/ln2) (as exp.go: (x·32/ln2 + shift) − shift).
var roundK = []step{
	func(g lanes) { VMULPD(cst(cInvLn2x32), g.x, g.kf) },
	func(g lanes) { VADDPD(cst(cShift), g.kf, g.kf) },
	func(g lanes) { VSUBPD(cst(cShift), g.kf, g.kf) },
}

// expCore: e = 2^(k/32)·(1 + p(r)) for the int32 lanes of k and the reduced arguments
// r, as exp.go's exp does from its k and r (tbl: exp2Table).
func expCore(tbl reg.Register) []step {
	return []step{
		// q = (r+tiny)², p = r + q·((1/2 + r/6) + q·((1/24 + r/120) + q/720)), in exp's order.
		func(g lanes) { VADDPD(cst(cTiny), g.r, g.q) },
		func(g lanes) { VMULPD(g.q, g.q, g.q) },
		func(g lanes) { VMULPD(cst(cSixth), g.r, g.a) },
		func(g lanes) { VADDPD(cst(cHalf), g.a, g.a) },
		func(g lanes) { VMULPD(cst(c120th), g.r, g.b) },
		func(g lanes) { VADDPD(cst(c24th), g.b, g.b) },
		func(g lanes) { VMULPD(cst(c720th), g.q, g.t) },
		func(g lanes) { VADDPD(g.t, g.b, g.b) },
		func(g lanes) { VMULPD(g.b, g.q, g.b) },
		func(g lanes) { VADDPD(g.b, g.a, g.a) },
		func(g lanes) { VMULPD(g.a, g.q, g.a) },
		func(g lanes) { VADDPD(g.a, g.r, g.a) }, // a = p
		// t = exp2Table[k&31], y = t + t·p.
		func(g lanes) { VPAND(cst(cMask31), g.k.AsX(), g.b.AsX()) },
		func(g lanes) { VPCMPEQD(g.mask, g.mask, g.mask) },
		func(g lanes) { VGATHERDPD(g.mask, Mem{Base: tbl, Index: g.b.AsX(), Scale: 8}, g.t) },
		func(g lanes) { VMULPD(g.a, g.t, g.a) },
		func(g lanes) { VADDPD(g.a, g.t, g.a) },
		// e = y with k>>5 added to its exponent field.
		func(g lanes) { VPSRAD(U8(5), g.k.AsX(), g.b.AsX()) },
		func(g lanes) { VPMOVSXDQ(g.b.AsX(), g.b) },
		func(g lanes) { VPSLLQ(U8(52), g.b, g.b) },
		func(g lanes) { VPADDQ(g.b, g.a, g.e) },
	}
}

// allIn: jump to out unless lo ≤ v ≤ hi in every lane (NaN is outside), with v the
// group's kf (useK) or x.
func allIn(useK bool, lo, hi int, gp reg.GPVirtual, out string) []step {
	v := func(g lanes) reg.VecVirtual {
		if useK {
			return g.kf
		}
		return g.x
	}
	return []step{
		func(g lanes) { VCMPPD(U8(0x1D), cst(lo), v(g), g.q) }, // GE_OQ
		func(g lanes) { VCMPPD(U8(0x12), cst(hi), v(g), g.a) }, // LE_OQ
		func(g lanes) { VANDPD(g.q, g.a, g.q) },
		func(g lanes) {
			VMOVMSKPD(g.q, gp.As32())
			CMPL(gp.As32(), U8(15))
			JNE(LabelRef(out))
		},
	}
}

func concat(ss ...[]step) []step {
	var all []step
	for _, s := range ss {
		all = append(all, s...)
	}
	return all
}

// groupLoop emits the loop of an exponential kernel over entries j…n−1: two groups of
// 4 at a time (their steps interleaved), then one. body(off) is the steps of the group
// at entry j+off; its range check jumps to "done", where j is the first entry not done.
func groupLoop(n reg.Register, j, gp reg.GPVirtual, body func(off int) []step) {
	g0, g1 := newLanes(), newLanes()
	Label("pair")
	LEAQ(Mem{Base: j, Disp: 8}, gp)
	CMPQ(gp, n)
	JGT(LabelRef("single"))
	// The steps go in the same order for both groups, so that both range checks come
	// before either group's stores: on leaving, j is the first entry not done.
	s0, s1 := body(0), body(4)
	for i := range s0 {
		s0[i](g0)
		s1[i](g1)
	}
	ADDQ(U8(8), j)
	JMP(LabelRef("pair"))
	Label("single")
	LEAQ(Mem{Base: j, Disp: 4}, gp)
	CMPQ(gp, n)
	JGT(LabelRef("done"))
	interleave(body(0), g0)
	ADDQ(U8(4), j)
	Label("done")
}

// sigmoidKernel emits sigmoidAVX2(f, fp) int: sigmoid's fast path on groups of 4
// entries, stopping before the first group with an entry outside it.
func sigmoidKernel() {
	TEXT("sigmoidAVX2", NOSPLIT, "func(f, fp []float64, tbl *[32]float64) int")
	Pragma("noescape")
	Doc("sigmoidAVX2 does what sigmoid does, with the same results, for the entries of f",
		"before the first group of 4 (f[4g:4g+4]) with an entry outside sigmoid's fast path,",
		"and returns how many entries it did (a multiple of 4). len(fp) must be at least len(f).")
	fptr := Load(Param("f").Base(), GP64())
	n := Load(Param("f").Len(), GP64())
	pptr := Load(Param("fp").Base(), GP64())
	tbl := Load(Param("tbl"), GP64())
	j, gp := GP64(), GP64()
	XORQ(j, j)
	one, zero := YMM(), XMM()
	VMOVUPD(cst(cOne), one)
	VPXOR(zero, zero, zero)
	body := func(off int) []step {
		at := func(p reg.Register) Mem { return Mem{Base: p, Index: j, Scale: 8, Disp: 8 * off} }
		return concat(
			[]step{func(g lanes) { VMOVUPD(at(fptr), g.x) }},
			roundK,
			allIn(true, cKMin, cKMax, gp, "done"),
			// e^{−z} = 2^(−k/32)·e^r with r = (k·ln2Hi − z) + k·ln2Lo (exp.go's expNeg).
			[]step{
				func(g lanes) { VMULPD(cst(cLn2Hi), g.kf, g.r) },
				func(g lanes) { VSUBPD(g.x, g.r, g.r) },
				func(g lanes) { VMULPD(cst(cLn2Lo), g.kf, g.a) },
				func(g lanes) { VADDPD(g.a, g.r, g.r) },
				func(g lanes) { VCVTTPD2DQY(g.kf, g.k) },
				func(g lanes) { VPSUBD(g.k, zero, g.k) },
			},
			expCore(tbl),
			// s = 1/(1+e), σ' = e·s·s.
			[]step{
				func(g lanes) { VADDPD(one, g.e, g.a) },
				func(g lanes) { VDIVPD(g.a, one, g.a) },
				func(g lanes) { VMULPD(g.a, g.e, g.e) },
				func(g lanes) { VMULPD(g.a, g.e, g.e) },
				func(g lanes) { VMOVUPD(g.a, at(fptr)) },
				func(g lanes) { VMOVUPD(g.e, at(pptr)) },
			},
		)
	}
	groupLoop(n, j, gp, body)
	Store(j, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// expKernel emits expAVX2(dst, x) int: exp.go's exp on groups of 4 entries, stopping
// before the first group with an entry outside its fast path (|x| ≤ 700).
func expKernel() {
	TEXT("expAVX2", NOSPLIT, "func(dst, x []float64, tbl *[32]float64) int")
	Pragma("noescape")
	Doc("expAVX2 sets dst[i] = exp(x[i]), with exp's results, for the entries of x before",
		"the first group of 4 (x[4g:4g+4]) with an entry outside exp's fast path",
		"(−700 ≤ x ≤ 700), and returns how many entries it did (a multiple of 4).",
		"len(dst) must be at least len(x).")
	dp := Load(Param("dst").Base(), GP64())
	xp := Load(Param("x").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	tbl := Load(Param("tbl"), GP64())
	j, gp := GP64(), GP64()
	XORQ(j, j)
	body := func(off int) []step {
		at := func(p reg.Register) Mem { return Mem{Base: p, Index: j, Scale: 8, Disp: 8 * off} }
		return concat(
			[]step{func(g lanes) { VMOVUPD(at(xp), g.x) }},
			allIn(false, cXMin, cXMax, gp, "done"),
			roundK,
			// r = (x − k·ln2Hi) − k·ln2Lo.
			[]step{
				func(g lanes) { VMULPD(cst(cLn2Hi), g.kf, g.a) },
				func(g lanes) { VSUBPD(g.a, g.x, g.r) },
				func(g lanes) { VMULPD(cst(cLn2Lo), g.kf, g.a) },
				func(g lanes) { VSUBPD(g.a, g.r, g.r) },
				func(g lanes) { VCVTTPD2DQY(g.kf, g.k) },
			},
			expCore(tbl),
			[]step{func(g lanes) { VMOVUPD(g.e, at(dp)) }},
		)
	}
	groupLoop(n, j, gp, body)
	Store(j, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// dotKernel emits dotAVX2(x, y) float64: dense's dot, whose four interleaved partial
// sums are the four lanes of one accumulator.
func dotKernel() {
	TEXT("dotAVX2", NOSPLIT, "func(x, y []float64) float64")
	Pragma("noescape")
	Doc("dotAVX2 returns dot(x, y), with the same result. len(y) must be at least len(x).")
	xp := Load(Param("x").Base(), GP64())
	yp := Load(Param("y").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	j, gp := GP64(), GP64()
	acc, tmp := YMM(), YMM()
	VXORPD(acc, acc, acc)
	XORQ(j, j)
	Label("loop")
	LEAQ(Mem{Base: j, Disp: 4}, gp)
	CMPQ(gp, n)
	JGT(LabelRef("tail"))
	VMOVUPD(Mem{Base: xp, Index: j, Scale: 8}, tmp)
	VMULPD(Mem{Base: yp, Index: j, Scale: 8}, tmp, tmp)
	VADDPD(tmp, acc, acc)
	MOVQ(gp, j)
	JMP(LabelRef("loop"))
	Label("tail")
	// The remaining entries go to the first partial sum (lane 0).
	CMPQ(j, n)
	JGE(LabelRef("sum"))
	VMOVSD(Mem{Base: xp, Index: j, Scale: 8}, tmp.AsX())
	VMULSD(Mem{Base: yp, Index: j, Scale: 8}, tmp.AsX(), tmp.AsX())
	VADDSD(tmp.AsX(), acc.AsX(), tmp.AsX())
	VBLENDPD(U8(1), tmp, acc, acc)
	INCQ(j)
	JMP(LabelRef("tail"))
	Label("sum")
	// (s0 + s1) + (s2 + s3).
	hi := XMM()
	VEXTRACTF128(U8(1), acc, hi)
	VHADDPD(acc.AsX(), acc.AsX(), tmp.AsX())
	VHADDPD(hi, hi, hi)
	VADDSD(hi, tmp.AsX(), tmp.AsX())
	VZEROUPPER()
	Store(tmp.AsX(), ReturnIndex(0))
	RET()
}

// The update kernels: x[i] ← x[i]·num/den entrywise, NaN replaced by c[4], with num and
// den formed from the other slices and the coefficients c[0…3] exactly as the Go loops
// of update.go form them (each product and sum rounded, in the same order). at(s) is
// entry i…i+3 of slice s; k(i) is coefficient c[i] in every lane; t are 4 temporaries.
// Each leaves x·num/den (not yet NaN-checked) in t[0].
type updateBody func(at func(s string) Mem, k func(i int) reg.VecVirtual, t [4]reg.VecVirtual)

// ratioUpdate: x·num/den (the multiplicative update of NMF).
func ratioUpdate(at func(string) Mem, _ func(int) reg.VecVirtual, t [4]reg.VecVirtual) {
	VMOVUPD(at("x"), t[0])
	VMULPD(at("num"), t[0], t[0])
	VDIVPD(at("den"), t[0], t[0])
}

// puUpdate: x·(c0·su + c1·an) / ((c2·g + c3·(uutu − g)) + c1·ad) (NAGC's PU rule for U).
func puUpdate(at func(string) Mem, k func(int) reg.VecVirtual, t [4]reg.VecVirtual) {
	VMULPD(at("su"), k(0), t[0])
	VMULPD(at("an"), k(1), t[1])
	VADDPD(t[1], t[0], t[0]) // num
	VMOVUPD(at("g"), t[1])
	VMULPD(t[1], k(2), t[2])
	VMOVUPD(at("uutu"), t[3])
	VSUBPD(t[1], t[3], t[3])
	VMULPD(t[3], k(3), t[3])
	VADDPD(t[3], t[2], t[2])
	VMULPD(at("ad"), k(1), t[3])
	VADDPD(t[3], t[2], t[2]) // den
	VMULPD(at("x"), t[0], t[0])
	VDIVPD(t[2], t[0], t[0])
}

// symUpdate: x·(c0·su + c1·an) / (c2·uutu + c1·ad) (NAGC's ρ = 0.5 rule for U).
func symUpdate(at func(string) Mem, k func(int) reg.VecVirtual, t [4]reg.VecVirtual) {
	VMULPD(at("su"), k(0), t[0])
	VMULPD(at("an"), k(1), t[1])
	VADDPD(t[1], t[0], t[0]) // num
	VMULPD(at("uutu"), k(2), t[2])
	VMULPD(at("ad"), k(1), t[3])
	VADDPD(t[3], t[2], t[2]) // den
	VMULPD(at("x"), t[0], t[0])
	VDIVPD(t[2], t[0], t[0])
}

// updateKernel emits the update kernel name(slices… []float64, c *[5]float64) int, x the
// first slice: body's value, with NaN replaced by c[4], stored to x for
// the groups of 4 entries of x, and returns how many entries it did (len(x) rounded down
// to a multiple of 4). Every other slice must be at least as long as x.
func updateKernel(name string, slices []string, body updateBody) {
	TEXT(name, NOSPLIT, "func("+strings.Join(slices, ", ")+" []float64, c *[5]float64) int")
	Pragma("noescape")
	Doc(name+" does what "+strings.TrimSuffix(name, "AVX2")+" does, with the same results, for the entries",
		"of x up to the last multiple of 4, and returns how many it did. The other slices",
		"must be at least as long as x.")
	names := map[string]reg.Register{}
	for _, p := range slices {
		names[p] = Load(Param(p).Base(), GP64())
	}
	n := Load(Param("x").Len(), GP64())
	cp := Load(Param("c"), GP64())
	var ks [5]reg.VecVirtual
	for i := range ks {
		ks[i] = YMM()
		VBROADCASTSD(Mem{Base: cp, Disp: 8 * i}, ks[i])
	}
	k := func(i int) reg.VecVirtual { return ks[i] }
	j, end := GP64(), GP64()
	XORQ(j, j)
	MOVQ(n, end)
	ANDQ(I32(-4), end)
	t := [4]reg.VecVirtual{YMM(), YMM(), YMM(), YMM()}
	mask := YMM()
	Label("loop")
	CMPQ(j, end)
	JGE(LabelRef("done"))
	at := func(s string) Mem {
		b, ok := names[s]
		if !ok {
			log.Fatalf("%s: no slice %s", name, s)
		}
		return Mem{Base: b, Index: j, Scale: 8}
	}
	body(at, k, t)
	VCMPPD(U8(3), t[0], t[0], mask) // UNORD: NaN
	VBLENDVPD(mask, ks[4], t[0], t[0])
	VMOVUPD(t[0], at("x"))
	ADDQ(U8(4), j)
	JMP(LabelRef("loop"))
	Label("done")
	Store(end, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// elemKernels emits the entry-wise kernels that prepare the operands of the row and
// column kernels: mulElemAVX2 (dst = x⊙y), addElemAVX2 (dst += src) and widenAVX2
// (float32 to float64). Each does the entries up to the last multiple of 4 and returns
// how many; the caller does the rest in Go, with the same IEEE operation per entry.
func elemKernels() {
	type kernel struct {
		name, sig string
		doc       []string
		slices    []string
		body      func(at func(s string) Mem, t reg.VecVirtual)
	}
	for _, k := range []kernel{
		{"mulElemAVX2", "func(dst, x, y []float64) int",
			[]string{"mulElemAVX2 sets dst[i] = x[i]·y[i] for i up to the last multiple of 4 of len(dst),",
				"and returns how many it did. x and y must be at least as long as dst."},
			[]string{"dst", "x", "y"},
			func(at func(string) Mem, t reg.VecVirtual) {
				VMOVUPD(at("x"), t)
				VMULPD(at("y"), t, t)
				VMOVUPD(t, at("dst"))
			}},
		{"addElemAVX2", "func(dst, src []float64) int",
			[]string{"addElemAVX2 sets dst[i] = dst[i] + src[i] for i up to the last multiple of 4 of",
				"len(dst), and returns how many it did. src must be at least as long as dst."},
			[]string{"dst", "src"},
			func(at func(string) Mem, t reg.VecVirtual) {
				VMOVUPD(at("dst"), t)
				VADDPD(at("src"), t, t)
				VMOVUPD(t, at("dst"))
			}},
		{"widenAVX2", "func(dst []float64, src []float32) int",
			[]string{"widenAVX2 sets dst[i] = float64(src[i]) for i up to the last multiple of 4 of",
				"len(dst), and returns how many it did. src must be at least as long as dst."},
			[]string{"dst", "src"},
			func(at func(string) Mem, t reg.VecVirtual) {
				VCVTPS2PD(at("src"), t)
				VMOVUPD(t, at("dst"))
			}},
	} {
		TEXT(k.name, NOSPLIT, k.sig)
		Pragma("noescape")
		Doc(k.doc...)
		base := map[string]reg.Register{}
		for _, p := range k.slices {
			base[p] = Load(Param(p).Base(), GP64())
		}
		end := Load(Param("dst").Len(), GP64())
		ANDQ(I32(-4), end)
		j := GP64()
		XORQ(j, j)
		t := YMM()
		Label("loop")
		CMPQ(j, end)
		JGE(LabelRef("done"))
		at := func(s string) Mem {
			if s == "src" && k.name == "widenAVX2" {
				return Mem{Base: base[s], Index: j, Scale: 4}
			}
			return Mem{Base: base[s], Index: j, Scale: 8}
		}
		k.body(at, t)
		ADDQ(U8(4), j)
		JMP(LabelRef("loop"))
		Label("done")
		Store(end, ReturnIndex(0))
		VZEROUPPER()
		RET()
	}
}

// writeTables writes the Go tables that index the row and column kernels by width.
func writeTables(path string) {
	vec.WriteTables(path, "asm/gendense", "dense",
		fmt.Sprintf("// widestAVX2 is the widest AVX2 row and column kernel.\nconst widestAVX2 = %d\n", widest),
		[]vec.Table{
			{Var: "rowMulAVX2", Bound: "widestAVX2", Sig: "func(out []float64, ds int, a []float64, as int, b []float64, bs, k, rows int)", Max: widest, Name: rowName},
			{Var: "colAccAVX2", Bound: "widestAVX2", Sig: "func(out []float64, ds int, x []float64, xs, k int, b []float64, bs, n int, cont bool)", Max: widest, Name: colName},
		})
}

package main

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/nagc-harness/nagc/sparse/asm/vec"
)

// The constants of sigmoid's exponential (dense's exp.go), one 8-byte slot each, read by
// broadcast.
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
	cKMin // the fast path's limits on k = round(32z/ln2), as floats
	cKMax
	cMask31 // 31 in the low int32
	cBit16  // 16 in the low int32
	nConsts
)

var sigConsts Mem

// consts emits sigConsts.
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
	}
	sigConsts = GLOBL("sigmoidConsts512", RODATA|NOPTR)
	for i := 0; i < nConsts; i++ {
		switch i {
		case cMask31:
			DATA(8*i, U64(31|31<<32))
		case cBit16:
			DATA(8*i, U64(16|16<<32))
		default:
			DATA(8*i, U64(math.Float64bits(f[i])))
		}
	}
}

func cst(i int) Mem { return sigConsts.Offset(8 * i) }

// lanes is the registers of one group of 8 entries.
type lanes struct {
	x, kf, r, e, q, a, b, t, th reg.VecVirtual // ZMM
	k, i                        reg.VecVirtual // int32 lanes (YMM)
	in, in2, hi                 reg.OpmaskVirtual
}

func newLanes() lanes {
	return lanes{ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), YMM(), YMM(), K(), K(), K()}
}

// step is one instruction (or a few dependent ones) of a group's computation; the kernel
// emits the steps of two groups alternately, so that the processor's scheduler holds
// independent work from both while one waits on a long chain.
type step func(g lanes)

// sigmoidKernel emits sigmoidAVX512(f, fp, tbl) int: dense's sigmoid fast path on groups
// of 8 entries, with the IEEE operations of the Go and AVX2 forms in their order, stopping
// before the first group with an entry outside the fast path.
func sigmoidKernel() {
	TEXT("sigmoidAVX512", NOSPLIT, "func(f, fp []float64, tbl *[32]float64) int")
	Pragma("noescape")
	Doc("sigmoidAVX512 does what sigmoid does, with the same results, for the entries of f",
		"before the first group of 8 (f[8g:8g+8]) with an entry outside sigmoid's fast path,",
		"and returns how many entries it did (a multiple of 8). len(fp) must be at least len(f).")
	consts()
	fptr := Load(Param("f").Base(), GP64())
	n := Load(Param("f").Len(), GP64())
	pptr := Load(Param("fp").Base(), GP64())
	tbl := Load(Param("tbl"), GP64())
	j, gp := GP64(), GP64()
	XORQ(j, j)
	zero := YMM()
	VPXORD(zero, zero, zero)
	// The table of 2^(j/32) in four registers, 8 entries each.
	var tab [4]reg.VecVirtual
	for q := range tab {
		tab[q] = ZMM()
		VMOVUPD(Mem{Base: tbl, Disp: 64 * q}, tab[q])
	}
	body := func(off int) []step {
		at := func(p reg.Register) Mem { return Mem{Base: p, Index: j, Scale: 8, Disp: 8 * off} }
		return []step{
			func(g lanes) { VMOVUPD(at(fptr), g.x) },
			// kf = round(32·z/ln2) as (z·32/ln2 + shift) − shift.
			func(g lanes) { VMULPD_BCST(cst(cInvLn2x32), g.x, g.kf) },
			func(g lanes) { VADDPD_BCST(cst(cShift), g.kf, g.kf) },
			func(g lanes) { VSUBPD_BCST(cst(cShift), g.kf, g.kf) },
			// Leave unless kMin ≤ kf ≤ kMax in every lane (NaN is outside).
			func(g lanes) { VCMPPD_BCST(U8(0x1D), cst(cKMin), g.kf, g.in) },  // GE_OQ
			func(g lanes) { VCMPPD_BCST(U8(0x12), cst(cKMax), g.kf, g.in2) }, // LE_OQ
			func(g lanes) { KANDW(g.in, g.in2, g.in) },
			func(g lanes) {
				KMOVW(g.in, gp.As32())
				CMPL(gp.As32(), U32(0xFF))
				JNE(LabelRef("done"))
			},
			// e^{−z} = 2^(−k/32)·e^r with r = (k·ln2Hi − z) + k·ln2Lo (exp.go's expNeg).
			func(g lanes) { VMULPD_BCST(cst(cLn2Hi), g.kf, g.r) },
			func(g lanes) { VSUBPD(g.x, g.r, g.r) },
			func(g lanes) { VMULPD_BCST(cst(cLn2Lo), g.kf, g.a) },
			func(g lanes) { VADDPD(g.a, g.r, g.r) },
			func(g lanes) { VCVTTPD2DQ(g.kf, g.k) },
			func(g lanes) { VPSUBD(g.k, zero, g.k) },
			// q = (r+tiny)², p = r + q·((1/2 + r/6) + q·((1/24 + r/120) + q/720)), in exp's order.
			func(g lanes) { VADDPD_BCST(cst(cTiny), g.r, g.q) },
			func(g lanes) { VMULPD(g.q, g.q, g.q) },
			func(g lanes) { VMULPD_BCST(cst(cSixth), g.r, g.a) },
			func(g lanes) { VADDPD_BCST(cst(cHalf), g.a, g.a) },
			func(g lanes) { VMULPD_BCST(cst(c120th), g.r, g.b) },
			func(g lanes) { VADDPD_BCST(cst(c24th), g.b, g.b) },
			func(g lanes) { VMULPD_BCST(cst(c720th), g.q, g.t) },
			func(g lanes) { VADDPD(g.t, g.b, g.b) },
			func(g lanes) { VMULPD(g.b, g.q, g.b) },
			func(g lanes) { VADDPD(g.b, g.a, g.a) },
			func(g lanes) { VMULPD(g.a, g.q, g.a) },
			func(g lanes) { VADDPD(g.a, g.r, g.a) }, // a = p
			// t = exp2Table[k&31] (entry k&15 of the table's first or second half, by bit 4
			// of k), y = t + t·p.
			func(g lanes) { VPANDD_BCST(cst(cMask31), g.k, g.i) },
			func(g lanes) { VPMOVZXDQ(g.i, g.t) },
			func(g lanes) { VMOVDQU64(g.t, g.th) },
			func(g lanes) { VPERMI2PD(tab[1], tab[0], g.t) },
			func(g lanes) { VPERMI2PD(tab[3], tab[2], g.th) },
			func(g lanes) { VPTESTMD_BCST(cst(cBit16), g.i, g.hi) },
			func(g lanes) { VBLENDMPD(g.th, g.t, g.hi, g.t) },
			func(g lanes) { VMULPD(g.a, g.t, g.a) },
			func(g lanes) { VADDPD(g.a, g.t, g.a) },
			// e = y with k>>5 added to its exponent field.
			func(g lanes) { VPSRAD(U8(5), g.k, g.i) },
			func(g lanes) { VPMOVSXDQ(g.i, g.b) },
			func(g lanes) { VPSLLQ(U8(52), g.b, g.b) },
			func(g lanes) { VPADDQ(g.b, g.a, g.e) },
			// s = 1/(1+e), σ' = e·s·s.
			func(g lanes) { VADDPD_BCST(cst(cOne), g.e, g.a) },
			func(g lanes) { VBROADCASTSD(cst(cOne), g.b) },
			func(g lanes) { VDIVPD(g.a, g.b, g.a) },
			func(g lanes) { VMULPD(g.a, g.e, g.e) },
			func(g lanes) { VMULPD(g.a, g.e, g.e) },
			func(g lanes) { VMOVUPD(g.a, at(fptr)) },
			func(g lanes) { VMOVUPD(g.e, at(pptr)) },
		}
	}
	// Two groups of 8 at a time, their steps interleaved in the same order, so that both
	// range checks come before either group's stores: on leaving, j is the first entry
	// not done. Then one group.
	g0, g1 := newLanes(), newLanes()
	Label("pair")
	LEAQ(Mem{Base: j, Disp: 16}, gp)
	CMPQ(gp, n)
	JGT(LabelRef("single"))
	s0, s1 := body(0), body(8)
	for i := range s0 {
		s0[i](g0)
		s1[i](g1)
	}
	ADDQ(U8(16), j)
	JMP(LabelRef("pair"))
	Label("single")
	LEAQ(Mem{Base: j, Disp: 8}, gp)
	CMPQ(gp, n)
	JGT(LabelRef("done"))
	for _, s := range body(0) {
		s(g0)
	}
	ADDQ(U8(8), j)
	Label("done")
	Store(j, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

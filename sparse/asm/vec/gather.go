package vec

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// GatherRow is a row of accumulators of a gather kernel: Row or Row512.
type GatherRow interface {
	Zero()
	Store(m Mem)
	AddMem(m Mem)
	AddScaledMem(v, tmp reg.VecVirtual, m Mem)
}

// GatherRows emits the gather kernel name of width w (registers from newRow, the scale
// and a temporary from newVec): for rows i < len(ptr)−1,
// out[i·os : i·os+w] = Σ_{ptr[i] ≤ p < ptr[i+1]} val[p]·b[ind[p]·bs : ind[p]·bs+w]
// (without val: the plain sum of the rows of b).
//
// Two slots, A and B, each sum one row in its own accumulators. Both advance together
// over as many entries as the shorter row has left; then each slot whose row is done
// stores it and takes the next row, so that two independent chains of additions are in
// flight however the row lengths vary. The last row left alone is finished by itself.
func GatherRows(name string, w int, weighted bool, newRow func(w int) GatherRow, newVec func() reg.VecVirtual) {
	if weighted {
		TEXT(name, NOSPLIT, "func(out []float64, os int, ptr []int, ind []int, val []float64, b []float64, bs int)")
		Doc(fmt.Sprintf("%s sets out[i·os : i·os+%d] = Σ_p val[p]·b[ind[p]·bs : ind[p]·bs+%d] over ptr[i] ≤ p < ptr[i+1], for every row i < len(ptr)−1.", name, w, w))
	} else {
		TEXT(name, NOSPLIT, "func(out []float64, os int, ptr []int, ind []int, b []float64, bs int)")
		Doc(fmt.Sprintf("%s sets out[i·os : i·os+%d] = Σ_p b[ind[p]·bs : ind[p]·bs+%d] over ptr[i] ≤ p < ptr[i+1], for every row i < len(ptr)−1.", name, w, w))
	}
	Pragma("noescape")
	// Stack slots: the output rows of A and B, and that of the next row.
	outA, outB, outNext := AllocLocal(8), AllocLocal(8), AllocLocal(8)
	j := GP64()
	Load(Param("out").Base(), j)
	MOVQ(j, outNext)
	os8 := Load(Param("os"), GP64())
	SHLQ(U8(3), os8)
	ptrp := Load(Param("ptr").Base(), GP64())
	left := Load(Param("ptr").Len(), GP64())
	DECQ(left)
	indb := Load(Param("ind").Base(), GP64())
	var valb reg.Register
	if weighted {
		valb = Load(Param("val").Base(), GP64())
	}
	bb := Load(Param("b").Base(), GP64())
	bs8 := Load(Param("bs"), GP64())
	SHLQ(U8(3), bs8)

	accA, accB := newRow(w), newRow(w)
	v, tmp := newVec(), newVec()
	// add adds row p (an element index into ind) to acc.
	add := func(acc GatherRow, p reg.Register) {
		MOVQ(Idx(indb, p, 8), j)
		IMULQ(bs8, j)
		if weighted {
			VBROADCASTSD(Idx(valb, p, 8), v)
			acc.AddScaledMem(v, tmp, Idx(bb, j, 1))
		} else {
			acc.AddMem(Idx(bb, j, 1))
		}
	}
	oA, rA, oB, rB, c := GP64(), GP64(), GP64(), GP64(), GP64()
	// assign gives the next row to a slot: its first entry o, its length r, its output.
	assign := func(o, r reg.Register, out Mem) {
		MOVQ(Mem{Base: ptrp}, o)
		MOVQ(Mem{Base: ptrp, Disp: 8}, r)
		SUBQ(o, r)
		MOVQ(outNext, j)
		MOVQ(j, out)
		ADDQ(os8, j)
		MOVQ(j, outNext)
		ADDQ(U8(8), ptrp)
		DECQ(left)
	}
	store := func(acc GatherRow, out Mem) {
		MOVQ(out, j)
		acc.Store(Mem0(j))
		acc.Zero()
	}
	accA.Zero()
	accB.Zero()
	TESTQ(left, left)
	JZ(LabelRef("done"))
	assign(oA, rA, outA)
	TESTQ(left, left)
	JZ(LabelRef("drainA"))
	assign(oB, rB, outB)

	Label("main")
	MOVQ(rA, c)
	CMPQ(rB, c)
	CMOVQLT(rB, c)
	SUBQ(c, rA)
	SUBQ(c, rB)
	TESTQ(c, c)
	JZ(LabelRef("checkA"))
	Label("both")
	add(accA, oA)
	add(accB, oB)
	INCQ(oA)
	INCQ(oB)
	DECQ(c)
	JNZ(LabelRef("both"))
	Label("checkA")
	TESTQ(rA, rA)
	JNZ(LabelRef("checkB"))
	store(accA, outA)
	TESTQ(left, left)
	JZ(LabelRef("drainB"))
	assign(oA, rA, outA)
	Label("checkB")
	TESTQ(rB, rB)
	JNZ(LabelRef("main"))
	store(accB, outB)
	TESTQ(left, left)
	JZ(LabelRef("drainA"))
	assign(oB, rB, outB)
	JMP(LabelRef("main"))

	for _, s := range []struct {
		lbl  string
		acc  GatherRow
		o, r reg.Register
		out  Mem
	}{{"A", accA, oA, rA, outA}, {"B", accB, oB, rB, outB}} {
		Label("drain" + s.lbl)
		TESTQ(s.r, s.r)
		JZ(LabelRef("store" + s.lbl))
		Label("one" + s.lbl)
		add(s.acc, s.o)
		INCQ(s.o)
		DECQ(s.r)
		JNZ(LabelRef("one" + s.lbl))
		Label("store" + s.lbl)
		store(s.acc, s.out)
		JMP(LabelRef("done"))
	}
	Label("done")
	VZEROUPPER()
	RET()
}

package vec

import (
	"log"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// AccRow is a row of accumulators that adds multiples of a row of its own kind: Row or
// Row512.
type AccRow[R any] interface {
	Zero()
	Load(m Mem)
	Store(m Mem)
	AddScaled(v, tmp reg.VecVirtual, b R)
}

// ColAcc emits the column kernel name (doc its documentation) of width w: for each p < k,
// out[p·ds : p·ds+w] = Σ_{t<n} x[t·xs+p]·b[t·bs : t·bs+w], each sum in order of t from +0
// or (cont) from the value out holds, as dense's Go kernel colAcc does. The p are done P at
// a time, the rest in the groups that groups emits (Groups, or a variant with the same
// contract); for each t, b's row t is loaded into registers (newRow) once and serves the
// group's outputs, each broadcasting its x[t·xs+p] into a register of newVec.
func ColAcc[R AccRow[R]](name, doc string, w, P int, newRow func(w int) R, newVec func() reg.VecVirtual,
	groups func(count reg.Register, P int, body func(g int, lbl string))) {
	TEXT(name, NOSPLIT, "func(out []float64, ds int, x []float64, xs, k int, b []float64, bs, n int, cont bool)")
	Pragma("noescape")
	Doc(doc)
	outp := Load(Param("out").Base(), GP64())
	ds8 := Load(Param("ds"), GP64())
	SHLQ(U8(3), ds8)
	xp := Load(Param("x").Base(), GP64())
	xs8 := Load(Param("xs"), GP64())
	SHLQ(U8(3), xs8)
	krem := Load(Param("k"), GP64())
	bs8 := Load(Param("bs"), GP64())
	SHLQ(U8(3), bs8)
	xt, bt, cnt := GP64(), GP64(), GP64()
	accs := make([]R, P)
	for i := range accs {
		accs[i] = newRow(w)
	}
	brow := newRow(w)
	v, tmp := newVec(), newVec()
	cont, err := Param("cont").Resolve()
	if err != nil {
		log.Fatal(err)
	}

	body := func(g int, lbl string) {
		CMPB(cont.Addr, U8(0))
		JNE(LabelRef("cont" + lbl))
		for i := 0; i < g; i++ {
			accs[i].Zero()
		}
		JMP(LabelRef("sum" + lbl))
		Label("cont" + lbl)
		MOVQ(outp, bt)
		for i := 0; i < g; i++ {
			accs[i].Load(Mem{Base: bt})
			ADDQ(ds8, bt)
		}
		Label("sum" + lbl)
		MOVQ(xp, xt)
		Load(Param("b").Base(), bt)
		Load(Param("n"), cnt)
		// step emits the work of row t (off 0) or t+1 (off 1), in order.
		step := func(off int) {
			if off == 0 {
				brow.Load(Mem{Base: bt})
			} else {
				brow.Load(Mem{Base: bt, Index: bs8, Scale: 1})
			}
			for i := 0; i < g; i++ {
				if off == 0 {
					VBROADCASTSD(Mem{Base: xt, Disp: 8 * i}, v)
				} else {
					VBROADCASTSD(Mem{Base: xt, Index: xs8, Scale: 1, Disp: 8 * i}, v)
				}
				accs[i].AddScaled(v, tmp, brow)
			}
		}
		// Two rows a pass, then the last one if n is odd.
		Label("t" + lbl)
		CMPQ(cnt, U8(2))
		JLT(LabelRef("last" + lbl))
		step(0)
		step(1)
		LEAQ(Mem{Base: xt, Index: xs8, Scale: 2}, xt)
		LEAQ(Mem{Base: bt, Index: bs8, Scale: 2}, bt)
		SUBQ(U8(2), cnt)
		JMP(LabelRef("t" + lbl))
		Label("last" + lbl)
		TESTQ(cnt, cnt)
		JZ(LabelRef("store" + lbl))
		step(0)
		Label("store" + lbl)
		for i := 0; i < g; i++ {
			accs[i].Store(Mem{Base: outp})
			ADDQ(ds8, outp)
		}
		ADDQ(U8(8*g), xp)
	}
	groups(krem, P, body)
	VZEROUPPER()
	RET()
}

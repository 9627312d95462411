// Command gendense512 writes the AVX-512 row and column kernels and the sigmoid of
// package dense (kernels512_amd64.s, its stubs and the dispatch tables). Run it with
// `go generate` in package dense.
//
// Each kernel computes each output entry with the same IEEE operations in the same order
// as the Go kernel it replaces (rowMul, colAcc in kernels_gen.go) and the AVX2 kernel:
// one lane per output column, each product rounded before it is added (no fused
// multiply-add), each sum in order of the index summed over. So it gives the same bits.
// The speed comes from 8 columns per instruction and from the 32 vector registers, which
// hold up to 8 output rows' sums at once, so that each load of the row shared by those
// rows serves 8 of them.
package main

import (
	"flag"
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/nagc-harness/nagc/sparse/asm/vec"
)

// widest is the widest kernel (dense's widestAVX512): 24 columns are 3 ZMM registers, so
// that 8 rows of sums fit with the small operand's row and two temporaries.
const widest = 24

func main() {
	tables := flag.String("tables", "", "Go file for the dispatch table")
	flag.Parse()
	ConstraintExpr("amd64,!purego")
	for w := 1; w <= widest; w++ {
		rowKernel(w)
	}
	for w := 1; w <= widest; w++ {
		colKernel(w)
	}
	sigmoidKernel()
	Generate()
	if *tables != "" {
		vec.WriteTablesAt(*tables, "asm/gendense512", "dense", "AVX-512",
			fmt.Sprintf("// widestAVX512 is the widest AVX-512 row and column kernel.\nconst widestAVX512 = %d\n", widest),
			[]vec.Table{
				{Var: "rowMulAVX512", Bound: "widestAVX512",
					Sig: "func(out []float64, ds int, a []float64, as int, b []float64, bs, k, rows int)",
					Max: widest, Name: rowName},
				{Var: "colAccAVX512", Bound: "widestAVX512",
					Sig: "func(out []float64, ds int, x []float64, xs, k int, b []float64, bs, n int, cont bool)",
					Max: widest, Name: colName},
			})
	}
}

// rowName and colName name the kernels of width w.
func rowName(w int) string { return fmt.Sprintf("rowMul%dAVX512", w) }

func colName(w int) string { return fmt.Sprintf("colAcc%dAVX512", w) }

// group returns how many rows of nseg accumulators fit in the 32 vector registers beside
// the small operand's row (nseg) and two temporaries, at most 8.
func group(nseg int) int {
	g := 8
	for g*nseg+nseg+2 > 32 {
		g--
	}
	return g
}

// rowKernel emits rowMul of width w: for each row i < rows,
// out[i·ds : i·ds+w] = Σ_{t<k} a[i·as+t]·b[t·bs : t·bs+w], each sum from +0 in order of t.
// Rows are done R at a time (then the last rows % R one at a time): for each t, b's row t
// is loaded into registers once and serves the R rows, each broadcasting its a[i·as+t].
func rowKernel(w int) {
	name := rowName(w)
	TEXT(name, NOSPLIT, "func(out []float64, ds int, a []float64, as int, b []float64, bs, k, rows int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is the AVX-512 form of rowMul%d, with the same results.", name, w))
	R := group(len(vec.Segs512(w)))

	outp := Load(Param("out").Base(), GP64())
	ds8 := Load(Param("ds"), GP64())
	SHLQ(U8(3), ds8)
	a0 := Load(Param("a").Base(), GP64())
	as8 := Load(Param("as"), GP64())
	SHLQ(U8(3), as8)
	as3 := GP64()
	LEAQ(Mem{Base: as8, Index: as8, Scale: 2}, as3)
	a4 := GP64() // row 4 of the group: a0 + 4·as
	bs8 := Load(Param("bs"), GP64())
	SHLQ(U8(3), bs8)
	rows := Load(Param("rows"), GP64())
	bt, cnt := GP64(), GP64()
	rowAt := func(r int) Mem {
		base := a0
		if r >= 4 {
			base, r = a4, r-4
		}
		switch r {
		case 0:
			return Mem{Base: base}
		case 1:
			return Mem{Base: base, Index: as8, Scale: 1}
		case 2:
			return Mem{Base: base, Index: as8, Scale: 2}
		default:
			return Mem{Base: base, Index: as3, Scale: 1}
		}
	}
	accs := make([]vec.Row512, R)
	for r := range accs {
		accs[r] = vec.NewRow512(w)
	}
	brow := vec.NewRow512(w)
	v, tmp := ZMM(), ZMM()

	body := func(g int, lbl string) {
		for r := 0; r < g; r++ {
			accs[r].Zero()
		}
		if g > 4 {
			LEAQ(Mem{Base: a0, Index: as8, Scale: 4}, a4)
		}
		Load(Param("b").Base(), bt)
		Load(Param("k"), cnt)
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
		adv := func(bytes int) {
			ADDQ(U8(bytes), a0)
			if g > 4 {
				ADDQ(U8(bytes), a4)
			}
		}
		Label("t" + lbl)
		CMPQ(cnt, U8(2))
		JLT(LabelRef("last" + lbl))
		step(0)
		step(1)
		adv(16)
		LEAQ(Mem{Base: bt, Index: bs8, Scale: 2}, bt)
		SUBQ(U8(2), cnt)
		JMP(LabelRef("t" + lbl))
		Label("last" + lbl)
		TESTQ(cnt, cnt)
		JZ(LabelRef("store" + lbl))
		step(0)
		adv(8)
		Label("store" + lbl)
		MOVQ(outp, bt)
		for r := 0; r < g; r++ {
			accs[r].Store(Mem{Base: bt})
			ADDQ(ds8, bt)
		}
		MOVQ(bt, outp)
		Load(Param("k"), cnt)
		SHLQ(U8(3), cnt)
		SUBQ(cnt, a0)
		for r := 0; r < g; r++ {
			ADDQ(as8, a0)
		}
	}
	// Groups of R rows, then the last rows % R one at a time.
	Label("group")
	CMPQ(rows, U8(R))
	JLT(LabelRef("rest"))
	body(R, "G")
	SUBQ(U8(R), rows)
	JMP(LabelRef("group"))
	Label("rest")
	TESTQ(rows, rows)
	JZ(LabelRef("done"))
	body(1, "1")
	DECQ(rows)
	JMP(LabelRef("rest"))
	Label("done")
	VZEROUPPER()
	RET()
}

// colKernel emits colAcc of width w (vec.ColAcc): up to 8 output rows' sums at once in
// the 32 vector registers, the last k % P output rows in groups of 4, 2 and 1 (groups).
func colKernel(w int) {
	name := colName(w)
	vec.ColAcc(name, fmt.Sprintf("%s is the AVX-512 form of colAcc%d, with the same results.", name, w),
		w, group(len(vec.Segs512(w))), vec.NewRow512, ZMM, groups)
}

// groups emits a loop that runs body(P, "G") while count ≥ P, subtracting P each time,
// then body(g, label) for each g of 4, 2 and 1 (below P) that is a binary digit of the
// remainder (count is left unchanged there), and ends at label "done". body's labels must
// be suffixed with its lbl argument. It emits at most four bodies, where vec.Groups emits
// one per remainder.
func groups(count reg.Register, P int, body func(g int, lbl string)) {
	Label("group")
	CMPQ(count, U8(P))
	JLT(LabelRef("rest"))
	body(P, "G")
	SUBQ(U8(P), count)
	JMP(LabelRef("group"))
	Label("rest")
	for _, g := range []int{4, 2, 1} {
		if g >= P {
			continue
		}
		lbl := fmt.Sprint(g)
		TESTQ(U32(g), count)
		JZ(LabelRef("not" + lbl))
		body(g, lbl)
		Label("not" + lbl)
	}
	Label("done")
}

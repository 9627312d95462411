// Package vec holds the pieces the kernel generators share: a row of w float64 columns
// cut into segments of 4, 2 and 1 lanes (a YMM, an XMM and a scalar register; Row512: of
// 8, 4, 2 and 1 lanes, with a ZMM register), and lane-wise loads, stores, additions and
// multiplications over such rows.
//
// Every operation is a separate IEEE multiplication or addition per lane (no fused
// multiply-add), so a kernel that keeps each output's order of summation gives the same
// bits as the scalar Go code it replaces.
package vec

import (
	"fmt"
	"go/format"
	"log"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Seg is a run of N ∈ {4, 2, 1} lanes starting at column Off.
type Seg struct{ Off, N int }

// Segs cuts w columns into segments of 4 lanes, then at most one of 2 and one of 1.
func Segs(w int) []Seg {
	var s []Seg
	off := 0
	for ; off+4 <= w; off += 4 {
		s = append(s, Seg{off, 4})
	}
	if off+2 <= w {
		s = append(s, Seg{off, 2})
		off += 2
	}
	if off < w {
		s = append(s, Seg{off, 1})
	}
	return s
}

// Row is a w-column row in registers: one register per segment.
type Row struct {
	Segs []Seg
	Regs []reg.Register
}

// NewRow allocates the registers of a w-column row.
func NewRow(w int) Row {
	r := Row{Segs: Segs(w)}
	for _, s := range r.Segs {
		if s.N == 4 {
			r.Regs = append(r.Regs, YMM())
		} else {
			r.Regs = append(r.Regs, XMM())
		}
	}
	return r
}

// At returns the memory operand of segment s of a row starting at m.
func At(m Mem, s Seg) Mem { return m.Offset(8 * s.Off) }

// Zero sets every lane of r to +0.
func (r Row) Zero() {
	for _, x := range r.Regs {
		VXORPD(x, x, x)
	}
}

// Load sets r to the row at m.
func (r Row) Load(m Mem) {
	for i, s := range r.Segs {
		if s.N == 1 {
			VMOVSD(At(m, s), r.Regs[i])
		} else {
			VMOVUPD(At(m, s), r.Regs[i])
		}
	}
}

// Store writes r to the row at m.
func (r Row) Store(m Mem) {
	for i, s := range r.Segs {
		if s.N == 1 {
			VMOVSD(r.Regs[i], At(m, s))
		} else {
			VMOVUPD(r.Regs[i], At(m, s))
		}
	}
}

// AddMem sets r = r + (the row at m), lane by lane.
func (r Row) AddMem(m Mem) { r.opMem(m, VADDSD, VADDPD) }

// MulMem sets r = r ⊙ (the row at m), lane by lane.
func (r Row) MulMem(m Mem) { r.opMem(m, VMULSD, VMULPD) }

// opMem sets r = r op (the row at m) with the scalar (sd) or packed (pd) instruction.
func (r Row) opMem(m Mem, sd, pd func(...Op)) {
	for i, s := range r.Segs {
		if s.N == 1 {
			sd(At(m, s), r.Regs[i], r.Regs[i])
		} else {
			pd(At(m, s), r.Regs[i], r.Regs[i])
		}
	}
}

// AddScaledMem sets r = r + v·(the row at m), lane by lane with the product rounded
// before the addition; v is a YMM register holding the scale in every lane and tmp a YMM
// scratch register.
func (r Row) AddScaledMem(v, tmp reg.VecVirtual, m Mem) {
	for i, s := range r.Segs {
		switch s.N {
		case 4:
			VMULPD(At(m, s), v, tmp)
			VADDPD(tmp, r.Regs[i], r.Regs[i])
		case 2:
			VMULPD(At(m, s), v.AsX(), tmp.AsX())
			VADDPD(tmp.AsX(), r.Regs[i], r.Regs[i])
		default:
			VMULSD(At(m, s), v.AsX(), tmp.AsX())
			VADDSD(tmp.AsX(), r.Regs[i], r.Regs[i])
		}
	}
}

// AddScaled sets r = r + v·b for a row b in registers, like AddScaledMem.
func (r Row) AddScaled(v, tmp reg.VecVirtual, b Row) {
	for i, s := range r.Segs {
		switch s.N {
		case 4:
			VMULPD(b.Regs[i], v, tmp)
			VADDPD(tmp, r.Regs[i], r.Regs[i])
		case 2:
			VMULPD(b.Regs[i], v.AsX(), tmp.AsX())
			VADDPD(tmp.AsX(), r.Regs[i], r.Regs[i])
		default:
			VMULSD(b.Regs[i], v.AsX(), tmp.AsX())
			VADDSD(tmp.AsX(), r.Regs[i], r.Regs[i])
		}
	}
}

// Regs returns the number of registers a w-column row takes.
func Regs(w int) int { return len(Segs(w)) }

// Mem0 returns the operand (base).
func Mem0(base reg.Register) Mem { return Mem{Base: base} }

// Idx returns the operand (base)(index·scale).
func Idx(base, index reg.Register, scale uint8) Mem {
	return Mem{Base: base, Index: index, Scale: scale}
}

// Groups emits a loop that runs body(G, "G") while count ≥ G, subtracting G each time,
// then body(g, label) once for the remainder 1 ≤ g < G (count is left unchanged there),
// and ends at label "done". body's labels must be suffixed with its lbl argument.
func Groups(count reg.Register, G int, body func(g int, lbl string)) {
	Label("group")
	CMPQ(count, U8(G))
	JLT(LabelRef("rest"))
	body(G, "G")
	SUBQ(U8(G), count)
	JMP(LabelRef("group"))
	Label("rest")
	for g := G - 1; g >= 1; g-- {
		lbl := fmt.Sprint(g)
		CMPQ(count, U8(g))
		JNE(LabelRef("not" + lbl))
		body(g, lbl)
		JMP(LabelRef("done"))
		Label("not" + lbl)
	}
	Label("done")
}

// Table is a Go array of kernels indexed by width: Var[w] = Name(w) for 1 ≤ w ≤ Max,
// of length Bound+1 (Bound a Go constant equal to Max) and element type Sig.
type Table struct {
	Var, Bound, Sig string
	Max             int
	Name            func(w int) string
}

// WriteTables writes the Go file path of package pkg (amd64, not purego) holding the
// given constant declarations (Go source) and tables.
func WriteTables(path, generator, pkg, consts string, tables []Table) {
	WriteTablesAt(path, generator, pkg, "AVX2", consts, tables)
}

// WriteTablesAt is WriteTables for kernels of the instruction set level (AVX2, AVX-512).
func WriteTablesAt(path, generator, pkg, level, consts string, tables []Table) {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by %s; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\npackage %s\n\n%s\n", generator, pkg, consts)
	for _, t := range tables {
		fmt.Fprintf(&b, "// %s[w] is the %s kernel of width w.\nvar %s = [%s + 1]%s{\n", t.Var, level, t.Var, t.Bound, t.Sig)
		for w := 1; w <= t.Max; w++ {
			fmt.Fprintf(&b, "\t%d: %s,\n", w, t.Name(w))
		}
		b.WriteString("}\n\n")
	}
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

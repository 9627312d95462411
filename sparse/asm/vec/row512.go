package vec

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Segs512 cuts w columns into segments of 8 lanes, then at most one each of 4, 2 and 1.
func Segs512(w int) []Seg {
	var s []Seg
	off := 0
	for ; off+8 <= w; off += 8 {
		s = append(s, Seg{off, 8})
	}
	for _, n := range []int{4, 2, 1} {
		if off+n <= w {
			s = append(s, Seg{off, n})
			off += n
		}
	}
	return s
}

// Row512 is a w-column row in the AVX-512 registers: a ZMM, YMM or XMM register per
// segment of Segs512(w).
type Row512 struct {
	Segs []Seg
	Regs []reg.VecVirtual
}

// NewRow512 allocates the registers of a w-column row.
func NewRow512(w int) Row512 {
	r := Row512{Segs: Segs512(w)}
	for _, s := range r.Segs {
		switch s.N {
		case 8:
			r.Regs = append(r.Regs, ZMM())
		case 4:
			r.Regs = append(r.Regs, YMM())
		default:
			r.Regs = append(r.Regs, XMM())
		}
	}
	return r
}

// Zero sets every lane of r to +0, with VPXORQ at every width (AVX-512 F and VL; the
// EVEX form of VXORPD, which a register above 15 needs, is AVX-512 DQ).
func (r Row512) Zero() {
	for _, x := range r.Regs {
		VPXORQ(x, x, x)
	}
}

// Load sets r to the row at m.
func (r Row512) Load(m Mem) {
	for i, s := range r.Segs {
		if s.N == 1 {
			VMOVSD(At(m, s), r.Regs[i])
		} else {
			VMOVUPD(At(m, s), r.Regs[i])
		}
	}
}

// Store writes r to the row at m.
func (r Row512) Store(m Mem) {
	for i, s := range r.Segs {
		if s.N == 1 {
			VMOVSD(r.Regs[i], At(m, s))
		} else {
			VMOVUPD(r.Regs[i], At(m, s))
		}
	}
}

// AddMem sets r = r + (the row at m), lane by lane.
func (r Row512) AddMem(m Mem) {
	for i, s := range r.Segs {
		if s.N == 1 {
			VADDSD(At(m, s), r.Regs[i], r.Regs[i])
		} else {
			VADDPD(At(m, s), r.Regs[i], r.Regs[i])
		}
	}
}

// AddScaled sets r = r + v·b lane by lane for a row b in registers, each product rounded
// before the addition; v holds the scale in every lane of a ZMM register and tmp is a ZMM
// scratch register.
func (r Row512) AddScaled(v, tmp reg.VecVirtual, b Row512) {
	r.addScaled(v, tmp, func(i int, _ Seg) Op { return b.Regs[i] })
}

// AddScaledMem sets r = r + v·(the row at m), like AddScaled.
func (r Row512) AddScaledMem(v, tmp reg.VecVirtual, m Mem) {
	r.addScaled(v, tmp, func(_ int, s Seg) Op { return At(m, s) })
}

func (r Row512) addScaled(v, tmp reg.VecVirtual, b func(i int, s Seg) Op) {
	for i, s := range r.Segs {
		switch s.N {
		case 8:
			VMULPD(b(i, s), v, tmp)
			VADDPD(tmp, r.Regs[i], r.Regs[i])
		case 4:
			VMULPD(b(i, s), v.AsY(), tmp.AsY())
			VADDPD(tmp.AsY(), r.Regs[i], r.Regs[i])
		case 2:
			VMULPD(b(i, s), v.AsX(), tmp.AsX())
			VADDPD(tmp.AsX(), r.Regs[i], r.Regs[i])
		default:
			VMULSD(b(i, s), v.AsX(), tmp.AsX())
			VADDSD(tmp.AsX(), r.Regs[i], r.Regs[i])
		}
	}
}

package paperplot

import (
	"math"
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// Superscripts and subscripts are drawn at superScale of the font size, their baseline
// raised by superRise or lowered by subDrop of it (as TeX's \scriptstyle scripts).
const (
	superScale = 0.7
	superRise  = 0.36
	subDrop    = 0.18
)

// Super is a text handler like gonum's text.Plain that also draws "^{…}" as a
// superscript and "_{…}" as a subscript: "10^{−2}" is 10⁻² with the exponent smaller and
// raised, "k_{2}" is k₂. Each piece is drawn
// with the font's own glyphs (Liberation has no superscript 0, 9 or minus), so the
// exponent renders alike in PNG and PDF and stays text in the PDF.
var Super text.Handler = superHandler{text.Plain{Fonts: font.DefaultCache}}

type superHandler struct{ text.Plain }

// piece is a run of text at one level: base line (0), superscript (+1) or subscript (-1).
type piece struct {
	text  string
	level int
}

// shift returns how far a piece's baseline is moved up at font size size.
func (p piece) shift(size vg.Length) vg.Length {
	switch p.level {
	case 1:
		return vg.Length(superRise) * size
	case -1:
		return -vg.Length(subDrop) * size
	}
	return 0
}

// pieces splits a line at "^{", "_{" and "}".
func pieces(line string) []piece {
	var out []piece
	for line != "" {
		i := strings.IndexAny(line, "^_")
		for i >= 0 && (i+1 >= len(line) || line[i+1] != '{') {
			k := strings.IndexAny(line[i+1:], "^_")
			if k < 0 {
				i = -1
				break
			}
			i += 1 + k
		}
		j := -1
		if i >= 0 {
			j = strings.Index(line[i:], "}")
		}
		if i < 0 || j < 0 {
			out = append(out, piece{text: line})
			break
		}
		if i > 0 {
			out = append(out, piece{text: line[:i]})
		}
		lvl := 1
		if line[i] == '_' {
			lvl = -1
		}
		out = append(out, piece{text: line[i+2 : i+j], level: lvl})
		line = line[i+j+1:]
	}
	return out
}

// face returns the font face of a piece.
func (h superHandler) face(fnt font.Font, super bool) font.Face {
	if super {
		fnt.Size = vg.Length(superScale) * fnt.Size
	}
	return h.Fonts.Lookup(fnt, fnt.Size)
}

// Box implements text.Handler.
func (h superHandler) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	face := h.Fonts.Lookup(fnt, fnt.Size)
	base := face.Extents()
	height, depth = base.Ascent, base.Descent
	for _, p := range pieces(txt) {
		f := h.face(fnt, p.level != 0)
		width += f.Width(p.text)
		if p.level > 0 {
			height = max(height, p.shift(fnt.Size)+f.Extents().Ascent)
		}
	}
	return width, height, depth
}

// Draw implements text.Handler, placing text as text.Plain does.
func (h superHandler) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if txt == "" {
		return
	}
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		c.Rotate(sty.Rotation)
		defer c.Pop()
	}
	sin, cos := math.Sincos(sty.Rotation)
	pt.X, pt.Y = pt.Y*vg.Length(sin)+pt.X*vg.Length(cos), pt.Y*vg.Length(cos)-pt.X*vg.Length(sin)
	base := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	pt.Y += sty.Height(txt)*vg.Length(sty.YAlign) - base.Extents().Ascent
	lines := h.Lines(txt)
	for i, line := range lines {
		w, _, _ := h.Box(line, sty.Font)
		x := pt.X + vg.Length(sty.XAlign)*w
		y := pt.Y + vg.Length(len(lines)-i)*sty.Font.Size
		for _, p := range pieces(line) {
			f := h.face(sty.Font, p.level != 0)
			c.FillString(f, vg.Point{X: x, Y: y + p.shift(sty.Font.Size)}, p.text)
			x += f.Width(p.text)
		}
	}
}

// Plain returns s without the script markup, "^{−2}" as "^−2" and "_{2}" as "2", for
// text outside figures.
func Plain(s string) string {
	var b strings.Builder
	for _, p := range pieces(s) {
		if p.level > 0 {
			b.WriteString("^")
		}
		b.WriteString(p.text)
	}
	return b.String()
}

package paperplot

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// OkabeIto is the colour-blind-safe palette of Okabe & Ito (2008), darkest first, its
// yellow last (weak on white paper).
var OkabeIto = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	color.RGBA{0x00, 0x9E, 0x73, 0xff}, // bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
	color.RGBA{0xF0, 0xE4, 0x42, 0xff}, // yellow
}

// Reference is the colour of reference lines (a best other method, a published value).
var Reference = color.Gray{0x55}

// LineStyle is how line i of a figure is drawn.
type LineStyle struct {
	Color  color.Color
	Dashes []vg.Length
	Glyph  draw.GlyphDrawer
}

var (
	dashes = [][]vg.Length{
		nil,
		{vg.Points(4), vg.Points(2)},
		{vg.Points(1), vg.Points(1.5)},
		{vg.Points(5), vg.Points(1.5), vg.Points(1), vg.Points(1.5)},
		{vg.Points(8), vg.Points(2.5)},
		{vg.Points(2), vg.Points(2)},
	}
	glyphs = []draw.GlyphDrawer{
		draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
		draw.RingGlyph{}, draw.SquareGlyph{}, draw.PyramidGlyph{}, draw.PlusGlyph{},
	}
)

// Line returns the style of line i: colour, dash pattern and marker all change with i
// (filled and open markers alternate), so that lines differ in greyscale print; no two
// of the first 24 share both dash pattern and marker.
func Line(i int) LineStyle {
	if i < 0 {
		i = -i
	}
	return LineStyle{
		Color:  OkabeIto[i%len(OkabeIto)],
		Dashes: dashes[i%len(dashes)],
		Glyph:  glyphs[i%len(glyphs)],
	}
}

// Muted is the colour of background series (a search's cut trials), lighter than
// Reference.
var Muted = color.Gray{0xb0}

package paperplot

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// VLine adds a dotted black vertical line at x across the whole y range (a value a paper
// states: a peak), with a legend entry name unless name is "". The x range is not
// widened: set it to include x.
func (f *Figure) VLine(name string, x float64) {
	w := f.lineWidth()
	l := &vline{LineStyle: draw.LineStyle{Color: color.Black, Width: w, Dashes: []vg.Length{w, 3 * w}}, x: x}
	f.Plot.Add(l)
	if name != "" {
		f.entries = append(f.entries, entry{name, []plot.Thumbnailer{l}})
	}
}

// vline is a vertical line from the bottom to the top of the data area.
type vline struct {
	draw.LineStyle
	x float64
}

// Plot implements plot.Plotter.
func (l *vline) Plot(c draw.Canvas, p *plot.Plot) {
	tx, _ := p.Transforms(&c)
	x := tx(l.x)
	c.StrokeLine2(l.LineStyle, x, c.Min.Y, x, c.Max.Y)
}

// Thumbnail implements plot.Thumbnailer: a horizontal stroke in the line's style.
func (l *vline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.LineStyle, c.Min.X, y, c.Max.X, y)
}

// Mark adds a black diamond at (x, y) (a value a paper states), with a legend entry
// name unless name is "".
func (f *Figure) Mark(name string, x, y float64) error {
	sc, err := plotter.NewScatter(plotter.XYs{{X: x, Y: y}})
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: color.Black, Shape: Diamond{}, Radius: 1.6 * f.markerRadius()}
	f.Plot.Add(sc)
	f.points = append(f.points, plotter.XY{X: x, Y: y})
	if name != "" {
		f.entries = append(f.entries, entry{name, []plot.Thumbnailer{sc}})
	}
	return nil
}

// Diamond is a filled diamond marker.
type Diamond struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (Diamond) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetColor(sty.Color)
	r := sty.Radius
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.Fill(p)
}

// Points adds markers of line i (its colour and marker, no line) at pts — values
// measured apart from line i's series — and a legend entry name unless name is "".
func (f *Figure) Points(i int, name string, pts plotter.XYs) error {
	st := Line(i)
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return fmt.Errorf("points %q: %w", name, err)
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: st.Color, Shape: st.Glyph, Radius: 1.3 * f.markerRadius()}
	f.Plot.Add(sc)
	f.points = append(f.points, pts...)
	if name != "" {
		f.entries = append(f.entries, entry{name, []plot.Thumbnailer{sc}})
	}
	return nil
}

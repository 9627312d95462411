package paperplot

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// GraphPanel is one clustering drawn on a graph's layout: per vertex the class its
// cluster is matched to (−1: none) and whether that is not its true class. A panel
// with nil Class draws the graph in grey (Title says why).
type GraphPanel struct {
	Title string
	Class []int
	Wrong []bool
}

// GraphFigure is a graph drawn at fixed vertex positions in [−1, 1]², once per panel
// side by side, vertices coloured and shaped by class, misassigned ones as crosses,
// with a row of legend below the panels. Its size is the style's, PageWidth wide by
// default.
type GraphFigure struct {
	Style      Style
	Pos        [][2]float64
	Edges      [][2]int
	Panels     []GraphPanel
	ClassNames []string
}

// NewGraphFigure returns the figure of panels drawn on the layout pos of a graph with
// these edges and len(classNames) classes.
func (s Style) NewGraphFigure(pos [][2]float64, edges [][2]int, classNames []string, panels ...GraphPanel) (*GraphFigure, error) {
	for _, p := range panels {
		if p.Class != nil && (len(p.Class) != len(pos) || len(p.Wrong) != len(pos)) {
			return nil, fmt.Errorf("graph panel %q: %d classes and %d marks for %d vertices", p.Title, len(p.Class), len(p.Wrong), len(pos))
		}
	}
	if s.Width <= 0 {
		s.Width = PageWidth
	}
	if s.Height <= 0 && s.Aspect <= 0 {
		s.Aspect = 2
	}
	return &GraphFigure{Style: s, Pos: pos, Edges: edges, Panels: panels, ClassNames: classNames}, nil
}

// Class returns the colour and filled marker of class i of a graph figure (grey
// circles for −1, no class).
func Class(i int) LineStyle {
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}}
	if i < 0 {
		return LineStyle{Color: color.Gray{0x80}, Glyph: draw.CircleGlyph{}}
	}
	return LineStyle{Color: OkabeIto[i%len(OkabeIto)], Glyph: shapes[i%len(shapes)]}
}

// Save draws the figure and writes stem.FORMAT for each format (see Style.Save).
func (g *GraphFigure) Save(stem string, formats ...string) ([]string, error) {
	return g.Style.Save(stem, formats, g.Draw)
}

// Draw draws the panels in a row and the legend below them.
func (g *GraphFigure) Draw(c draw.Canvas) {
	fs := g.Style.fontSize()
	legH := 2 * fs
	body := draw.Crop(c, 0, 0, legH, 0)
	tiles := draw.Tiles{Rows: 1, Cols: max(1, len(g.Panels)), PadX: fs}
	for i, pn := range g.Panels {
		p := plot.New()
		g.Style.Apply(p)
		p.HideAxes()
		p.Title.Text = pn.Title
		p.Title.TextStyle.Font.Size = fs
		p.Add(&graphPlot{fig: g, panel: pn, radius: fs / 4})
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -1.05, 1.05, -1.05, 1.05
		p.Draw(tiles.At(body, i, 0))
	}
	g.legendRow(draw.Crop(c, 0, 0, 0, -(c.Size().Y - legH)))
}

// legendRow draws one line of legend: a marker per class and the cross of misassigned
// vertices.
func (g *GraphFigure) legendRow(c draw.Canvas) {
	sty := plot.NewLegend().TextStyle
	sty.Font.Size = g.Style.fontSize()
	r := sty.Font.Size * 0.35
	x := c.Min.X + r
	y := c.Min.Y + c.Size().Y/2
	item := func(gs draw.GlyphStyle, text string) {
		c.DrawGlyphNoClip(gs, vg.Point{X: x, Y: y})
		c.FillText(sty, vg.Point{X: x + 2*r, Y: y - sty.Font.Size/3}, text)
		x += 2*r + sty.Width(text) + 3*r
	}
	for i, name := range g.ClassNames {
		st := Class(i)
		item(draw.GlyphStyle{Color: st.Color, Shape: st.Glyph, Radius: r}, name)
	}
	item(draw.GlyphStyle{Color: color.Black, Shape: boldCross{}, Radius: 1.2 * r}, "misassigned")
}

// graphPlot draws one panel: grey edges, then correctly assigned vertices as class
// markers, then misassigned vertices as crosses on top.
type graphPlot struct {
	fig    *GraphFigure
	panel  GraphPanel
	radius vg.Length
}

// Plot implements plot.Plotter.
func (g *graphPlot) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	pos := g.fig.Pos
	es := draw.LineStyle{Color: color.Gray{0xc8}, Width: vg.Points(0.25)}
	for _, e := range g.fig.Edges {
		a, b := pos[e[0]], pos[e[1]]
		c.StrokeLine2(es, tx(a[0]), ty(a[1]), tx(b[0]), ty(b[1]))
	}
	for pass := 0; pass < 2; pass++ {
		for i, q := range pos {
			gs := draw.GlyphStyle{Color: color.Gray{0x90}, Shape: draw.CircleGlyph{}, Radius: 0.9 * g.radius}
			wrong := g.panel.Class != nil && g.panel.Wrong[i]
			if g.panel.Class != nil {
				st := Class(g.panel.Class[i])
				gs = draw.GlyphStyle{Color: st.Color, Shape: st.Glyph, Radius: g.radius}
				if wrong {
					gs = draw.GlyphStyle{Color: st.Color, Shape: boldCross{}, Radius: 2 * g.radius}
				}
			}
			if (pass == 1) != wrong {
				continue
			}
			c.DrawGlyph(gs, vg.Point{X: tx(q[0]), Y: ty(q[1])})
		}
	}
}

// boldCross is an "x" marker drawn with a thick line, visible among small markers.
type boldCross struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (boldCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: sty.Radius / 3})
	r := sty.Radius * 0.7071
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
	c.Stroke(p)
	p = p[:0]
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
	c.Stroke(p)
}

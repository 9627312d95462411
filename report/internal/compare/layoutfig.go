package compare

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/report/internal/render"
)

// layoutSeed seeds the start positions of the layout figure's force-directed layout.
const layoutSeed = 1

// layoutIterations is the number of Fruchterman–Reingold iterations of the layout figure.
const layoutIterations = 300

// layoutPanel is one clustering drawn on the layout: per vertex, the class its cluster is
// matched to (by metrics.Match) and whether that differs from the vertex's true class.
type layoutPanel struct {
	Method string
	// Title is the panel's heading; Note says why a panel is empty ("" if it is not).
	Title, Note string
	// Class is the matched class of each vertex's cluster (−1: unmatched); Wrong marks
	// misassigned vertices. Both are nil for an empty panel.
	Class []int
	Wrong []bool
	// Misassigned counts the true entries of Wrong.
	Misassigned int
}

// clusterPanel builds the panel of a clustering: the clusters of pred are matched to the
// classes of truth by the Hungarian method, and vertices whose cluster's class is not
// their own are marked wrong.
func clusterPanel(method string, truth, pred []int) (layoutPanel, error) {
	if len(truth) != len(pred) {
		return layoutPanel{}, fmt.Errorf("%s: %d labels for %d vertices", method, len(pred), len(truth))
	}
	match, err := metrics.Match(truth, pred)
	if err != nil {
		return layoutPanel{}, err
	}
	p := layoutPanel{Method: method, Class: make([]int, len(pred)), Wrong: make([]bool, len(pred))}
	for i, c := range pred {
		cl, ok := match[c]
		if !ok {
			cl = -1
		}
		p.Class[i] = cl
		if cl != truth[i] {
			p.Wrong[i] = true
			p.Misassigned++
		}
	}
	return p, nil
}

// layoutPanels builds the panels of the layout figure from the selected (paper's rule)
// grid point's restart-0 record of each method in LayoutMethods.
func (r results) layoutPanels(dataset string, g *datasets.Graph) []layoutPanel {
	var out []layoutPanel
	for _, m := range r.Spec.Layout.Rows {
		empty := layoutPanel{Method: m, Title: m}
		if why := r.Missing(dataset, m); why != "" {
			empty.Note = why
			out = append(out, empty)
			continue
		}
		sel := r.Selected(render.PaperRule, dataset, m)
		rec := render.RestartZero(sel)
		pred, err := experiments.DecodeLabels(rec.Labels)
		switch {
		case rec.Labels == "":
			empty.Note = "no labels recorded"
		case err != nil:
			empty.Note = err.Error()
		case len(pred) != g.N():
			empty.Note = fmt.Sprintf("%d labels recorded for %d vertices", len(pred), g.N())
		}
		if empty.Note != "" {
			out = append(out, empty)
			continue
		}
		p, err := clusterPanel(m, g.Labels, pred)
		if err != nil {
			empty.Note = err.Error()
			out = append(out, empty)
			continue
		}
		ari := render.Fmt3(rec.Metrics["ari"])
		p.Title = fmt.Sprintf("%s (restart %d): %d of %d misassigned, ARI %s", m, rec.Restart, p.Misassigned, g.N(), ari)
		if ps := render.ParamString(sel.Params); ps != "" {
			p.Note = fmt.Sprintf("restart %d of %s", rec.Restart, ps)
		} else {
			p.Note = fmt.Sprintf("restart %d", rec.Restart)
		}
		out = append(out, p)
	}
	return out
}

// layoutFigure draws the paper's Fig. 1: a force-directed layout of the graph g of a
// dataset, vertices coloured (and shaped) by the class their cluster is matched to,
// misassigned vertices as crosses, one panel per method of LayoutMethods (the selected
// grid point's restart-0 labels). It writes dir/layout_<dataset>.<format>.
func layoutFigure(r results, dataset string, g *datasets.Graph, o render.FigureOptions) (*render.Figure, error) {
	panels := r.layoutPanels(dataset, g)
	edges := edgesOf(g.Adj)
	pos := forceLayout(g.N(), edges, layoutIterations, layoutSeed)
	fig := &render.Figure{
		Name: "layout_" + r.Slug(dataset), Kind: "layout", Dataset: dataset,
		Title: fmt.Sprintf("%s clusterings drawn on a force-directed layout", render.DatasetTitle(dataset)),
		Caption: fmt.Sprintf("%s (%d vertices, %d edges without self-loops), Fruchterman–Reingold layout (%d iterations, seed %d) of the "+
			"graph only. Colour and marker: the class each vertex's cluster is matched to (Hungarian matching of "+
			"clusters to classes); crosses: misassigned vertices. Labels of the grid point selected by %s, restart 0.",
			render.DatasetTitle(dataset), g.N(), len(edges), layoutIterations, layoutSeed, render.RuleText(render.PaperRule)),
	}
	for _, p := range panels {
		switch {
		case p.Class == nil:
			fig.Facts = append(fig.Facts, fmt.Sprintf("%s: not drawn (%s).", p.Method, p.Note))
		default:
			fig.Facts = append(fig.Facts, fmt.Sprintf("%s (%s): %d of %d vertices misassigned.", p.Method, p.Note, p.Misassigned, g.N()))
		}
	}
	plots := make([]*plot.Plot, len(panels))
	for i, pn := range panels {
		pl := plot.New()
		pl.HideAxes()
		pl.Title.Text = pn.Title
		if pn.Class == nil {
			pl.Title.Text = pn.Method + ": " + pn.Note
		}
		pl.Title.TextStyle.Font.Size = render.DefaultStyle.LabelSize
		pl.Add(&graphPlot{pos: pos, edges: edges, panel: pn})
		pl.X.Min, pl.X.Max, pl.Y.Min, pl.Y.Max = -1.05, 1.05, -1.05, 1.05
		plots[i] = pl
	}
	k := g.K()
	files, err := render.SaveCanvas(o, fig.Name, render.DefaultStyle.LayoutWidth, render.DefaultStyle.LayoutHeight, func(c draw.Canvas) {
		c = draw.Crop(c, render.FigureMargin, -render.FigureMargin, render.FigureMargin, -render.FigureMargin)
		legH := vg.Points(22)
		body := draw.Crop(c, 0, 0, legH, 0)
		tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Points(12), PadTop: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
		for i, pl := range plots {
			pl.Draw(tiles.At(body, i, 0))
		}
		legendRow(draw.Crop(c, vg.Points(10), 0, 0, -(c.Size().Y-legH)), render.DefaultStyle.LegendSize, k, g.ClassNames)
	})
	fig.Files = files
	return fig, err
}

// legendRow draws one line of legend: a marker per class and the cross of misassigned
// vertices.
func legendRow(c draw.Canvas, size vg.Length, k int, names []string) {
	sty := plot.NewLegend().TextStyle
	sty.Font.Size = size
	x := c.Min.X
	y := c.Min.Y + c.Size().Y/2
	item := func(gs draw.GlyphStyle, text string) {
		c.DrawGlyphNoClip(gs, vg.Point{X: x + 4, Y: y})
		c.FillText(sty, vg.Point{X: x + 12, Y: y - sty.Font.Size/3}, text)
		x += 12 + sty.Width(text) + 14
	}
	for i := 0; i < k; i++ {
		st := render.ClassStyle(i)
		name := fmt.Sprintf("class %d", i)
		if i < len(names) {
			name = names[i]
		}
		item(draw.GlyphStyle{Color: st.Color, Shape: st.Glyph, Radius: vg.Points(3)}, name)
	}
	item(draw.GlyphStyle{Color: color.Black, Shape: boldCross{}, Radius: vg.Points(3.5)}, "misassigned")
}

// graphPlot draws a graph layout: grey edges, then correctly assigned vertices as class
// markers, then misassigned vertices as crosses on top.
type graphPlot struct {
	pos   []point2
	edges [][2]int
	panel layoutPanel
}

// Plot implements plot.Plotter.
func (g *graphPlot) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	es := draw.LineStyle{Color: color.Gray{0xc8}, Width: vg.Points(0.3)}
	for _, e := range g.edges {
		a, b := g.pos[e[0]], g.pos[e[1]]
		c.StrokeLine2(es, tx(a.X), ty(a.Y), tx(b.X), ty(b.Y))
	}
	for pass := 0; pass < 2; pass++ {
		for i, q := range g.pos {
			gs := draw.GlyphStyle{Color: color.Gray{0x90}, Shape: draw.CircleGlyph{}, Radius: vg.Points(1.6)}
			if g.panel.Class != nil {
				st := render.ClassStyle(g.panel.Class[i])
				gs = draw.GlyphStyle{Color: st.Color, Shape: st.Glyph, Radius: vg.Points(1.8)}
				if g.panel.Wrong[i] {
					gs = draw.GlyphStyle{Color: st.Color, Shape: boldCross{}, Radius: vg.Points(3.5)}
				}
			}
			wrong := g.panel.Wrong != nil && g.panel.Wrong[i]
			if (pass == 1) != wrong {
				continue
			}
			c.DrawGlyph(gs, vg.Point{X: tx(q.X), Y: ty(q.Y)})
		}
	}
}

// boldCross is an "x" marker drawn with a thick line, visible among small markers.
type boldCross struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (boldCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.3)})
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

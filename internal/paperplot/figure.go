package paperplot

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is one plot in a Style with a legend the figure places itself (inside, in the
// emptiest corner, or outside) and, for heatmaps, a colour bar.
type Figure struct {
	Style Style
	Plot  *plot.Plot

	entries []entry
	// points are the data, in data coordinates, the inside legend keeps clear of.
	points plotter.XYs
	// levels are horizontal lines (their y), also kept clear of.
	levels []float64
	bar    *colorBar
	// limits bound the y axis (Pad's limits: 0 and 1 for an NMI); ±Inf where unbounded.
	limits [2]float64
}

// entry is a legend line: a name and the thumbnails drawn beside it (none: a note).
type entry struct {
	name   string
	thumbs []plot.Thumbnailer
}

// NewFigure returns an empty figure with a plot lettered in the style (Style.NewPlot).
func (s Style) NewFigure(title, xlabel, ylabel string) *Figure {
	return &Figure{Style: s, Plot: s.NewPlot(title, xlabel, ylabel), limits: [2]float64{math.Inf(-1), math.Inf(1)}}
}

// lineWidth and markerRadius are the line and marker sizes for the style's font: 1 pt
// lines and 2.2 pt markers at 8 pt.
func (f *Figure) lineWidth() vg.Length    { return f.Style.fontSize() / 8 }
func (f *Figure) markerRadius() vg.Length { return f.Style.fontSize() * 0.275 }

// Line adds line i (colour, dash and marker of Line(i)) through pts with a marker at
// each point, and a legend entry name unless name is "".
func (f *Figure) Line(i int, name string, pts plotter.XYs) error {
	st := Line(i)
	l, sc, err := plotter.NewLinePoints(pts)
	if err != nil {
		return fmt.Errorf("line %q: %w", name, err)
	}
	l.Color, l.Dashes, l.Width = st.Color, st.Dashes, f.lineWidth()
	sc.GlyphStyle = draw.GlyphStyle{Color: st.Color, Shape: st.Glyph, Radius: f.markerRadius()}
	f.Plot.Add(l, sc)
	f.points = append(f.points, pts...)
	if name != "" {
		f.entries = append(f.entries, entry{name, []plot.Thumbnailer{l, sc}})
	}
	return nil
}

// Curve adds line i through pts without markers (a long series: an objective against
// iteration), and a legend entry name unless name is "".
func (f *Figure) Curve(i int, name string, pts plotter.XYs) error {
	st := Line(i)
	l, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("curve %q: %w", name, err)
	}
	l.Color, l.Dashes, l.Width = st.Color, st.Dashes, f.lineWidth()
	f.Plot.Add(l)
	f.points = append(f.points, pts...)
	if name != "" {
		f.entries = append(f.entries, entry{name, []plot.Thumbnailer{l}})
	}
	return nil
}

// Spread draws the spread around line i's points pts, from pts[j].Y − low[j] to
// pts[j].Y + high[j], as the style's Errors say: bars in the line's colour, a band in a
// light tint of it, or nothing.
func (f *Figure) Spread(i int, pts plotter.XYs, low, high []float64) error {
	if len(low) != len(pts) || len(high) != len(pts) {
		return fmt.Errorf("spread of line %d: %d points, %d lows, %d highs", i, len(pts), len(low), len(high))
	}
	st := Line(i)
	switch f.Style.Errors {
	case ErrorBars:
		errs := make(plotter.YErrors, len(pts))
		for j := range pts {
			errs[j].Low, errs[j].High = low[j], high[j]
		}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{pts, errs})
		if err != nil {
			return err
		}
		eb.Color, eb.Width, eb.CapWidth = st.Color, f.lineWidth()*0.7, f.markerRadius()*2
		f.Plot.Add(eb)
	case ErrorBands:
		poly := make(plotter.XYs, 0, 2*len(pts))
		for j := range pts {
			poly = append(poly, plotter.XY{X: pts[j].X, Y: pts[j].Y + high[j]})
		}
		for j := len(pts) - 1; j >= 0; j-- {
			poly = append(poly, plotter.XY{X: pts[j].X, Y: pts[j].Y - low[j]})
		}
		band, err := plotter.NewPolygon(poly)
		if err != nil {
			return err
		}
		band.Color = tint(st.Color, 0.25)
		band.LineStyle.Width = 0
		f.Plot.Add(band)
	default:
		return nil
	}
	for j := range pts {
		f.points = append(f.points, plotter.XY{X: pts[j].X, Y: pts[j].Y - low[j]}, plotter.XY{X: pts[j].X, Y: pts[j].Y + high[j]})
	}
	return nil
}

// tint returns c at opacity a (premultiplied), for bands under their line.
func tint(c color.Color, a float64) color.Color {
	r, g, b, _ := c.RGBA()
	k := func(v uint32) uint8 { return uint8(math.Round(float64(v>>8) * a)) }
	return color.RGBA{k(r), k(g), k(b), uint8(math.Round(255 * a))}
}

// HLine adds a dashed grey horizontal line at y (a reference: the best other method),
// with a legend entry name unless name is "".
func (f *Figure) HLine(name string, y float64) {
	l := plotter.NewFunction(func(float64) float64 { return y })
	l.Color, l.Dashes, l.Width = Reference, []vg.Length{6 * f.lineWidth(), 3 * f.lineWidth()}, f.lineWidth()
	l.Samples = 2
	f.Plot.Add(l)
	f.Plot.Y.Min, f.Plot.Y.Max = math.Min(f.Plot.Y.Min, y), math.Max(f.Plot.Y.Max, y)
	f.levels = append(f.levels, y)
	if name != "" {
		f.entries = append(f.entries, entry{name, []plot.Thumbnailer{l}})
	}
}

// Note adds a legend line of text without a thumbnail ("bars: std over restarts").
func (f *Figure) Note(text string) { f.entries = append(f.entries, entry{name: text}) }

// Grid adds light grid lines at the major ticks; call it before adding lines, so that it
// is drawn beneath them.
func (f *Figure) Grid() {
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = color.Gray{0xdd}, color.Gray{0xdd}
	g.Vertical.Width, g.Horizontal.Width = vg.Points(0.4), vg.Points(0.4)
	f.Plot.Add(g)
}

// Pad widens the y range by 4 % of its span at each end (log axes by 4 % of their
// decades), so that no marker or error bar sits on the frame; a range of one value
// (oneValue: values apart in their last bits only) is centred on it, 4 % of its size
// (at least 0.04) each side. limits, when given, cap the padded range (0 and 1 for an
// ARI).
func (f *Figure) Pad(limits ...float64) {
	y := &f.Plot.Y
	if y.Min > y.Max {
		return
	}
	if _, isLog := y.Scale.(plot.LogScale); isLog && y.Min > 0 {
		k := math.Pow(y.Max/y.Min, 0.04)
		y.Min, y.Max = y.Min/k, y.Max*k
	} else {
		d := 0.04 * (y.Max - y.Min)
		if oneValue(y.Min, y.Max) { // padded around the one value, not spread over the axis
			mid := y.Min + (y.Max-y.Min)/2
			y.Min, y.Max = mid, mid
			d = 0.04 * math.Max(math.Abs(mid), 1)
		}
		y.Min, y.Max = y.Min-d, y.Max+d
	}
	if len(limits) == 2 {
		y.Min, y.Max = math.Max(y.Min, limits[0]), math.Min(y.Max, limits[1])
		f.limits = [2]float64{limits[0], limits[1]}
	}
}

// Save draws the figure and writes stem.FORMAT for each format (see Style.Save).
func (f *Figure) Save(stem string, formats ...string) ([]string, error) {
	return f.Style.Save(stem, formats, f.Draw)
}

// Draw draws the figure on c: the plot, its colour bar and its legend.
func (f *Figure) Draw(c draw.Canvas) {
	leg := f.legend()
	if f.Style.Legend == LegendOutside && len(f.entries) > 0 {
		f.drawOutside(c, leg)
		return
	}
	if f.Style.Legend != LegendInside || len(f.entries) == 0 || f.bar != nil {
		f.drawPlot(c)
		return
	}
	// Inside: the emptiest corner; where every corner would hide data, the y axis is
	// extended upwards (or, where that would pass the measure's bound, downwards) until
	// the legend fits beside the data; where it cannot, the legend goes outside.
	box, hidden := f.legendCorner(f.Plot.DataCanvas(c), leg, 0)
	if y := &f.Plot.Y; hidden > 0 && y.Max > y.Min {
		y0, y1 := y.Min, y.Max
		dc := f.Plot.DataCanvas(c)
		frac := float64((box.Size().Y + f.Style.fontSize()/2) / dc.Size().Y)
		_, isLog := y.Scale.(plot.LogScale)
		isLog = isLog && y.Min > 0
		grow := func(lo, hi float64, up bool) (float64, float64) {
			if isLog {
				k := math.Pow(hi/lo, frac/(1-frac))
				if up {
					return lo, hi * k
				}
				return lo / k, hi
			}
			d := (hi - lo) * frac / (1 - frac)
			if up {
				return lo, hi + d
			}
			return lo - d, hi
		}
		if frac < 0.6 {
			if lo, hi := grow(y.Min, y.Max, true); hi <= f.limits[1] {
				y.Min, y.Max = lo, hi
				box, hidden = f.legendCorner(f.Plot.DataCanvas(c), leg, 1)
			} else if lo, hi := grow(y.Min, y.Max, false); lo >= f.limits[0] {
				y.Min, y.Max = lo, hi
				box, hidden = f.legendCorner(f.Plot.DataCanvas(c), leg, -1)
			}
		}
		if hidden > 0 {
			y.Min, y.Max = y0, y1
			f.drawOutside(c, leg)
			return
		}
	}
	f.drawPlot(c)
	f.drawLegendBox(c, box, leg)
}

// drawOutside draws the plot and, in a column on its right as wide as its longest
// entry (at most half the figure), the legend.
func (f *Figure) drawOutside(c draw.Canvas, leg plot.Legend) {
	w, _ := f.legendSize(leg)
	w = min(w, c.Size().X/2)
	gap := f.Style.fontSize()
	f.drawPlot(draw.Crop(c, 0, -w-gap, 0, 0))
	right := draw.Crop(c, c.Size().X-w, 0, 0, 0)
	leg.Top, leg.Left = true, true
	leg.Draw(right)
}

// drawPlot draws the plot (and colour bar) on c and returns its data area.
func (f *Figure) drawPlot(c draw.Canvas) draw.Canvas {
	if f.bar != nil {
		return f.bar.draw(c, f)
	}
	f.Plot.Draw(c)
	return f.Plot.DataCanvas(c)
}

// legend returns a gonum legend of the figure's entries in the style's font.
func (f *Figure) legend() plot.Legend {
	fs := f.Style.fontSize()
	l := plot.NewLegend()
	l.TextStyle.Font.Size = fs
	l.TextStyle.Handler = Super
	l.ThumbnailWidth = 2.5 * fs
	l.Padding = fs / 5
	for _, e := range f.entries {
		l.Add(e.name, e.thumbs...)
	}
	return l
}

// legendSize returns the width and height the legend's entries take.
func (f *Figure) legendSize(l plot.Legend) (w, h vg.Length) {
	em := l.TextStyle.Width(" ")
	var eh vg.Length
	for _, e := range f.entries {
		w = max(w, l.ThumbnailWidth+em+l.TextStyle.Width(e.name))
		eh = max(eh, l.TextStyle.Rectangle(e.name).Max.Y)
	}
	n := vg.Length(len(f.entries))
	return w, n*eh + (n-1)*l.Padding + l.TextStyle.FontExtents().Descent
}

// legendCorner returns the legend's box in the corner of the data area dc that covers
// the fewest data points (points, error ends, segments and horizontal lines sampled),
// top right first on ties, and how many it covers; among the top corners only when side
// is 1, the bottom ones when it is −1.
func (f *Figure) legendCorner(dc draw.Canvas, l plot.Legend, side int) (vg.Rectangle, int) {
	w, h := f.legendSize(l)
	pad := f.Style.fontSize() / 3
	w, h = w+2*pad, h+2*pad
	inset := f.Style.fontSize() / 4
	tx, ty := f.Plot.Transforms(&dc)
	var at []vg.Point
	for _, p := range f.points {
		if !math.IsNaN(p.X) && !math.IsNaN(p.Y) {
			at = append(at, vg.Point{X: tx(p.X), Y: ty(p.Y)})
		}
	}
	// Segments between consecutive points cross corners too: sample them.
	for j := 1; j < len(f.points); j++ {
		a, b := f.points[j-1], f.points[j]
		if b.X < a.X {
			continue // a new line starts
		}
		for k := 1; k < 8; k++ {
			t := float64(k) / 8
			at = append(at, vg.Point{X: tx(a.X + t*(b.X-a.X)), Y: ty(a.Y + t*(b.Y-a.Y))})
		}
	}
	for _, y := range f.levels {
		for k := 0; k <= 32; k++ {
			at = append(at, vg.Point{X: dc.Min.X + vg.Length(k)/32*dc.Size().X, Y: ty(y)})
		}
	}
	corners := []vg.Point{ // lower left corner of the box: top right, top left, bottom right, bottom left
		{X: dc.Max.X - inset - w, Y: dc.Max.Y - inset - h},
		{X: dc.Min.X + inset, Y: dc.Max.Y - inset - h},
		{X: dc.Max.X - inset - w, Y: dc.Min.Y + inset},
		{X: dc.Min.X + inset, Y: dc.Min.Y + inset},
	}
	best, bestN := 0, -1
	for i, c := range corners {
		if side == 1 && i > 1 || side == -1 && i < 2 {
			continue
		}
		n := 0
		for _, p := range at {
			if p.X >= c.X && p.X <= c.X+w && p.Y >= c.Y && p.Y <= c.Y+h {
				n++
			}
		}
		if bestN < 0 || n < bestN {
			best, bestN = i, n
		}
	}
	return vg.Rectangle{Min: corners[best], Max: corners[best].Add(vg.Point{X: w, Y: h})}, bestN
}

// drawLegendBox draws the legend in box on a white ground with a thin grey frame, so
// that grid lines and data behind it do not cross its text.
func (f *Figure) drawLegendBox(c draw.Canvas, box vg.Rectangle, l plot.Legend) {
	pad := f.Style.fontSize() / 3
	c.SetColor(color.White) // opaque: PDF canvases draw no alpha
	c.Fill(box.Path())
	c.SetLineWidth(vg.Points(0.4))
	c.SetLineDash(nil, 0)
	c.SetColor(color.Gray{0xaa})
	c.Stroke(box.Path())
	in := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: box.Min.Add(vg.Point{X: pad, Y: pad}), Max: box.Max.Sub(vg.Point{X: pad, Y: pad})}}
	l.Top, l.Left = true, true
	l.Draw(in)
}

// Muted adds a grey line through pts with a small marker at each point (a series of
// the background: a search's cut trials), and a legend entry name unless name is "".
func (f *Figure) Muted(name string, pts plotter.XYs) error {
	l, sc, err := plotter.NewLinePoints(pts)
	if err != nil {
		return fmt.Errorf("line %q: %w", name, err)
	}
	l.Color, l.Width = Muted, f.lineWidth()*0.7
	sc.GlyphStyle = draw.GlyphStyle{Color: Muted, Shape: draw.CircleGlyph{}, Radius: f.markerRadius() * 0.7}
	f.Plot.Add(l, sc)
	f.points = append(f.points, pts...)
	if name != "" {
		f.entries = append(f.entries, entry{name, []plot.Thumbnailer{l, sc}})
	}
	return nil
}

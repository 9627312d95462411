package paperplot

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// viridis are stops of matplotlib's viridis colour map (perceptually uniform, monotone
// in lightness, so readable in greyscale and by colour-blind readers).
var viridis = []color.Color{
	color.NRGBA{0x44, 0x01, 0x54, 0xff}, color.NRGBA{0x3b, 0x52, 0x8b, 0xff},
	color.NRGBA{0x21, 0x90, 0x8d, 0xff}, color.NRGBA{0x5d, 0xc9, 0x63, 0xff},
	color.NRGBA{0xfd, 0xe7, 0x25, 0xff},
}

// Viridis returns the viridis colour map over [lo, hi], interpolated in CIELAB between
// its stops (moreland.NewLuminance).
func Viridis(lo, hi float64) palette.ColorMap {
	cm, err := moreland.NewLuminance(viridis)
	if err != nil {
		panic(err) // the stops are fixed and monotone in lightness
	}
	if !(hi > lo) { // one value: a range around it of 1 % of its size (0.01 about 0)
		d := math.Max(0.01*math.Abs(lo), 0.005)
		lo, hi = lo-d, lo+d
	}
	cm.SetMin(lo)
	cm.SetMax(hi)
	return cm
}

// cells is a grid of values as gonum's GridXYZ: column c at x = c, row r at y = r.
type cells [][]float64

func (g cells) Dims() (c, r int)   { return len(g[0]), len(g) }
func (g cells) Z(c, r int) float64 { return g[r][c] }
func (g cells) X(c int) float64    { return float64(c) }
func (g cells) Y(r int) float64    { return float64(r) }

// Heatmap returns a figure of grid (grid[r][c]: row r drawn at height r, column c at
// x = c; NaN leaves a cell blank) as coloured cells labelled with their values, columns
// named xt and rows yt, with a viridis colour bar titled bar on the right. Cell labels
// have three decimals, two where three do not fit a cell at the style's width, a point
// smaller where neither fits, none where nothing does; they are black on light cells and
// white on dark ones. Where the column names do not fit side by side, every k-th is
// written. The legend placement does not apply (a heatmap has none).
func (s Style) Heatmap(title, xlabel, ylabel, bar string, xt, yt []string, grid [][]float64) *Figure {
	f := s.NewFigure(title, xlabel, ylabel)
	f.Style.Legend = LegendNone
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range grid {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	cm := Viridis(lo, hi)
	lo, hi = cm.Min(), cm.Max()
	hm := plotter.NewHeatMap(cells(grid), cm.Palette(256))
	hm.Min, hm.Max = lo, hi
	hm.NaN = color.Transparent
	f.Plot.Add(hm)
	f.Plot.X.Min, f.Plot.X.Max = -0.5, float64(len(xt))-0.5
	f.Plot.Y.Min, f.Plot.Y.Max = -0.5, float64(len(yt))-0.5
	f.Plot.X.Tick.Marker = categories(xt)
	f.Plot.Y.Tick.Marker = categories(yt)
	f.Plot.X.Tick.Length, f.Plot.Y.Tick.Length = 0, 0

	f.bar = newColorBar(s, bar, cm)
	f.Plot.X.Tick.Marker = f.thinned(categories(xt), f.cellWidth(len(xt)))
	if lbl := f.cellLabels(grid, cm, len(xt)); lbl != nil {
		f.Plot.Add(lbl)
	}
	return f
}

// categories labels positions 0, 1, … with names.
func categories(names []string) plot.ConstantTicks {
	t := make(plot.ConstantTicks, len(names))
	for i, n := range names {
		t[i] = plot.Tick{Value: float64(i), Label: n}
	}
	return t
}

// cellWidth returns the width of one of cols columns of a heatmap: the data area is the
// width less the y axis (its widest tick label, its label) and the colour bar.
func (f *Figure) cellWidth(cols int) vg.Length {
	w, _ := f.Style.Size()
	var yTicks vg.Length
	for _, t := range f.Plot.Y.Tick.Marker.Ticks(f.Plot.Y.Min, f.Plot.Y.Max) {
		yTicks = max(yTicks, f.Plot.Y.Tick.Label.Width(t.Label))
	}
	yAxis := yTicks + f.Plot.Y.Label.TextStyle.Height(f.Plot.Y.Label.Text) + 2*f.Plot.Y.Label.Padding + 2*f.Plot.Y.Padding
	return (w - 2*margin - yAxis - f.bar.width()) / vg.Length(cols)
}

// thinned returns the column names with only every k-th labelled (the first, the
// (k+1)-th, …), k the smallest step at which the widest name and a gap of half the font
// size fit the width of k cells, so that neighbouring names never run together.
func (f *Figure) thinned(t plot.ConstantTicks, cell vg.Length) plot.ConstantTicks {
	var widest vg.Length
	for _, tk := range t {
		widest = max(widest, f.Plot.X.Tick.Label.Width(tk.Label))
	}
	k := 1
	if cell > 0 {
		k = max(1, int(math.Ceil(float64((widest+f.Style.fontSize()/2)/cell))))
	}
	for i := range t {
		if i%k != 0 {
			t[i].Label = ""
		}
	}
	return t
}

// cellLabels returns the labels of the heatmap's cells, or nil if they do not fit: three
// decimals, else two, at one point below the style's font size, else two below (not
// under 5 pt), whichever first fits 90 % of a cell's width.
func (f *Figure) cellLabels(grid [][]float64, cm palette.ColorMap, cols int) *plotter.Labels {
	sty := text.Style{Font: f.Plot.X.Tick.Label.Font, Handler: Super, XAlign: draw.XCenter, YAlign: draw.YCenter}
	cell := f.cellWidth(cols)
	format := func(v float64, dec int) string { return minus(strconv.FormatFloat(v, 'f', dec, 64)) }
	widest := func(dec int) vg.Length {
		var m vg.Length
		for _, row := range grid {
			for _, v := range row {
				if !math.IsNaN(v) {
					m = max(m, sty.Width(format(v, dec)))
				}
			}
		}
		return m
	}
	dec := -1
	fs := f.Style.fontSize()
	for _, size := range []vg.Length{max(fs-1, 5), max(fs-2, 5)} {
		sty.Font.Size = size
		for _, d := range []int{3, 2} {
			if widest(d) <= 0.9*cell {
				dec = d
				break
			}
		}
		if dec >= 0 {
			break
		}
	}
	if dec < 0 {
		return nil
	}
	var lbl plotter.XYLabels
	var styles []text.Style
	for r, row := range grid {
		for c, v := range row {
			if math.IsNaN(v) {
				continue
			}
			lbl.XYs = append(lbl.XYs, plotter.XY{X: float64(c), Y: float64(r)})
			lbl.Labels = append(lbl.Labels, format(v, dec))
			st := sty
			st.Color = color.White
			if col, err := cm.At(v); err == nil && luminance(col) > 0.45 {
				st.Color = color.Black
			}
			styles = append(styles, st)
		}
	}
	if len(styles) == 0 {
		return nil
	}
	l, err := plotter.NewLabels(lbl)
	if err != nil {
		return nil
	}
	l.TextStyle = styles
	return l
}

// luminance is the relative luminance of c in [0, 1] (Rec. 709 weights on sRGB).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}

// colorBar is a vertical colour bar drawn right of a heatmap, as tall as its data area.
type colorBar struct {
	plot  *plot.Plot
	style Style
}

func newColorBar(s Style, label string, cm palette.ColorMap) *colorBar {
	p := plot.New()
	s.Apply(p)
	p.HideX()
	p.Y.Label.Text = label
	p.Y.Min, p.Y.Max = cm.Min(), cm.Max()
	ScaleAxis(&p.Y, cm.Min(), cm.Max())
	p.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true, Colors: 256})
	return &colorBar{plot: p, style: s}
}

// width is the width the bar takes: the bar, its ticks and labels, its axis label.
func (b *colorBar) width() vg.Length {
	fs := b.style.fontSize()
	var lw vg.Length
	for _, t := range b.plot.Y.Tick.Marker.Ticks(b.plot.Y.Min, b.plot.Y.Max) {
		lw = max(lw, b.plot.Y.Tick.Label.Width(t.Label))
	}
	return 1.2*fs + lw + b.plot.Y.Tick.Length + 2*b.plot.Y.Padding + fs + 1.5*fs
}

// draw draws the heatmap f's plot left of the bar and the bar right, returning the
// heatmap's data area.
func (b *colorBar) draw(c draw.Canvas, f *Figure) draw.Canvas {
	w := b.width()
	// Room above for the bar's top tick label, which is centred on the heatmap's top edge.
	half := b.plot.Y.Tick.Label.Height("0") / 2
	hc := draw.Crop(c, 0, -w, 0, -half)
	f.Plot.Draw(hc)
	dc := f.Plot.DataCanvas(hc)
	// Give the bar plot a canvas whose data area is the heatmap's (its axes pad it).
	bc := c
	bc.Min.X = c.Max.X - w + b.style.fontSize()
	bc.Min.Y, bc.Max.Y = dc.Min.Y, dc.Max.Y
	bd := b.plot.DataCanvas(bc)
	bc.Min.Y -= bd.Min.Y - dc.Min.Y
	bc.Max.Y += dc.Max.Y - bd.Max.Y
	b.plot.Draw(bc)
	return dc
}

package render

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/nagc-harness/nagc/internal/paperplot"
	"github.com/nagc-harness/nagc/internal/pdfcanvas"
)

// Figure file formats.
const (
	FormatPNG = "png"
	FormatPDF = "pdf"
)

// PNGDPI is the resolution of PNG figures drawn in the report's own look (without
// figure settings, Options.FigureSettings).
const PNGDPI = 150

// FigureStyle is the report's own look, used when no figure settings are given
// (Options.FigureSettings, a config's figures section): sizes, font sizes and whether a
// figure carries its title. Each figure function of that look reads its sizes from here.
type FigureStyle struct {
	// Width and Height are the size of a plot with its legend (sensitivity figures and
	// the paper's parameter sweeps).
	Width, Height vg.Length
	// PanelWidth and PanelHeight are the size of one panel of a figure of panels (the
	// objective curves, one per row).
	PanelWidth, PanelHeight vg.Length
	// LayoutWidth and LayoutHeight are the size of the graph-layout figure.
	LayoutWidth, LayoutHeight vg.Length
	// TitleSize, LabelSize, TickSize and LegendSize are the font sizes of titles, axis
	// labels, tick labels and legend entries (panel titles use LabelSize).
	TitleSize, LabelSize, TickSize, LegendSize vg.Length
	// Title is whether figures carry their title.
	Title bool
	// DPI is the resolution of PNG files.
	DPI float64
}

// DefaultStyle is the report's own look: 7.5 in × 3.8 in plots, panels of 3.4 in ×
// 2.8 in, a 9 in × 5 in layout, fonts of 11, 10, 9 and 9 pt, titles on, PNG at PNGDPI.
var DefaultStyle = FigureStyle{
	Width: 7.5 * vg.Inch, Height: 3.8 * vg.Inch,
	PanelWidth: 3.4 * vg.Inch, PanelHeight: 2.8 * vg.Inch,
	LayoutWidth: 9 * vg.Inch, LayoutHeight: 5 * vg.Inch,
	TitleSize: vg.Points(11), LabelSize: vg.Points(10), TickSize: vg.Points(9), LegendSize: vg.Points(9),
	Title: true, DPI: PNGDPI,
}

// FigureOptions says where figures are written: Dir, in each of Formats (png, pdf).
// The figure functions draw in the report's own look; figures sized for a paper come
// from Generate with Options.FigureSettings.
type FigureOptions struct {
	Dir     string
	Formats []string
}

// Figure is a figure written by the report: its files and what REPORT.md says beside it.
type Figure struct {
	// Name is the file stem, e.g. "lambda_webkb".
	Name string
	// Kind is what the figure shows: "layout", "lambda", "k2" (the paper's), "objective",
	// "sensitivity", "heatmap" or "cd" (a critical-difference diagram across datasets,
	// Dataset ""); Dataset, Method and Params what it is about.
	Kind, Dataset, Method string
	Params                []string
	// Title is the heading of the figure in REPORT.md.
	Title string
	// Caption describes what is drawn.
	Caption string
	// Files are the written files, relative to the report folder.
	Files []string
	// Facts are sentences comparing the figure with the paper (stated facts and ours).
	Facts []string
}

// MarkStyle is how one line of a figure is drawn: distinguishable in greyscale print by dash
// pattern and marker shape, not only by colour.
type MarkStyle struct {
	Color  color.Color
	Dashes []vg.Length
	Glyph  draw.GlyphDrawer
}

// okabeIto is a colour-blind-safe palette (Okabe & Ito), dark colours first.
var okabeIto = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	color.RGBA{0x00, 0x9E, 0x73, 0xff}, // bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	color.RGBA{0x33, 0x33, 0x33, 0xff}, // near black
	color.RGBA{0xF0, 0xE4, 0x42, 0xff}, // yellow
}

var (
	dashPatterns = [][]vg.Length{
		nil,
		{vg.Points(6), vg.Points(3)},
		{vg.Points(1.5), vg.Points(2.5)},
		{vg.Points(7), vg.Points(2.5), vg.Points(1.5), vg.Points(2.5)},
		{vg.Points(12), vg.Points(4)},
		{vg.Points(3), vg.Points(3)},
	}
	glyphShapes = []draw.GlyphDrawer{
		draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{},
		draw.RingGlyph{}, draw.PyramidGlyph{}, draw.SquareGlyph{}, draw.PlusGlyph{},
	}
)

// SeriesStyle returns the i-th line style: colour, dash pattern and marker all change with
// i, and no two of the first 24 styles share both dash pattern and marker.
func SeriesStyle(i int) MarkStyle {
	return MarkStyle{
		Color:  okabeIto[i%len(okabeIto)],
		Dashes: dashPatterns[i%len(dashPatterns)],
		Glyph:  glyphShapes[i%len(glyphShapes)],
	}
}

// ClassStyle returns the colour and filled marker of class i in the layout figure.
func ClassStyle(i int) MarkStyle {
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}}
	if i < 0 {
		return MarkStyle{Color: color.Gray{0x80}, Glyph: draw.CircleGlyph{}}
	}
	return MarkStyle{Color: okabeIto[i%len(okabeIto)], Glyph: shapes[i%len(shapes)]}
}

// SaveCanvas draws a figure of size w × h with paint and writes it in every format of o
// to o.Dir/stem.FORMAT, returning the file names written (relative to o.Dir).
func SaveCanvas(o FigureOptions, stem string, w, h vg.Length, paint func(draw.Canvas)) ([]string, error) {
	var files []string
	for _, f := range o.Formats {
		name := stem + "." + f
		path := filepath.Join(o.Dir, name)
		var err error
		switch f {
		case FormatPNG:
			c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(int(DefaultStyle.DPI)), vgimg.UseBackgroundColor(color.White))
			paint(draw.New(c))
			err = paperplot.WriteFile(path, vgimg.PngCanvas{Canvas: c})
		case FormatPDF:
			c := pdfcanvas.New(w, h)
			dc := draw.New(c)
			dc.SetColor(color.White)
			dc.Fill(dc.Rectangle.Path())
			paint(dc)
			err = paperplot.WriteFile(path, c)
		default:
			err = fmt.Errorf("unknown figure format %q (known: png, pdf)", f)
		}
		if err != nil {
			return files, err
		}
		files = append(files, name)
	}
	return files, nil
}

// FigureMargin is the blank border around every figure, so that titles and tick labels
// never touch the edge.
const FigureMargin = vg.Length(8)

// LegendBox is a legend that knows its entries' names, so that its width can be
// measured and the legend kept inside the canvas.
type LegendBox struct {
	plot.Legend
	names []string
}

// NewLegendBox returns a legend with the style's font size.
func NewLegendBox(st FigureStyle) *LegendBox { return &LegendBox{Legend: newLegend(st)} }

// AddEntry adds an entry (a name without thumbnails is a line of text).
func (l *LegendBox) AddEntry(name string, thumbs ...plot.Thumbnailer) {
	l.names = append(l.names, name)
	l.Legend.Add(name, thumbs...)
}

// width is the width the legend needs: its longest name, the thumbnail and padding.
func (l *LegendBox) width() vg.Length {
	w := vg.Length(0)
	for _, n := range l.names {
		w = max(w, l.TextStyle.Width(n))
	}
	return w + l.ThumbnailWidth + 2*l.Padding + vg.Points(10)
}

// WithLegend draws p on the left of c and the legend in a column on the right as wide as
// its longest entry, so that the legend never hides data nor runs off the canvas; a
// margin is left around both.
func WithLegend(c draw.Canvas, p *plot.Plot, leg *LegendBox) {
	c = draw.Crop(c, FigureMargin, -FigureMargin, FigureMargin, -FigureMargin)
	legW := min(leg.width(), c.Size().X/2)
	p.Draw(draw.Crop(c, 0, -legW-vg.Points(16), 0, 0))
	right := draw.Crop(c, c.Size().X-legW, 0, 0, -vg.Points(20))
	leg.Left, leg.Top = true, true
	leg.Draw(right)
}

// withMargin draws p inside a blank margin.
func withMargin(c draw.Canvas, p *plot.Plot) {
	p.Draw(draw.Crop(c, FigureMargin, -FigureMargin, FigureMargin, -FigureMargin))
}

// ClippedErrors returns error bars of ± std around each mean, cut at [lo, hi] (the
// axis range), so that no bar runs past a metric's range (an ARI above 1).
func ClippedErrors(mean, std []float64, lo, hi float64) plotter.YErrors {
	errs := make(plotter.YErrors, len(mean))
	for i, m := range mean {
		s := std[i]
		if math.IsNaN(s) {
			s = 0
		}
		errs[i].Low = max(0, min(s, m-lo))
		errs[i].High = max(0, min(s, hi-m))
	}
	return errs
}

// compactTicks is plot.DefaultTicks with labels printed compactly: at most four
// significant digits, powers of ten as 1.2e6 rather than 1175000.00.
type compactTicks struct{}

// Ticks implements plot.Ticker.
func (compactTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = fmtTick(ticks[i].Value)
		}
	}
	return ticks
}

// fmtTick prints a tick value with at most four significant digits: 0.25, 1200, 1.2e6.
func fmtTick(v float64) string {
	if v == 0 {
		return "0"
	}
	if a := math.Abs(v); a >= 1e4 || a < 1e-3 {
		s := strconv.FormatFloat(v, 'e', 3, 64)
		mant, exp, _ := strings.Cut(s, "e")
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		e, _ := strconv.Atoi(exp)
		return minus(fmt.Sprintf("%se%d", mant, e))
	}
	return minus(strconv.FormatFloat(v, 'g', 4, 64))
}

// NewPlot returns a plot with the style's font sizes, titled when the style says so.
func NewPlot(st FigureStyle, title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	if st.Title {
		p.Title.Text = title
	}
	p.Title.TextStyle.Font.Size = st.TitleSize
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Label.TextStyle.Font.Size = st.LabelSize
	p.Y.Label.TextStyle.Font.Size = st.LabelSize
	p.X.Tick.Label.Font.Size = st.TickSize
	p.Y.Tick.Label.Font.Size = st.TickSize
	p.X.Tick.Marker = compactTicks{}
	p.Y.Tick.Marker = compactTicks{}
	return p
}

// newLegend returns a legend with the style's font size.
func newLegend(st FigureStyle) plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(plot.DefaultFont, st.LegendSize)
	l.ThumbnailWidth = vg.Points(28)
	l.Padding = vg.Points(5)
	return l
}

// LogTicks returns a labelled tick at every power of ten in [min, max] (1e-4, 0.1, 1,
// 10); when the range spans less than two decades, also labelled ticks at 2× and 5× each
// power, so that at least two labels show.
func LogTicks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	in := func(v float64) bool { return v >= min*(1-1e-9) && v <= max*(1+1e-9) }
	for e := lo; e <= hi; e++ {
		v := math.Pow(10, e)
		if in(v) {
			ticks = append(ticks, plot.Tick{Value: v, Label: powerLabel(e)})
		}
		for _, f := range []float64{2, 5} {
			if in(f*v) && hi-lo <= 2 {
				ticks = append(ticks, plot.Tick{Value: f * v, Label: fmtTick(f * v)})
			}
		}
	}
	return ticks
}

// sparseLogTicks returns a ticker with a tick at every power of ten but labels on at most
// about n of them (every k-th decade), for short axes spanning many decades.
func sparseLogTicks(n int) plot.Ticker {
	return plot.TickerFunc(func(min, max float64) []plot.Tick {
		ticks := LogTicks(min, max)
		if len(ticks) <= n {
			return ticks
		}
		k := (len(ticks) + n - 1) / n
		for i := range ticks {
			if i%k != 0 {
				ticks[i].Label = ""
			}
		}
		return ticks
	})
}

// powerLabel labels 10^e: "0.1", "1", "10", "100" near one, else "1e-4".
func powerLabel(e float64) string {
	if e >= -1 && e <= 2 {
		return strconv.FormatFloat(math.Pow(10, e), 'f', -1, 64)
	}
	return fmt.Sprintf("1e%d", int(e))
}

// RefLine is a line across the whole plot: horizontal at Y, or vertical at X from Y0 to Y1.
type RefLine struct {
	draw.LineStyle
	horizontal bool
	X, Y       float64
	Y0, Y1     float64
}

// Horizontal returns a horizontal reference line at y across the plot.
func Horizontal(y float64) *RefLine {
	return &RefLine{LineStyle: plotter.DefaultLineStyle, horizontal: true, Y: y}
}

// Vertical returns a vertical reference line at x from y0 to y1.
func Vertical(x, y0, y1 float64) *RefLine {
	return &RefLine{LineStyle: plotter.DefaultLineStyle, X: x, Y0: y0, Y1: y1}
}

// Plot implements plot.Plotter.
func (l *RefLine) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	if l.horizontal {
		y := ty(l.Y)
		c.StrokeLine2(l.LineStyle, c.Min.X, y, c.Max.X, y)
		return
	}
	x := tx(l.X)
	c.StrokeLine2(l.LineStyle, x, ty(l.Y0), x, ty(l.Y1))
}

// Thumbnail implements plot.Thumbnailer: a horizontal stroke in the line's style.
func (l *RefLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.LineStyle, c.Min.X, y, c.Max.X, y)
}

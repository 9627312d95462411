package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Figure file formats.
const (
	FormatPNG = "png"
	FormatPDF = "pdf"
)

// PNGDPI is the resolution of PNG figures.
const PNGDPI = 150

// Figure is a figure written by the report: its files and what REPORT.md says beside it.
type Figure struct {
	// Name is the file stem, e.g. "lambda_webkb".
	Name string
	// Title is the heading of the figure in REPORT.md.
	Title string
	// Caption describes what is drawn.
	Caption string
	// Files are the written files, relative to the report folder.
	Files []string
	// Facts are sentences comparing the figure with the paper (stated facts and ours).
	Facts []string
}

// Style is how one line of a figure is drawn: distinguishable in greyscale print by dash
// pattern and marker shape, not only by colour.
type Style struct {
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

// LineStyle returns the i-th line style: colour, dash pattern and marker all change with
// i, and no two of the first 24 styles share both dash pattern and marker.
func LineStyle(i int) Style {
	return Style{
		Color:  okabeIto[i%len(okabeIto)],
		Dashes: dashPatterns[i%len(dashPatterns)],
		Glyph:  glyphShapes[i%len(glyphShapes)],
	}
}

// ClusterStyle returns the colour and filled marker of class i in the layout figure.
func ClusterStyle(i int) Style {
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}}
	if i < 0 {
		return Style{Color: color.Gray{0x80}, Glyph: draw.CircleGlyph{}}
	}
	return Style{Color: okabeIto[i%len(okabeIto)], Glyph: shapes[i%len(shapes)]}
}

// saveCanvas draws a figure of size w × h with paint and writes it in every format to
// dir/stem.FORMAT, returning the file names written (relative to dir).
func saveCanvas(dir, stem string, formats []string, w, h vg.Length, paint func(draw.Canvas)) ([]string, error) {
	var files []string
	for _, f := range formats {
		name := stem + "." + f
		path := filepath.Join(dir, name)
		var err error
		switch f {
		case FormatPNG:
			c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PNGDPI), vgimg.UseBackgroundColor(color.White))
			paint(draw.New(c))
			err = writeFile(path, vgimg.PngCanvas{Canvas: c})
		case FormatPDF:
			c := NewPDFCanvas(w, h)
			dc := draw.New(c)
			dc.SetColor(color.White)
			dc.Fill(dc.Rectangle.Path())
			paint(dc)
			err = writeFile(path, c)
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

// writeFile writes a canvas to path.
func writeFile(path string, c io.WriterTo) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// withLegend draws p on the left of c and leg in a column of width legW on the right, so
// that the legend never hides data.
func withLegend(c draw.Canvas, p *plot.Plot, leg plot.Legend, legW vg.Length) {
	left := draw.Crop(c, 0, -legW, 0, 0)
	p.Draw(left)
	right := draw.Crop(c, c.Size().X-legW+vg.Points(8), 0, 0, -vg.Points(24))
	leg.Left, leg.Top = true, true
	leg.Draw(right)
}

// newPlot returns a plot with the report's font sizes.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Label.TextStyle.Font.Size = vg.Points(10)
	p.Y.Label.TextStyle.Font.Size = vg.Points(10)
	p.X.Tick.Label.Font.Size = vg.Points(9)
	p.Y.Tick.Label.Font.Size = vg.Points(9)
	return p
}

// newLegend returns a legend with the report's font size.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(plot.DefaultFont, vg.Points(9))
	l.ThumbnailWidth = vg.Points(28)
	l.Padding = vg.Points(5)
	return l
}

// logTicks returns ticks at the powers of ten in [min, max], labelled like 1e-4.
func logTicks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	step := 1.0
	if hi-lo > 8 {
		step = 2
	}
	for e := lo; e <= hi; e++ {
		v := math.Pow(10, e)
		if v < min*(1-1e-9) || v > max*(1+1e-9) {
			continue
		}
		t := plot.Tick{Value: v}
		if math.Mod(e-lo, step) == 0 {
			t.Label = powerLabel(e)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// powerLabel labels 10^e: "0.1", "1", "10", "100" near one, else "1e-4".
func powerLabel(e float64) string {
	if e >= -1 && e <= 2 {
		return strconv.FormatFloat(math.Pow(10, e), 'f', -1, 64)
	}
	return fmt.Sprintf("1e%d", int(e))
}

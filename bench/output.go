package bench

import (
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// CSVHeader lists the columns WriteCSV writes.
var CSVHeader = []string{"case", "method", "n", "edges", "nnz_x", "work", "repeats",
	"median_seconds", "per_iteration_seconds", "iterations", "peak_heap_bytes", "synthetic", "error",
	"multiply_adds_per_iteration", "multiply_adds_per_ns"}

// WriteCSV writes one row per result.
func WriteCSV(w io.Writer, results []Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', 6, 64)
	}
	for _, r := range results {
		row := []string{r.Case, r.Method, strconv.Itoa(r.N), strconv.Itoa(r.Edges), strconv.Itoa(r.NNZX),
			strconv.Itoa(r.Work), strconv.Itoa(len(r.Seconds)), f(r.Median), f(r.PerIteration),
			strconv.Itoa(r.Iterations), strconv.FormatUint(r.PeakHeapBytes, 10),
			strconv.FormatBool(r.Synthetic), r.Err, f(r.MultiplyAdds), f(r.PerNanosecond)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// PlotGrowth draws median fit time against |E| + nnz(X) on log-log axes, one line per
// method over the synthetic series (with its fitted exponent in the legend) and the
// paper's graphs as separate points, and saves it to path (the extension picks the
// format: .png, .pdf, .svg).
func PlotGrowth(path string, results []Result) error {
	p := plot.New()
	p.Title.Text = "NAGC harness: fit time against input size"
	p.X.Label.Text = "|E| + nnz(X)"
	p.Y.Label.Text = "median fit time (s)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	byMethod := map[string][]Result{}
	var methods []string
	for _, r := range results {
		if r.Err != "" || !(r.Median > 0) {
			continue
		}
		if _, ok := byMethod[r.Method]; !ok {
			methods = append(methods, r.Method)
		}
		byMethod[r.Method] = append(byMethod[r.Method], r)
	}
	if len(methods) == 0 {
		return fmt.Errorf("bench: nothing to plot")
	}
	for i, m := range methods {
		rs := byMethod[m]
		sort.Slice(rs, func(a, b int) bool { return rs[a].Work < rs[b].Work })
		var series, real plotter.XYs
		for _, r := range rs {
			pt := plotter.XY{X: float64(r.Work), Y: r.Median}
			if r.Synthetic {
				series = append(series, pt)
			} else {
				real = append(real, pt)
			}
		}
		c := palette[i%len(palette)]
		if len(series) > 0 {
			l, pts, err := plotter.NewLinePoints(series)
			if err != nil {
				return err
			}
			l.Color, pts.Color = c, c
			l.Dashes = dashes[i%len(dashes)]
			pts.Shape = shapes[i%len(shapes)]
			p.Add(l, pts)
			label := m + " (synthetic)"
			if b, err := GrowthExponent(results, m); err == nil {
				label = fmt.Sprintf("%s (synthetic, slope %.2f)", m, b)
			}
			p.Legend.Add(label, l, pts)
		}
		if len(real) > 0 {
			s, err := plotter.NewScatter(real)
			if err != nil {
				return err
			}
			s.Color = c
			s.Shape = draw.CrossGlyph{}
			s.Radius = vg.Points(4)
			p.Add(s)
			p.Legend.Add(m+" (paper's graphs)", s)
		}
	}
	p.Add(plotter.NewGrid())
	widenLogRange(&p.X)
	widenLogRange(&p.Y)
	return p.Save(7*vg.Inch, 5*vg.Inch, path)
}

// widenLogRange gives a log axis whose data span one value (a single fit, or equal
// medians) the decade around it: gonum widens such a range by ±1, which goes below zero
// for a value under 1 and makes the log scale panic.
func widenLogRange(a *plot.Axis) {
	if a.Min == a.Max && a.Min > 0 {
		a.Min, a.Max = a.Min/math.Sqrt(10), a.Max*math.Sqrt(10)
	}
}

var palette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{86, 180, 233, 255}, color.RGBA{230, 159, 0, 255},
	color.RGBA{0, 0, 0, 255},
}

var dashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}}

var shapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.PyramidGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PlusGlyph{}}

package render

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HeatmapFigure draws a row's measure on a dataset over a two-parameter grid (px across,
// py up), the other parameters at their best by the dataset's figure rule, each cell
// coloured (viridis, from the lowest to the highest value) and labelled with its mean.
// It writes dir/heat_<dataset>_<row>_<px>_<py>.<format>.
func HeatmapFigure(r *Results, dataset, method, px, py string, o FigureOptions) (*Figure, error) {
	_, vals := r.Swept(dataset, method)
	rule, m := r.figureRule(dataset, "")
	series := r.Sensitivity(dataset, method, px, py, rule, m)
	if len(series) == 0 {
		return nil, nil
	}
	xv, yv := vals[px], vals[py]
	grid, lo, hi := meanGrid(series, xv, yv)
	p := NewPlot(DefaultStyle, fmt.Sprintf("%s on %s: %s", method, DatasetTitle(dataset), m.Label), paramSymbol(px), paramSymbol(py))
	p.Add(&heatCells{grid: grid, lo: lo, hi: hi})
	p.X.Min, p.X.Max = -0.5, float64(len(xv))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(yv))-0.5
	var xt, yt []plot.Tick
	for i, v := range xv {
		xt = append(xt, plot.Tick{Value: float64(i), Label: v.Label})
	}
	for i, v := range yv {
		yt = append(yt, plot.Tick{Value: float64(i), Label: v.Label})
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
	fig := &Figure{
		Name: fmt.Sprintf("heat_%s_%s_%s_%s", r.Slug(dataset), r.MethodSlug(method), Slug(px), Slug(py)),
		Kind: "heatmap", Dataset: dataset, Method: method, Params: []string{px, py},
		Title: fmt.Sprintf("%s on %s: %s × %s", method, DatasetTitle(dataset), paramSymbol(px), paramSymbol(py)),
		Caption: fmt.Sprintf("%s (mean over restarts) of %s on %s at each %s × %s, the other parameters at the grid point "+
			"chosen by %s. Colour from the lowest (dark) to the highest (light) value; blank: not in the grid or no finished run.",
			m.Label, method, DatasetTitle(dataset), paramSymbol(px), paramSymbol(py), RuleText(rule)),
	}
	w := vg.Length(max(4.5, 1.2+0.55*float64(len(xv)))) * vg.Inch
	h := vg.Length(max(2.8, 1.1+0.35*float64(len(yv)))) * vg.Inch
	files, err := SaveCanvas(o, fig.Name, w, h, func(c draw.Canvas) { withMargin(c, p) })
	fig.Files = files
	return fig, err
}

// heatCells draws a grid of values as coloured unit cells centred on integer positions,
// each labelled with its value (three decimals).
//
// Not gonum's plotter.HeatMap: it draws no value in a cell (the report's heatmaps are
// read for their numbers), and it maps a value to one of a palette's discrete colours
// where this interpolates the viridis stops; gonum.org/v1/plot/palette has no viridis
// (its moreland maps are diverging or black-body). Drawing with HeatMap would change
// every heatmap's colours and drop its labels.
type heatCells struct {
	grid   [][]float64
	lo, hi float64
}

// viridis are stops of the viridis colour map (perceptually uniform, readable in grey).
var viridis = []color.RGBA{
	{0x44, 0x01, 0x54, 0xff}, {0x3b, 0x52, 0x8b, 0xff}, {0x21, 0x90, 0x8d, 0xff},
	{0x5d, 0xc9, 0x63, 0xff}, {0xfd, 0xe7, 0x25, 0xff},
}

// viridisAt interpolates the viridis stops at t in [0, 1].
func viridisAt(t float64) color.RGBA {
	t = math.Max(0, math.Min(1, t)) * float64(len(viridis)-1)
	i := min(int(t), len(viridis)-2)
	f := t - float64(i)
	a, b := viridis[i], viridis[i+1]
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + f*(float64(y)-float64(x)))) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// Plot implements plot.Plotter.
func (h *heatCells) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	sty := p.X.Tick.Label
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	sty.Font.Size = vg.Points(8)
	for yi, row := range h.grid {
		for xi, v := range row {
			if math.IsNaN(v) {
				continue
			}
			t := 0.5
			if h.hi > h.lo {
				t = (v - h.lo) / (h.hi - h.lo)
			}
			col := viridisAt(t)
			x0, x1 := tx(float64(xi)-0.5), tx(float64(xi)+0.5)
			y0, y1 := ty(float64(yi)-0.5), ty(float64(yi)+0.5)
			c.SetColor(col)
			var path vg.Path
			path.Move(vg.Point{X: x0, Y: y0})
			path.Line(vg.Point{X: x1, Y: y0})
			path.Line(vg.Point{X: x1, Y: y1})
			path.Line(vg.Point{X: x0, Y: y1})
			path.Close()
			c.Fill(path)
			sty.Color = color.White
			if t > 0.6 {
				sty.Color = color.Black
			}
			c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, Fmt3(v))
		}
	}
}

// meanGrid lays the series' means out as a len(yv)×len(xv) grid (row: the series' value
// of the second parameter, column: the first's), NaN where the grid has no point, and
// returns it with the smallest and largest mean.
func meanGrid(series []sensitivitySeries, xv, yv []paramValue) (grid [][]float64, lo, hi float64) {
	grid = make([][]float64, len(yv))
	for i := range grid {
		grid[i] = make([]float64, len(xv))
		for j := range grid[i] {
			grid[i][j] = math.NaN()
		}
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range series {
		yi := indexValue(yv, s.ByValue)
		for j, xi := range s.X {
			grid[yi][xi] = s.Mean[j]
			lo, hi = math.Min(lo, s.Mean[j]), math.Max(hi, s.Mean[j])
		}
	}
	return grid, lo, hi
}

package render

import (
	"fmt"
	"math"

	"github.com/nagc-harness/nagc/internal/paperplot"
)

// heatmapFigure draws a row's measure on a dataset over a two-parameter grid (px across,
// py up), the other parameters at their best by the dataset's figure rule, as viridis
// cells labelled with their means beside a colour bar (paperplot's Heatmap). It writes
// heat_<dataset>_<row>_<px>_<py>.<format> and returns nil if nothing is recorded.
func heatmapFigure(r *Results, dataset, method, px, py string, o FigureOptions, s *figureSettings) (*Figure, error) {
	_, vals := r.Swept(dataset, method)
	rule, m := r.figureRule(dataset, s.Metric)
	series := r.Sensitivity(dataset, method, px, py, rule, m)
	if len(series) == 0 {
		return nil, nil
	}
	xv, yv := vals[px], vals[py]
	grid := meanGrid(series, xv, yv)
	title := fmt.Sprintf("%s on %s: %s", method, DatasetTitle(dataset), m.Label)
	f := o.Style.Heatmap(title, symbol(px), symbol(py), m.Label, valueLabels(xv), valueLabels(yv), grid)
	fig := &Figure{
		Name: fmt.Sprintf("heat_%s_%s_%s_%s", r.slug(dataset), r.MethodSlug(method), slug(px), slug(py)),
		Kind: "heatmap", Dataset: dataset, Method: method, Params: []string{px, py},
		Title: fmt.Sprintf("%s on %s: %s × %s", method, DatasetTitle(dataset), paramSymbol(px), paramSymbol(py)),
		Caption: fmt.Sprintf("%s (mean over restarts) of %s on %s at each %s × %s, the other parameters at the grid point "+
			"chosen by %s. Colour from the lowest (dark) to the highest (light) value; blank: not in the grid or no finished run.",
			m.Label, method, DatasetTitle(dataset), paramSymbol(px), paramSymbol(py), ruleText(rule)),
	}
	if s.custom {
		fig.Caption = fmt.Sprintf("%s (mean over restarts) of %s on %s at each %s × %s, the other parameters at the grid point "+
			"chosen by %s. Colour (viridis) from the lowest to the highest value, as the bar shows; blank: not in the grid or "+
			"no finished run.", m.Label, method, DatasetTitle(dataset), paperplot.Plain(symbol(px)), paperplot.Plain(symbol(py)), ruleText(rule))
	}
	return fig, o.Save(fig, f)
}

// meanGrid lays the series' means out as a len(yv)×len(xv) grid (row: the series' value
// of the second parameter, column: the first's), NaN where the grid has no point.
func meanGrid(series []sensitivitySeries, xv, yv []paramValue) [][]float64 {
	grid := make([][]float64, len(yv))
	for i := range grid {
		grid[i] = make([]float64, len(xv))
		for j := range grid[i] {
			grid[i][j] = math.NaN()
		}
	}
	for _, s := range series {
		yi := indexValue(yv, s.ByValue)
		for j, xi := range s.X {
			grid[yi][xi] = s.Mean[j]
		}
	}
	return grid
}

package render

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/paperplot"
)

// This file draws the sweep figures styled for the reader's own paper (Options.FigureSettings,
// internal/paperplot; not the NAGC paper's comparison, package compare):
// the same data as SensitivityFigure, HeatmapFigure and ObjectiveFigure, sized and
// lettered as the settings say, with powers of ten on log axes, at least four labelled
// ticks, ×10^k on the axis label of large values and parameter symbols (λ, ρ, k₂).

// symbol is how a parameter is written on a styled figure's axes and legends (paperplot's
// script markup): λ, ρ, k_{2} (k₂), or its name.
func symbol(param string) string {
	switch param {
	case "lambda":
		return "λ"
	case "rho":
		return "ρ"
	case "k1", "k2":
		return "k_{" + param[1:] + "}"
	}
	return param
}

// valueLabel writes a parameter value on a styled figure: as a power of ten (10^{e})
// when pow says so and it is one, else as the report prints it.
func valueLabel(v paramValue, pow bool) string {
	if e, ok := powerOfTen(v); ok && pow {
		return paperplot.PowerOfTen(e)
	}
	return strings.ReplaceAll(v.Label, "-", "−")
}

// powerOfTen returns e where v is 10^e.
func powerOfTen(v paramValue) (int, bool) {
	if math.IsNaN(v.Num) || v.Num <= 0 {
		return 0, false
	}
	e := math.Round(math.Log10(v.Num))
	return int(e), math.Abs(v.Num-math.Pow(10, e)) < 1e-9*v.Num
}

// valueLabels writes the values of one axis: every power of ten as 10^{e} when one of
// them is below 10⁻² or above 10³ (as 10⁻⁴ would otherwise sit beside 0.01), the values
// as printed otherwise.
func valueLabels(vs []paramValue) []string {
	pow := false
	for _, v := range vs {
		if e, ok := powerOfTen(v); ok && (e < -2 || e > 3) {
			pow = true
		}
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = valueLabel(v, pow)
	}
	return out
}

// figureMeasure returns the rule and the measure of a dataset's figures: the settings'
// metric when set, else figureRule's.
func (r *Results) figureMeasure(dataset string, s *figureSettings) (string, Measure) {
	return r.figureRule(dataset, s.Metric)
}

// styledSensitivityFigure is SensitivityFigure drawn with the settings: the measure (or
// the settings' metric) against param, one line per value of a second parameter, spread
// as bars or bands of the std over restarts, the best other row as a dashed grey line.
func styledSensitivityFigure(r *Results, dataset, method, param, dir string, formats []string, s *figureSettings) (*Figure, error) {
	swept, vals := r.Swept(dataset, method)
	rule, m := r.figureMeasure(dataset, s)
	by := secondParam(swept, vals, param)
	series := r.Sensitivity(dataset, method, param, by, rule, m)
	if len(series) == 0 {
		return nil, nil
	}
	xv := vals[param]
	logX, numX := logAxis(xv), numericAxis(xv)
	sym := symbol(param)
	title := fmt.Sprintf("%s on %s: %s against %s", method, DatasetTitle(dataset), m.Label, sym)
	f := s.Style.NewFigure(title, sym, m.Label)
	f.Grid()
	xpos := func(i int) float64 {
		if numX {
			return xv[i].Num
		}
		return float64(i)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, se := range series {
		off := float64(i) - float64(len(series)-1)/2
		pts := make(plotter.XYs, len(se.X))
		low, high := make([]float64, len(se.X)), make([]float64, len(se.X))
		errs := ClippedErrors(se.Mean, se.Std, m.Lo, m.Hi)
		if math.IsNaN(m.Lo) {
			errs = ClippedErrors(se.Mean, se.Std, math.Inf(-1), math.Inf(1))
		}
		for j, xi := range se.X {
			x := xpos(xi)
			// Lines a little apart in x, so that their error bars do not overlap.
			switch {
			case s.Style.Errors != paperplot.ErrorBars:
			case logX:
				x *= math.Pow(10, 0.03*off)
			case numX && len(xv) > 1:
				x += 0.01 * off * (xv[len(xv)-1].Num - xv[0].Num)
			default:
				x += 0.04 * off
			}
			pts[j] = plotter.XY{X: x, Y: se.Mean[j]}
			low[j], high[j] = errs[j].Low, errs[j].High
			lo, hi = math.Min(lo, se.Mean[j]-low[j]), math.Max(hi, se.Mean[j]+high[j])
		}
		name := method
		if by != "" {
			name = symbol(by) + " = " + valueLabel(se.ByValue, true)
		}
		if err := f.Spread(i, pts, low, high); err != nil {
			return nil, err
		}
		if err := f.Line(i, name, pts); err != nil {
			return nil, err
		}
	}
	// Objectives of different rows measure different things: no comparison line then.
	other := ""
	if name, v, ok := r.bestOtherRow(dataset, method, rule, m); ok && rule != experiments.SelectObjective {
		f.HLine(name, v)
		lo, hi = math.Min(lo, v), math.Max(hi, v)
		other = name
	}
	if logX {
		f.Plot.X.Scale = plot.LogScale{}
		f.Plot.X.Tick.Marker = paperplot.LogTicks{}
		f.Plot.X.Min, f.Plot.X.Max = xv[0].Num/math.Pow(10, 0.3), xv[len(xv)-1].Num*math.Pow(10, 0.3)
	} else {
		if !numX { // categories at 0, 1, …
			ticks := make(plot.ConstantTicks, len(xv))
			for i, l := range valueLabels(xv) {
				ticks[i] = plot.Tick{Value: xpos(i), Label: l}
			}
			f.Plot.X.Tick.Marker = ticks
		}
		span := xpos(len(xv)-1) - xpos(0)
		pad := 0.06 * span
		if !numX || span == 0 {
			pad = 0.4
		}
		f.Plot.X.Min, f.Plot.X.Max = xpos(0)-pad, xpos(len(xv)-1)+pad
	}
	if math.IsNaN(m.Lo) {
		paperplot.ScaleAxis(&f.Plot.Y, lo, hi)
		f.Pad()
	} else {
		f.Pad(m.Lo, m.Hi)
	}
	fig := &Figure{
		Name: fmt.Sprintf("sens_%s_%s_%s", r.Slug(dataset), r.MethodSlug(method), Slug(param)),
		Kind: "sensitivity", Dataset: dataset, Method: method, Params: []string{param},
		Title:   paperplot.Plain(fmt.Sprintf("%s on %s: sensitivity to %s", method, DatasetTitle(dataset), sym)),
		Caption: styledSensitivityCaption(method, dataset, m, sym, by, rule, other, s.Style.Errors),
	}
	for _, se := range series {
		j := Argmax(se.Mean)
		if rule == experiments.SelectObjective && s.Metric == "" {
			j = argmin(se.Mean)
		}
		if j < 0 {
			continue
		}
		at := ""
		if by != "" {
			at = fmt.Sprintf(" at %s = %s", paramSymbol(by), se.ByValue.Label)
		}
		fig.Facts = append(fig.Facts, fmt.Sprintf("Best%s: %s = %s, %s %s (%s).", at, paramSymbol(param), xv[se.X[j]].Label, m.Label,
			FmtMeanStd(se.Mean[j], se.Std[j]), se.Params[j]))
	}
	return fig, saveStyledFigure(f, fig, dir, formats)
}

// styledSensitivityCaption says what a styled sensitivity figure draws.
func styledSensitivityCaption(method, dataset string, m Measure, sym, by, rule, other string, errs paperplot.Errors) string {
	c := fmt.Sprintf("%s (mean over restarts", m.Label)
	switch errs {
	case paperplot.ErrorBars:
		c += "; error bars: population std over restarts"
	case paperplot.ErrorBands:
		c += "; bands: population std over restarts"
	}
	if !math.IsNaN(m.Lo) && errs != paperplot.ErrorsNone {
		c += ", cut at the measure's range"
	}
	c += fmt.Sprintf(") of %s on %s against %s", method, DatasetTitle(dataset), paperplot.Plain(sym))
	if by != "" {
		c += fmt.Sprintf(", one line per %s", paperplot.Plain(symbol(by)))
	}
	c += fmt.Sprintf("; the other parameters at the grid point chosen by %s.", RuleText(rule))
	if other != "" {
		c += fmt.Sprintf(" Dashed grey: the best other row (%s) at the grid point that rule selects.", other)
	}
	return c
}

// saveStyledFigure writes a styled figure in every format to dir and lists its files,
// relative to dir, in fig.
func saveStyledFigure(f *paperplot.Figure, fig *Figure, dir string, formats []string) error {
	files, err := f.Save(filepath.Join(dir, fig.Name), formats...)
	for _, p := range files {
		fig.Files = append(fig.Files, filepath.Base(p))
	}
	return err
}

// styledHeatmapFigure is HeatmapFigure drawn with the settings: the measure over px × py
// as viridis cells labelled with their means, with a colour bar.
func styledHeatmapFigure(r *Results, dataset, method, px, py, dir string, formats []string, s *figureSettings) (*Figure, error) {
	_, vals := r.Swept(dataset, method)
	rule, m := r.figureMeasure(dataset, s)
	series := r.Sensitivity(dataset, method, px, py, rule, m)
	if len(series) == 0 {
		return nil, nil
	}
	xv, yv := vals[px], vals[py]
	grid, _, _ := meanGrid(series, xv, yv)
	title := fmt.Sprintf("%s on %s: %s", method, DatasetTitle(dataset), m.Label)
	f := s.Style.Heatmap(title, symbol(px), symbol(py), m.Label, valueLabels(xv), valueLabels(yv), grid)
	fig := &Figure{
		Name: fmt.Sprintf("heat_%s_%s_%s_%s", r.Slug(dataset), r.MethodSlug(method), Slug(px), Slug(py)),
		Kind: "heatmap", Dataset: dataset, Method: method, Params: []string{px, py},
		Title: fmt.Sprintf("%s on %s: %s × %s", method, DatasetTitle(dataset), paramSymbol(px), paramSymbol(py)),
		Caption: fmt.Sprintf("%s (mean over restarts) of %s on %s at each %s × %s, the other parameters at the grid point "+
			"chosen by %s. Colour (viridis) from the lowest to the highest value, as the bar shows; blank: not in the grid or "+
			"no finished run.", m.Label, method, DatasetTitle(dataset), paperplot.Plain(symbol(px)), paperplot.Plain(symbol(py)), RuleText(rule)),
	}
	return fig, saveStyledFigure(f, fig, dir, formats)
}

// styledObjectiveFigures are ObjectiveFigure drawn with the settings: one figure per
// iterative row (objective_<dataset>_<row>), as a column-wide figure holds one panel; a
// log axis where the curve spans more than a decade, else ×10^k on the axis label; a
// curve oscillating with period 2 drawn as its odd and its even iterates.
func styledObjectiveFigures(r *Results, dataset, dir string, formats []string, s *figureSettings) ([]*Figure, error) {
	var figs []*Figure
	for _, cv := range r.Curves(dataset) {
		if !s.wantsRow(cv.Method) {
			continue
		}
		ylabel, way := "objective", "minimised"
		if cv.Maximised {
			way = "maximised"
		}
		title := cv.Method + " on " + DatasetTitle(dataset)
		if cv.Swept != "" {
			title += ", " + cv.Swept
		}
		f := s.Style.NewFigure(title, "iteration", ylabel)
		f.Grid()
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range cv.Objective {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		osc := oscillates(cv.Objective)
		parts, names := [][]float64{nil}, []string{""}
		if osc {
			parts, names = [][]float64{nil, nil}, []string{"odd iterations", "even iterations"}
		}
		xs := make([][]float64, len(parts))
		for j, v := range cv.Objective {
			k := 0
			if osc {
				k = j % 2
			}
			parts[k] = append(parts[k], v)
			xs[k] = append(xs[k], float64(j+1))
		}
		for k, ys := range parts {
			pts := make(plotter.XYs, len(ys))
			for j := range ys {
				pts[j] = plotter.XY{X: xs[k][j], Y: ys[j]}
			}
			if err := f.Curve(k, names[k], pts); err != nil {
				return figs, fmt.Errorf("objective of %s: %w", cv.Method, err)
			}
		}
		if lo > 0 && hi/lo > 10 {
			f.Plot.Y.Scale = plot.LogScale{}
			f.Plot.Y.Tick.Marker = paperplot.LogTicks{}
		} else {
			paperplot.ScaleAxis(&f.Plot.Y, lo, hi)
		}
		f.Pad()
		fig := &Figure{
			Name: "objective_" + r.Slug(dataset) + "_" + r.MethodSlug(cv.Method), Kind: "objective", Dataset: dataset, Method: cv.Method,
			Title: fmt.Sprintf("Objective against iteration, %s on %s", cv.Method, DatasetTitle(dataset)),
			Caption: fmt.Sprintf("Objective (%s) of %s after each iteration of the restart-0 run at the grid point selected by %s (%s).",
				way, cv.Method, RuleText(r.Rules(dataset)[0]), paramsOr(cv.Params)),
			Facts: []string{curveFact(cv, osc)},
		}
		if osc {
			fig.Caption += " It alternates up and down (period 2): odd and even iterates are drawn as two lines."
		}
		if err := saveStyledFigure(f, fig, dir, formats); err != nil {
			return figs, err
		}
		figs = append(figs, fig)
	}
	return figs, nil
}

// paramsOr returns params, or "its defaults" when empty.
func paramsOr(params string) string {
	if params == "" {
		return "its defaults"
	}
	return params
}

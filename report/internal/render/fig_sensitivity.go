package render

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/nagc-harness/nagc/experiments"
)

// paramSymbol is how a parameter is written in figures: λ, ρ, or its name.
func paramSymbol(param string) string {
	switch param {
	case "lambda":
		return "λ"
	case "rho":
		return "ρ"
	}
	return param
}

// logAxis reports whether a parameter's values are drawn on a log axis: all positive
// numbers spanning at least two decades.
func logAxis(vals []paramValue) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if math.IsNaN(v.Num) || v.Num <= 0 {
			return false
		}
		lo, hi = math.Min(lo, v.Num), math.Max(hi, v.Num)
	}
	return hi/lo >= 100
}

// numericAxis reports whether every value is a number.
func numericAxis(vals []paramValue) bool {
	for _, v := range vals {
		if math.IsNaN(v.Num) {
			return false
		}
	}
	return len(vals) > 0
}

// SensitivityFigure draws a row's measure against one swept parameter on a dataset (the
// ARI where the dataset has labels, else the label-free rule's score), one line per value
// of a second swept parameter (the one with fewest values), the other parameters at their
// best by the same rule; error bars are the std over restarts, cut at the measure's range.
// The best other row at its selected grid point is a dashed grey line. It writes
// dir/sens_<dataset>_<row>_<param>.<format> and returns nil if nothing is recorded.
func SensitivityFigure(r *Results, dataset, method, param string, o FigureOptions) (*Figure, error) {
	swept, vals := r.Swept(dataset, method)
	rule, m := r.figureRule(dataset, "")
	by := secondParam(swept, vals, param)
	series := r.Sensitivity(dataset, method, param, by, rule, m)
	if len(series) == 0 {
		return nil, nil
	}
	ax := newParamAxis(vals[param])
	sym := paramSymbol(param)
	xlabel := sym
	if ax.log {
		xlabel += " (log scale)"
	}
	p := NewPlot(DefaultStyle, fmt.Sprintf("%s on %s: %s against %s", method, DatasetTitle(dataset), m.Label, sym), xlabel, m.Label)
	leg := NewLegendBox(DefaultStyle)
	ymin, ymax, err := addSensitivityLines(p, leg, series, ax, m, method, by)
	if err != nil {
		return nil, err
	}
	// Objectives of different rows measure different things: no comparison line then.
	if name, v, ok := r.bestOtherRow(dataset, method, rule, m); ok && rule != experiments.SelectObjective {
		ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
		bl := Horizontal(v)
		bl.Color, bl.Dashes, bl.Width = color.Gray{0x55}, []vg.Length{vg.Points(8), vg.Points(4)}, vg.Points(1.2)
		p.Add(bl)
		leg.AddEntry(fmt.Sprintf("best other row: %s (%s)", name, fmtTick(v)), bl)
	}
	if !math.IsNaN(m.Lo) {
		leg.AddEntry("error bars: std over restarts")
	}
	p.Add(plotter.NewGrid())
	pad := 0.05 * math.Max(ymax-ymin, 0.05)
	p.Y.Min, p.Y.Max = ymin-pad, ymax+pad
	if !math.IsNaN(m.Lo) {
		p.Y.Min, p.Y.Max = math.Max(p.Y.Min, m.Lo), math.Min(p.Y.Max, m.Hi)
	}
	ax.setX(p)
	fig := &Figure{
		Name: fmt.Sprintf("sens_%s_%s_%s", r.Slug(dataset), r.MethodSlug(method), Slug(param)),
		Kind: "sensitivity", Dataset: dataset, Method: method, Params: []string{param},
		Title:   fmt.Sprintf("%s on %s: sensitivity to %s", method, DatasetTitle(dataset), sym),
		Caption: sensitivityCaption(m, rule, method, DatasetTitle(dataset), sym, by),
		Facts:   sensitivityFacts(series, ax.vals, m, rule, sym, by),
	}
	files, err := SaveCanvas(o, fig.Name, DefaultStyle.Width, DefaultStyle.Height, func(c draw.Canvas) {
		WithLegend(c, p, leg)
	})
	fig.Files = files
	return fig, err
}

// paramAxis is the x axis of a swept parameter: its values, on a log scale when they
// span two decades (logAxis), at their numbers when all are numbers (numericAxis), else
// at 0, 1, … as categories.
type paramAxis struct {
	vals     []paramValue
	log, num bool
}

func newParamAxis(vals []paramValue) paramAxis {
	return paramAxis{vals: vals, log: logAxis(vals), num: numericAxis(vals)}
}

// pos is the position of the i-th value on the axis.
func (a paramAxis) pos(i int) float64 {
	if a.num {
		return a.vals[i].Num
	}
	return float64(i)
}

// offset moves the position x of line off (centred on 0) slightly, so that the error bars
// of the lines at one value do not overlap.
func (a paramAxis) offset(x, off float64) float64 {
	switch {
	case a.log:
		return x * math.Pow(10, 0.03*off)
	case a.num && len(a.vals) > 1:
		return x + 0.01*off*(a.vals[len(a.vals)-1].Num-a.vals[0].Num)
	}
	return x + 0.04*off
}

// setX sets the plot's x scale, ticks (every value labelled; powers of ten on a log
// axis) and range (a margin around the values).
func (a paramAxis) setX(p *plot.Plot) {
	xv := a.vals
	if a.log {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.TickerFunc(LogTicks)
		p.X.Min, p.X.Max = xv[0].Num/math.Pow(10, 0.3), xv[len(xv)-1].Num*math.Pow(10, 0.3)
		return
	}
	var ticks []plot.Tick
	for i, v := range xv {
		ticks = append(ticks, plot.Tick{Value: a.pos(i), Label: v.Label})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	span := a.pos(len(xv)-1) - a.pos(0)
	if span == 0 {
		span = 1
	}
	pad := 0.06 * span
	if !a.num {
		pad = 0.4 // categories sit at 0, 1, …: half a step of room at each end
	}
	p.X.Min, p.X.Max = a.pos(0)-pad, a.pos(len(xv)-1)+pad
}

// addSensitivityLines adds a line with markers per series (and error bars where the
// Measure is bounded) to p and its legend, and returns the range of mean ± std drawn.
func addSensitivityLines(p *plot.Plot, leg *LegendBox, series []sensitivitySeries, ax paramAxis, m Measure,
	method, by string) (ymin, ymax float64, err error) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for i, s := range series {
		st := SeriesStyle(i)
		off := float64(i) - float64(len(series)-1)/2
		pts := make(plotter.XYs, len(s.X))
		for j, xi := range s.X {
			pts[j] = plotter.XY{X: ax.offset(ax.pos(xi), off), Y: s.Mean[j]}
			sd := s.Std[j]
			if math.IsNaN(sd) {
				sd = 0
			}
			ymin, ymax = math.Min(ymin, s.Mean[j]-sd), math.Max(ymax, s.Mean[j]+sd)
		}
		line, scatter, err := plotter.NewLinePoints(pts)
		if err != nil {
			return 0, 0, err
		}
		line.Color, line.Dashes, line.Width = st.Color, st.Dashes, vg.Points(1.5)
		scatter.GlyphStyle = draw.GlyphStyle{Color: st.Color, Shape: st.Glyph, Radius: vg.Points(3.5)}
		p.Add(line, scatter)
		if !math.IsNaN(m.Lo) {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{pts, ClippedErrors(s.Mean, s.Std, m.Lo, m.Hi)})
			if err != nil {
				return 0, 0, err
			}
			eb.Color, eb.Width, eb.CapWidth = st.Color, vg.Points(0.8), vg.Points(5)
			p.Add(eb)
		}
		name := method
		if by != "" {
			name = paramSymbol(by) + " = " + s.ByValue.Label
		}
		leg.AddEntry(name, line, scatter)
	}
	return ymin, ymax, nil
}

// sensitivityCaption says what a sensitivity figure draws.
func sensitivityCaption(m Measure, rule, method, dataset, sym, by string) string {
	caption := fmt.Sprintf("%s (mean over restarts", m.Label)
	if !math.IsNaN(m.Lo) {
		caption += "; error bars: population std over restarts, cut at the axis"
	}
	caption += fmt.Sprintf(") of %s on %s against %s", method, dataset, sym)
	if by != "" {
		caption += fmt.Sprintf(", one line per %s", paramSymbol(by))
	}
	caption += fmt.Sprintf("; the other parameters at the grid point chosen by %s.", RuleText(rule))
	if rule != experiments.SelectObjective {
		caption += " Dashed grey: the best other row at the grid point that rule selects."
	}
	return caption
}

// sensitivityFacts gives the best value of each line (the lowest for the objective) with
// its grid point.
func sensitivityFacts(series []sensitivitySeries, xv []paramValue, m Measure, rule, sym, by string) []string {
	var facts []string
	for _, s := range series {
		j := Argmax(s.Mean)
		if rule == experiments.SelectObjective {
			j = argmin(s.Mean)
		}
		if j < 0 {
			continue
		}
		at := ""
		if by != "" {
			at = fmt.Sprintf(" at %s = %s", paramSymbol(by), s.ByValue.Label)
		}
		facts = append(facts, fmt.Sprintf("Best%s: %s = %s, %s %s (%s).", at, sym, xv[s.X[j]].Label, m.Label,
			FmtMeanStd(s.Mean[j], s.Std[j]), s.Params[j]))
	}
	return facts
}

func argmin(v []float64) int {
	j := -1
	for i, x := range v {
		if !math.IsNaN(x) && (j < 0 || x < v[j]) {
			j = i
		}
	}
	return j
}

// bestOtherRow returns the row other than method with the best measure at the grid point
// rule selects on a dataset.
func (r *Results) bestOtherRow(dataset, method, rule string, m Measure) (string, float64, bool) {
	name, best := "", math.NaN()
	for _, o := range r.Methods {
		if o == method {
			continue
		}
		p := r.Selected(rule, dataset, o)
		if p == nil {
			continue
		}
		v, _, ok := m.get(p)
		if !ok {
			continue
		}
		if math.IsNaN(best) || v > best {
			name, best = o, v
		}
	}
	return name, best, name != ""
}

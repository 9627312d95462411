package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/paperplot"
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

// sensitivityFigure draws a row's measure against one swept parameter on a dataset (the
// settings' metric, else the ARI where the dataset has labels, else the label-free
// rule's score), one line per value of a second swept parameter (the one with fewest
// values), the other parameters at their best by the same rule; the spread is the std
// over restarts, cut at the measure's range. The best other row at its selected grid
// point is a dashed grey line. It writes sens_<dataset>_<row>_<param>.<format> and
// returns nil if nothing is recorded.
func sensitivityFigure(r *Results, dataset, method, param string, o FigureOptions, s *figureSettings) (*Figure, error) {
	swept, vals := r.Swept(dataset, method)
	rule, m := r.figureRule(dataset, s.Metric)
	by := secondParam(swept, vals, param)
	series := r.Sensitivity(dataset, method, param, by, rule, m)
	if len(series) == 0 {
		return nil, nil
	}
	if !s.custom && math.IsNaN(m.Lo) {
		o.Style.Errors = paperplot.ErrorsNone // the report's own caption names bars only on a bounded measure
	}
	ax := newParamAxis(vals[param])
	sym := symbol(param)
	f := o.Style.NewFigure(fmt.Sprintf("%s on %s: %s against %s", method, DatasetTitle(dataset), m.Label, sym), sym, m.Label)
	f.Grid()
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, se := range series {
		off := float64(i) - float64(len(series)-1)/2
		pts := make(paperplot.XYs, len(se.X))
		low, high := clippedErrors(se.Mean, se.Std, m.Lo, m.Hi)
		if math.IsNaN(m.Lo) {
			low, high = clippedErrors(se.Mean, se.Std, math.Inf(-1), math.Inf(1))
		}
		for j, xi := range se.X {
			x := ax.pos(xi)
			if o.Style.Errors == paperplot.ErrorBars {
				x = ax.offset(x, off) // lines a little apart, so that their bars do not overlap
			}
			pts[j] = paperplot.XY{X: x, Y: se.Mean[j]}
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
	ax.setX(f)
	if math.IsNaN(m.Lo) {
		paperplot.ScaleAxis(&f.Plot.Y, lo, hi)
		f.Pad()
	} else {
		f.Pad(m.Lo, m.Hi)
	}
	fig := &Figure{
		Name: fmt.Sprintf("sens_%s_%s_%s", r.slug(dataset), r.MethodSlug(method), slug(param)),
		Kind: "sensitivity", Dataset: dataset, Method: method, Params: []string{param},
		Title:   fmt.Sprintf("%s on %s: sensitivity to %s", method, DatasetTitle(dataset), paramSymbol(param)),
		Caption: sensitivityCaption(m, rule, method, DatasetTitle(dataset), paramSymbol(param), by),
		Facts:   sensitivityFacts(series, ax.vals, m, rule == experiments.SelectObjective && s.Metric == "", paramSymbol(param), by),
	}
	if s.custom {
		fig.Title = paperplot.Plain(fmt.Sprintf("%s on %s: sensitivity to %s", method, DatasetTitle(dataset), sym))
		fig.Caption = styledSensitivityCaption(method, dataset, m, sym, by, rule, other, o.Style.Errors)
	}
	return fig, o.Save(fig, f)
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

// setX sets the plot's x scale, ticks (powers of ten on a log axis, else every value
// named where they are categories or at most eight) and range (a margin around the
// values).
func (a paramAxis) setX(f *paperplot.Figure) {
	xv := a.vals
	p := f.Plot
	if a.log {
		f.LogX()
		p.X.Min, p.X.Max = xv[0].Num/math.Pow(10, 0.3), xv[len(xv)-1].Num*math.Pow(10, 0.3)
		return
	}
	if !a.num || len(xv) <= 8 { // few values: each one named, as in the grid
		at := make([]float64, len(xv))
		for i := range at {
			at[i] = a.pos(i)
		}
		f.XTicks(at, valueLabels(xv))
	}
	span := a.pos(len(xv)-1) - a.pos(0)
	pad := 0.06 * span
	if !a.num || span == 0 {
		pad = 0.4 // categories sit at 0, 1, …: half a step of room at each end
	}
	p.X.Min, p.X.Max = a.pos(0)-pad, a.pos(len(xv)-1)+pad
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
	caption += fmt.Sprintf("; the other parameters at the grid point chosen by %s.", ruleText(rule))
	if rule != experiments.SelectObjective {
		caption += " Dashed grey: the best other row at the grid point that rule selects."
	}
	return caption
}

// sensitivityFacts gives the best value of each line (the lowest where lowBest: the
// objective) with its grid point.
func sensitivityFacts(series []sensitivitySeries, xv []paramValue, m Measure, lowBest bool, sym, by string) []string {
	var facts []string
	for _, s := range series {
		j := argmax(s.Mean)
		if lowBest {
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
			fmtMeanStd(s.Mean[j], s.Std[j]), s.Params[j]))
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

// styledSensitivityCaption says what a sensitivity figure drawn with a figures section
// draws.
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
	c += fmt.Sprintf("; the other parameters at the grid point chosen by %s.", ruleText(rule))
	if other != "" {
		c += fmt.Sprintf(" Dashed grey: the best other row (%s) at the grid point that rule selects.", other)
	}
	return c
}

// symbol is how a parameter is written on a figure's axes and legends (paperplot's
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

// valueLabel writes a parameter value on a figure: as a power of ten (10^{e}) when pow
// says so and it is one, else as the report prints it.
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

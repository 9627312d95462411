package report

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
	rule, m := r.figureRule(dataset, o.Style.Metric)
	by := secondParam(swept, vals, param)
	series := r.Sensitivity(dataset, method, param, by, rule, m)
	if len(series) == 0 {
		return nil, nil
	}
	xv := vals[param]
	logX, numX := logAxis(xv), numericAxis(xv)
	sym := paramSymbol(param)
	xlabel := sym
	if logX {
		xlabel += " (log scale)"
	}
	p := newPlot(o.Style, fmt.Sprintf("%s on %s: %s against %s", method, datasetTitle(dataset), m.Label, sym), xlabel, m.Label)
	leg := newLegendBox(o.Style)
	xpos := func(i int) float64 {
		if numX {
			return xv[i].Num
		}
		return float64(i)
	}
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for i, s := range series {
		st := seriesStyle(i)
		off := float64(i) - float64(len(series)-1)/2
		pts := make(plotter.XYs, len(s.X))
		for j, xi := range s.X {
			x := xpos(xi)
			// Offset the lines slightly in x so that their error bars do not overlap.
			switch {
			case logX:
				x *= math.Pow(10, 0.03*off)
			case numX && len(xv) > 1:
				x += 0.01 * off * (xv[len(xv)-1].Num - xv[0].Num)
			default:
				x += 0.04 * off
			}
			pts[j] = plotter.XY{X: x, Y: s.Mean[j]}
			sd := s.Std[j]
			if math.IsNaN(sd) {
				sd = 0
			}
			ymin, ymax = math.Min(ymin, s.Mean[j]-sd), math.Max(ymax, s.Mean[j]+sd)
		}
		line, scatter, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		line.Color, line.Dashes, line.Width = st.Color, st.Dashes, vg.Points(1.5)
		scatter.GlyphStyle = draw.GlyphStyle{Color: st.Color, Shape: st.Glyph, Radius: vg.Points(3.5)}
		p.Add(line, scatter)
		if !math.IsNaN(m.Lo) {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{pts, clippedErrors(s.Mean, s.Std, m.Lo, m.Hi)})
			if err != nil {
				return nil, err
			}
			eb.Color, eb.Width, eb.CapWidth = st.Color, vg.Points(0.8), vg.Points(5)
			p.Add(eb)
		}
		name := method
		if by != "" {
			name = paramSymbol(by) + " = " + s.ByValue.Label
		}
		leg.add(name, line, scatter)
	}
	// Objectives of different rows measure different things: no comparison line then.
	if name, v, ok := r.bestOtherRow(dataset, method, rule, m); ok && rule != experiments.SelectObjective {
		ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
		bl := horizontal(v)
		bl.Color, bl.Dashes, bl.Width = color.Gray{0x55}, []vg.Length{vg.Points(8), vg.Points(4)}, vg.Points(1.2)
		p.Add(bl)
		leg.add(fmt.Sprintf("best other row: %s (%s)", name, fmtTick(v)), bl)
	}
	if !math.IsNaN(m.Lo) {
		leg.add("error bars: std over restarts")
	}
	p.Add(plotter.NewGrid())
	pad := 0.05 * math.Max(ymax-ymin, 0.05)
	p.Y.Min, p.Y.Max = ymin-pad, ymax+pad
	if !math.IsNaN(m.Lo) {
		p.Y.Min, p.Y.Max = math.Max(p.Y.Min, m.Lo), math.Min(p.Y.Max, m.Hi)
	}
	switch {
	case logX:
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.TickerFunc(logTicks)
		p.X.Min, p.X.Max = xv[0].Num/math.Pow(10, 0.3), xv[len(xv)-1].Num*math.Pow(10, 0.3)
	default:
		var ticks []plot.Tick
		for i, v := range xv {
			ticks = append(ticks, plot.Tick{Value: xpos(i), Label: v.Label})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		span := xpos(len(xv)-1) - xpos(0)
		if span == 0 {
			span = 1
		}
		pad := 0.06 * span
		if !numX {
			pad = 0.4 // categories sit at 0, 1, …: half a step of room at each end
		}
		p.X.Min, p.X.Max = xpos(0)-pad, xpos(len(xv)-1)+pad
	}
	caption := fmt.Sprintf("%s (mean over restarts", m.Label)
	if !math.IsNaN(m.Lo) {
		caption += "; error bars: population std over restarts, cut at the axis"
	}
	caption += fmt.Sprintf(") of %s on %s against %s", method, datasetTitle(dataset), sym)
	if by != "" {
		caption += fmt.Sprintf(", one line per %s", paramSymbol(by))
	}
	caption += fmt.Sprintf("; the other parameters at the grid point chosen by %s.", RuleText(rule))
	if rule != experiments.SelectObjective {
		caption += " Dashed grey: the best other row at the grid point that rule selects."
	}
	fig := &Figure{
		Name: fmt.Sprintf("sens_%s_%s_%s", r.Slug(dataset), r.MethodSlug(method), Slug(param)),
		Kind: "sensitivity", Dataset: dataset, Method: method, Params: []string{param},
		Title: fmt.Sprintf("%s on %s: sensitivity to %s", method, datasetTitle(dataset), sym), Caption: caption,
	}
	for _, s := range series {
		j := argmax(s.Mean)
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
		fig.Facts = append(fig.Facts, fmt.Sprintf("Best%s: %s = %s, %s %s (%s).", at, sym, xv[s.X[j]].Label, m.Label,
			fmtMeanStd(s.Mean[j], s.Std[j]), s.Params[j]))
	}
	files, err := saveCanvas(o, fig.Name, o.Style.Width, o.Style.Height, func(c draw.Canvas) {
		withLegend(c, p, leg)
	})
	fig.Files = files
	return fig, err
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
func (r *Results) bestOtherRow(dataset, method, rule string, m measure) (string, float64, bool) {
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

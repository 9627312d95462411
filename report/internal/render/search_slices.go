package render

import (
	"fmt"
	"math"

	"github.com/nagc-harness/nagc/internal/paperplot"
)

// logSpan is the ratio of a parameter's largest to its smallest sampled value from
// which a slice plot draws it on a log axis (all values positive): two decades, which
// a log-uniform space spans and a uniform one over positive values rarely does.
const logSpan = 100

// sliceFigure draws one panel per numeric parameter of search v: the mean rule value
// over restarts of every trial that completed the last rung against the trial's value
// of the parameter, on a log axis where the sampled values are positive and span at
// least logSpan. Records do not say how a space was declared, so the axis follows the
// values. Nil when no trial completed the last rung.
func (r *Results) sliceFigure(v *searchView, o FigureOptions) (*Figure, error) {
	keys := v.paramKeys()
	var figs []*paperplot.Figure
	var drawn, logs []string
	for _, k := range keys {
		var pts paperplot.XYs
		numeric := true
		for _, t := range v.Trials {
			y := t.Values[t.last]
			if !t.Finished || math.IsInf(y, 0) || math.IsNaN(y) {
				continue
			}
			x := paramFloat(t.Params, k)
			if math.IsNaN(x) {
				numeric = false
				break
			}
			pts = append(pts, paperplot.XY{X: x, Y: y})
		}
		if !numeric || len(pts) == 0 {
			continue
		}
		f := o.Style.NewFigure("", symbol(k), ruleLabel(v.Rule))
		f.Grid()
		if err := f.Points(0, "", pts); err != nil {
			return nil, err
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range pts {
			lo, hi = min(lo, p.X), max(hi, p.X)
		}
		if lo > 0 && hi >= logSpan*lo {
			f.LogX()
			logs = append(logs, paramSymbol(k))
		}
		f.Pad()
		figs = append(figs, f)
		drawn = append(drawn, paramSymbol(k))
	}
	if len(figs) == 0 {
		return nil, nil
	}
	p, err := o.Style.NewPanels(2, figs...)
	if err != nil {
		return nil, err
	}
	caption := fmt.Sprintf("The mean %s over restarts of each trial that completed the last rung, against its value of %s.", ruleLabel(v.Rule), wordList(drawn))
	if len(logs) > 0 {
		caption += fmt.Sprintf(" Log axis for %s (its sampled values span more than two decades).", wordList(logs))
	}
	fig := &Figure{Name: "search_slices_" + r.searchSlug(v), Kind: "search", Dataset: v.Dataset, Method: v.Row, Params: keys,
		Title: fmt.Sprintf("%s on %s: the search's value against each parameter", v.Row, DatasetTitle(v.Dataset)), Caption: caption}
	return fig, o.Save(fig, p)
}

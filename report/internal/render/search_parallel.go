package render

import (
	"fmt"
	"math"
	"sort"

	"github.com/nagc-harness/nagc/internal/paperplot"
)

// parallelFigure draws parallel coordinates of every trial of search v: one axis per
// parameter whose trials take more than one value (numeric on a log axis where the
// values are positive and span at least logSpan, as the slice plots; otherwise its
// values in order as categories), then an axis of the rule's value; a trial that
// completed the last rung is a line coloured by its mean value over restarts there,
// one cut (or still running) a grey line that stops before the value axis. Nil when
// no parameter varies.
func (r *Results) parallelFigure(v *searchView, o FigureOptions) (*Figure, error) {
	var params []parallelAxisOf
	var keys, drawn, logs []string
	for _, k := range v.paramKeys() {
		a, varies := parallelAxis(v, k)
		if !varies {
			continue
		}
		params, keys = append(params, a), append(keys, k)
		drawn = append(drawn, paramSymbol(k))
		if a.Log {
			logs = append(logs, paramSymbol(k))
		}
	}
	if len(params) == 0 {
		return nil, nil
	}
	axes := make([]paperplot.ParallelAxis, len(params), len(params)+1)
	for i, a := range params {
		axes[i] = a.ParallelAxis
	}
	value := paperplot.ParallelAxis{Name: ruleLabel(v.Rule), Lo: math.Inf(1), Hi: math.Inf(-1)}
	var lines []paperplot.ParallelLine
	for _, t := range v.Trials {
		l := paperplot.ParallelLine{X: make([]float64, len(axes)+1), Muted: !t.Finished}
		for i, k := range keys {
			l.X[i] = params[i].coordinate(t.Params, k)
		}
		l.X[len(axes)] = math.NaN()
		if y := t.Values[t.last]; t.Finished && !math.IsInf(y, 0) && !math.IsNaN(y) {
			l.X[len(axes)], l.Value = y, y
			value.Lo, value.Hi = math.Min(value.Lo, y), math.Max(value.Hi, y)
		} else {
			l.Muted = true
		}
		lines = append(lines, l)
	}
	if math.IsInf(value.Lo, 0) {
		value.Lo, value.Hi = 0, 1
	}
	axes = append(axes, value)
	f, err := o.Style.Parallel(fmt.Sprintf("%s on %s: trials", v.Row, DatasetTitle(v.Dataset)), axes, lines)
	if err != nil {
		return nil, err
	}
	caption := fmt.Sprintf("Every trial of the search as a line through its values of %s and, for a trial that completed the last rung, its mean %s over restarts there, which colours it; cut trials grey, ending before the last axis.",
		wordList(drawn), ruleLabel(v.Rule))
	if len(logs) > 0 {
		caption += fmt.Sprintf(" Log axis for %s (its sampled values span more than two decades).", wordList(logs))
	}
	fig := &Figure{Name: "search_parallel_" + r.searchSlug(v), Kind: "search", Dataset: v.Dataset, Method: v.Row, Params: keys,
		Title: fmt.Sprintf("%s on %s: the search's trials in parallel coordinates", v.Row, DatasetTitle(v.Dataset)), Caption: caption}
	return fig, o.Save(fig, f)
}

// parallelAxis returns the axis of parameter k over the trials of v, and whether the
// trials take more than one value of it: numeric where every value is a number, else
// categorical over the values' texts in sorted order.
func parallelAxis(v *searchView, k string) (parallelAxisOf, bool) {
	a := parallelAxisOf{ParallelAxis: paperplot.ParallelAxis{Name: symbol(k), Lo: math.Inf(1), Hi: math.Inf(-1)}}
	seen := map[string]bool{}
	numeric := true
	for _, t := range v.Trials {
		seen[fmt.Sprint(t.Params[k])] = true
		x := paramFloat(t.Params, k)
		numeric = numeric && !math.IsNaN(x)
		a.Lo, a.Hi = math.Min(a.Lo, x), math.Max(a.Hi, x)
	}
	if len(seen) < 2 {
		return a, false
	}
	if numeric {
		a.Log = searchLogAxis(a.Lo, a.Hi)
		return a, true
	}
	a.Lo, a.Hi = 0, 0
	for s := range seen {
		a.Labels = append(a.Labels, s)
	}
	sort.Strings(a.Labels)
	return a, true
}

// parallelAxisOf is a parameter's axis of parallel coordinates, which places its
// values.
type parallelAxisOf struct{ paperplot.ParallelAxis }

// coordinate returns the coordinate on the axis of parameter k of params: its number,
// or the index of its text among the categories.
func (a parallelAxisOf) coordinate(params map[string]any, k string) float64 {
	if a.Labels == nil {
		return paramFloat(params, k)
	}
	return float64(sort.SearchStrings(a.Labels, fmt.Sprint(params[k])))
}

// searchLogAxis reports whether a search's parameter sampled over [lo, hi] is drawn on
// a log axis: positive values spanning at least logSpan.
func searchLogAxis(lo, hi float64) bool { return lo > 0 && hi >= logSpan*lo }

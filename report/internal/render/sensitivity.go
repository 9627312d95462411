package render

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/nagc-harness/nagc/experiments"
)

// figureRule returns the rule by which a dataset's sensitivity figures and heatmaps hold
// the other parameters at their best, and the measure they plot: metric when it is not
// "", else the ARI by the paper's rule where the dataset has labels, else the label-free
// rule's own score.
func (r *Results) figureRule(dataset, metric string) (string, Measure) {
	rule := r.Rules(dataset)[0]
	if metric != "" {
		return rule, metricMeasure(metric)
	}
	return rule, ruleMeasure(rule)
}

// paramValue is one value of a swept parameter.
type paramValue struct {
	Key   string  // canonical text, compared for equality
	Num   float64 // the number, NaN for a non-numeric value
	Label string  // printed on axes and in tables
}

func valueOf(v any) paramValue {
	if f := paramFloat(map[string]any{"v": v}, "v"); !math.IsNaN(f) {
		return paramValue{Key: strconv.FormatFloat(f, 'g', -1, 64), Num: f, Label: fmtParam(f)}
	}
	s := fmt.Sprint(v)
	return paramValue{Key: "s:" + s, Num: math.NaN(), Label: s}
}

// Swept returns the parameters of a row on a dataset whose value differs between its
// grid points (sorted by name), and the values of each, numbers ascending, others in
// first-seen order.
func (r *Results) Swept(dataset, method string) ([]string, map[string][]paramValue) {
	pts := r.PointsOf(dataset, method)
	vals := map[string][]paramValue{}
	present := map[string]int{}
	for _, p := range pts {
		for k, v := range p.Params {
			present[k]++
			pv := valueOf(v)
			if !containsValue(vals[k], pv) {
				vals[k] = append(vals[k], pv)
			}
		}
	}
	var swept []string
	for k, vs := range vals {
		if len(vs) > 1 || present[k] < len(pts) {
			swept = append(swept, k)
			numeric := true
			for _, v := range vs {
				numeric = numeric && !math.IsNaN(v.Num)
			}
			if numeric {
				sort.Slice(vs, func(a, b int) bool { return vs[a].Num < vs[b].Num })
			}
		} else {
			delete(vals, k)
		}
	}
	sort.Strings(swept)
	return swept, vals
}

func containsValue(vs []paramValue, v paramValue) bool {
	for _, x := range vs {
		if x.Key == v.Key {
			return true
		}
	}
	return false
}

func indexValue(vs []paramValue, v paramValue) int {
	for i, x := range vs {
		if x.Key == v.Key {
			return i
		}
	}
	return -1
}

// sensitivitySeries is one line of a sensitivity figure: a measure at each value of a parameter,
// with a second parameter held at one value and the others at their best.
type sensitivitySeries struct {
	// By is the second parameter ("" if the row sweeps one) and ByValue its value.
	By      string
	ByValue paramValue
	// X indexes the parameter's values (Swept order); Mean, Std the measure there over
	// restarts; Params the chosen grid point of each x.
	X         []int
	Mean, Std []float64
	Params    []string
}

// secondParam returns the swept parameter other than param with the fewest values (ties:
// by name), "" if there is none.
func secondParam(swept []string, vals map[string][]paramValue, param string) string {
	by := ""
	for _, k := range swept {
		if k != param && (by == "" || len(vals[k]) < len(vals[by])) {
			by = k
		}
	}
	return by
}

// Sensitivity returns the lines of the sensitivity figure of a row's parameter on a
// dataset: one per value of by ("" for a single line), each giving, for every value of
// param, the measure of the grid point chosen by rule among those with these two values
// (the other parameters at their best). Points without finished runs are left out.
func (r *Results) Sensitivity(dataset, method, param, by, rule string, m Measure) []sensitivitySeries {
	_, vals := r.Swept(dataset, method)
	type key struct{ b, x int }
	groups := map[key][]*experiments.PointStats{}
	for _, p := range r.PointsOf(dataset, method) {
		if p.Runs == 0 {
			continue
		}
		v, ok := p.Params[param]
		if !ok {
			continue
		}
		k := key{0, indexValue(vals[param], valueOf(v))}
		if by != "" {
			bv, ok := p.Params[by]
			if !ok {
				continue
			}
			k.b = indexValue(vals[by], valueOf(bv))
		}
		groups[k] = append(groups[k], p)
	}
	nb := 1
	if by != "" {
		nb = len(vals[by])
	}
	var out []sensitivitySeries
	for b := 0; b < nb; b++ {
		s := sensitivitySeries{By: by}
		if by != "" {
			s.ByValue = vals[by][b]
		}
		for x := range vals[param] {
			g := groups[key{b, x}]
			if len(g) == 0 {
				continue
			}
			best, err := experiments.Best(g, rule)
			if err != nil || len(best) == 0 {
				continue
			}
			mean, std, ok := m.get(best[0])
			if !ok {
				continue
			}
			s.X, s.Mean, s.Std = append(s.X, x), append(s.Mean, mean), append(s.Std, std)
			s.Params = append(s.Params, ParamString(best[0].Params))
		}
		if len(s.X) > 0 {
			out = append(out, s)
		}
	}
	return out
}

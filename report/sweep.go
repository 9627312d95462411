package report

import (
	"encoding/csv"
	"fmt"
	"github.com/nagc-harness/nagc/internal/texttable"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
)

// measure is a quantity of a grid point that a table or figure shows: a metric's mean
// and std over restarts, or a selection rule's score.
type measure struct {
	// Name is the key (a metric name, "two-view" or "objective"); Label the axis label.
	Name, Label string
	// Lo and Hi bound the quantity (ARI in [−0.5, 1], modularity in [−0.5, 1], …); NaN
	// when unbounded.
	Lo, Hi float64
	get    func(p *experiments.PointStats) (mean, std float64, ok bool)
}

// metricRange is the range of each metric: error bars and axes are clipped to it.
var metricRange = map[string][2]float64{
	"ari": {-0.5, 1}, "ari_connected": {-0.5, 1}, "nmi": {0, 1}, "acc": {0, 1},
	"modularity": {-0.5, 1}, "attr_modularity": {-0.5, 1}, experiments.MetricHeldOut: {-0.5, 1},
}

// metricLabels are the axis labels of the metrics.
var metricLabels = map[string]string{
	"ari": "ARI", "ari_connected": "ARI (vertices with an edge)", "nmi": "NMI", "acc": "accuracy",
	"modularity": "modularity", "attr_modularity": "attribute modularity", "entropy": "average entropy",
	experiments.MetricHeldOut: "held-out modularity",
}

// metricMeasure returns the measure of a recorded metric.
func metricMeasure(name string) measure {
	m := measure{Name: name, Label: name, Lo: math.NaN(), Hi: math.NaN()}
	if l, ok := metricLabels[name]; ok {
		m.Label = l
	}
	if r, ok := metricRange[name]; ok {
		m.Lo, m.Hi = r[0], r[1]
	}
	m.get = func(p *experiments.PointStats) (float64, float64, bool) {
		v, ok := p.Mean[name]
		if p.Runs == 0 || !ok {
			return math.NaN(), math.NaN(), false
		}
		return v, p.Std[name], true
	}
	return m
}

// ruleMeasure returns the quantity a selection rule optimises.
func ruleMeasure(rule string) measure {
	switch rule {
	case experiments.SelectHeldOut:
		return metricMeasure(experiments.MetricHeldOut)
	case experiments.SelectTwoView:
		return measure{Name: rule, Label: "modularity + attribute modularity", Lo: -1, Hi: 2,
			get: func(p *experiments.PointStats) (float64, float64, bool) {
				v := twoViewScore(p)
				if p.Runs == 0 || math.IsInf(v, -1) {
					return math.NaN(), math.NaN(), false
				}
				return v, math.NaN(), true
			}}
	case experiments.SelectObjective:
		return measure{Name: rule, Label: "final objective", Lo: math.NaN(), Hi: math.NaN(),
			get: func(p *experiments.PointStats) (float64, float64, bool) {
				var vs []float64
				for _, rec := range p.Records {
					if rec.FinalObjective != nil {
						vs = append(vs, *rec.FinalObjective)
					}
				}
				if len(vs) == 0 {
					return math.NaN(), math.NaN(), false
				}
				m, s := experiments.MeanStd(vs)
				return m, s, true
			}}
	}
	return metricMeasure(rule)
}

// twoViewScore is experiments.SelectTwoView's score of a point, −Inf when incomplete.
func twoViewScore(p *experiments.PointStats) float64 {
	q, ok := p.Mean["modularity"]
	qx, okx := p.Mean["attr_modularity"]
	if !ok || !okx {
		return math.Inf(-1)
	}
	return q + qx
}

// figureRule returns the rule by which a dataset's sensitivity figures and heatmaps hold
// the other parameters at their best, and the measure they plot: metric when it is not
// "", else the ARI by the paper's rule where the dataset has labels, else the label-free
// rule's own score.
func (r *Results) figureRule(dataset, metric string) (string, measure) {
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
	if f := ParamFloat(map[string]any{"v": v}, "v"); !math.IsNaN(f) {
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
func (r *Results) Sensitivity(dataset, method, param, by, rule string, m measure) []sensitivitySeries {
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

// rowMetrics returns the metric columns of a dataset's rows table: the recorded metrics
// among ARI, NMI, accuracy (with labels), modularity, entropy, attribute modularity and
// held-out modularity, in that order.
func (r *Results) rowMetrics(dataset string) []string {
	var out []string
	for _, m := range []string{"ari", "nmi", "acc", "modularity", "entropy", "attr_modularity", experiments.MetricHeldOut} {
		for _, method := range r.Methods {
			if p := r.Selected(r.FreeRule, dataset, method); p != nil {
				if _, ok := p.Mean[m]; ok {
					out = append(out, m)
					break
				}
			}
		}
	}
	return out
}

// rowsTable builds the table of a dataset's rows: for every row of the sweep and every
// selection rule of the dataset (Rules), the chosen grid point with every parameter, and
// each recorded metric's mean ± std over its restarts, with the fit time.
func rowsTable(r *Results, dataset string) *Table {
	metrics := r.rowMetrics(dataset)
	t := newTable("rows_"+r.Slug(dataset), texttable.Table{
		Title: datasetTitle(dataset) + ": every row at its selected grid point",
		Caption: "Mean ± population std over the restarts of the grid point each rule selects per row; " +
			"parameters: every option of the chosen point (swept and fixed). Rules: " + rulesSentence(r.Rules(dataset)) + ".",
		Columns: []texttable.Column{{Title: "Row", Align: 'l'}, {Title: "Selection", Align: 'l'}, {Title: "Parameters", Align: 'l'}},
	})
	for _, m := range metrics {
		t.Columns = append(t.Columns, texttable.Column{Title: metricMeasure(m).Label, Align: 'r'})
	}
	t.Columns = append(t.Columns, texttable.Column{Title: "fit (s)", Align: 'r'}, texttable.Column{Title: "restarts", Align: 'r'})
	if !r.Labeled(dataset) {
		t.Notes = append(t.Notes, "No run on "+datasetTitle(dataset)+" recorded ARI (no labels): only the label-free rule selects.")
	}
	for _, method := range r.Methods {
		for _, rule := range r.Rules(dataset) {
			sel := ruleName(rule)
			if r.ReadsLabels(method) && !experiments.ReadsLabels(rule) {
				sel = "best " + rule + " (but the row's initialisation reads the labels)"
			}
			row := texttable.Row{Cells: []texttable.Cell{{Text: method}, {Text: sel}}}
			why := r.Missing(dataset, method) + r.Unselected(rule, dataset, method)
			if why != "" {
				row.Cells = append(row.Cells, texttable.Cell{Text: Dash, Note: why})
				for _, m := range metrics {
					tr := newTidy(t.Name, dataset, method, m, rule)
					tr.Note = why
					t.Tidy = append(t.Tidy, tr)
					row.Cells = append(row.Cells, texttable.Cell{Text: Dash})
				}
				row.Cells = append(row.Cells, texttable.Cell{Text: Dash}, texttable.Cell{Text: "0"})
				t.Rows = append(t.Rows, row)
				continue
			}
			p := r.Selected(rule, dataset, method)
			ps := ParamString(p.Params)
			if ps == "" {
				ps = "(no parameters)"
			}
			row.Cells = append(row.Cells, texttable.Cell{Text: ps, Note: failedNote(p)})
			for _, m := range metrics {
				c, tr, _ := r.metricCell(t.Name, rule, dataset, method, m)
				c.Note = ""
				row.Cells = append(row.Cells, c)
				t.Tidy = append(t.Tidy, tr)
			}
			tr := newTidy(t.Name, dataset, method, "fit_seconds", rule)
			tr.Mean, tr.Runs, tr.Failed, tr.Params = p.FitSeconds, p.Runs, p.Failed, ps
			_, tr.Std = experiments.MeanStd(fitTimes(p))
			t.Tidy = append(t.Tidy, tr)
			row.Cells = append(row.Cells, texttable.Cell{Text: fmtSeconds(p.FitSeconds)}, texttable.Cell{Text: restarts(p)})
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

// restarts prints a point's finished restarts, with failed ones.
func restarts(p *experiments.PointStats) string {
	if p.Failed > 0 {
		return fmt.Sprintf("%d (+%d failed)", p.Runs, p.Failed)
	}
	return strconv.Itoa(p.Runs)
}

// ruleName names a rule in a table cell, saying whether it reads the labels.
func ruleName(rule string) string {
	if experiments.ReadsLabels(rule) {
		return "best " + rule + " (reads the labels)"
	}
	if rule == experiments.SelectObjective {
		return "lowest objective (label-free)"
	}
	return "best " + rule + " (label-free)"
}

// rulesSentence describes rules for a caption.
func rulesSentence(rules []string) string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = RuleText(r)
	}
	return strings.Join(out, "; ")
}

// GridFile is the CSV file holding every grid point of the results.
const GridFile = "grid.csv"

// paramKeys returns every parameter name of the results' grid points, sorted.
func (r *Results) paramKeys() []string {
	var keys []string
	for _, p := range r.Points {
		for k := range p.Params {
			keys = appendNew(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// WriteGridCSV writes every grid point of the results as tidy CSV, one line per dataset,
// row, grid point and metric: the point's parameters (one column each, empty where a row
// has no such parameter, then all of them as text), the metric, its mean and population
// std over the finished restarts, their number n and the number of failed ones. A grid
// point whose restarts all failed has one line with an empty metric. Fit time is the
// metric "fit_seconds" and the final objective "final_objective".
func WriteGridCSV(w io.Writer, r *Results) error {
	keys := r.paramKeys()
	cw := csv.NewWriter(w)
	head := append([]string{"dataset", "method"}, keys...)
	head = append(head, "params", "metric", "mean", "std", "n", "failed")
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, d := range r.Datasets {
		for _, method := range r.Methods {
			for _, p := range r.PointsOf(d, method) {
				fields := []string{d, method}
				for _, k := range keys {
					v, ok := p.Params[k]
					if !ok {
						fields = append(fields, "")
						continue
					}
					fields = append(fields, fmt.Sprint(v))
				}
				fields = append(fields, ParamString(p.Params))
				line := func(metric string, mean, std float64) error {
					return cw.Write(append(append([]string{}, fields...), metric, num(mean), num(std),
						strconv.Itoa(p.Runs), strconv.Itoa(p.Failed)))
				}
				if p.Runs == 0 {
					if err := line("", math.NaN(), math.NaN()); err != nil {
						return err
					}
					continue
				}
				names := make([]string, 0, len(p.Mean))
				for m := range p.Mean {
					names = append(names, m)
				}
				sort.Strings(names)
				for _, m := range names {
					if err := line(m, p.Mean[m], p.Std[m]); err != nil {
						return err
					}
				}
				fm, fs := experiments.MeanStd(fitTimes(p))
				if err := line("fit_seconds", fm, fs); err != nil {
					return err
				}
				if om, os, ok := ruleMeasure(experiments.SelectObjective).get(p); ok {
					if err := line("final_objective", om, os); err != nil {
						return err
					}
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

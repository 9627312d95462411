package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/internal/texttable"
	recorded "github.com/nagc-harness/nagc/results"
)

// rowMetrics returns the metric columns of a dataset's rows table: the recorded metrics
// among ARI, NMI, accuracy (with labels), modularity, entropy, attribute modularity and
// held-out modularity, in that order.
func (r *Results) rowMetrics(dataset string) []string {
	var out []string
	for _, m := range []string{"ari", "nmi", "acc", "modularity", "entropy", "attr_modularity", recorded.MetricHeldOut} {
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

// RowsTable builds the table of a dataset's rows: for every row of the sweep and every
// selection rule of the dataset (Rules), the chosen grid point with every parameter, and
// each recorded metric's mean ± std over its restarts, with the fit time.
func RowsTable(r *Results, dataset string) *Table {
	metrics := r.rowMetrics(dataset)
	t := newTable("rows_"+r.slug(dataset), texttable.Table{
		Title: DatasetTitle(dataset) + ": every row at its selected grid point",
		Caption: "Mean ± population std over the restarts of the grid point each rule selects per row; " +
			"parameters: every option of the chosen point (swept and fixed). Rules: " + rulesSentence(r.Rules(dataset)) + ".",
		Columns: []texttable.Column{{Title: "Row", Align: 'l'}, {Title: "Selection", Align: 'l'}, {Title: "Parameters", Align: 'l'}},
	})
	for _, m := range metrics {
		t.Columns = append(t.Columns, texttable.Column{Title: metricMeasure(m).Label, Align: 'r'})
	}
	t.Columns = append(t.Columns, texttable.Column{Title: "fit (s)", Align: 'r'}, texttable.Column{Title: "restarts", Align: 'r'})
	if !r.Labeled(dataset) {
		t.Notes = append(t.Notes, "No run on "+DatasetTitle(dataset)+" recorded ARI (no labels): only the label-free rule selects.")
	}
	marks := map[string]*Marks{}
	for _, m := range metrics {
		marks[m] = r.markNotWorse(m, r.Methods, []string{dataset}, "the best mean of its column under the same rule")
	}
	for _, method := range r.Methods {
		for _, rule := range r.Rules(dataset) {
			sel := ruleName(rule)
			if r.ReadsLabels(method) && !recorded.ReadsLabels(rule) {
				sel = "best " + rule + " (but " + r.readsLabelsHow(method) + ")"
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
				c, tr, _ := r.MetricCell(t.Name, rule, dataset, method, m)
				c.Note = ""
				marks[m].Mark(&c, rule, dataset, method)
				row.Cells = append(row.Cells, c)
				t.Tidy = append(t.Tidy, tr)
			}
			tr := newTidy(t.Name, dataset, method, "fit_seconds", rule)
			tr.Mean, tr.Runs, tr.Failed, tr.Params = p.FitSeconds, p.Runs, p.Failed, ps
			_, tr.Std = recorded.MeanStd(fitTimes(p))
			t.Tidy = append(t.Tidy, tr)
			row.Cells = append(row.Cells, texttable.Cell{Text: FmtSeconds(p.FitSeconds)}, texttable.Cell{Text: restarts(p)})
			t.Rows = append(t.Rows, row)
		}
	}
	var tested []Versus
	for _, m := range metrics {
		tested = append(tested, marks[m].tested...)
	}
	if len(metrics) > 0 {
		(&Marks{best: marks[metrics[0]].best, tested: tested}).AddNote(&t.Table)
	}
	return t
}

// restarts prints a point's finished restarts, with failed ones.
func restarts(p *recorded.PointStats) string {
	if p.Failed > 0 {
		return fmt.Sprintf("%d (+%d failed)", p.Runs, p.Failed)
	}
	return strconv.Itoa(p.Runs)
}

// ruleName names a rule in a table cell, saying whether it reads the labels.
func ruleName(rule string) string {
	if recorded.ReadsLabels(rule) {
		return "best " + rule + " (reads the labels)"
	}
	if rule == recorded.SelectObjective {
		return "best objective (label-free)"
	}
	return "best " + rule + " (label-free)"
}

// rulesSentence describes rules for a caption.
func rulesSentence(rules []string) string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = ruleText(r)
	}
	return strings.Join(out, "; ")
}

// MetricCell returns the cell of a metric at the grid point selected by rule for a
// dataset and method, its tidy row, and its mean (NaN when there is none). A missing
// result renders Dash with a note saying why.
func (r *Results) MetricCell(table, rule, dataset, method, metric string) (texttable.Cell, TidyRow, float64) {
	tr := newTidy(table, dataset, method, metric, rule)
	if why := r.Missing(dataset, method) + r.Unselected(rule, dataset, method); why != "" {
		tr.Note = why
		return texttable.Cell{Text: Dash, Note: why}, tr, math.NaN()
	}
	p := r.Selected(rule, dataset, method)
	mean, std := metricOf(p, metric)
	tr.Runs, tr.Failed, tr.Params = p.Runs, p.Failed, ParamString(p.Params)
	if math.IsNaN(mean) {
		tr.Note = metric + " not recorded"
		return texttable.Cell{Text: Dash, Note: tr.Note}, tr, math.NaN()
	}
	tr.Mean, tr.Std, tr.Note = mean, std, failedNote(p)
	return texttable.Cell{Text: fmtMeanStd(mean, std), Note: tr.Note}, tr, mean
}

package render

import (
	"math"
	"strconv"

	"github.com/nagc-harness/nagc/internal/texttable"
	"github.com/nagc-harness/nagc/metrics"
)

// MethodsTable builds the methods × datasets table of a sweep of several datasets (the
// layout of the NAGC paper's Table 2): a line per row, a column per dataset, the rank
// metric's (RankMetric) mean ± std at the grid point each rule selects, in one block per
// rule (RankRules); the best mean of each column in bold, SignificanceMark on the rows
// not significantly worse than it (Results.Best), and each row's average rank across
// the datasets (Ranks) in the last column, with Friedman's test and Nemenyi's critical
// difference in the notes. Nil for fewer than two datasets with a sweep.
func methodsTable(r *Results) *Table {
	ds := r.sweptDatasets()
	if len(ds) < 2 || len(r.Methods) == 0 {
		return nil
	}
	metric := r.RankMetric()
	label := metricMeasure(metric).Label
	t := newTable("methods", texttable.Table{
		Title: "Methods × datasets: " + label + " (mean ± std over restarts)",
		Caption: label + " mean ± population std over the restarts of the grid point each rule selects per row and dataset; " +
			"one block per rule (" + rulesSentence(r.RankRules()) + "). Bold: the best mean of each column within a block; " +
			"last column: the row's average rank over the datasets (1 best).",
		Columns: []texttable.Column{{Title: "Method", Align: 'l'}},
	})
	for _, d := range ds {
		t.Columns = append(t.Columns, texttable.Column{Title: DatasetTitle(d), Align: 'r'})
	}
	t.Columns = append(t.Columns, texttable.Column{Title: "avg. rank", Align: 'r'})
	marks := r.MarkNotWorse(metric, r.Methods)
	dir := metrics.DirectionOf(metric)
	for _, rule := range r.RankRules() {
		t.AddSection("Selection: " + ruleShort(rule))
		ranks := r.Ranks(rule, metric, r.Methods)
		first := len(t.Rows)
		best := make([]float64, len(ds))
		for i := range best {
			best[i] = math.NaN()
		}
		for _, m := range r.Methods {
			row := texttable.Row{Cells: []texttable.Cell{{Text: m}}}
			for i, d := range ds {
				c, tr, mean := r.MetricCell(t.Name, rule, d, m, metric)
				before := c.Text
				marks.Mark(&c, rule, d, m)
				if c.Text != before {
					tr.Note = joinNotes(tr.Note, notWorseNote)
				}
				if dir.Better(mean, best[i]) {
					best[i] = mean
				}
				row.Cells = append(row.Cells, c)
				t.Tidy = append(t.Tidy, tr)
			}
			rank := Dash
			if ranks != nil && !math.IsNaN(ranks.Rank(m)) {
				rank = strconv.FormatFloat(ranks.Rank(m), 'f', 2, 64)
				tr := newTidy(t.Name, "", m, "avg_rank_"+metric, rule)
				tr.Mean = ranks.Rank(m)
				t.Tidy = append(t.Tidy, tr)
			}
			row.Cells = append(row.Cells, texttable.Cell{Text: rank})
			t.Rows = append(t.Rows, row)
		}
		for ri, m := range r.Methods {
			for i, d := range ds {
				if v, _ := metricOf(r.Selected(rule, d, m), metric); r.Missing(d, m) == "" && v == best[i] {
					t.Rows[first+ri].Cells[1+i].Bold = true
				}
			}
		}
		if ranks != nil {
			t.Notes = append(t.Notes, "Ranks, "+ruleShort(rule)+": "+ranks.Short())
		}
	}
	marks.AddNote(&t.Table)
	return t
}

// notWorseNote is the tidy note of a cell marked SignificanceMark (the compact LaTeX
// table marks it from the note).
const notWorseNote = "not significantly worse than the column's best"

// joinNotes joins two notes of a tidy row with "; ", either possibly empty.
func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// sweptDatasets returns the datasets on which some row has a finished run of the sweep.
func (r *Results) sweptDatasets() []string {
	var ds []string
	for _, d := range r.Datasets {
		for _, m := range r.Methods {
			if r.Missing(d, m) == "" {
				ds = append(ds, d)
				break
			}
		}
	}
	return ds
}

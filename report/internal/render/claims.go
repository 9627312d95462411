package render

import (
	"fmt"
	"math"
	"slices"

	"github.com/nagc-harness/nagc/internal/texttable"
	"github.com/nagc-harness/nagc/metrics"
)

// ClaimsTable builds, with a comparison, the table of the paper's claims of superiority
// under the report's tests: for every other row of the paper's table recorded (not a
// variant compared with one of them), whether the proposed row (paper.Spec.Proposed) is
// significantly better on the rank metric (RankMetric) per dataset, under each rule
// (RankRules): a one-sided test of its restarts against the row's (Results.Best's
// tests, at Alpha); and across the datasets, whether its average rank is better by at
// least Nemenyi's critical difference. Nil without a comparison or a proposed row.
func claimsTable(r *Results) *Table {
	prop := r.Spec.Proposed
	if !r.Compare || prop == "" || !slices.Contains(r.Methods, prop) {
		return nil
	}
	var others []string
	for _, m := range r.Spec.Rows {
		if _, variant := r.Spec.ComparedWith[m]; m != prop && !variant && slices.Contains(r.Methods, m) {
			others = append(others, m)
		}
	}
	if len(others) == 0 {
		return nil
	}
	metric := r.RankMetric()
	label := metricMeasure(metric).Label
	t := newTable("claims", texttable.Table{
		Title: "The paper's claims of superiority under significance tests",
		Caption: fmt.Sprintf("Is %s better than each row of the paper's table on our records? Per dataset: %s's %s significantly "+
			"higher than the row's (one-sided Wilcoxon signed-rank test of the restarts paired by seed, else a one-sided bootstrap bound; "+
			"α = %.2f): ✓ with its p, ✗ not shown, ✗✗ the row's mean is higher. Across datasets: ✓ when %s's average rank "+
			"is better by at least Nemenyi's critical difference.", prop, prop, label, Alpha, prop),
		Columns: []texttable.Column{{Title: prop + " better than", Align: 'l'}, {Title: "Selection", Align: 'l'}},
	})
	if metrics.DirectionOf(metric) == metrics.LowerIsBetter {
		t.Caption = fmt.Sprintf("Is %s better than each row of the paper's table on our records (%s, lower is better)? "+
			"Per dataset a one-sided test (α = %.2f); across datasets Nemenyi's critical difference.", prop, label, Alpha)
	}
	ds := r.sweptDatasets()
	for _, d := range ds {
		t.Columns = append(t.Columns, texttable.Column{Title: DatasetTitle(d), Align: 'l'})
	}
	t.Columns = append(t.Columns, texttable.Column{Title: "across datasets", Align: 'l'})
	dir := metrics.DirectionOf(metric)
	for _, rule := range r.RankRules() {
		ranks := r.Ranks(rule, metric, r.Methods)
		for _, o := range others {
			row := texttable.Row{Cells: []texttable.Cell{{Text: o}, {Text: ruleShort(rule)}}}
			for _, d := range ds {
				tr := newTidy(t.Name, d, o, metric, rule)
				pp, op := r.Selected(rule, d, prop), r.Selected(rule, d, o)
				pm, _ := metricOf(pp, metric)
				om, _ := metricOf(op, metric)
				text := Dash
				switch {
				case math.IsNaN(pm) || math.IsNaN(om) || r.Missing(d, prop) != "" || r.Missing(d, o) != "":
					tr.Note = "no result of both rows"
				case !dir.Better(pm, om):
					text, tr.Note = "✗✗", "the row's mean is at least as good"
				default:
					v := versus(pp, op, metric, dir)
					switch {
					case v.Worse && v.Test == "wilcoxon":
						text, tr.Note = fmt.Sprintf("✓ (p = %s)", fmtP(v.P)), "holds: Wilcoxon p "+fmtP(v.P)
					case v.Worse:
						text, tr.Note = "✓ (bootstrap)", fmt.Sprintf("holds: bootstrap bound %.3f > 0", v.CI.Lo)
					case v.Test == "wilcoxon":
						text, tr.Note = fmt.Sprintf("✗ (p = %s)", fmtP(v.P)), "not shown: Wilcoxon p "+fmtP(v.P)
					default:
						text, tr.Note = "✗", "not shown"
					}
				}
				c := texttable.Cell{Text: text}
				if text == Dash {
					c.Note = tr.Note
				}
				row.Cells = append(row.Cells, c)
				t.Tidy = append(t.Tidy, tr)
			}
			across, tr := texttable.Cell{Text: Dash, Note: "not ranked: no result on every dataset"}, newTidy(t.Name, "", o, "avg_rank_difference", rule)
			if ranks == nil {
				across.Note = "no ranks: fewer than two datasets or rows with results on all"
			}
			if ranks != nil && !math.IsNaN(ranks.Rank(prop)) && !math.IsNaN(ranks.Rank(o)) {
				diff := ranks.Rank(o) - ranks.Rank(prop)
				mark := "✗"
				if diff >= ranks.CD {
					mark = "✓"
				}
				across = texttable.Cell{Text: fmt.Sprintf("%s (%.2f vs CD %.2f)", mark, diff, ranks.CD)}
			}
			tr.Note = across.Note
			if tr.Note == "" {
				tr.Note = "average rank " + across.Text
			}
			row.Cells = append(row.Cells, across)
			t.Tidy = append(t.Tidy, tr)
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

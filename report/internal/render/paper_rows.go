package render

import (
	"slices"
	"strings"

	"github.com/nagc-harness/nagc/internal/texttable"
)

// methodRows returns the methods a method × dataset table lists: the paper's rows in its
// order, each followed by the recorded rows compared with it (PaperRows), then the other
// recorded methods.
func (r results) methodRows() []string {
	rows := paperOrder(append(append([]string{}, r.Spec.Rows...), r.Methods...), r.Spec.Rows, func(s string) string { return s })
	var out, after []string
	for _, m := range rows {
		if _, ok := r.Spec.ComparedWith[m]; !ok {
			out = append(out, m)
		} else if slices.Contains(r.Methods, m) {
			after = append(after, m)
		}
	}
	for _, m := range after {
		at := len(out)
		for i, x := range out {
			if x == r.Spec.ComparedWith[m] {
				at = i + 1
				for at < len(out) && r.Spec.ComparedWith[out[at]] == x {
					at++
				}
			}
		}
		out = append(out[:at], append([]string{m}, out[at:]...)...)
	}
	return out
}

// methodLabel is a method's row label: its name, with the paper's row it is compared
// with (PaperRows) or marked when the paper has no such row, and marked when one of its
// runs read the labels to initialise (ReadsLabels).
func (r results) methodLabel(m string) string {
	var marks []string
	if r.ReadsLabels(m) {
		marks = append(marks, "reads the labels")
	}
	if pr, ok := r.Spec.ComparedWith[m]; ok {
		marks = append(marks, "vs the paper's "+pr)
	} else if !r.Spec.HasRow(m) {
		marks = append(marks, "not in the paper")
	}
	if len(marks) == 0 {
		return m
	}
	if !r.Spec.HasRow(m) && len(marks) == 1 {
		return m + " (" + marks[0] + ")"
	}
	return m + " — " + strings.Join(marks, "; ")
}

// ariConnectedTable builds a table the paper does not have: for every method × dataset,
// the ARI over all vertices (as in ariTable) beside the ARI over the vertices with at
// least one edge to another vertex (metrics.ARIConnected), at the same grid points,
// selected by the paper's rule and then by the label-free rule. Where a graph has
// isolated vertices their clusters come from the attributes or from a method's
// tie-breaking alone, and the two columns show how much of the ARI they decide. Records
// made before ari_connected existed gain it with `nagc results rescore`.
func ariConnectedTable(r results) *Table {
	t := newTable("ari_connected", texttable.Table{
		Title: "ARI with and without isolated vertices (not in the paper)",
		Caption: "ARI mean ± population std over the restarts of the selected grid point, over all vertices (\"all\", " +
			"as in the ARI table) and over the vertices with at least one edge to another vertex (\"with an edge\"; " +
			"self-loops do not count). The paper publishes only the first. First block: " + ruleText(PaperRule) +
			". Second block: " + ruleText(r.FreeRule) + ".",
		Columns: []texttable.Column{{Title: "Method", Align: 'l'}},
	})
	for _, d := range r.Datasets {
		t.Groups = append(t.Groups, texttable.Group{Title: DatasetTitle(d), Span: 2})
		t.Columns = append(t.Columns, texttable.Column{Title: "all", Align: 'r'}, texttable.Column{Title: "with an edge", Align: 'r'})
	}
	methods := r.methodRows()
	for _, rule := range []string{PaperRule, r.FreeRule} {
		t.Rows = append(t.Rows, texttable.Row{Section: "Selection: " + ruleShort(rule)})
		for _, m := range methods {
			row := texttable.Row{Cells: []texttable.Cell{{Text: r.methodLabel(m)}}}
			for _, d := range r.Datasets {
				for _, metric := range []string{"ari", "ari_connected"} {
					c, tr, _ := r.MetricCell(t.Name, rule, d, m, metric)
					row.Cells = append(row.Cells, c)
					t.Tidy = append(t.Tidy, tr)
				}
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

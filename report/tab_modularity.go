package report

import (
	"github.com/nagc-harness/nagc/internal/texttable"
	"math"
	"strings"
)

// ModularityTable builds the WebKB table of modularity, average entropy and ARI per
// method (the paper's table/modularity.tex) beside the paper's values, for the grid
// points selected by the paper's rule and, in a second block, by the label-free rule.
// Bold marks the best value of each measure (highest modularity and ARI, lowest entropy)
// within a block.
func ModularityTable(r *Results) *Table {
	d := "webkb"
	for _, x := range r.Datasets {
		if strings.EqualFold(x, d) {
			d = x
		}
	}
	t := newTable("modularity", texttable.Table{
		Title: "WebKB: modularity, average entropy and ARI",
		Caption: "WebKB, mean ± population std over the restarts of the selected grid point; Δ = ours − paper. " +
			"First block: " + RuleText(PaperRule) + ". Second block: " + RuleText(r.FreeRule) +
			". Bold: best per measure within a block (highest modularity and ARI, lowest entropy).",
		Columns: []texttable.Column{{Title: "Method", Align: 'l'}},
	})
	metrics := []string{"modularity", "entropy", "ari"}
	lower := []bool{false, true, false}
	for _, title := range []string{"Modularity", "Entropy", "ARI"} {
		t.addComparisonGroup(title)
	}
	methods := r.methodRows()
	for _, rule := range []string{PaperRule, r.FreeRule} {
		t.Rows = append(t.Rows, texttable.Row{Section: "Selection: " + RuleShort(rule)})
		first := len(t.Rows)
		means := make([][]float64, len(methods))
		for mi, m := range methods {
			row := texttable.Row{Cells: []texttable.Cell{{Text: r.methodLabel(m)}}}
			means[mi] = make([]float64, len(metrics))
			paper, inPaper := []float64(nil), false
			if r.Paper != nil {
				paper, inPaper = r.Paper.ModularityEntropy[r.Spec.PaperRow(m)]
			}
			for k, metric := range metrics {
				var c texttable.Cell
				var tr TidyRow
				var mean float64
				if r.HasDataset(d) {
					c, tr, mean = r.metricCell(t.Name, rule, d, m, metric)
				} else {
					why := DatasetTitle(d) + " not in these results"
					c, tr, mean = texttable.Cell{Text: Dash, Note: why}, newTidy(t.Name, d, m, metric, rule), math.NaN()
					tr.Note = why
				}
				means[mi][k] = mean
				pc, dc := texttable.Cell{Text: Dash}, texttable.Cell{}
				if inPaper {
					pc.Text = fmt3(paper[k])
					tr.Paper = paper[k]
					if !math.IsNaN(mean) {
						tr.Diff = mean - paper[k]
						dc.Text = fmtDiff(tr.Diff)
					}
				}
				row.Cells = append(row.Cells, c, pc, dc)
				t.Tidy = append(t.Tidy, tr)
			}
			t.Rows = append(t.Rows, row)
		}
		for k := range metrics {
			best := math.NaN()
			for mi := range methods {
				v := means[mi][k]
				if !math.IsNaN(v) && (math.IsNaN(best) || (lower[k] && v < best) || (!lower[k] && v > best)) {
					best = v
				}
			}
			for mi := range methods {
				if means[mi][k] == best {
					t.Rows[first+mi].Cells[1+3*k].Bold = true
				}
			}
		}
	}
	return t
}

package render

import (
	"fmt"
	"math"
	"strconv"

	"github.com/nagc-harness/nagc/internal/texttable"
)

// DatasetsTable builds the dataset table (the paper's table/dataset.tex): n, edges, m, k1
// and density as measured by the loader (from the provenance in sweeps.jsonl) beside the
// paper's values.
func datasetsTable(r *Results) *Table {
	t := newTable("datasets", texttable.Table{
		Title: "Datasets",
		Caption: "Statistics as measured by the loader (recorded in sweeps.jsonl) beside the paper's " +
			"table/dataset.tex; density = (edges − self-loops)/n². No grid point is selected in this table.",
		Groups: []texttable.Group{{Title: "n", Span: 2}, {Title: "edges", Span: 2}, {Title: "m", Span: 2}, {Title: "k1", Span: 2}, {Title: "density (%)", Span: 2}},
		Columns: []texttable.Column{{Title: "Dataset", Align: 'l'},
			{Title: "ours", Align: 'r'}, {Title: "paper", Align: 'r'}, {Title: "ours", Align: 'r'}, {Title: "paper", Align: 'r'}, {Title: "ours", Align: 'r'}, {Title: "paper", Align: 'r'},
			{Title: "ours", Align: 'r'}, {Title: "paper", Align: 'r'}, {Title: "ours", Align: 'r'}, {Title: "paper", Align: 'r'}},
	})
	if r.Paper == nil {
		t.Caption = "Statistics as measured by the loader (recorded in sweeps.jsonl); density = (edges − self-loops)/n²."
		t.Groups = nil
		t.Columns = []texttable.Column{{Title: "Dataset", Align: 'l'}, {Title: "n", Align: 'r'}, {Title: "edges", Align: 'r'}, {Title: "m", Align: 'r'}, {Title: "k1", Align: 'r'}, {Title: "density (%)", Align: 'r'}}
	}
	for _, d := range r.Datasets {
		s, have := r.DatasetStats(d)
		p, inPaper := r.Paper.DatasetOf(d)
		ours := []float64{float64(s.N), float64(s.Edges), float64(s.M), float64(s.K), 100 * s.Density}
		paper := []float64{float64(p.N), float64(p.Edges), float64(p.Attributes), float64(p.K1), p.DensityPercent}
		names := []string{"n", "edges", "m", "k1", "density_percent"}
		row := texttable.Row{Cells: []texttable.Cell{{Text: DatasetTitle(d)}}}
		for i := range ours {
			fmtv := func(v float64) string { return strconv.Itoa(int(v)) }
			if i == 4 {
				fmtv = func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
			}
			oc := texttable.Cell{Text: Dash, Note: "no loader statistics recorded in sweeps.jsonl"}
			tr := newTidy(t.Name, d, "", names[i], "")
			if have {
				oc = texttable.Cell{Text: fmtv(ours[i])}
				tr.Mean = ours[i]
				tr.Note = ""
				if i == 3 && s.Labeled > 0 && s.Labeled < s.N {
					// A partly labelled graph: say how many vertices the ARI, NMI and ACC score.
					oc.Note = fmt.Sprintf("%d of the %d vertices have a label; ARI, NMI and ACC score those", s.Labeled, s.N)
					tr.Note = oc.Note
				}
			} else {
				tr.Note = oc.Note
			}
			if r.Paper == nil {
				row.Cells = append(row.Cells, oc)
				t.Tidy = append(t.Tidy, tr)
				continue
			}
			pc := texttable.Cell{Text: Dash}
			if inPaper {
				pc.Text = fmtv(paper[i])
				tr.Paper = paper[i]
				if have {
					tr.Diff = ours[i] - paper[i]
					if i == 4 {
						tr.Diff = roundTo(ours[i], 2) - paper[i]
					}
					if math.Abs(tr.Diff) > 1e-9 {
						oc.Bold = true
					}
				}
			}
			row.Cells = append(row.Cells, oc, pc)
			t.Tidy = append(t.Tidy, tr)
		}
		t.Rows = append(t.Rows, row)
	}
	if r.Paper != nil {
		t.Notes = append(t.Notes, "Bold: the loader's value differs from the paper's (density compared at the paper's two decimals).")
	}
	return t
}

// roundTo rounds v to d decimals.
func roundTo(v float64, d int) float64 {
	p := math.Pow10(d)
	return math.Round(v*p) / p
}

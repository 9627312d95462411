package report

import (
	"fmt"
	"math"
	"strconv"
)

// DatasetsTable builds the dataset table (the paper's table/dataset.tex): n, edges, m, k1
// and density as measured by the loader (from the provenance in sweeps.jsonl) beside the
// paper's values.
func DatasetsTable(r *Results) *Table {
	t := &Table{
		Name:  "datasets",
		Title: "Datasets",
		Caption: "Statistics as measured by the loader (recorded in sweeps.jsonl) beside the paper's " +
			"table/dataset.tex; density = (edges − self-loops)/n². No grid point is selected in this table.",
		Groups: []Group{{"n", 2}, {"edges", 2}, {"m", 2}, {"k1", 2}, {"density (%)", 2}},
		Columns: []Column{{"Dataset", 'l'},
			{"ours", 'r'}, {"paper", 'r'}, {"ours", 'r'}, {"paper", 'r'}, {"ours", 'r'}, {"paper", 'r'},
			{"ours", 'r'}, {"paper", 'r'}, {"ours", 'r'}, {"paper", 'r'}},
	}
	if r.Paper == nil {
		t.Caption = "Statistics as measured by the loader (recorded in sweeps.jsonl); density = (edges − self-loops)/n²."
		t.Groups = nil
		t.Columns = []Column{{"Dataset", 'l'}, {"n", 'r'}, {"edges", 'r'}, {"m", 'r'}, {"k1", 'r'}, {"density (%)", 'r'}}
	}
	for _, d := range r.Datasets {
		s, have := r.DatasetStats(d)
		p, inPaper := r.Paper.PaperDatasetRow(d)
		ours := []float64{float64(s.N), float64(s.Edges), float64(s.M), float64(s.K), 100 * s.Density}
		paper := []float64{float64(p.N), float64(p.Edges), float64(p.Attributes), float64(p.K1), p.DensityPercent}
		names := []string{"n", "edges", "m", "k1", "density_percent"}
		row := Row{Cells: []Cell{{Text: DatasetTitle(d)}}}
		for i := range ours {
			fmtv := func(v float64) string { return strconv.Itoa(int(v)) }
			if i == 4 {
				fmtv = func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
			}
			oc := Cell{Text: Dash, Note: "no loader statistics recorded in sweeps.jsonl"}
			tr := newTidy(t.Name, d, "", names[i], "")
			if have {
				oc = Cell{Text: fmtv(ours[i])}
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
			pc := Cell{Text: Dash}
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

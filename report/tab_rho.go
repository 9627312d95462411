package report

import (
	"fmt"
	"github.com/nagc-harness/nagc/internal/texttable"
	"github.com/nagc-harness/nagc/report/paper"
	"math"
	"sort"

	"github.com/nagc-harness/nagc/experiments"
)

// RhoValues returns the ρ values of the ρ table: those of the paper's table and those of
// the recorded Prop. grid points, ascending.
func (r *Results) RhoValues() []float64 {
	vals := r.Paper.Rhos()
	for _, p := range r.Points {
		if p.Method != r.Spec.Proposed {
			continue
		}
		if v := ParamFloat(p.Params, "rho"); !math.IsNaN(v) && !containsFloat(vals, v) {
			vals = append(vals, v)
		}
	}
	sort.Float64s(vals)
	return vals
}

// BestAtRho returns the Prop. grid point on a dataset with ρ = rho chosen by rule over the
// other parameters (λ, k2), or nil if no such point has a finished run.
func (r *Results) BestAtRho(rule, dataset string, rho float64) *experiments.PointStats {
	var pts []*experiments.PointStats
	for _, p := range r.PointsOf(dataset, r.Spec.Proposed) {
		if p.Runs > 0 && paper.SameFloat(ParamFloat(p.Params, "rho"), rho) {
			pts = append(pts, p)
		}
	}
	if len(pts) == 0 {
		return nil
	}
	best, err := experiments.Best(pts, rule)
	if err != nil || len(best) == 0 {
		return nil
	}
	return best[0]
}

// RhoTable builds the table of the effect of ρ (the paper's table/q-ari.tex): for every ρ,
// the best mean ARI of the Prop. rows over the other parameters (λ, k2), per dataset,
// beside the paper's values; then a second block choosing λ, k2 by the label-free rule.
// Every cell off the paper (OffThePaper) carries a note on its Δ saying why.
func RhoTable(r *Results) *Table {
	t := newTable("rho", texttable.Table{
		Title: "Effect of ρ on the ARI of Prop.",
		Caption: "ARI (mean ± population std over restarts) of Prop. (k-means initialisation) for each ρ, " +
			"at the λ, k2 chosen per ρ; Δ = ours − paper. First block: " + RuleText(PaperRule) +
			" over λ, k2. Second block: " + RuleText(r.FreeRule) + " over λ, k2. Bold: best per dataset within a block.",
		Columns: []texttable.Column{{Title: "ρ", Align: 'l'}},
	})
	for _, d := range r.Datasets {
		t.addComparisonGroup(DatasetTitle(d))
	}
	rhos := r.RhoValues()
	var deltas []cellRef
	for _, rule := range []string{PaperRule, r.FreeRule} {
		t.Rows = append(t.Rows, texttable.Row{Section: "Selection of λ, k2: " + RuleShort(rule)})
		first := len(t.Rows)
		means := make([][]float64, len(rhos))
		for ri, rho := range rhos {
			row := texttable.Row{Cells: []texttable.Cell{{Text: "ρ = " + fmtParam(rho)}}}
			means[ri] = make([]float64, len(r.Datasets))
			for di, d := range r.Datasets {
				tr := newTidy(t.Name, d, r.Spec.Proposed, "ari", rule)
				tr.Rho = rho
				c := texttable.Cell{Text: Dash}
				mean := math.NaN()
				switch p := r.BestAtRho(rule, d, rho); {
				case r.Missing(d, r.Spec.Proposed) != "":
					c.Note = r.Spec.Proposed + ": " + r.Missing(d, r.Spec.Proposed)
				case p == nil:
					c.Note = fmt.Sprintf("ρ = %s not in the grid (or all its runs failed)", fmtParam(rho))
				default:
					var std float64
					mean, std = metricOf(p, "ari")
					tr.Mean, tr.Std, tr.Runs, tr.Failed, tr.Params = mean, std, p.Runs, p.Failed, ParamString(p.Params)
					c = texttable.Cell{Text: fmtMeanStd(mean, std), Note: FailedNote(p)}
					if math.IsNaN(mean) {
						c.Note = "ari not recorded"
					}
				}
				tr.Note = c.Note
				means[ri][di] = mean
				pc, dc := texttable.Cell{Text: Dash}, texttable.Cell{}
				if pv, ok := r.Paper.RhoOf(rho, d); ok {
					pc.Text = fmt3(pv)
					tr.Paper = pv
					if !math.IsNaN(mean) {
						tr.Diff = mean - pv
						dc.Text = fmtDiff(tr.Diff)
					}
				}
				row.Cells = append(row.Cells, c, pc, dc)
				t.Tidy = append(t.Tidy, tr)
				deltas = append(deltas, cellRef{len(t.Rows), len(row.Cells) - 1})
			}
			t.Rows = append(t.Rows, row)
		}
		for di := range r.Datasets {
			best := math.NaN()
			for ri := range rhos {
				if v := means[ri][di]; !math.IsNaN(v) && (math.IsNaN(best) || v > best) {
					best = v
				}
			}
			for ri := range rhos {
				if means[ri][di] == best {
					t.Rows[first+ri].Cells[1+3*di].Bold = true
				}
			}
		}
	}
	r.explainCells(t, deltas)
	return t
}

func containsFloat(s []float64, v float64) bool {
	for _, x := range s {
		if paper.SameFloat(x, v) {
			return true
		}
	}
	return false
}

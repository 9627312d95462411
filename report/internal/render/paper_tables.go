package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/nagc-harness/nagc/internal/texttable"
	"github.com/nagc-harness/nagc/metrics"
)

// comparison describes a table that sets cells of ours beside the paper's: one line per
// row (a method, or a value of a parameter), one group of three columns (ours, paper, Δ)
// per column (a dataset, or a measure), in one block per selection rule (the paper's,
// then the label-free one). comparisonTable builds every such table from it.
type comparison struct {
	name, title, caption string
	// rowHead heads the first column; section titles a block of a rule.
	rowHead string
	section func(rule string) string
	// rows label the lines; columns title the groups.
	rows, columns []string
	// ours returns the cell of ours at a line and group under a rule, its tidy row and
	// its mean (NaN when there is none).
	ours func(rule string, row, col int) (texttable.Cell, TidyRow, float64)
	// published returns the paper's value at a line and group, with its std (NaN when
	// the paper gives none).
	published func(row, col int) (mean, std float64, ok bool)
	// lower reports whether a group's best value is its lowest (else its highest).
	lower func(col int) bool
	// explain notes every cell off the paper on its Δ (offPaper.Explain).
	explain bool
}

// comparisonTable builds a comparison: per block, the cells of ours, the paper's values
// and Δ = ours − paper, the best mean of each group in bold; then, when c.explain, a
// note on the Δ of every cell off the paper. Cost O(rules · rows · columns) cells.
func comparisonTable(r results, c comparison) *Table {
	t := newTable(c.name, texttable.Table{
		Title: c.title, Caption: c.caption,
		Columns: []texttable.Column{{Title: c.rowHead, Align: 'l'}},
	})
	for _, col := range c.columns {
		addComparisonGroup(t, col)
	}
	var deltas []cellRef
	for _, rule := range []string{PaperRule, r.FreeRule} {
		t.AddSection(c.section(rule))
		first := len(t.Rows)
		means := make([][]float64, len(c.rows))
		for ri, label := range c.rows {
			row := texttable.Row{Cells: []texttable.Cell{{Text: label}}}
			means[ri] = make([]float64, len(c.columns))
			for ci := range c.columns {
				cell, tr, mean := c.ours(rule, ri, ci)
				means[ri][ci] = mean
				pc, dc := texttable.Cell{Text: Dash}, texttable.Cell{}
				if pm, ps, ok := c.published(ri, ci); ok {
					pc.Text = fmtMeanStd(pm, ps)
					tr.Paper, tr.PaperStd = pm, ps
					if !math.IsNaN(mean) {
						tr.Diff = mean - pm
						dc.Text = fmtDiff(tr.Diff)
					}
				}
				row.Cells = append(row.Cells, cell, pc, dc)
				t.Tidy = append(t.Tidy, tr)
				deltas = append(deltas, cellRef{len(t.Rows), len(row.Cells) - 1})
			}
			t.Rows = append(t.Rows, row)
		}
		for ci := range c.columns {
			best := math.NaN()
			for ri := range c.rows {
				v := means[ri][ci]
				if !math.IsNaN(v) && (math.IsNaN(best) || (c.lower(ci) && v < best) || (!c.lower(ci) && v > best)) {
					best = v
				}
			}
			for ri := range c.rows {
				if means[ri][ci] == best {
					t.Rows[first+ri].Cells[1+3*ci].Bold = true
				}
			}
		}
	}
	if c.explain {
		r.explainCells(t, deltas)
	}
	return t
}

// higher is a comparison's lower for groups whose best value is the highest.
func higher(int) bool { return false }

// blockOf titles the block of a rule "Selection: …".
func blockOf(rule string) string { return "Selection: " + ruleShort(rule) }

// ariTable builds the ARI table (the paper's table/ari.tex): every method × dataset, ARI
// mean ± std over the restarts of the grid point selected by the paper's rule, the best
// per dataset in bold, the paper's value and the difference beside each; then a second
// block with the grid points selected by the label-free rule. Every cell off the paper
// (offThePaper) carries a note on its Δ saying why (offPaper.Explain).
func ariTable(r results) *Table {
	methods := r.methodRows()
	labels := make([]string, len(methods))
	for i, m := range methods {
		labels[i] = r.methodLabel(m)
	}
	marks := r.MarkNotWorse("ari", methods)
	t := comparisonTable(r, comparison{
		name:  "ari",
		title: "ARI (mean ± std over restarts)",
		caption: "ARI mean ± population std over the restarts of the selected grid point; Δ = ours − paper. " +
			"First block: " + ruleText(PaperRule) + ". Second block: " + ruleText(r.FreeRule) +
			". Bold: best mean per dataset within a block.",
		rowHead: "Method", section: blockOf, rows: labels, columns: datasetTitles(r.Datasets),
		ours: func(rule string, row, col int) (texttable.Cell, TidyRow, float64) {
			c, tr, mean := r.MetricCell("ari", rule, r.Datasets[col], methods[row], "ari")
			marks.Mark(&c, rule, r.Datasets[col], methods[row])
			return c, tr, mean
		},
		published: func(row, col int) (float64, float64, bool) {
			return r.Paper.ARIOf(r.Spec.PaperRow(methods[row]), r.Datasets[col])
		},
		lower: higher, explain: true,
	})
	marks.AddNote(&t.Table)
	return t
}

// rhoTable builds the table of the effect of ρ (the paper's table/q-ari.tex): for every ρ,
// the best mean ARI of the proposed row over the other parameters (λ, k2), per dataset,
// beside the paper's values; then a second block choosing λ, k2 by the label-free rule.
// Every cell off the paper (offThePaper) carries a note on its Δ saying why.
func rhoTable(r results) *Table {
	prop := r.Spec.Proposed
	rhos := r.rhoValues()
	labels := make([]string, len(rhos))
	for i, rho := range rhos {
		labels[i] = "ρ = " + fmtParam(rho)
	}
	return comparisonTable(r, comparison{
		name:  "rho",
		title: "Effect of ρ on the ARI of " + prop,
		caption: "ARI (mean ± population std over restarts) of " + prop + " (k-means initialisation) for each ρ, " +
			"at the λ, k2 chosen per ρ; Δ = ours − paper. First block: " + ruleText(PaperRule) +
			" over λ, k2. Second block: " + ruleText(r.FreeRule) + " over λ, k2. Bold: best per dataset within a block.",
		rowHead: "ρ", rows: labels, columns: datasetTitles(r.Datasets),
		section: func(rule string) string { return "Selection of λ, k2: " + ruleShort(rule) },
		ours: func(rule string, row, col int) (texttable.Cell, TidyRow, float64) {
			return r.rhoCell(rule, r.Datasets[col], rhos[row])
		},
		published: func(row, col int) (float64, float64, bool) {
			v, ok := r.Paper.RhoOf(rhos[row], r.Datasets[col])
			return v, math.NaN(), ok
		},
		lower: higher, explain: true,
	})
}

// rhoCell returns the cell of the ARI of the proposed row at ρ = rho on a dataset, at
// the λ, k2 chosen by rule (BestAtRho), its tidy row and its mean.
func (r results) rhoCell(rule, dataset string, rho float64) (texttable.Cell, TidyRow, float64) {
	prop := r.Spec.Proposed
	tr := newTidy("rho", dataset, prop, "ari", rule)
	tr.Rho = rho
	c := texttable.Cell{Text: Dash}
	mean := math.NaN()
	switch p := r.bestAtRho(rule, dataset, rho); {
	case r.Missing(dataset, prop) != "":
		c.Note = prop + ": " + r.Missing(dataset, prop)
	case p == nil:
		c.Note = fmt.Sprintf("ρ = %s not in the grid (or all its runs failed)", fmtParam(rho))
	default:
		var std float64
		mean, std = metricOf(p, "ari")
		tr.Mean, tr.Std, tr.Runs, tr.Failed, tr.Params = mean, std, p.Runs, p.Failed, ParamString(p.Params)
		c = texttable.Cell{Text: fmtMeanStd(mean, std), Note: failedNote(p)}
		if math.IsNaN(mean) {
			c.Note = "ari not recorded"
		}
	}
	tr.Note = c.Note
	return c, tr, mean
}

// measureTitles head the measures' groups in the modularity table.
var measureTitles = map[string]string{"modularity": "Modularity", "entropy": "Entropy", "ari": "ARI"}

// modularityTable builds the table of modularity, average entropy and ARI per method on
// one dataset (paper.Spec.Modularity; the paper's table/modularity.tex) beside the
// paper's values, for the grid points selected by the paper's rule and, in a second
// block, by the label-free rule. Bold marks the best value of each measure (highest
// modularity and ARI, lowest entropy) within a block.
func modularityTable(r results) *Table {
	d := r.Spec.Modularity.Dataset
	for _, x := range r.Datasets {
		if strings.EqualFold(x, d) {
			d = x
		}
	}
	measures := r.Spec.Modularity.Metrics
	titles := make([]string, len(measures))
	for i, m := range measures {
		titles[i] = measureTitles[m]
		if titles[i] == "" {
			titles[i] = metricMeasure(m).Label
		}
	}
	methods := r.methodRows()
	labels := make([]string, len(methods))
	for i, m := range methods {
		labels[i] = r.methodLabel(m)
	}
	return comparisonTable(r, comparison{
		name:  "modularity",
		title: DatasetTitle(d) + ": modularity, average entropy and ARI",
		caption: DatasetTitle(d) + ", mean ± population std over the restarts of the selected grid point; Δ = ours − paper. " +
			"First block: " + ruleText(PaperRule) + ". Second block: " + ruleText(r.FreeRule) +
			". Bold: best per measure within a block (highest modularity and ARI, lowest entropy).",
		rowHead: "Method", section: blockOf, rows: labels, columns: titles,
		ours: func(rule string, row, col int) (texttable.Cell, TidyRow, float64) {
			if r.HasDataset(d) {
				return r.MetricCell("modularity", rule, d, methods[row], measures[col])
			}
			why := DatasetTitle(d) + " not in these results"
			tr := newTidy("modularity", d, methods[row], measures[col], rule)
			tr.Note = why
			return texttable.Cell{Text: Dash, Note: why}, tr, math.NaN()
		},
		published: func(row, col int) (float64, float64, bool) {
			if r.Paper == nil {
				return 0, 0, false
			}
			v, ok := r.Paper.ModularityEntropy[r.Spec.PaperRow(methods[row])]
			if !ok || col >= len(v) {
				return 0, 0, false
			}
			return v[col], math.NaN(), true
		},
		lower: func(col int) bool { return metrics.DirectionOf(measures[col]) == metrics.LowerIsBetter },
	})
}

// datasetTitles returns the datasets' names as the paper spells them (datasetTitle).
func datasetTitles(ds []string) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = DatasetTitle(d)
	}
	return out
}

// addComparisonGroup appends to t a column group titled title with the three columns
// every comparison with the paper uses: ours, paper, Δ.
func addComparisonGroup(t *Table, title string) {
	t.AddGroup(title, texttable.Column{Title: "ours", Align: 'r'}, texttable.Column{Title: "paper", Align: 'r'},
		texttable.Column{Title: "Δ", Align: 'r'})
}

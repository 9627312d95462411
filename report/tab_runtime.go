package report

import (
	"math"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
)

// Machine describes the machines the runs were recorded on (host and CPU from the
// provenance), or "unknown machine".
func (r *Results) Machine() string {
	var ms []string
	for _, p := range r.Provenance {
		s := strings.TrimSpace(p.Host + ", " + p.CPU)
		if p.GoVersion != "" {
			s += ", " + p.GoVersion
		}
		ms = appendNew(ms, s)
	}
	if len(ms) == 0 {
		return "unknown machine"
	}
	return strings.Join(ms, "; ")
}

// meanFitAll returns the mean fit time over every finished run of a method on a dataset,
// and the number of runs.
func (r *Results) meanFitAll(dataset, method string) (float64, int) {
	var sum float64
	n := 0
	for _, p := range r.PointsOf(dataset, method) {
		for _, rec := range p.Records {
			sum += rec.FitSeconds
			n++
		}
	}
	if n == 0 {
		return math.NaN(), 0
	}
	return sum / float64(n), n
}

// RuntimeTable builds the runtime table (the paper's table/runtime.tex): mean fit time
// per method and dataset at the grid point selected by the paper's rule, at the one
// selected by the label-free rule, and over all runs, beside the paper's seconds. Rows
// are the recorded methods and the paper's runtime rows.
func RuntimeTable(r *Results) *Table {
	t := &Table{
		Name:  "runtime",
		Title: "Runtime (seconds per fit)",
		Caption: "Mean fit time in seconds on this machine (" + r.Machine() + "): at the grid point selected by " +
			RuleText(PaperRule) + " (\"paper rule\"), at the one selected by " + RuleText(r.FreeRule) +
			" (\"label-free\"), and over all finished runs of the grid (\"all runs\"). The paper's times were " +
			"measured on the authors' machine (Python 3 / Octave), so only ratios between methods compare.",
		Columns: []Column{{"Method", 'l'}},
	}
	for _, d := range r.Datasets {
		t.Groups = append(t.Groups, Group{DatasetTitle(d), 4})
		t.Columns = append(t.Columns, Column{"paper rule", 'r'}, Column{"label-free", 'r'}, Column{"all runs", 'r'}, Column{"paper", 'r'})
	}
	t.Notes = []string{"paper rule = best mean ARI (reads the labels); label-free = " + freeShort(r.FreeRule) +
		" (reads no labels); all runs = mean over every finished run of the grid."}
	var methods []string
	for _, m := range r.methodRows() {
		_, inRuntime := r.Paper.paperRuntimeRow(m)
		if inRuntime || containsStr(r.Methods, m) {
			methods = append(methods, m)
		}
	}
	for _, m := range methods {
		row := Row{Cells: []Cell{{Text: methodLabel(m)}}}
		for _, d := range r.Datasets {
			why := r.Missing(d, m)
			pv, inPaper := r.Paper.PaperRuntime(m, d)
			for _, rule := range []string{PaperRule, r.FreeRule} {
				tr := newTidy(t.Name, d, m, "fit_seconds", rule)
				c := Cell{Text: Dash, Note: why + r.Unselected(rule, d, m)}
				if c.Note == "" {
					p := r.Selected(rule, d, m)
					tr.Mean, tr.Runs, tr.Failed, tr.Params = p.FitSeconds, p.Runs, p.Failed, ParamString(p.Params)
					_, tr.Std = experiments.MeanStd(fitTimes(p))
					c = Cell{Text: fmtSeconds(p.FitSeconds), Note: FailedNote(p)}
				}
				tr.Note = c.Note
				if inPaper {
					tr.Paper = pv
				}
				row.Cells = append(row.Cells, c)
				t.Tidy = append(t.Tidy, tr)
			}
			tr := newTidy(t.Name, d, m, "fit_seconds", "all")
			c := Cell{Text: Dash, Note: why}
			if why == "" {
				tr.Mean, tr.Runs = r.meanFitAll(d, m)
				c = Cell{Text: fmtSeconds(tr.Mean)}
			}
			tr.Note = c.Note
			pc := Cell{Text: Dash}
			if inPaper {
				tr.Paper = pv
				pc.Text = fmtSeconds(pv)
			}
			row.Cells = append(row.Cells, c, pc)
			t.Tidy = append(t.Tidy, tr)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// fitTimes returns the fit times of a point's finished restarts.
func fitTimes(p *experiments.PointStats) []float64 {
	out := make([]float64, len(p.Records))
	for i, rec := range p.Records {
		out[i] = rec.FitSeconds
	}
	return out
}

// paperRuntimeRow reports whether the paper's runtime table has a row for method.
func (p *Published) paperRuntimeRow(method string) (map[string]float64, bool) {
	if p == nil {
		return nil, false
	}
	v, ok := p.Runtime[method]
	return v, ok
}

func containsStr(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// freeShort names a label-free rule in a few words.
func freeShort(rule string) string {
	if rule == "objective" {
		return "lowest mean final objective"
	}
	return "best mean " + rule
}

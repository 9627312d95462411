package report

import (
	"fmt"
	"github.com/nagc-harness/nagc/internal/texttable"
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

// meanFitAll returns the mean fit time (fit_seconds) over every finished run of a
// method on a dataset that keep accepts (nil: all), and the number of runs.
func (r *Results) meanFitAll(dataset, method string, keep func(*experiments.PointStats) bool) (float64, int) {
	var sum float64
	n := 0
	for _, p := range r.PointsOf(dataset, method) {
		if keep != nil && !keep(p) {
			continue
		}
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

// atTimingSetting reports whether a grid point is at the paper's timing setting, k2 = k1
// ("The hyperparameter k2 is set to k1 in our method"); points without k2 always are.
func atTimingSetting(p *experiments.PointStats) bool {
	k2 := ParamFloat(p.Params, "k2")
	return math.IsNaN(k2) || len(p.Records) > 0 && k2 == float64(p.Records[0].K1)
}

// initSeconds returns the time a record spent initialising, timed apart from its
// fit_seconds (the record's init_seconds), and whether the record carries it: records made
// before the field existed do not, nor do methods that time no initialisation apart.
func initSeconds(rec experiments.Record) (float64, bool) {
	return rec.InitSeconds, rec.InitSeconds > 0 || rec.InitCached
}

// meanInit returns the mean init_seconds over the records of a point that carry it, and
// their number.
func meanInit(p *experiments.PointStats) (float64, int) {
	var sum float64
	n := 0
	for _, rec := range p.Records {
		if v, ok := initSeconds(rec); ok {
			sum += v
			n++
		}
	}
	if n == 0 {
		return math.NaN(), 0
	}
	return sum / float64(n), n
}

// hasInitSeconds reports whether some record carries init_seconds.
func (r *Results) hasInitSeconds() bool {
	for _, rec := range r.Records {
		if _, ok := initSeconds(rec); ok {
			return true
		}
	}
	return false
}

// Runtime table columns' selections in tidy rows.
const (
	selAll       = "all"
	selTimingSet = "k2=k1"
	// selAlone is the selection of the fits timed alone (experiments.Record.TimedAlone):
	// the tidy row's mean column holds their median.
	selAlone      = "alone-median"
	metricFitTime = "fit_seconds"
	metricInit    = "init_seconds"
)

// RuntimeTable builds the runtime table (the paper's table/runtime.tex): mean fit time
// (the records' fit_seconds) per method and dataset at the grid point selected by the
// paper's rule, at the one selected by the label-free rule, over the runs at the paper's
// timing setting k2 = k1, and over all runs, beside the paper's seconds; when records
// carry init_seconds, the mean initialisation time at the paper-rule point in its own
// column. Rows are the recorded methods and the paper's runtime rows.
//
// When the results hold fits timed alone (Results.Timed, a config with timing: true) the
// table is timedRuntimeTable instead.
func RuntimeTable(r *Results) *Table {
	if len(r.Timed) > 0 {
		return timedRuntimeTable(r)
	}
	withInit := r.hasInitSeconds()
	field := "the records' fit_seconds field, which records made before init_seconds existed time from before the " +
		"initialisation: their k-means start, cached per dataset and restart, is paid by whichever grid point needed " +
		"it first"
	if withInit {
		field = "the records' fit_seconds field; where a record carries init_seconds (the initialisation, timed apart), " +
			"its mean at the paper-rule point is in the \"init\" column"
	}
	t := newTable("runtime", texttable.Table{
		Title: "Runtime (seconds per fit)",
		Caption: "Mean fit time in seconds (" + field + ") on this machine (" + r.Machine() + r.workers() + "): at the grid " +
			"point selected by " + RuleText(PaperRule) + " (\"paper rule\"), at the one selected by " + RuleText(r.FreeRule) +
			" (\"label-free\"), over the finished runs at the paper's timing setting k2 = k1 (\"k2 = k1\"; every run for " +
			"methods without k2) and over all finished runs of the grid (\"all runs\"). The paper's times were measured on " +
			"the authors' machine (Python 3 / Octave), so only ratios between methods compare.",
		Columns: []texttable.Column{{Title: "Method", Align: 'l'}},
	})
	for _, d := range r.Datasets {
		cols := []texttable.Column{{Title: "paper rule", Align: 'r'}, {Title: "label-free", Align: 'r'}, {Title: "k2 = k1", Align: 'r'}, {Title: "all runs", Align: 'r'}}
		if withInit {
			cols = append(cols, texttable.Column{Title: "init", Align: 'r'})
		}
		cols = append(cols, texttable.Column{Title: "paper", Align: 'r'})
		t.Groups = append(t.Groups, texttable.Group{Title: DatasetTitle(d), Span: len(cols)})
		t.Columns = append(t.Columns, cols...)
	}
	t.Notes = []string{"paper rule = best mean ARI (reads the labels); label-free = " + freeShort(r.FreeRule) +
		" (reads no labels); k2 = k1 = mean over the runs at the paper's timing setting; all runs = mean over every " +
		"finished run of the grid."}
	t.Notes = append(t.Notes, r.Spec.RuntimeNotes...)
	var methods []string
	for _, m := range r.methodRows() {
		if r.Paper.HasRuntimeRow(m) || containsStr(r.Methods, m) {
			methods = append(methods, m)
		}
	}
	for _, m := range methods {
		row := texttable.Row{Cells: []texttable.Cell{{Text: r.methodLabel(m)}}}
		for _, d := range r.Datasets {
			why := r.Missing(d, m)
			pv, inPaper := r.Paper.RuntimeOf(m, d)
			for _, rule := range []string{PaperRule, r.FreeRule} {
				tr := newTidy(t.Name, d, m, metricFitTime, rule)
				c := texttable.Cell{Text: Dash, Note: why + r.Unselected(rule, d, m)}
				if c.Note == "" {
					p := r.Selected(rule, d, m)
					tr.Mean, tr.Runs, tr.Failed, tr.Params = p.FitSeconds, p.Runs, p.Failed, ParamString(p.Params)
					_, tr.Std = experiments.MeanStd(fitTimes(p))
					c = texttable.Cell{Text: fmtSeconds(p.FitSeconds), Note: FailedNote(p)}
				}
				tr.Note = c.Note
				if inPaper {
					tr.Paper = pv
				}
				row.Cells = append(row.Cells, c)
				t.Tidy = append(t.Tidy, tr)
			}
			for _, sel := range []string{selTimingSet, selAll} {
				tr := newTidy(t.Name, d, m, metricFitTime, sel)
				c := texttable.Cell{Text: Dash, Note: why}
				if why == "" {
					keep := atTimingSetting
					if sel == selAll {
						keep = nil
					}
					tr.Mean, tr.Runs = r.meanFitAll(d, m, keep)
					c = texttable.Cell{Text: fmtSeconds(tr.Mean)}
					if tr.Runs == 0 {
						c.Note = "no run at k2 = k1"
					}
				}
				tr.Note = c.Note
				if inPaper {
					tr.Paper = pv
				}
				row.Cells = append(row.Cells, c)
				t.Tidy = append(t.Tidy, tr)
			}
			if withInit {
				tr := newTidy(t.Name, d, m, metricInit, PaperRule)
				c := texttable.Cell{Text: Dash, Note: why + r.Unselected(PaperRule, d, m)}
				if c.Note == "" {
					p := r.Selected(PaperRule, d, m)
					tr.Params = ParamString(p.Params)
					if tr.Mean, tr.Runs = meanInit(p); tr.Runs > 0 {
						c = texttable.Cell{Text: fmtSeconds(tr.Mean)}
					} else {
						c.Note = "no init_seconds recorded (runs made before the field existed, or a method that does not time it apart)"
					}
				}
				tr.Note = c.Note
				row.Cells = append(row.Cells, c)
				t.Tidy = append(t.Tidy, tr)
			}
			row.Cells = append(row.Cells, paperSecondsCell(inPaper, pv))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// paperSecondsCell is the runtime table's cell of the paper's time pv, a dash where the
// paper has none.
func paperSecondsCell(inPaper bool, pv float64) texttable.Cell {
	if !inPaper {
		return texttable.Cell{Text: Dash}
	}
	return texttable.Cell{Text: fmtSeconds(pv)}
}

// workers describes how many runs were timed at once (the most workers of any recorded
// start of the sweep), or "".
func (r *Results) workers() string {
	w := 0
	for _, p := range r.Provenance {
		if p.Workers > w {
			w = p.Workers
		}
	}
	if w <= 1 {
		return ""
	}
	return fmt.Sprintf("; runs timed %d at a time", w)
}

// fitTimes returns the fit times of a point's finished restarts.
func fitTimes(p *experiments.PointStats) []float64 {
	out := make([]float64, len(p.Records))
	for i, rec := range p.Records {
		out[i] = rec.FitSeconds
	}
	return out
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

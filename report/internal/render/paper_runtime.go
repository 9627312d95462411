package render

import (
	"fmt"
	"math"
	"slices"
	"strings"

	recorded "github.com/nagc-harness/nagc/results"

	"github.com/nagc-harness/nagc/internal/texttable"
)

// meanFitAll returns the mean fit time (fit_seconds) over every finished run of a
// method on a dataset that keep accepts (nil: all), and the number of runs.
func (r results) meanFitAll(dataset, method string, keep func(*recorded.PointStats) bool) (float64, int) {
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
func atTimingSetting(p *recorded.PointStats) bool {
	k2 := paramFloat(p.Params, "k2")
	return math.IsNaN(k2) || len(p.Records) > 0 && k2 == float64(p.Records[0].K1)
}

// meanInit returns the mean init_seconds over the records of a point that carry it, and
// their number.
func meanInit(p *recorded.PointStats) (float64, int) {
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
func (r results) hasInitSeconds() bool {
	for _, rec := range r.Records {
		if _, ok := initSeconds(rec); ok {
			return true
		}
	}
	return false
}

// runtimeTableOf builds the runtime table (the paper's table/runtime.tex), one line per row
// of the paper's runtime table and of the results, one group of columns per dataset
// ending with the paper's seconds. Where the results hold fits timed alone
// (Results.Timed, a config with timing: true) its columns are the median fit and
// initialisation times of those fits ("alone", "init": medians, because the fits of a
// shared machine are slowed now and then by other work, which a median of five ignores
// where a mean does not) and, when the results hold a sweep, the mean over its runs at
// k2 = k1, timed concurrently ("sweep k2 = k1"); rows timed alone that are not rows of
// the sweep are added. Else its columns are the sweep's mean fit time (the records'
// fit_seconds) at the grid point selected by the paper's rule, at the one selected by the
// label-free rule, over the runs at the paper's timing setting k2 = k1, over all runs,
// and, when records carry init_seconds, the mean initialisation time at the paper-rule
// point.
//
// Without the paper's comparison (a user's own timing config) the table is
// FitTimesTable.
func runtimeTableOf(r results) *Table {
	if len(r.Timed) > 0 {
		withSweep := len(r.Records) > 0
		methods := r.runtimeMethods()
		cols := []runtimeColumn{r.aloneColumn()}
		note := aloneNote
		if withSweep {
			cols = append(cols, r.meanFitColumn("sweep k2 = k1", SelTimingSet, fmtSec3))
			note += "; sweep k2 = k1 = mean fit time over the sweep's runs at k2 = k1, timed concurrently"
		}
		return r.runtimeTable(r.aloneCaption(methods, withSweep), methods, cols,
			note+"; paper = the paper's table (Python 3 / Octave, the authors' machine).")
	}
	withInit := r.hasInitSeconds()
	field := "the records' fit_seconds field, which records made before init_seconds existed time from before the " +
		"initialisation: their k-means start, cached per dataset and restart, is paid by whichever grid point needed " +
		"it first"
	if withInit {
		field = "the records' fit_seconds field; where a record carries init_seconds (the initialisation, timed apart), " +
			"its mean at the paper-rule point is in the \"init\" column"
	}
	caption := "Mean fit time in seconds (" + field + ") on this machine (" + r.Machine() + r.workers() + "): at the grid " +
		"point selected by " + ruleText(PaperRule) + " (\"paper rule\"), at the one selected by " + ruleText(r.FreeRule) +
		" (\"label-free\"), over the finished runs at the paper's timing setting k2 = k1 (\"k2 = k1\"; every run for " +
		"methods without k2) and over all finished runs of the grid (\"all runs\"). The paper's times were measured on " +
		"the authors' machine (Python 3 / Octave), so only ratios between methods compare."
	cols := []runtimeColumn{r.selectedFitColumn("paper rule", PaperRule), r.selectedFitColumn("label-free", r.FreeRule),
		r.meanFitColumn("k2 = k1", SelTimingSet, FmtSeconds), r.meanFitColumn("all runs", SelAll, FmtSeconds)}
	if withInit {
		cols = append(cols, r.initColumn())
	}
	var methods []string
	for _, m := range r.methodRows() {
		if r.Paper.HasRuntimeRow(m) || slices.Contains(r.Methods, m) {
			methods = append(methods, m)
		}
	}
	return r.runtimeTable(caption, methods, cols, "paper rule = best mean ARI (reads the labels); label-free = "+
		freeShort(r.FreeRule)+" (reads no labels); k2 = k1 = mean over the runs at the paper's timing setting; all "+
		"runs = mean over every finished run of the grid.")
}

// runtimeColumn is a kind of column of the runtime table: its headings, and the cells of
// a row on a dataset under them with their tidy rows.
type runtimeColumn struct {
	titles []string
	cells  func(dataset, method string) ([]texttable.Cell, []TidyRow)
}

// runtimeTable builds the runtime table of methods from kinds of columns: per dataset
// the columns of each kind, then the paper's seconds (also the paper value of every tidy
// row of a fit time); a note on the columns, then paper.Spec.RuntimeNotes.
func (r results) runtimeTable(caption string, methods []string, cols []runtimeColumn, note string) *Table {
	t := newTable("runtime", texttable.Table{
		Title: "Runtime (seconds per fit)", Caption: caption,
		Columns: []texttable.Column{{Title: "Method", Align: 'l'}},
		Notes:   append([]string{note}, r.Spec.RuntimeNotes...),
	})
	for _, d := range r.Datasets {
		var heads []texttable.Column
		for _, c := range cols {
			for _, title := range c.titles {
				heads = append(heads, texttable.Column{Title: title, Align: 'r'})
			}
		}
		t.AddGroup(DatasetTitle(d), append(heads, texttable.Column{Title: "paper", Align: 'r'})...)
	}
	for _, m := range methods {
		row := texttable.Row{Cells: []texttable.Cell{{Text: r.methodLabel(m)}}}
		for _, d := range r.Datasets {
			pv, inPaper := r.Paper.RuntimeOf(m, d)
			for _, c := range cols {
				cells, tidy := c.cells(d, m)
				for i := range tidy {
					if inPaper && tidy[i].Metric == MetricFitTime {
						tidy[i].Paper = pv
					}
				}
				row.Cells = append(row.Cells, cells...)
				t.Tidy = append(t.Tidy, tidy...)
			}
			row.Cells = append(row.Cells, paperSecondsCell(inPaper, pv))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// selectedFitColumn is the mean fit time at the grid point rule selects.
func (r results) selectedFitColumn(title, rule string) runtimeColumn {
	return runtimeColumn{titles: []string{title}, cells: func(d, m string) ([]texttable.Cell, []TidyRow) {
		tr := newTidy("runtime", d, m, MetricFitTime, rule)
		c := texttable.Cell{Text: Dash, Note: r.Missing(d, m) + r.Unselected(rule, d, m)}
		if c.Note == "" {
			p := r.Selected(rule, d, m)
			tr.Mean, tr.Runs, tr.Failed, tr.Params = p.FitSeconds, p.Runs, p.Failed, ParamString(p.Params)
			_, tr.Std = recorded.MeanStd(fitTimes(p))
			c = texttable.Cell{Text: FmtSeconds(p.FitSeconds), Note: failedNote(p)}
		}
		tr.Note = c.Note
		return []texttable.Cell{c}, []TidyRow{tr}
	}}
}

// meanFitColumn is the mean fit time over the sweep's runs at the paper's timing setting
// k2 = k1 (sel selTimingSet) or over all of them (selAll), printed by format.
func (r results) meanFitColumn(title, sel string, format func(float64) string) runtimeColumn {
	return runtimeColumn{titles: []string{title}, cells: func(d, m string) ([]texttable.Cell, []TidyRow) {
		tr := newTidy("runtime", d, m, MetricFitTime, sel)
		c := texttable.Cell{Text: Dash, Note: r.Missing(d, m)}
		if c.Note == "" {
			keep := atTimingSetting
			if sel == SelAll {
				keep = nil
			}
			tr.Mean, tr.Runs = r.meanFitAll(d, m, keep)
			c.Text = format(tr.Mean)
			if tr.Runs == 0 {
				c.Note = "no run at k2 = k1"
			}
		}
		tr.Note = c.Note
		return []texttable.Cell{c}, []TidyRow{tr}
	}}
}

// initColumn is the mean initialisation time (init_seconds) at the paper-rule point.
func (r results) initColumn() runtimeColumn {
	return runtimeColumn{titles: []string{"init"}, cells: func(d, m string) ([]texttable.Cell, []TidyRow) {
		tr := newTidy("runtime", d, m, MetricInit, PaperRule)
		c := texttable.Cell{Text: Dash, Note: r.Missing(d, m) + r.Unselected(PaperRule, d, m)}
		if c.Note == "" {
			p := r.Selected(PaperRule, d, m)
			tr.Params = ParamString(p.Params)
			if tr.Mean, tr.Runs = meanInit(p); tr.Runs > 0 {
				c = texttable.Cell{Text: FmtSeconds(tr.Mean)}
			} else {
				c.Note = "no init_seconds recorded (runs made before the field existed, or a method that does not time it apart)"
			}
		}
		tr.Note = c.Note
		return []texttable.Cell{c}, []TidyRow{tr}
	}}
}

// aloneColumn is the median fit and initialisation times of the fits timed alone.
func (r results) aloneColumn() runtimeColumn {
	return runtimeColumn{titles: []string{"alone", "init"}, cells: func(d, m string) ([]texttable.Cell, []TidyRow) {
		fc, fit, ic, ini := aloneCells("runtime", d, m, r.TimedAlone(d, m))
		return []texttable.Cell{fc, ic}, []TidyRow{fit, ini}
	}}
}

// paperSecondsCell is the runtime table's cell of the paper's time pv, a dash where the
// paper has none.
func paperSecondsCell(inPaper bool, pv float64) texttable.Cell {
	if !inPaper {
		return texttable.Cell{Text: Dash}
	}
	return texttable.Cell{Text: FmtSeconds(pv)}
}

// workers describes how many runs were timed at once (the most workers of any recorded
// start of the sweep), or "".
func (r results) workers() string {
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

// freeShort names a label-free rule in a few words.
func freeShort(rule string) string {
	if rule == "objective" {
		return "best mean final objective (lowest; highest where the method maximises it)"
	}
	return "best mean " + rule
}

// aloneNote explains the "alone" and "init" columns of the paper's runtime table.
const aloneNote = "alone = median fit time over the restarts timed alone (the iterations, without the initialisation " +
	"where init has a value); init = median time of their initialisation, timed apart"

// runtimeMethods lists the rows of the paper's runtime table: the paper's runtime rows
// and the sweep's rows (methodRows order), then rows timed alone that are neither.
func (r results) runtimeMethods() []string {
	var out []string
	for _, m := range r.methodRows() {
		if r.Paper.HasRuntimeRow(m) || slices.Contains(r.Methods, m) {
			out = append(out, m)
		}
	}
	for _, m := range r.TimedMethods() {
		out = appendNew(out, m)
	}
	return out
}

// aloneCaption is the caption of the runtime table from fits timed alone: how they were
// timed (AloneTiming), at which settings, what the paper states of its own
// timings, and with withSweep how the column of the sweep's fit times was measured.
func (r results) aloneCaption(methods []string, withSweep bool) string {
	a := r.AloneTiming(methods)
	s := a.Caption("alone", "init", "the restarts of the fits timed alone")
	if len(a.Settings) > 0 {
		s += " Settings of the fits timed alone: " + strings.Join(a.Settings, "; ") + "."
	}
	s += " The paper states k2 = k1 and t = 100 for its timings but neither λ nor ρ: those above are the timing " +
		"config's choice, not the paper's (the cost of an iteration depends on neither, except that ρ = 0.5 selects the " +
		"w/o-PU rule of U)."
	if withSweep {
		s += " \"sweep k2 = k1\": mean fit time over the sweep's finished runs at k2 = k1 (every run for methods without " +
			"k2), " + r.SweepTiming() + ", with the k-means start of a restart computed once and shared by its grid points " +
			"(so that most of them, JWNMF's included, start from the cache)."
	}
	return s + " The paper's times were measured on the authors' machine (Python 3 / Octave), so only ratios between " +
		"methods compare."
}

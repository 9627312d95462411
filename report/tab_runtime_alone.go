package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/metrics"
)

// timedRuntimeTable is the runtime table of results holding fits timed alone (a config
// with timing: true; Results.Timed): per dataset, the median fit time of a row's fits
// timed alone ("alone"), the median of their initialisation timed apart ("init"), the
// mean over the sweep's runs at k2 = k1, timed concurrently ("sweep k2 = k1"; only when
// the results hold a sweep), and the paper's seconds. Medians, because the fits of a
// shared machine are slowed now and then by other work, which a median of five ignores
// where a mean does not. Rows are those of the paper's runtime table, the sweep's and
// the timed ones.
//
// Without the paper's comparison (paper false: a user's own timing config) the table has
// the rows timed alone and the "alone" and "init" columns only.
func timedRuntimeTable(r *Results, paper bool) *Table {
	withSweep := paper && len(r.Records) > 0
	methods := r.runtimeMethods(paper)
	title := "Runtime (seconds per fit)"
	if !paper {
		title = "Fit times, timed alone (seconds per fit)"
	}
	t := &Table{
		Name:    "runtime",
		Title:   title,
		Caption: r.aloneCaption(methods, withSweep, paper),
		Columns: []Column{{"Method", 'l'}},
	}
	if !paper {
		t.Columns[0].Title = "Row"
	}
	for _, d := range r.Datasets {
		cols := []Column{{"alone", 'r'}, {"init", 'r'}}
		if withSweep {
			cols = append(cols, Column{"sweep k2 = k1", 'r'})
		}
		if paper {
			cols = append(cols, Column{"paper", 'r'})
		}
		t.Groups = append(t.Groups, Group{DatasetTitle(d), len(cols)})
		t.Columns = append(t.Columns, cols...)
	}
	note := "alone = median fit time over the restarts timed alone (the iterations, without the initialisation where " +
		"init has a value); init = median time of their initialisation, timed apart"
	if withSweep {
		note += "; sweep k2 = k1 = mean fit time over the sweep's runs at k2 = k1, timed concurrently"
	}
	t.Notes = []string{note + "; paper = the paper's table (Python 3 / Octave, the authors' machine).",
		"Our PU update has no n² term: (UUᵀ⊙W)U runs over the stored edges and (UUᵀ⊙W')U = U(UᵀU) − (UUᵀ⊙W)U, " +
			"so the PU/no-PU time gap of the authors' dense code does not appear here."}
	if !paper {
		t.Notes = []string{note + "."}
	}
	for _, m := range methods {
		label := m // a user's own rows, named as the config names them
		if paper {
			label = r.methodLabel(m)
		}
		row := Row{Cells: []Cell{{Text: label}}}
		for _, d := range r.Datasets {
			pv, inPaper := r.Paper.PaperRuntime(m, d)
			done, failed, errText := r.timedAlone(d, m)
			params := aloneSettings(done)

			fit := newTidy(t.Name, d, m, metricFitTime, selAlone)
			c := Cell{Text: Dash}
			switch {
			case len(done) == 0 && failed == 0:
				c.Note = "not timed alone (no fit of a config with timing: true)"
			case len(done) == 0:
				c.Note = fmt.Sprintf("all %d fits timed alone failed: %s", failed, shorten(errText, 120))
			default:
				times := make([]float64, len(done))
				for i, rec := range done {
					times[i] = rec.FitSeconds
				}
				fit.Mean, fit.Runs, fit.Failed, fit.Params = metrics.Median(times), len(done), failed, params
				_, fit.Std = experiments.MeanStd(times)
				c.Text = fmtSec3(fit.Mean)
				if failed > 0 {
					c.Note = fmt.Sprintf("%d of %d fits timed alone failed: %s", failed, failed+len(done), shorten(errText, 120))
				}
			}
			fit.Note = c.Note
			if inPaper {
				fit.Paper = pv
			}
			row.Cells = append(row.Cells, c)
			t.Tidy = append(t.Tidy, fit)

			ini := newTidy(t.Name, d, m, metricInit, selAlone)
			ic := Cell{Text: Dash}
			var inits []float64
			for _, rec := range done {
				if v, ok := initSeconds(rec); ok {
					inits = append(inits, v)
				}
			}
			switch {
			case len(inits) > 0:
				ini.Mean, ini.Runs, ini.Params = metrics.Median(inits), len(inits), params
				_, ini.Std = experiments.MeanStd(inits)
				ic.Text = fmtSec3(ini.Mean)
			case len(done) > 0:
				ic.Note = "no initialisation timed apart: the fit time includes it"
			}
			ini.Note = ic.Note
			row.Cells = append(row.Cells, ic)
			t.Tidy = append(t.Tidy, ini)

			if withSweep {
				sw := newTidy(t.Name, d, m, metricFitTime, selTimingSet)
				sc := Cell{Text: Dash, Note: r.Missing(d, m)}
				if sc.Note == "" {
					sw.Mean, sw.Runs = r.meanFitAll(d, m, atTimingSetting)
					sc.Text = fmtSec3(sw.Mean)
					if sw.Runs == 0 {
						sc.Note = "no run at k2 = k1"
					}
				}
				sw.Note = sc.Note
				if inPaper {
					sw.Paper = pv
				}
				row.Cells = append(row.Cells, sc)
				t.Tidy = append(t.Tidy, sw)
			}

			if paper {
				row.Cells = append(row.Cells, paperSecondsCell(inPaper, pv))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// runtimeMethods lists the rows of the runtime table: the paper's runtime rows and the
// sweep's rows (methodRows order), then rows timed alone that are neither.
func (r *Results) runtimeMethods(paper bool) []string {
	var out []string
	for _, m := range r.methodRows() {
		if !paper {
			break // a user's own timing config: its timed rows only
		}
		if _, inRuntime := r.Paper.paperRuntimeRow(m); inRuntime || containsStr(r.Methods, m) {
			out = append(out, m)
		}
	}
	for _, rec := range r.Timed {
		for _, m := range rec.Methods {
			out = appendNew(out, m)
		}
	}
	return out
}

// timedAlone returns the finished records timed alone of a row on a dataset (restart
// order), the number of failed ones and the error of the first failed one.
func (r *Results) timedAlone(dataset, method string) (done []experiments.Record, failed int, errText string) {
	for _, rec := range r.Timed {
		if rec.Dataset != dataset || !containsStr(rec.Methods, method) {
			continue
		}
		if rec.Status != experiments.StatusDone {
			if failed == 0 {
				errText = rec.Error
			}
			failed++
			continue
		}
		done = append(done, rec)
	}
	sort.SliceStable(done, func(a, b int) bool { return done[a].Restart < done[b].Restart })
	return done, failed, errText
}

// aloneSettings describes the grid points of records timed alone: every parameter, k2 as
// "k1" where it is the dataset's number of classes, "defaults" for a method run at its
// defaults; and, when the records ran different numbers of iterations (a method that
// stops by its own test), their range. Several grid points are joined by " / ".
func aloneSettings(recs []experiments.Record) string {
	var points []string
	lo, hi := math.MaxInt, 0
	for _, rec := range recs {
		p := make(map[string]any, len(rec.Params))
		for k, v := range rec.Params {
			p[k] = v
		}
		if k2 := ParamFloat(p, "k2"); k2 == float64(rec.K1) {
			p["k2"] = "k1"
		}
		s := ParamString(p)
		if s == "" {
			s = "defaults"
		}
		points = appendNew(points, s)
		lo, hi = min(lo, rec.Iterations), max(hi, rec.Iterations)
	}
	out := strings.Join(points, " / ")
	if len(recs) > 0 && lo != hi {
		out += fmt.Sprintf(" (%d–%d iterations: it stops by its own test)", lo, hi)
	}
	return out
}

// aloneCaption is the caption of timedRuntimeTable: how the fits were timed, at which
// settings (read from the records), and how the other columns were measured.
func (r *Results) aloneCaption(methods []string, withSweep, paper bool) string {
	var configs []string
	for _, p := range r.Provenance {
		if p.Timing && p.Name != "" {
			configs = appendNew(configs, p.Name)
		}
	}
	from := "a config with timing: true"
	if len(configs) > 0 {
		from = "config " + strings.Join(configs, ", ") + ", with timing: true"
	}
	var apart, whole, settings []string
	jwnmfApart := false // a JWNMF fit with its k-means start computed apart by the runner
	for _, m := range methods {
		var recs []experiments.Record
		withInit := false
		for _, d := range r.Datasets {
			done, _, _ := r.timedAlone(d, m)
			recs = append(recs, done...)
			for _, rec := range done {
				if _, ok := initSeconds(rec); ok {
					withInit = true
					jwnmfApart = jwnmfApart || rec.Algorithm == "jwnmf"
				}
			}
		}
		if len(recs) == 0 {
			continue
		}
		if withInit {
			apart = append(apart, m)
		} else {
			whole = append(whole, m)
		}
		settings = append(settings, m+": "+aloneSettings(recs))
	}
	s := "Seconds per fit on this machine (" + r.Machine() + "). \"alone\": median over the restarts of the fits timed alone (" +
		from + "): one fit at a time, none of the harness's other runs meanwhile (other processes on the machine are not " +
		"stopped), the project's kernels on one thread (gonum's, which JWNMF's dense products use, may split a large " +
		"product across cores), each fit computing its own initialisation (no start shared " +
		"with another fit), no held-out fits."
	if len(apart) > 0 {
		s += " For " + wordList(apart) + " that time is the iterations alone, and \"init\" the median time of the " +
			"initialisation, timed apart (init_seconds"
		if jwnmfApart {
			s += "; JWNMF times none itself, so the runner computes its k-means start before the fit"
		}
		s += ")."
	}
	if len(whole) > 0 {
		s += " For " + wordList(whole) + " it is the whole fit (no initialisation timed apart)."
	}
	if len(settings) > 0 {
		s += " Settings of the fits timed alone: " + strings.Join(settings, "; ") + "."
	}
	if !paper {
		return s
	}
	s += " The paper states k2 = k1 and t = 100 for its timings but neither λ nor ρ: those above are the timing " +
		"config's choice, not the paper's (the cost of an iteration depends on neither, except that ρ = 0.5 selects the " +
		"w/o-PU rule of U)."
	if withSweep {
		s += " \"sweep k2 = k1\": mean fit time over the sweep's finished runs at k2 = k1 (every run for methods without " +
			"k2), " + r.sweepTiming() + ", with the k-means start of a restart computed once and shared by its grid points " +
			"(so that most of them, JWNMF's included, start from the cache)."
	}
	return s + " The paper's times were measured on the authors' machine (Python 3 / Octave), so only ratios between " +
		"methods compare."
}

// sweepTiming says how many of the sweep's runs were timed at once (the most workers of
// any start of a config without timing), for captions.
func (r *Results) sweepTiming() string {
	w := 0
	for _, p := range r.Provenance {
		if !p.Timing && p.Workers > w {
			w = p.Workers
		}
	}
	if w <= 1 {
		return "timed one at a time"
	}
	return fmt.Sprintf("timed %d at a time", w)
}

// fmtSec3 prints a time in seconds to three significant digits ("0.0144", "0.300",
// "54.3"), Dash for NaN: fits timed alone differ in the third digit, where fmtSeconds
// would print 0.01 for both.
func fmtSec3(v float64) string {
	if math.IsNaN(v) {
		return Dash
	}
	if v == 0 {
		return "0"
	}
	decimals := max(0, 2-int(math.Floor(math.Log10(math.Abs(v)))))
	return minus(fmt.Sprintf("%.*f", decimals, v))
}

// wordList joins names as in a sentence: "a", "a and b", "a, b and c".
func wordList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

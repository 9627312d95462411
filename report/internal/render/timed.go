package render

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/texttable"
	"github.com/nagc-harness/nagc/metrics"
)

// FitTimesTable is the table of the fits timed alone of a report without the paper's
// comparison (a user's own config with timing: true): one line per dataset, row (named as
// the configs name it) and grid point timed, with the settings, the number of fits, their
// median fit time and the median time of their initialisation where it was timed apart.
// A timing config may sweep a grid: each of its points is a line of its own. It assumes
// nothing of the paper: no paper column, no paper row.
func FitTimesTable(r *Results) *Table {
	methods := r.TimedMethods()
	t := newTable("runtime", texttable.Table{
		Title:   "Fit times, timed alone (seconds per fit)",
		Caption: r.AloneTiming(methods).Caption("fit (s)", "init (s)", "the restarts of a row's fits timed alone at one grid point"),
		Columns: []texttable.Column{{Title: "Row", Align: 'l'}, {Title: "Settings", Align: 'l'}, {Title: "fits", Align: 'r'}, {Title: "fit (s)", Align: 'r'}, {Title: "init (s)", Align: 'r'}},
	})
	for _, d := range r.Datasets {
		var rows []texttable.Row
		for _, m := range methods {
			for _, a := range r.timedPoints(d, m) {
				fc, fit, ic, ini := aloneCells(t.Name, d, m, a)
				fits := strconv.Itoa(len(a.Done))
				if a.Failed > 0 {
					fits += fmt.Sprintf(" (+%d failed)", a.Failed)
				}
				rows = append(rows, texttable.Row{Cells: []texttable.Cell{{Text: m}, {Text: a.Settings}, {Text: fits}, fc, ic}})
				t.Tidy = append(t.Tidy, fit, ini)
			}
		}
		if len(rows) > 0 {
			t.Rows = append(append(t.Rows, texttable.Row{Section: DatasetTitle(d)}), rows...)
		}
	}
	note := "fits = fits timed alone that finished (failed ones in brackets); fit (s) = their median fit time (the " +
		"iterations, without the initialisation where init (s) has a value); init (s) = the median time of their " +
		"initialisation, timed apart."
	if len(r.Records) > 0 {
		note += " The rows tables' fit (s) are means over the sweep's runs, " + r.SweepTiming() + " with k-means starts " +
			"shared between grid points: they do not compare with these."
	}
	t.Notes = []string{note}
	return t
}

// TimedMethods lists the rows that have fits timed alone, named as their configs name
// them, in the order they were recorded (a config's order).
func (r *Results) TimedMethods() []string {
	var out []string
	for _, rec := range r.Timed {
		for _, m := range rec.Methods {
			out = appendNew(out, m)
		}
	}
	return out
}

// TimedFits are the records timed alone of a row on a dataset: at every grid point
// (timedAlone) or at one (timedPoints).
type TimedFits struct {
	// Done are the finished records, in restart order.
	Done []experiments.Record
	// Failed is the number of failed ones, ErrText the error of the first.
	Failed  int
	ErrText string
	// Settings describe the grid points of the records (aloneSettings), "" if none
	// finished.
	Settings string
}

// collectAlone sorts records timed alone into finished and failed ones.
func collectAlone(recs []experiments.Record) TimedFits {
	var a TimedFits
	for _, rec := range recs {
		if rec.Status != experiments.StatusDone {
			if a.Failed == 0 {
				a.ErrText = rec.Error
			}
			a.Failed++
			continue
		}
		a.Done = append(a.Done, rec)
	}
	sort.SliceStable(a.Done, func(i, j int) bool { return a.Done[i].Restart < a.Done[j].Restart })
	a.Settings = aloneSettings(a.Done)
	return a
}

// timedRecords returns the records timed alone of a row on a dataset, in recorded order.
func (r *Results) timedRecords(dataset, method string) []experiments.Record {
	var out []experiments.Record
	for _, rec := range r.Timed {
		if rec.Dataset == dataset && slices.Contains(rec.Methods, method) {
			out = append(out, rec)
		}
	}
	return out
}

// TimedAlone returns the records timed alone of a row on a dataset, all grid points
// together.
func (r *Results) TimedAlone(dataset, method string) TimedFits {
	return collectAlone(r.timedRecords(dataset, method))
}

// timedPoints returns the records timed alone of a row on a dataset per grid point (a
// timing config may sweep a grid: each point is timed on its own), in the order the
// points were first recorded. A point whose fits all failed is described by its
// parameters (Settings of a failed one).
func (r *Results) timedPoints(dataset, method string) []TimedFits {
	var keys []string
	byKey := map[string][]experiments.Record{}
	for _, rec := range r.timedRecords(dataset, method) {
		k := pointSettings(rec)
		keys = appendNew(keys, k)
		byKey[k] = append(byKey[k], rec)
	}
	out := make([]TimedFits, len(keys))
	for i, k := range keys {
		out[i] = collectAlone(byKey[k])
		if out[i].Settings == "" {
			out[i].Settings = k
		}
	}
	return out
}

// AloneCells returns the cells and tidy rows of the median fit time (the table's name
// table, selection selAlone) and of the median initialisation time of fits timed alone.
func aloneCells(table, dataset, method string, a TimedFits) (fc texttable.Cell, fit TidyRow, ic texttable.Cell, ini TidyRow) {
	fit = newTidy(table, dataset, method, MetricFitTime, SelAlone)
	fc = texttable.Cell{Text: Dash}
	switch {
	case len(a.Done) == 0 && a.Failed == 0:
		fc.Note = "not timed alone (no fit of a config with timing: true)"
	case len(a.Done) == 0:
		fc.Note = fmt.Sprintf("all %d fits timed alone failed: %s", a.Failed, shorten(a.ErrText, 120))
	default:
		times := make([]float64, len(a.Done))
		for i, rec := range a.Done {
			times[i] = rec.FitSeconds
		}
		fit.Mean, fit.Runs, fit.Failed, fit.Params = metrics.Median(times), len(a.Done), a.Failed, a.Settings
		_, fit.Std = experiments.MeanStd(times)
		fc.Text = fmtSec3(fit.Mean)
		if a.Failed > 0 {
			fc.Note = fmt.Sprintf("%d of %d fits timed alone failed: %s", a.Failed, a.Failed+len(a.Done), shorten(a.ErrText, 120))
		}
	}
	fit.Note = fc.Note

	ini = newTidy(table, dataset, method, MetricInit, SelAlone)
	ic = texttable.Cell{Text: Dash}
	var inits []float64
	for _, rec := range a.Done {
		if v, ok := initSeconds(rec); ok {
			inits = append(inits, v)
		}
	}
	switch {
	case len(inits) > 0:
		ini.Mean, ini.Runs, ini.Params = metrics.Median(inits), len(inits), a.Settings
		_, ini.Std = experiments.MeanStd(inits)
		ic.Text = fmtSec3(ini.Mean)
	case len(a.Done) > 0:
		ic.Note = "no initialisation timed apart: the fit time includes it"
	}
	ini.Note = ic.Note
	return fc, fit, ic, ini
}

// pointSettings describes the grid point of a record timed alone: every parameter, k2 as
// "k1" where it is the dataset's number of classes, "defaults" for a method run at its
// defaults.
func pointSettings(rec experiments.Record) string {
	p := make(map[string]any, len(rec.Params))
	for k, v := range rec.Params {
		p[k] = v
	}
	if k2 := paramFloat(p, "k2"); k2 == float64(rec.K1) {
		p["k2"] = "k1"
	}
	if s := ParamString(p); s != "" {
		return s
	}
	return "defaults"
}

// aloneSettings describes the grid points of records timed alone (pointSettings) and,
// when the records ran different numbers of iterations (a method that stops by its own
// test), their range. Several grid points are joined by " / ".
func aloneSettings(recs []experiments.Record) string {
	var points []string
	lo, hi := math.MaxInt, 0
	for _, rec := range recs {
		points = appendNew(points, pointSettings(rec))
		lo, hi = min(lo, rec.Iterations), max(hi, rec.Iterations)
	}
	out := strings.Join(points, " / ")
	if len(recs) > 0 && lo != hi {
		out += fmt.Sprintf(" (%d–%d iterations: it stops by its own test)", lo, hi)
	}
	return out
}

// AloneTiming is how the fits timed alone of some rows were timed, read from the
// records and the provenance (the captions of the tables of fits timed alone).
type AloneTiming struct {
	// From names the configs that timed them ("config NAME, with timing: true").
	From string
	// Apart and Whole list the rows whose initialisation was timed apart, and those
	// timed as a whole fit.
	Apart, Whole []string
	// Settings lists "row: settings" of the fits timed alone.
	Settings []string
	// JWNMFApart is whether a JWNMF fit had its k-means start computed apart by the
	// runner.
	JWNMFApart bool
	// Machine is the machine of the runs (Results.Machine).
	Machine string
}

// AloneTiming returns how the fits timed alone of methods were timed.
func (r *Results) AloneTiming(methods []string) AloneTiming {
	var configs []string
	for _, p := range r.Provenance {
		if p.Timing && p.Name != "" {
			configs = appendNew(configs, p.Name)
		}
	}
	a := AloneTiming{From: "a config with timing: true", Machine: r.Machine()}
	if len(configs) > 0 {
		a.From = "config " + strings.Join(configs, ", ") + ", with timing: true"
	}
	for _, m := range methods {
		var recs []experiments.Record
		withInit := false
		for _, d := range r.Datasets {
			done := r.TimedAlone(d, m).Done
			recs = append(recs, done...)
			for _, rec := range done {
				if _, ok := initSeconds(rec); ok {
					withInit = true
					a.JWNMFApart = a.JWNMFApart || rec.Algorithm == "jwnmf"
				}
			}
		}
		if len(recs) == 0 {
			continue
		}
		if withInit {
			a.Apart = append(a.Apart, m)
		} else {
			a.Whole = append(a.Whole, m)
		}
		a.Settings = append(a.Settings, m+": "+aloneSettings(recs))
	}
	return a
}

// Caption says how the fits were timed, for a table whose column fitCol holds the
// median fit time over over and initCol the median time of the initialisation.
func (a AloneTiming) Caption(fitCol, initCol, over string) string {
	s := "Seconds per fit on this machine (" + a.Machine + "). \"" + fitCol + "\": median over " + over + " (" + a.From + "): one fit at a time, none of the harness's other runs meanwhile (other processes on the machine are not " +
		"stopped), the project's kernels on one thread (gonum's, which JWNMF's dense products use, may split a large " +
		"product across cores), each fit computing its own initialisation (no start shared " +
		"with another fit), no held-out fits."
	if len(a.Apart) > 0 {
		s += " For " + wordList(a.Apart) + " that time is the iterations alone, and \"" + initCol + "\" the median time of the " +
			"initialisation, timed apart (init_seconds"
		if a.JWNMFApart {
			s += "; JWNMF times none itself, so the runner computes its k-means start before the fit"
		}
		s += ")."
	}
	if len(a.Whole) > 0 {
		s += " For " + wordList(a.Whole) + " it is the whole fit (no initialisation timed apart)."
	}
	return s
}

// SweepTiming says how many of the sweep's runs were timed at once (the most workers of
// any start of a config without timing), for captions.
func (r *Results) SweepTiming() string {
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

// FmtSec3 prints a time in seconds to three significant digits ("0.0144", "0.300",
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

// timingOnly reports whether the results hold fits timed alone and no run of a sweep
// (only configs with timing: true ran into the folder).
func (r *Results) timingOnly() bool {
	return len(r.Records) == 0 && len(r.Timed) > 0
}

// timedOnly reports whether a dataset has fits timed alone but no run of a sweep.
func (r *Results) timedOnly(dataset string) bool {
	for _, p := range r.Points {
		if p.Dataset == dataset {
			return false
		}
	}
	for _, rec := range r.Timed {
		if rec.Dataset == dataset {
			return true
		}
	}
	return false
}

// noSweepSection reports whether a report without the paper's comparison leaves out a
// dataset's rows table, figures and section: the results hold only fits timed alone
// (timingOnly), or only fits timed alone on this dataset (timedOnly). With the paper's
// comparison every dataset keeps them.
func (r *Results) noSweepSection(dataset string) bool {
	return !r.Compare && (r.timingOnly() || r.timedOnly(dataset))
}

// timedCounts returns the number of fits timed alone that finished and that failed.
func (r *Results) timedCounts() (done, failed int) {
	for _, rec := range r.Timed {
		if rec.Status == experiments.StatusDone {
			done++
		} else {
			failed++
		}
	}
	return done, failed
}

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

// InitSeconds returns the time a record spent initialising, timed apart from its
// fit_seconds (the record's init_seconds), and whether the record carries it: records made
// before the field existed do not, nor do methods that time no initialisation apart.
func initSeconds(rec experiments.Record) (float64, bool) {
	return rec.InitSeconds, rec.InitSeconds > 0 || rec.InitCached
}

// Runtime table columns' selections in tidy rows.
const (
	SelAll       = "all"
	SelTimingSet = "k2=k1"
	// SelAlone is the selection of the fits timed alone (experiments.Record.TimedAlone):
	// the tidy row's mean column holds their median.
	SelAlone      = "alone-median"
	MetricFitTime = "fit_seconds"
	MetricInit    = "init_seconds"
)

// FitTimes returns the fit times of a point's finished restarts.
func fitTimes(p *experiments.PointStats) []float64 {
	out := make([]float64, len(p.Records))
	for i, rec := range p.Records {
		out[i] = rec.FitSeconds
	}
	return out
}

package render

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/nagc-harness/nagc/internal/paperplot"
	"github.com/nagc-harness/nagc/internal/texttable"
	recorded "github.com/nagc-harness/nagc/results"
)

// searchView is one search of the results (a row with a space on one dataset): its
// trials, with the mean of its rule's value at every rung each reached, and its fits in
// the order they were executed (batch, rung, trial, restart).
type searchView struct {
	Dataset, Row, Rule string
	Trials             []*searchTrialView
	Fits               []recorded.Record
}

// searchTrialView is one trial of a search: its parameters, its bracket of Hyperband
// (the rung it started at) and, per rung reached, its iterations and mean value; Cut
// says it stopped at its last rung reached before the search's last; Finished that it
// completed the last rung.
type searchTrialView struct {
	Trial, Batch   int
	Bracket        int
	Params         map[string]any
	Iterations     []int
	Values         []float64
	Cut, Finished  bool
	finishedAt     int // index in Fits of its last fit at the last rung
	restarts, last int
}

// Searches returns the searches recorded in r, in the order their records first come.
func (r *Results) Searches() []*searchView {
	type key struct{ d, row string }
	views := map[key]*searchView{}
	var order []key
	for _, rec := range r.Records {
		if rec.Search == nil {
			continue
		}
		k := key{rec.Dataset, rec.Search.Row}
		if views[k] == nil {
			views[k] = &searchView{Dataset: rec.Dataset, Row: rec.Search.Row, Rule: rec.Search.Rule}
			order = append(order, k)
		}
		views[k].Fits = append(views[k].Fits, rec)
	}
	out := make([]*searchView, 0, len(order))
	for _, k := range order {
		v := views[k]
		slices.SortStableFunc(v.Fits, func(a, b recorded.Record) int {
			x, y := a.Search, b.Search
			for _, c := range [][2]int{{x.Batch, y.Batch}, {x.Rung, y.Rung}, {x.Trial, y.Trial}, {a.Restart, b.Restart}} {
				if c[0] != c[1] {
					return c[0] - c[1]
				}
			}
			return 0
		})
		v.trials()
		out = append(out, v)
	}
	return out
}

// trials fills v.Trials from its fits.
func (v *searchView) trials() {
	byTrial := map[int]*searchTrialView{}
	sums := map[[2]int][2]float64{}
	for i, rec := range v.Fits {
		s := rec.Search
		t := byTrial[s.Trial]
		if t == nil {
			params := map[string]any{}
			for k, p := range rec.Params {
				if k != "iterations" {
					params[k] = p
				}
			}
			t = &searchTrialView{Trial: s.Trial, Batch: s.Batch, Bracket: s.Bracket, Params: params}
			byTrial[s.Trial] = t
			v.Trials = append(v.Trials, t)
		}
		for len(t.Iterations) <= s.Rung {
			t.Iterations, t.Values = append(t.Iterations, 0), append(t.Values, math.NaN())
		}
		t.Iterations[s.Rung] = rec.Iterations
		val := math.Inf(-1)
		if rec.Status == recorded.StatusDone {
			if x, ok := recorded.RuleValue(s.Rule, rec.Metrics); ok {
				val = x
			}
		}
		acc := sums[[2]int{s.Trial, s.Rung}]
		acc[0] += val
		acc[1]++
		sums[[2]int{s.Trial, s.Rung}] = acc
		t.Values[s.Rung] = acc[0] / acc[1]
		t.Cut = t.Cut || s.Cut
		if s.Rung == s.Rungs-1 {
			t.restarts++
			t.finishedAt, t.last = i, s.Rung
		}
	}
	restarts := 0
	for _, t := range v.Trials {
		restarts = max(restarts, t.restarts)
	}
	for _, t := range v.Trials {
		t.Finished = t.restarts == restarts && restarts > 0
	}
	sort.SliceStable(v.Trials, func(a, b int) bool { return v.Trials[a].Trial < v.Trials[b].Trial })
}

// ruleLabel names a search's rule in a figure, saying so when it reads the labels.
func ruleLabel(rule string) string {
	if recorded.ReadsLabels(rule) {
		return rule + " (reads the labels)"
	}
	return rule
}

// searchSlug is the file stem part of a search.
func (r *Results) searchSlug(v *searchView) string {
	return r.slug(v.Dataset) + "_" + r.MethodSlug(v.Row)
}

// bestSoFarFigure draws the search's best finished value against the iterations its
// fits ran, with the best grid point of another row of the same dataset as a line.
func (r *Results) bestSoFarFigure(v *searchView, o FigureOptions) (*Figure, error) {
	return r.bestSoFar(v, o, false)
}

// bestSoFarSecondsFigure is bestSoFarFigure against the seconds the fits took.
func (r *Results) bestSoFarSecondsFigure(v *searchView, o FigureOptions) (*Figure, error) {
	return r.bestSoFar(v, o, true)
}

// bestSoFar draws the search's best finished value against the cost (fitCost) of its
// fits in the order they were executed: iterations, or seconds when seconds is set.
func (r *Results) bestSoFar(v *searchView, o FigureOptions, seconds bool) (*Figure, error) {
	var pts, steps paperplot.XYs
	best, cost := math.Inf(-1), 0.0
	finishedAt := map[int]*searchTrialView{}
	for _, t := range v.Trials {
		if t.Finished {
			finishedAt[t.finishedAt] = t
		}
	}
	for i, rec := range v.Fits {
		its, s := fitCost(rec)
		if seconds {
			cost += s
		} else {
			cost += float64(its)
		}
		if t := finishedAt[i]; t != nil && t.Values[t.last] > best {
			best = t.Values[t.last]
			if len(pts) > 0 {
				pts = append(pts, paperplot.XY{X: cost, Y: pts[len(pts)-1].Y})
			}
			pts = append(pts, paperplot.XY{X: cost, Y: best})
			steps = append(steps, paperplot.XY{X: cost, Y: best})
		}
	}
	if len(pts) == 0 {
		return nil, nil
	}
	pts = append(pts, paperplot.XY{X: cost, Y: best})
	xLabel, name, against := "iterations run (all fits)", "search_best_", "the iterations all the search's fits ran up to then (continued fits count only their own)"
	if seconds {
		xLabel, name, against = "seconds (all fits)", "search_best_seconds_", "the seconds all the search's fits took up to then (fit time plus a k-means start where it was computed, summed over fits whatever ran in parallel)"
	}
	if slices.ContainsFunc(v.Fits, func(r recorded.Record) bool { return r.Holdout > 0 }) {
		against += "; held-out fits included"
	}
	f := o.Style.NewFigure(fmt.Sprintf("%s on %s: best so far", v.Row, DatasetTitle(v.Dataset)), xLabel, ruleLabel(v.Rule))
	f.Grid()
	if err := f.Curve(0, "best trial that completed the last rung", pts); err != nil {
		return nil, err
	}
	if err := f.Points(0, "", steps); err != nil { // each new best marked, the last one too
		return nil, err
	}
	if grids := r.gridCosts(v); bestGrid(grids) >= 0 {
		g := grids[bestGrid(grids)]
		cost := strconv.Itoa(g.Iterations) + " iterations"
		if seconds {
			cost = fmtSec3(g.Seconds) + " s"
		}
		f.HLine(fmt.Sprintf("grid's best (%s, %s)", g.Row, cost), g.Best)
	}
	f.Plot.X.Min = 0
	f.Pad()
	fig := &Figure{Name: name + r.searchSlug(v), Kind: "search", Dataset: v.Dataset, Method: v.Row,
		Title:   fmt.Sprintf("%s on %s: the search's best so far", v.Row, DatasetTitle(v.Dataset)),
		Caption: fmt.Sprintf("The best mean %s over restarts of the trials that completed the last rung, against %s.", ruleLabel(v.Rule), against)}
	if seconds {
		fig.Title += " against seconds"
	}
	return fig, o.Save(fig, f)
}

// rungFigure draws every trial's mean value at each rung it reached against the
// rung's iterations: finished trials in colour, cut ones grey.
func (r *Results) rungFigure(v *searchView, o FigureOptions) (*Figure, error) {
	f := o.Style.NewFigure(fmt.Sprintf("%s on %s: rungs", v.Row, DatasetTitle(v.Dataset)), "iterations", ruleLabel(v.Rule))
	f.Grid()
	var done, cut []paperplot.XYs
	for _, t := range v.Trials {
		var pts paperplot.XYs
		for k, it := range t.Iterations {
			if y := t.Values[k]; !math.IsInf(y, 0) && !math.IsNaN(y) {
				pts = append(pts, paperplot.XY{X: float64(it), Y: y})
			}
		}
		switch {
		case len(pts) == 0:
		case t.Finished:
			done = append(done, pts)
		default:
			cut = append(cut, pts)
		}
	}
	if len(done) == 0 && len(cut) == 0 {
		return nil, nil
	}
	// Cut trials first, in grey beneath; one legend entry for each kind.
	for j, pts := range cut {
		if err := f.Muted(legendOnce(j, "cut (or still running)"), pts); err != nil {
			return nil, err
		}
	}
	for j, pts := range done {
		if err := f.Line(0, legendOnce(j, "completed the last rung"), pts); err != nil {
			return nil, err
		}
	}
	f.Pad()
	fig := &Figure{Name: "search_rungs_" + r.searchSlug(v), Kind: "search", Dataset: v.Dataset, Method: v.Row,
		Title:   fmt.Sprintf("%s on %s: the search's rungs", v.Row, DatasetTitle(v.Dataset)),
		Caption: fmt.Sprintf("Each trial's mean %s over its restarts at each rung it reached, against the rung's iterations.", ruleLabel(v.Rule))}
	return fig, o.Save(fig, f)
}

// legendOnce returns name for the first (j = 0) of several lines of one kind, and ""
// (no legend entry) for the others.
func legendOnce(j int, name string) string {
	if j == 0 {
		return name
	}
	return ""
}

// paramKeys returns the names of the parameters of v's trials, sorted.
func (v *searchView) paramKeys() []string {
	var keys []string
	for _, t := range v.Trials {
		for k := range t.Params {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// trialsTable returns the table of a search's trials: parameters, bracket (a Hyperband
// search's only), rung reached, iterations, mean value there, and whether it was cut or
// completed the last rung.
func trialsTable(r *Results, v *searchView) *Table {
	keys := v.paramKeys()
	brackets := slices.ContainsFunc(v.Trials, func(t *searchTrialView) bool { return t.Bracket > 0 })
	tt := texttable.Table{
		Title:   fmt.Sprintf("%s on %s: trials of the search", v.Row, DatasetTitle(v.Dataset)),
		Caption: fmt.Sprintf("Every trial in order: its parameters, the last rung it reached with that rung's iterations and the mean %s over its restarts there, and its outcome.", ruleLabel(v.Rule)),
	}
	tt.Columns = append(tt.Columns, texttable.Column{Title: "trial", Align: 'r'}, texttable.Column{Title: "batch", Align: 'r'})
	for _, k := range keys {
		tt.Columns = append(tt.Columns, texttable.Column{Title: k, Align: 'r'})
	}
	if brackets {
		tt.Columns = append(tt.Columns, texttable.Column{Title: "bracket", Align: 'r'})
	}
	tt.Columns = append(tt.Columns, texttable.Column{Title: "rung", Align: 'r'}, texttable.Column{Title: "iterations", Align: 'r'},
		texttable.Column{Title: v.Rule, Align: 'r'}, texttable.Column{Title: "outcome", Align: 'l'})
	t := newTable("search_trials_"+r.searchSlug(v), tt)
	for _, tr := range v.Trials {
		cells := []texttable.Cell{{Text: strconv.Itoa(tr.Trial)}, {Text: strconv.Itoa(tr.Batch)}}
		for _, k := range keys {
			cells = append(cells, texttable.Cell{Text: fmt.Sprint(tr.Params[k])})
		}
		if brackets {
			cells = append(cells, texttable.Cell{Text: strconv.Itoa(tr.Bracket)})
		}
		k := len(tr.Iterations) - 1
		outcome := "running"
		switch {
		case tr.Finished:
			outcome = "completed"
		case tr.Cut:
			outcome = "cut"
		}
		cells = append(cells, texttable.Cell{Text: strconv.Itoa(k)}, texttable.Cell{Text: strconv.Itoa(tr.Iterations[k])},
			texttable.Cell{Text: fmt.Sprintf("%.4f", tr.Values[k])}, texttable.Cell{Text: outcome})
		t.AddRow(cells...)
		t.Tidy = append(t.Tidy, TidyRow{Table: t.Name, Dataset: v.Dataset, Method: v.Row, Rho: math.NaN(), Metric: v.Rule,
			Selection: "trial " + strconv.Itoa(tr.Trial) + " rung " + strconv.Itoa(k) + " " + outcome, Mean: tr.Values[k], Std: math.NaN(),
			Runs: 0})
	}
	return t
}

// writeSearchSection draws each search's figures, writes its trials table and appends
// a section on the searches to b; nothing when the results hold no search.
func (rep *Report) writeSearchSection(b *bytes.Buffer, opt Options) error {
	views := rep.Results.Searches()
	if len(views) == 0 {
		return nil
	}
	fmt.Fprintf(b, "## Searches\n\n")
	for _, v := range views {
		fmt.Fprintf(b, "### %s on %s (rule %s)\n\n", v.Row, DatasetTitle(v.Dataset), ruleLabel(v.Rule))
		done, cut, iters := 0, 0, 0
		for _, t := range v.Trials {
			if t.Finished {
				done++
			} else if t.Cut {
				cut++
			}
		}
		heldOut, onlyHeldOut := 0, 0
		for _, f := range v.Fits {
			iters += f.IterationsRun
			heldOut += f.HeldOutIterationsRun
			if f.Search.HeldOutOnly {
				onlyHeldOut++
			}
		}
		if heldOut == 0 {
			fmt.Fprintf(b, "%d trials: %d completed the last rung, %d cut; %d fits ran %d iterations in all.", len(v.Trials), done, cut, len(v.Fits), iters)
		} else {
			fmt.Fprintf(b, "%d trials: %d completed the last rung, %d cut; %d runs ran %d iterations in all: %d on held-out copies of the graph, %d on the whole graph",
				len(v.Trials), done, cut, len(v.Fits), iters+heldOut, heldOut, iters)
			if onlyHeldOut > 0 {
				fmt.Fprintf(b, " (%d runs, before the last rung, fitted only the held-out copy their rule reads)", onlyHeldOut)
			}
			fmt.Fprint(b, ".")
		}
		if grids := rep.Results.gridCosts(v); bestGrid(grids) >= 0 && grids[bestGrid(grids)].Iterations > 0 {
			g := grids[bestGrid(grids)]
			fmt.Fprintf(b, " The grid of %s on the same dataset ran %d iterations (the search: %.1f %% of them); its best %s is %.4f.", g.Row, g.Iterations, 100*float64(iters+heldOut)/float64(g.Iterations), v.Rule, g.Best)
		}
		fmt.Fprint(b, "\n\n")
		if len(opt.Figures) > 0 {
			_, fo, err := rep.figureOptions(opt)
			if err != nil {
				return err
			}
			for _, draw := range []func(*searchView, FigureOptions) (*Figure, error){rep.Results.bestSoFarFigure, rep.Results.bestSoFarSecondsFigure, rep.Results.rungFigure, rep.Results.parallelFigure, rep.Results.sliceFigure} {
				f, err := draw(v, fo)
				if err != nil {
					return err
				}
				if f != nil {
					rep.Files = append(rep.Files, f.Files...)
					rep.Figures = append(rep.Figures, f)
					writeFigures(b, []*Figure{f})
				}
			}
		}
		t := trialsTable(rep.Results, v)
		files, err := writeTableFiles(opt.OutDir, t, opt.Formats)
		rep.Files = append(rep.Files, files...)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "The trials: %s.\n\n", linkList(files))
		if t := searchGridTable(rep.Results, v); t != nil {
			files, err := writeTableFiles(opt.OutDir, t, opt.Formats)
			rep.Files = append(rep.Files, files...)
			if err != nil {
				return err
			}
			fmt.Fprintf(b, "%s\n\n%s\n\n", t.Markdown(), linkList(files))
		}
	}
	return nil
}

// linkList returns Markdown links to files, comma-separated.
func linkList(files []string) string {
	var b bytes.Buffer
	for i, f := range files {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "[%s](%s)", f, f)
	}
	return b.String()
}

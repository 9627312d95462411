package render

import (
	"fmt"
	"math"
	"strconv"

	"github.com/nagc-harness/nagc/internal/texttable"
	recorded "github.com/nagc-harness/nagc/results"
)

// sweepCost is what a sweep (a search, or one grid row) found and paid on one dataset:
// its best mean value under a rule, the point that has it, and the fits, iterations
// and seconds of all its runs.
type sweepCost struct {
	Row        string
	Best       float64
	Point      string
	Fits       int
	Iterations int
	Seconds    float64
}

// fitCost returns the iterations a record's fits executed themselves and the seconds
// they took: a search's continued fit counts only its own iterations (IterationsRun,
// HeldOutIterationsRun), a fit read off a longer one (PrefixOf) nothing (the longer one
// is counted), and a k-means start is counted by the fit that computed it (InitSeconds
// where not InitCached). A held-out fit counts its iterations (a grid's, untimed, runs
// as many as its fit) and the seconds a search's record gives it.
func fitCost(rec recorded.Record) (int, float64) {
	if rec.PrefixOf != 0 {
		return 0, 0
	}
	its := rec.Iterations
	if rec.Holdout > 0 {
		its *= 2
	}
	if rec.Search != nil {
		its = rec.IterationsRun + rec.HeldOutIterationsRun
	}
	s := rec.FitSeconds + rec.HeldOutSeconds
	if !rec.InitCached {
		s += rec.InitSeconds
	}
	return its, s
}

// searchCost returns the cost of search v and its choice: the best of the trials that
// completed the last rung with all their restarts.
func searchCost(v *searchView) sweepCost {
	c := sweepCost{Row: v.Row, Best: math.NaN(), Fits: len(v.Fits)}
	for _, rec := range v.Fits {
		its, s := fitCost(rec)
		c.Iterations += its
		c.Seconds += s
	}
	for _, t := range v.Trials {
		if x := t.Values[t.last]; t.Finished && !(x <= c.Best) {
			c.Best, c.Point = x, "trial "+strconv.Itoa(t.Trial)+": "+ParamString(t.Params)
		}
	}
	return c
}

// gridCosts returns, for every grid row (a row with no search) of the search's method
// on its dataset, in the order of the records, its best point under the search's rule
// and its cost.
func (r *Results) gridCosts(v *searchView) []sweepCost {
	algo := v.Fits[0].Algorithm
	byRow := map[string]*sweepCost{}
	var rows []string
	for _, rec := range r.Records {
		if rec.Search != nil || rec.Dataset != v.Dataset || rec.Algorithm != algo {
			continue
		}
		its, s := fitCost(rec)
		for _, m := range rec.Methods {
			c := byRow[m]
			if c == nil {
				c = &sweepCost{Row: m, Best: math.NaN()}
				byRow[m] = c
				rows = append(rows, m)
			}
			c.Fits++
			c.Iterations += its
			c.Seconds += s
		}
	}
	for _, p := range r.Points {
		c := byRow[p.Method]
		if p.Dataset != v.Dataset || c == nil || p.Runs == 0 || p.Records[0].Search != nil {
			continue
		}
		if x, ok := recorded.RuleValue(v.Rule, p.Mean); ok && !(x <= c.Best) {
			c.Best, c.Point = x, ParamString(p.Params)
		}
	}
	out := make([]sweepCost, 0, len(rows))
	for _, m := range rows {
		out = append(out, *byRow[m])
	}
	return out
}

// bestGrid returns the index in grids of the grid with the best value, -1 when none
// has one.
func bestGrid(grids []sweepCost) int {
	b := -1
	for i, g := range grids {
		if !math.IsNaN(g.Best) && (b < 0 || g.Best > grids[b].Best) {
			b = i
		}
	}
	return b
}

// searchGridTable returns the table "search against grid" of search v, nil when no grid
// of its method is recorded on its dataset: for the search and each grid, its best
// value under the rule and where, its fits, iterations and seconds, and the share of
// the best grid's iterations and seconds it paid.
func searchGridTable(r *Results, v *searchView) *Table {
	grids := r.gridCosts(v)
	b := bestGrid(grids)
	if b < 0 {
		return nil
	}
	ref := grids[b]
	tt := texttable.Table{
		Title: fmt.Sprintf("%s on %s: search against grid", v.Row, DatasetTitle(v.Dataset)),
		Caption: fmt.Sprintf("Best mean %s over restarts (the search: of the trials that completed its last rung with all their restarts; a grid: of its points), "+
			"the fits run, the iterations they executed (a continued fit counts only its own), their seconds as recorded (fit time plus a k-means start where it was computed, summed over fits, whatever ran in parallel), "+
			"and each as a share of the cost of %s, the grid with the best point. %s", ruleLabel(v.Rule), ref.Row, heldOutCostNote(r, v)),
	}
	for _, c := range []struct {
		title string
		align byte
	}{{"sweep", 'l'}, {"row", 'l'}, {v.Rule, 'r'}, {"chosen", 'l'}, {"fits", 'r'}, {"iterations", 'r'}, {"seconds", 'r'},
		{"share of iterations", 'r'}, {"share of seconds", 'r'}} {
		tt.Columns = append(tt.Columns, texttable.Column{Title: c.title, Align: c.align})
	}
	t := newTable("search_grid_"+r.searchSlug(v), tt)
	share := func(x, of float64) string {
		if of <= 0 {
			return Dash
		}
		return fmt.Sprintf("%.1f %%", 100*x/of)
	}
	for i, c := range append(grids, searchCost(v)) {
		kind := "grid"
		if i == len(grids) {
			kind = "search"
		}
		best := Dash
		if !math.IsNaN(c.Best) {
			best = fmt.Sprintf("%.4f", c.Best)
		}
		t.AddRow(texttable.Cell{Text: kind}, texttable.Cell{Text: c.Row}, texttable.Cell{Text: best}, texttable.Cell{Text: c.Point},
			texttable.Cell{Text: strconv.Itoa(c.Fits)}, texttable.Cell{Text: strconv.Itoa(c.Iterations)}, texttable.Cell{Text: fmtSec3(c.Seconds)},
			texttable.Cell{Text: share(float64(c.Iterations), float64(ref.Iterations))}, texttable.Cell{Text: share(c.Seconds, ref.Seconds)})
		t.Tidy = append(t.Tidy, TidyRow{Table: t.Name, Dataset: v.Dataset, Method: c.Row, Rho: math.NaN(), Metric: v.Rule,
			Selection: kind + " best: " + c.Point, Mean: c.Best, Std: math.NaN(), Runs: c.Fits})
	}
	return t
}

// heldOutCostNote says how the table counts held-out fits, where search v or a record
// of its dataset has them.
func heldOutCostNote(r *Results, v *searchView) string {
	for _, rec := range r.Records {
		if rec.Dataset == v.Dataset && rec.Holdout > 0 {
			return "Held-out fits count their iterations; their seconds are recorded by a search's fits only (a grid's held-out fits are untimed), so a search's share of the seconds is an upper bound."
		}
	}
	return "Held-out fits are not counted."
}

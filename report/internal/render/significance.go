package render

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/texttable"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/stats"
)

// Alpha is the level of the report's significance tests.
const Alpha = 0.05

// SignificanceMark follows a cell whose row is not significantly worse than the best
// (bold) row of its column.
const SignificanceMark = "†"

// Bootstrap settings of the rows whose restarts do not pair: resamples and the seed
// that makes the interval the same on every report.
const (
	bootstrapResamples = 10000
	bootstrapSeed      = 2006
)

// Versus is a row's comparison with the best row of a column (a dataset and metric under
// a selection rule), over the restarts of the grid points each selected.
type Versus struct {
	// Test is "wilcoxon" (the restarts pair: the same seeds, so the same
	// initialisations), "bootstrap" (they do not) or "" (too few restarts to test).
	Test string
	// N is the number of pairs (wilcoxon) or the row's restarts (bootstrap).
	N int
	// P is the one-sided Wilcoxon p-value, against the alternative that the best row
	// scores better (NaN for a bootstrap).
	P float64
	// CI is the bootstrap interval of the best row's mean minus the row's (turned for a
	// measure where lower is better) at level 1 − 2·Alpha: its Lo is the one-sided
	// bound at level 1 − Alpha.
	CI stats.Interval
	// Worse is whether the row is significantly worse than the best at Alpha.
	Worse bool
	// Mean is the row's mean.
	Mean float64
}

// Best returns the method with the best mean of metric among methods at the grid points
// rule selects on dataset (the metrics catalogue's direction; the first of equal means),
// its mean and, for every other method with that metric recorded, its Versus. best is
// "" when no method has the metric. Cost O(restarts · methods), plus the bootstraps.
func (r *Results) Best(rule, dataset, metric string, methods []string) (best string, mean float64, vs map[string]Versus) {
	dir := metrics.DirectionOf(metric)
	mean = math.NaN()
	for _, m := range methods {
		if p := r.Selected(rule, dataset, m); p != nil && r.Missing(dataset, m) == "" {
			if v, _ := metricOf(p, metric); dir.Better(v, mean) {
				best, mean = m, v
			}
		}
	}
	if best == "" {
		return "", mean, nil
	}
	vs = map[string]Versus{}
	bp := r.Selected(rule, dataset, best)
	for _, m := range methods {
		if m == best || r.Missing(dataset, m) != "" {
			continue
		}
		if p := r.Selected(rule, dataset, m); p != nil {
			if v, _ := metricOf(p, metric); !math.IsNaN(v) {
				x := versus(bp, p, metric, dir)
				x.Mean = v
				vs[m] = x
			}
		}
	}
	return best, mean, vs
}

// versus tests the point p against the best point bp on metric: Wilcoxon's signed-rank
// test when their restarts have the same seeds, else a bootstrap interval of the
// difference of means.
func versus(bp, p *experiments.PointStats, metric string, dir metrics.Direction) Versus {
	bs, bv := seeded(bp, metric)
	ps, pv := seeded(p, metric)
	if slices.Equal(bs, ps) && len(bs) > 0 {
		v := Versus{Test: "wilcoxon", N: len(bs), P: math.NaN()}
		alt := stats.Greater // the best's scores greater
		if dir == metrics.LowerIsBetter {
			alt = stats.Less
		}
		w, err := stats.WilcoxonTest(bv, pv, alt)
		if err != nil { // every difference zero: the row is the best's equal
			v.P = 1
			return v
		}
		v.P = w.P
		v.Worse = w.P < Alpha
		return v
	}
	if len(bv) < 2 || len(pv) < 2 {
		return Versus{N: len(pv), P: math.NaN()}
	}
	x, y := bv, pv
	if dir == metrics.LowerIsBetter {
		x, y = pv, bv
	}
	ci, err := stats.BootstrapMeanDiff(x, y, bootstrapResamples, 2*Alpha, bootstrapSeed) // Lo: the one-sided bound
	if err != nil {
		return Versus{N: len(pv), P: math.NaN()}
	}
	return Versus{Test: "bootstrap", N: len(pv), P: math.NaN(), CI: ci, Worse: ci.Lo > 0}
}

// seeded returns the keys (seed, restart) of a point's finished restarts that recorded
// metric, sorted, and the metric's values in the same order: restarts of two points
// pair when their keys are the same.
func seeded(p *experiments.PointStats, metric string) ([][2]uint64, []float64) {
	type sv struct {
		key [2]uint64
		v   float64
	}
	var out []sv
	for _, rec := range p.Records {
		if v, ok := rec.Metrics[metric]; ok && rec.Status == experiments.StatusDone {
			out = append(out, sv{[2]uint64{rec.Seed, uint64(rec.Restart)}, v})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].key, out[j].key
		return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
	})
	keys, vals := make([][2]uint64, len(out)), make([]float64, len(out))
	for i, s := range out {
		keys[i], vals[i] = s.key, s.v
	}
	return keys, vals
}

// significanceNote states what SignificanceMark means in a table: the test, α and the
// numbers of restarts behind the cells tested (tests lists the Versus of every marked
// or tested cell), best naming the cell they are tested against.
func significanceNote(tests []Versus, best string) string {
	if len(tests) == 0 {
		return ""
	}
	var ns []int
	paired, boot, untested := 0, 0, 0
	for _, v := range tests {
		if !slices.Contains(ns, v.N) && v.N > 0 {
			ns = append(ns, v.N)
		}
		switch v.Test {
		case "wilcoxon":
			paired++
		case "bootstrap":
			boot++
		default:
			untested++
		}
	}
	if paired+boot == 0 {
		return fmt.Sprintf("No cell tested against its column's best (under 2 unpaired restarts): no %s mark.", SignificanceMark)
	}
	slices.Sort(ns)
	restarts := "?"
	if len(ns) > 0 {
		restarts = fmt.Sprint(ns[0])
		if len(ns) > 1 {
			restarts += "–" + fmt.Sprint(ns[len(ns)-1])
		}
	}
	unit := "restarts"
	if restarts == "1" {
		unit = "restart"
	}
	s := fmt.Sprintf("%s: not significantly worse than %s (α = %.2f; %s %s; ", SignificanceMark, best, Alpha, restarts, unit)
	var how []string
	if paired > 0 {
		how = append(how, "one-sided Wilcoxon signed-rank, restarts paired by seed")
	}
	if boot > 0 {
		how = append(how, fmt.Sprintf("unpaired: one-sided %.0f %% bootstrap bound", 100*(1-Alpha)))
	}
	s += strings.Join(how, "; ") + ")."
	if untested > 0 {
		s += fmt.Sprintf(" %d cells untested (under 2 unpaired restarts).", untested)
	}
	if paired > 0 && len(ns) > 0 && ns[0] <= 4 {
		s += fmt.Sprintf(" With %d paired restarts the smallest exact p is %.4g: no row can test worse.", ns[0], math.Ldexp(1, -ns[0]))
	}
	return s
}

// Marks are the significance marks of a table's cells: per selection rule and dataset,
// the best mean of a metric and every other row's Versus (Results.Best).
type Marks struct {
	metric string
	// best names the best cell in the note ("the bold row").
	best string
	// means are the best means per rule and dataset; vs every other row's Versus.
	means  map[[2]string]float64
	vs     map[[2]string]map[string]Versus
	tested []Versus
}

// MarkNotWorse tests, under every selection rule of every dataset, each of methods
// against the best of them on metric (Best).
func (r *Results) MarkNotWorse(metric string, methods []string) *Marks {
	return r.markNotWorse(metric, methods, r.Datasets, "the bold row")
}

// markNotWorse is MarkNotWorse on datasets, the best cell called best in the note.
func (r *Results) markNotWorse(metric string, methods, datasets []string, best string) *Marks {
	m := &Marks{metric: metric, best: best, means: map[[2]string]float64{}, vs: map[[2]string]map[string]Versus{}}
	for _, d := range datasets {
		for _, rule := range []string{PaperRule, r.FreeRule} {
			k := [2]string{rule, d}
			_, m.means[k], m.vs[k] = r.Best(rule, d, metric, methods)
		}
	}
	return m
}

// Mark appends SignificanceMark to the cell of a method under rule on dataset when it is
// not the best's value but not significantly worse.
func (m *Marks) Mark(c *texttable.Cell, rule, dataset, method string) {
	k := [2]string{rule, dataset}
	v, ok := m.vs[k][method]
	if !ok || c.Text == Dash {
		return
	}
	m.tested = append(m.tested, v)
	if v.Test != "" && !v.Worse && v.Mean != m.means[k] {
		c.Text += " " + SignificanceMark
	}
}

// AddNote adds to t the note saying what the marks mean, when some cell was tested.
func (m *Marks) AddNote(t *texttable.Table) {
	if s := significanceNote(m.tested, m.best); s != "" {
		t.Notes = append(t.Notes, s)
	}
}

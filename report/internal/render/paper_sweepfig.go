package render

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/paperplot"
	"github.com/nagc-harness/nagc/report/paper"
)

// sweepLine is one line of a parameter-sweep figure: the ARI of Prop. against one
// parameter at a fixed ρ, the other parameters at their best (by mean ARI) for each x.
type sweepLine struct {
	Rho float64
	// X are the parameter values, ascending; Mean and Std the ARI over restarts there;
	// Params the chosen grid point of each x.
	X, Mean, Std []float64
	Params       []string
}

// noRho stands for "no ρ recorded" (the method's default) as a map key.
const noRho = -1

// propSweep returns, for a dataset and a parameter (lambda or k2), one series per ρ of the
// Prop. grid points with finished runs, ordered by ρ (points without a recorded ρ form a
// series with Rho NaN, first). For each x the point with the best mean ARI over the other
// parameters is taken (the paper's figures show ARI at the best other parameters). Points
// without the parameter are ignored.
func (r results) propSweep(dataset, param string) []sweepLine {
	byRho := map[float64]map[float64]*experiments.PointStats{}
	for _, p := range r.PointsOf(dataset, r.Spec.Proposed) {
		rho, x := paramFloat(p.Params, "rho"), paramFloat(p.Params, param)
		ari, ok := p.Mean["ari"]
		if p.Runs == 0 || !ok || math.IsNaN(x) {
			continue
		}
		if math.IsNaN(rho) {
			rho = noRho
		}
		if byRho[rho] == nil {
			byRho[rho] = map[float64]*experiments.PointStats{}
		}
		if cur := byRho[rho][x]; cur == nil || ari > cur.Mean["ari"] {
			byRho[rho][x] = p
		}
	}
	var rhos []float64
	for rho := range byRho {
		rhos = append(rhos, rho)
	}
	sort.Float64s(rhos)
	var out []sweepLine
	for _, rho := range rhos {
		s := sweepLine{Rho: rho}
		if rho == noRho {
			s.Rho = math.NaN()
		}
		for x := range byRho[rho] {
			s.X = append(s.X, x)
		}
		sort.Float64s(s.X)
		for _, x := range s.X {
			p := byRho[rho][x]
			s.Mean = append(s.Mean, p.Mean["ari"])
			s.Std = append(s.Std, p.Std["ari"])
			s.Params = append(s.Params, ParamString(p.Params))
		}
		out = append(out, s)
	}
	return out
}

// bestBaseline returns the non-Prop method with the highest mean ARI on a dataset (at
// the grid point selected by the paper's rule), its mean ARI, and false if there is none.
func (r results) bestBaseline(dataset string) (string, float64, bool) {
	name, best := "", math.Inf(-1)
	for _, m := range r.Methods {
		if strings.HasPrefix(m, "Prop") {
			continue
		}
		if mean, _ := metricOf(r.Selected(PaperRule, dataset, m), "ari"); !math.IsNaN(mean) && mean > best {
			name, best = m, mean
		}
	}
	return name, best, name != ""
}

// paperBaseline returns the paper's competitor with the highest published ARI on a
// dataset (a row of the paper's ARI table that is not a variant of Prop.), its published
// mean, and false if the paper has none.
func (r results) paperBaseline(dataset string) (string, float64, bool) {
	name, best := "", math.Inf(-1)
	for _, m := range r.Spec.Rows {
		if strings.HasPrefix(m, "Prop") {
			continue
		}
		if v, _, ok := r.Paper.ARIOf(m, dataset); ok && v > best {
			name, best = m, v
		}
	}
	return name, best, name != ""
}

// baselineLine returns the legend text and height of the sweep figure's comparison
// line: the paper's best published competitor with the paper's comparison, else the best
// recorded non-Prop. row.
func (r results) baselineLine(dataset string) (string, float64, bool) {
	if r.Paper != nil {
		name, v, ok := r.paperBaseline(dataset)
		return fmt.Sprintf("best competitor (paper): %s %.3f", name, v), v, ok
	}
	name, v, ok := r.bestBaseline(dataset)
	return fmt.Sprintf("best other row here: %s (%.3f)", name, v), v, ok
}

// baselineCaption says what the sweep figure's dashed grey line is.
func (r results) baselineCaption() string {
	if r.Paper != nil {
		return "Dashed grey: the highest ARI the paper publishes for a competitor of Prop. on this dataset (its Table 2)"
	}
	return "Dashed grey: the best other recorded row (highest mean ARI of a non-Prop. row at its paper-rule grid point)"
}

// sweepNames are the axis labels and titles of the sweep figures.
var sweepNames = map[string]struct{ symbol, axis string }{
	"lambda": {"λ", "λ (log scale)"},
	"k2":     {"k2", "k2 (number of attribute clusters)"},
}

// sweepFigure draws the ARI of Prop. against param ("lambda", log x axis, or "k2") on a
// dataset, one line per ρ with error bars (std over restarts), the best baseline as a
// dashed horizontal line and the paper's stated mark (if any) as a dotted vertical line
// or a black diamond, a page wide unless the style sets a size. It writes <param>_<dataset>.<format> and returns nil if there is
// nothing to draw.
func sweepFigure(r results, dataset, param string, o FigureOptions) (*Figure, error) {
	series := r.propSweep(dataset, param)
	if len(series) == 0 {
		return nil, nil
	}
	names, ok := sweepNames[param]
	if !ok {
		return nil, fmt.Errorf("sweep figure: unknown parameter %q (known: lambda, k2)", param)
	}
	logX := param == "lambda"
	prop := r.Spec.Proposed
	o.Style.Errors = paperplot.ErrorBars // the caption says error bars
	if o.Style.Width <= 0 && o.Style.Height <= 0 {
		// A page wide, as the paper's: its legend names a competitor and the paper's mark.
		o.Style.Width, o.Style.Aspect = paperplot.PageWidth, 2.4
	}
	f := o.Style.NewFigure(fmt.Sprintf("%s: ARI of %s against %s", DatasetTitle(dataset), prop, names.symbol), names.axis, "ARI")
	f.Grid()
	ari := metricMeasure("ari")
	xmin, xmax, err := addSweepLines(f, series, logX, ari)
	if err != nil || math.IsInf(xmin, 1) {
		return nil, err
	}
	if name, v, ok := r.baselineLine(dataset); ok {
		f.HLine(name, v)
	}
	var marks []paper.Mark
	if r.Paper != nil {
		if mk, ok := r.Spec.Marks(param)[strings.ToLower(dataset)]; ok && (!logX || mk.X > 0) {
			marks = append(marks, mk)
			xmin, xmax = math.Min(xmin, mk.X), math.Max(xmax, mk.X)
			if y := mk.YOrNaN(); math.IsNaN(y) {
				f.VLine(mk.Label, mk.X)
			} else if err := f.Mark(mk.Label, mk.X, y); err != nil {
				return nil, err
			}
		}
	}
	if logX {
		f.LogX()
		f.Plot.X.Min, f.Plot.X.Max = xmin/math.Pow(10, 0.3), xmax*math.Pow(10, 0.3)
	} else {
		f.Plot.X.Min, f.Plot.X.Max = xmin-0.8, xmax+0.8
		f.XTicks(integerTicks(series, marks, r.K1(dataset)))
	}
	f.Pad(ari.Lo, ari.Hi)
	fig := &Figure{
		Name: param + "_" + r.slug(dataset),
		Kind: param, Dataset: dataset, Method: prop, Params: []string{param},
		Title: fmt.Sprintf("Effect of %s on ARI, %s", names.symbol, DatasetTitle(dataset)),
		Caption: fmt.Sprintf("ARI (mean over restarts; error bars: population std over restarts) of %s (k-means init) "+
			"against %s on %s, one line per ρ; for each %s the other parameters are at their best mean ARI. "+
			"Lines are offset slightly in x so that error bars do not overlap; error bars are cut at the axis. "+
			r.baselineCaption()+"; dotted black line or black diamond: the paper's stated peak or value.",
			prop, names.symbol, DatasetTitle(dataset), names.symbol),
	}
	return fig, o.Save(fig, f)
}

// addSweepLines adds one line per ρ with markers and error bars (std over restarts, cut
// at the ARI's range) to f, leaving out x ≤ 0 on a log axis, and returns the range of x
// drawn (xmin = +Inf: nothing was drawn).
func addSweepLines(f *paperplot.Figure, series []sweepLine, logX bool, ari Measure) (xmin, xmax float64, err error) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for i, s := range series {
		if logX {
			var keep sweepLine
			keep.Rho = s.Rho
			for j, x := range s.X {
				if x > 0 {
					keep.X, keep.Mean, keep.Std = append(keep.X, x), append(keep.Mean, s.Mean[j]), append(keep.Std, s.Std[j])
				}
			}
			s = keep
			if len(s.X) == 0 {
				continue
			}
		}
		off := float64(i) - float64(len(series)-1)/2
		pts := make(paperplot.XYs, len(s.X))
		for j, x := range s.X {
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
			// Offset the lines slightly in x so that their error bars do not overlap.
			if logX {
				x *= math.Pow(10, 0.04*off)
			} else {
				x += 0.12 * off
			}
			pts[j] = paperplot.XY{X: x, Y: s.Mean[j]}
		}
		low, high := clippedErrors(s.Mean, s.Std, ari.Lo, ari.Hi)
		if err := f.Spread(i, pts, low, high); err != nil {
			return 0, 0, err
		}
		name := "ρ = " + fmtParam(s.Rho)
		if math.IsNaN(s.Rho) {
			name = "ρ: method default"
		}
		if err := f.Line(i, name, pts); err != nil {
			return 0, 0, err
		}
	}
	return xmin, xmax, nil
}

// integerTicks returns every k2 value of the series and marks and its label, the value
// equal to k1 (the paper's "k1" grid value) labelled "4 (k1)".
func integerTicks(series []sweepLine, marks []paper.Mark, k1 int) (xs []float64, labels []string) {
	for _, s := range series {
		for _, x := range s.X {
			if !containsFloat(xs, x) {
				xs = append(xs, x)
			}
		}
	}
	for _, m := range marks {
		if !containsFloat(xs, m.X) {
			xs = append(xs, m.X)
		}
	}
	sort.Float64s(xs)
	for _, x := range xs {
		label := fmtParam(x)
		if k1 > 0 && x == float64(k1) {
			label += " (k1)"
		}
		labels = append(labels, label)
	}
	return xs, labels
}

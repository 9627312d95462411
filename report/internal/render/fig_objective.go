package render

import (
	"fmt"
	"math"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/paperplot"
)

// objectiveCurve is the objective against iteration of one selected run.
type objectiveCurve struct {
	Method, Params string
	// Swept are the row's swept parameters at this point ("k2=7 lambda=0.01").
	Swept     string
	Restart   int
	Objective []float64
	// Maximised is whether the method maximises its objective (experiments.ObjectiveMaximised:
	// an ELBO, a similarity to the centres),
	// Formula the objective as the method describes it ("" if it does not).
	Maximised bool
	Formula   string
}

// Curves returns, for a dataset, the objective curve of the selected grid point's
// restart-0 run of every method whose record has a curve of more than one value (the
// point chosen by the dataset's first rule: the paper's where the dataset has labels).
func (r *Results) Curves(dataset string) []objectiveCurve {
	var out []objectiveCurve
	rule := r.Rules(dataset)[0]
	for _, m := range r.Methods {
		rec := restartZero(r.Selected(rule, dataset, m))
		if rec == nil || len(rec.Objective) < 2 {
			continue
		}
		swept, _ := r.Swept(dataset, m)
		sp := map[string]any{}
		for _, k := range swept {
			if v, ok := rec.Params[k]; ok {
				sp[k] = v
			}
		}
		formula := rec.Info["objective"]
		out = append(out, objectiveCurve{Method: m, Params: ParamString(rec.Params), Swept: ParamString(sp), Restart: rec.Restart,
			Objective: rec.Objective, Formula: formula,
			Maximised: experiments.ObjectiveMaximised(r.Provenance, rec.Algorithm)})
	}
	return out
}

// oscillates reports whether a curve alternates up and down in at least 60 % of its
// steps (the period-2 oscillation of multiplicative updates), over at least 6 values.
func oscillates(curve []float64) bool {
	if len(curve) < 6 {
		return false
	}
	alt := 0
	for i := 2; i < len(curve); i++ {
		d0, d1 := curve[i-1]-curve[i-2], curve[i]-curve[i-1]
		if d0*d1 < 0 {
			alt++
		}
	}
	return float64(alt) >= 0.6*float64(len(curve)-2)
}

// objectiveFigure draws the objective against iteration of each iterative method's
// selected run on a dataset, one panel per method (objectives of different methods have
// different scales), two panels to a row; see objectivePlot. It writes
// objective_<dataset>.<format> and returns nil if no method recorded a curve.
func objectiveFigure(r *Results, dataset string, o FigureOptions) (*Figure, error) {
	curves := r.Curves(dataset)
	if len(curves) == 0 {
		return nil, nil
	}
	fig := &Figure{
		Name: "objective_" + r.slug(dataset), Kind: "objective", Dataset: dataset,
		Title: fmt.Sprintf("Objective against iteration, %s", DatasetTitle(dataset)),
		Caption: fmt.Sprintf("Objective after each iteration of the restart-0 run at the grid point selected by %s, "+
			"one panel per iterative method (the methods' objectives are on different scales; each panel says whether "+
			"its method minimises or maximises). A curve alternating up and down (period 2) is drawn as two lines, odd "+
			"and even iterates.", ruleText(r.Rules(dataset)[0])),
	}
	figs := make([]*paperplot.Figure, len(curves))
	for i, cv := range curves {
		// The figure's title says "objective"; the axis says which way it is optimised.
		ylabel := "minimised"
		if cv.Maximised {
			ylabel = "maximised"
		}
		f, osc, err := objectivePlot(o.Style, cv, ylabel)
		if err != nil {
			return nil, err
		}
		f.Plot.Title.Text = cv.Method // a panel's title names it
		if cv.Swept != "" {
			f.Plot.Title.Text += "\n" + cv.Swept
		}
		figs[i] = f
		fig.Facts = append(fig.Facts, curveFact(cv, osc))
	}
	panels, err := o.Style.NewPanels(2, figs...)
	if err != nil {
		return nil, err
	}
	return fig, o.Save(fig, panels)
}

// objectiveFigures are the objective curves drawn for a figures section: one figure per
// iterative row (objective_<dataset>_<row>), as a column-wide figure holds one panel.
func objectiveFigures(r *Results, dataset string, o FigureOptions, s *figureSettings) ([]*Figure, error) {
	var figs []*Figure
	for _, cv := range r.Curves(dataset) {
		if !s.wantsRow(cv.Method) {
			continue
		}
		way := "minimised"
		if cv.Maximised {
			way = "maximised"
		}
		f, osc, err := objectivePlot(o.Style, cv, "objective")
		if err != nil {
			return figs, err
		}
		fig := &Figure{
			Name: "objective_" + r.slug(dataset) + "_" + r.MethodSlug(cv.Method), Kind: "objective", Dataset: dataset, Method: cv.Method,
			Title: fmt.Sprintf("Objective against iteration, %s on %s", cv.Method, DatasetTitle(dataset)),
			Caption: fmt.Sprintf("Objective (%s) of %s after each iteration of the restart-0 run at the grid point selected by %s (%s).",
				way, cv.Method, ruleText(r.Rules(dataset)[0]), paramsOr(cv.Params)),
			Facts: []string{curveFact(cv, osc)},
		}
		if osc {
			fig.Caption += " It alternates up and down (period 2): odd and even iterates are drawn as two lines."
		}
		if err := o.Save(fig, f); err != nil {
			return figs, err
		}
		figs = append(figs, fig)
	}
	return figs, nil
}

// paramsOr returns params, or "its defaults" when empty.
func paramsOr(params string) string {
	if params == "" {
		return "its defaults"
	}
	return params
}

// objectivePlot draws one curve: the objective against iteration, on a log axis where
// it spans more than a decade (else ×10^k on the axis label of large values), as two
// lines (odd and even iterates, osc) where it oscillates with period 2.
func objectivePlot(st paperplot.Style, cv objectiveCurve, ylabel string) (f *paperplot.Figure, osc bool, err error) {
	title := cv.Method
	if cv.Swept != "" {
		title += ", " + cv.Swept
	}
	f = st.NewFigure(title, "iteration", ylabel)
	f.Grid()
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range cv.Objective {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	osc = oscillates(cv.Objective)
	parts, names := [][]float64{nil}, []string{""}
	if osc {
		parts, names = [][]float64{nil, nil}, []string{"odd iterations", "even iterations"}
	}
	xs := make([][]float64, len(parts))
	for j, v := range cv.Objective {
		k := 0
		if osc {
			k = j % 2 // iteration j+1: odd iterates in part 0
		}
		parts[k] = append(parts[k], v)
		xs[k] = append(xs[k], float64(j+1))
	}
	for k, ys := range parts {
		pts := make(paperplot.XYs, len(ys))
		for j := range ys {
			pts[j] = paperplot.XY{X: xs[k][j], Y: ys[j]}
		}
		if err := f.Curve(k, names[k], pts); err != nil {
			return nil, false, fmt.Errorf("objective of %s: %w", cv.Method, err)
		}
	}
	if lo > 0 && hi/lo > 10 {
		f.LogY()
	} else {
		paperplot.ScaleAxis(&f.Plot.Y, lo, hi)
	}
	f.Pad()
	return f, osc, nil
}

// curveFact describes a curve: its run, direction of optimisation, start and end, how
// often it moved against its direction, and its oscillation.
func curveFact(cv objectiveCurve, osc bool) string {
	who := cv.Method
	if cv.Params != "" {
		who += fmt.Sprintf(" (%s, restart %d)", cv.Params, cv.Restart)
	} else {
		who += fmt.Sprintf(" (restart %d)", cv.Restart)
	}
	obj := cv.Objective
	dir := "minimised"
	if cv.Maximised {
		dir = "maximised"
	}
	what := "objective"
	if cv.Formula != "" {
		what += " " + cv.Formula
	}
	fact := fmt.Sprintf("%s: %s, %s; %d iterations, %s → %s", who, what, dir, len(obj), fmtObjective(obj[0]), fmtObjective(obj[len(obj)-1]))
	steps := len(obj) - 1
	up, down := increases(obj), decreases(obj)
	switch {
	case cv.Maximised && down == 0:
		fact += fmt.Sprintf("; it never decreased (rose in %d of %d iterations): monotone, as an exact ascent method must be", up, steps)
	case cv.Maximised:
		fact += fmt.Sprintf("; it decreased in %d of %d iterations (not monotone)", down, steps)
	case up == 0:
		fact += "; monotone non-increasing"
	default:
		fact += fmt.Sprintf("; it increased in %d of %d iterations (not monotone)", up, steps)
	}
	if osc {
		fact += fmt.Sprintf("; it oscillates with period 2: odd iterates %s → %s, even iterates %s → %s",
			fmtObjective(obj[0]), fmtObjective(obj[len(obj)-1-(len(obj)-1)%2]),
			fmtObjective(obj[1]), fmtObjective(obj[len(obj)-1-len(obj)%2]))
	}
	return fact + "."
}

// fmtObjective prints an objective value with four significant digits.
func fmtObjective(v float64) string {
	return fmtTick(v)
}

// increases counts the steps where an objective curve goes up by more than a relative
// 1e-9 (rounding).
func increases(curve []float64) int {
	n := 0
	for i := 1; i < len(curve); i++ {
		if curve[i] > curve[i-1]+1e-9*math.Abs(curve[i-1]) {
			n++
		}
	}
	return n
}

// decreases counts the steps where an objective curve goes down by more than a relative
// 1e-9 (rounding).
func decreases(curve []float64) int {
	n := 0
	for i := 1; i < len(curve); i++ {
		if curve[i] < curve[i-1]-1e-9*math.Abs(curve[i-1]) {
			n++
		}
	}
	return n
}

// RestartZero returns the restart-0 record of a point (else its first finished record).
func restartZero(p *experiments.PointStats) *experiments.Record {
	if p == nil || len(p.Records) == 0 {
		return nil
	}
	for i := range p.Records {
		if p.Records[i].Restart == 0 {
			return &p.Records[i]
		}
	}
	return &p.Records[0]
}

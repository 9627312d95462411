package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Curve is the objective against iteration of one selected run.
type Curve struct {
	Method, Params string
	Restart        int
	Objective      []float64
}

// Curves returns, for a dataset, the objective curve of the selected (paper's rule) grid
// point's restart-0 run of every method whose record has a curve of more than one value.
func (r *Results) Curves(dataset string) []Curve {
	var out []Curve
	for _, m := range r.Methods {
		rec := restartZero(r.Selected(PaperRule, dataset, m))
		if rec == nil || len(rec.Objective) < 2 {
			continue
		}
		out = append(out, Curve{Method: m, Params: ParamString(rec.Params), Restart: rec.Restart, Objective: rec.Objective})
	}
	return out
}

// ObjectiveFigure draws the objective against iteration of each iterative method's
// selected run on a dataset, one panel per method (objectives of different methods have
// different scales). It writes dir/objective_<dataset>.<format> and returns nil if no
// method recorded a curve.
func ObjectiveFigure(r *Results, dataset, dir string, formats []string) (*Figure, error) {
	curves := r.Curves(dataset)
	if len(curves) == 0 {
		return nil, nil
	}
	cols := min(3, len(curves))
	rows := (len(curves) + cols - 1) / cols
	plots := make([]*plot.Plot, len(curves))
	fig := &Figure{
		Name:  "objective_" + dataset,
		Title: fmt.Sprintf("Objective against iteration, %s", DatasetTitle(dataset)),
		Caption: fmt.Sprintf("Objective after each iteration of the restart-0 run at the grid point selected by %s, "+
			"one panel per iterative method (the methods' objectives are on different scales).", RuleText(PaperRule)),
	}
	for i, cv := range curves {
		title := cv.Method
		if cv.Params != "" {
			title += " (" + cv.Params + ")"
		}
		p := newPlot(title, "iteration", "objective")
		p.Title.TextStyle.Font.Size = vg.Points(10)
		pts := make(plotter.XYs, len(cv.Objective))
		lo, hi := math.Inf(1), math.Inf(-1)
		for j, v := range cv.Objective {
			pts[j] = plotter.XY{X: float64(j + 1), Y: v}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		if lo > 0 && hi/lo > 100 {
			p.Y.Scale = plot.LogScale{}
			p.Y.Tick.Marker = plot.TickerFunc(logTicks)
			p.Y.Label.Text = "objective (log scale)"
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("objective of %s: %w", cv.Method, err)
		}
		l.Color, l.Width = LineStyle(0).Color, vg.Points(1.2)
		p.Add(plotter.NewGrid(), l)
		plots[i] = p
		fact := fmt.Sprintf("%s (%s, restart %d): %d iterations, objective %s → %s", cv.Method, cv.Params, cv.Restart,
			len(cv.Objective), fmtObjective(cv.Objective[0]), fmtObjective(cv.Objective[len(cv.Objective)-1]))
		if up := Increases(cv.Objective); up > 0 {
			fact += fmt.Sprintf("; it increased in %d of %d iterations (not monotone)", up, len(cv.Objective)-1)
		} else {
			fact += "; monotone non-increasing"
		}
		fig.Facts = append(fig.Facts, fact+".")
	}
	w := vg.Length(cols) * 3.2 * vg.Inch
	h := vg.Length(rows) * 2.6 * vg.Inch
	files, err := saveCanvas(dir, fig.Name, formats, w, h, func(c draw.Canvas) {
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(14), PadY: vg.Points(14),
			PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(10)}
		for i, p := range plots {
			p.Draw(tiles.At(c, i%cols, i/cols))
		}
	})
	fig.Files = files
	return fig, err
}

// fmtObjective prints an objective value with four significant digits.
func fmtObjective(v float64) string {
	return minus(fmt.Sprintf("%.4g", v))
}

// Increases counts the steps where an objective curve goes up by more than a relative
// 1e-9 (rounding).
func Increases(curve []float64) int {
	n := 0
	for i := 1; i < len(curve); i++ {
		if curve[i] > curve[i-1]+1e-9*math.Abs(curve[i-1]) {
			n++
		}
	}
	return n
}

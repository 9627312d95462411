package paperplot

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ParallelAxis is one vertical axis of parallel coordinates: a numeric axis over
// [Lo, Hi], on a log scale where Log (Lo > 0), or, where Labels is given, a categorical
// axis whose coordinate i is the value named Labels[i], spread evenly bottom to top.
type ParallelAxis struct {
	Name   string
	Lo, Hi float64
	Log    bool
	Labels []string
}

// ParallelLine is one line of parallel coordinates: its coordinate on each axis (NaN
// on an axis stops the line before it) and the value its colour shows; a Muted line
// is drawn grey beneath the others, whatever its value.
type ParallelLine struct {
	X     []float64
	Value float64
	Muted bool
}

// Parallel returns a figure of parallel coordinates: one vertical axis per entry of
// axes, left to right, named beneath and labelled at its own ticks (LogTicks on a log
// axis, Ticks otherwise, the categories' names on a categorical one); a polyline per
// line through its coordinates, coloured on the viridis map of the values of the
// lines not muted (give the value an axis of its own, last, as its legend), the best
// value drawn last (on top); muted lines grey beneath. Tick labels are written on a
// white ground over the lines. It costs O(len(lines)·len(axes)).
func (s Style) Parallel(title string, axes []ParallelAxis, lines []ParallelLine) (*Figure, error) {
	if len(axes) == 0 {
		return nil, errors.New("parallel coordinates: no axis")
	}
	for _, a := range axes {
		if a.Labels == nil && !(a.Lo <= a.Hi) || a.Log && a.Lo <= 0 {
			return nil, fmt.Errorf("parallel coordinates: axis %s over [%v, %v] (log %v)", a.Name, a.Lo, a.Hi, a.Log)
		}
	}
	f := s.NewFigure(title, "", "")
	f.Style.Legend = LegendNone
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		if len(l.X) != len(axes) {
			return nil, fmt.Errorf("parallel coordinates: a line of %d coordinates on %d axes", len(l.X), len(axes))
		}
		if !l.Muted {
			lo, hi = math.Min(lo, l.Value), math.Max(hi, l.Value)
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	cm := Viridis(lo, hi)
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := lines[order[a]], lines[order[b]]
		if x.Muted != y.Muted {
			return x.Muted
		}
		return !x.Muted && x.Value < y.Value
	})
	for _, i := range order {
		l := lines[i]
		var pts plotter.XYs
		for k, v := range l.X {
			y := axes[k].position(v)
			if math.IsNaN(y) {
				break
			}
			pts = append(pts, plotter.XY{X: float64(k), Y: y})
		}
		if len(pts) == 0 {
			continue
		}
		pl, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		pl.Width = f.lineWidth() * 0.8
		if l.Muted {
			pl.Color, pl.Width = Muted, f.lineWidth()*0.6
		} else {
			pl.Color, _ = cm.At(math.Min(math.Max(l.Value, cm.Min()), cm.Max()))
		}
		f.Plot.Add(pl)
	}
	f.Plot.Add(&parallelAxes{axes: axes, style: s})
	names := make([]string, len(axes))
	for i, a := range axes {
		names[i] = a.Name
	}
	p := f.Plot
	p.X.Tick.Marker = categories(names)
	p.X.Tick.Length = 0
	p.X.LineStyle.Width = 0
	p.X.Min, p.X.Max = -0.1, float64(len(axes)-1)+0.45
	p.Y.Min, p.Y.Max = -0.03, 1.03
	p.HideY()
	return f, nil
}

// position returns the height, in [0, 1], of coordinate v on axis a (NaN for NaN or a
// value off a log axis).
func (a ParallelAxis) position(v float64) float64 {
	switch {
	case math.IsNaN(v):
		return math.NaN()
	case a.Labels != nil:
		if len(a.Labels) == 1 {
			return 0.5
		}
		return v / float64(len(a.Labels)-1)
	case a.Hi == a.Lo:
		return 0.5
	case a.Log:
		if v <= 0 {
			return math.NaN()
		}
		return math.Log(v/a.Lo) / math.Log(a.Hi/a.Lo)
	}
	return (v - a.Lo) / (a.Hi - a.Lo)
}

// ticks returns the labelled ticks of axis a.
func (a ParallelAxis) ticks() []plot.Tick {
	if a.Labels != nil {
		return categories(a.Labels)
	}
	var ticker plot.Ticker = Ticks{}
	if a.Log && a.Hi > a.Lo {
		ticker = LogTicks{MaxLabels: 5}
	}
	var t []plot.Tick
	for _, tk := range ticker.Ticks(a.Lo, a.Hi) {
		if tk.Label != "" {
			t = append(t, tk)
		}
	}
	return t
}

// parallelAxes draws the vertical axes of parallel coordinates with their tick labels
// on their right.
type parallelAxes struct {
	axes  []ParallelAxis
	style Style
}

// Plot implements plot.Plotter.
func (pa *parallelAxes) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	fs := pa.style.fontSize()
	line := draw.LineStyle{Color: p.Y.LineStyle.Color, Width: fs / 10}
	lbl := p.X.Tick.Label
	lbl.Font.Size = fs * 0.85
	lbl.XAlign, lbl.YAlign = draw.XLeft, draw.YCenter
	tick := fs / 3
	for k, a := range pa.axes {
		x := tx(float64(k))
		c.StrokeLine2(line, x, ty(0), x, ty(1))
		for _, tk := range a.ticks() {
			y := a.position(tk.Value)
			if math.IsNaN(y) || y < -1e-9 || y > 1+1e-9 {
				continue
			}
			c.StrokeLine2(line, x, ty(y), x+tick, ty(y))
			at := vg.Point{X: x + tick + fs/6, Y: ty(y)}
			box := lbl.Rectangle(tk.Label)
			c.SetColor(color.White)
			c.Fill(box.Add(at).Path())
			c.FillText(lbl, at, tk.Label)
		}
	}
}

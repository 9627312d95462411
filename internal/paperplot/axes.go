package paperplot

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// XY is a point of a line in data coordinates.
type XY = plotter.XY

// XYs are the points of a line, in the order they are joined.
type XYs = plotter.XYs

// Pt returns a length of v points (1/72 in), for a Style's FontSize.
func Pt(v float64) vg.Length { return vg.Length(v) }

// LogX makes the x axis logarithmic, its ticks powers of ten (LogTicks).
func (f *Figure) LogX() { setLog(&f.Plot.X) }

// LogY makes the y axis logarithmic, its ticks powers of ten (LogTicks).
func (f *Figure) LogY() { setLog(&f.Plot.Y) }

func setLog(a *plot.Axis) { a.Scale, a.Tick.Marker = plot.LogScale{}, LogTicks{} }

// XTicks labels the x axis at values with labels and nowhere else (categories, or a
// grid's few values each named).
func (f *Figure) XTicks(values []float64, labels []string) {
	ticks := make(plot.ConstantTicks, len(values))
	for i, v := range values {
		ticks[i] = plot.Tick{Value: v, Label: labels[i]}
	}
	f.Plot.X.Tick.Marker = ticks
}

// WidenLogRange gives a log axis whose data span one value (a single fit, or equal
// medians) the decade around it: gonum widens such a range by ±1, which goes below zero
// for a value under 1 and makes the log scale panic.
func WidenLogRange(a *plot.Axis) {
	if a.Min == a.Max && a.Min > 0 {
		a.Min, a.Max = a.Min/math.Sqrt(10), a.Max*math.Sqrt(10)
	}
}

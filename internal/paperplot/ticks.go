package paperplot

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// MinTicks is the number of labelled ticks a linear axis gets where its range allows.
const MinTicks = 4

// Ticks is a plot.Ticker for linear axes: labelled ticks at multiples of 1, 2 or 5
// × 10^k, the widest step that still gives at least MinTicks labels (so at most about ten), all
// labels with the same number of decimals and a true minus sign, and an unlabelled tick
// half way between.
type Ticks struct {
	// Scale divides every label (1000 labels 5000 as 5): the axis label says ×10³.
	Scale float64
}

// Ticks implements plot.Ticker.
func (t Ticks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) || oneValue(lo, hi) {
		// one value, or values that differ in their last bits only (a step that fine
		// would not move a tick): labelled to four significant digits, trailing zeros
		// dropped
		step := 1.0
		if a := math.Abs(lo / t.scale()); a > 0 && !math.IsInf(a, 0) {
			step = math.Min(1, math.Pow(10, math.Floor(math.Log10(a))-3))
		}
		label := formatTick(lo, step*t.scale(), t.scale())
		if strings.Contains(label, ".") {
			label = strings.TrimSuffix(strings.TrimRight(label, "0"), ".")
		}
		return []plot.Tick{{Value: lo, Label: label}}
	}
	step := tickStep(lo, hi)
	var ticks []plot.Tick
	first := math.Ceil(lo/step-1e-9) * step
	for v := first - step/2; v <= hi+step*1e-9; v += step / 2 {
		if v < lo-step*1e-9 {
			continue
		}
		i := math.Round(v / (step / 2))
		v = i * step / 2 // no drift
		tk := plot.Tick{Value: v}
		if math.Mod(math.Abs(i), 2) == 0 {
			tk.Label = formatTick(v, step, t.scale())
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

func (t Ticks) scale() float64 {
	if t.Scale == 0 {
		return 1
	}
	return t.Scale
}

// tickStep returns the widest step of {1, 2, 5} × 10^k with at least MinTicks
// multiples in [lo, hi].
func tickStep(lo, hi float64) float64 {
	e := math.Floor(math.Log10(hi - lo))
	for k := e; k > e-3; k-- {
		for _, m := range []float64{5, 2, 1} {
			step := m * math.Pow(10, k)
			n := math.Floor(hi/step+1e-9) - math.Ceil(lo/step-1e-9) + 1
			if n >= MinTicks {
				return step
			}
		}
	}
	return math.Pow(10, e-2)
}

// formatTick prints v/scale with as many decimals as the step needs.
func formatTick(v, step, scale float64) string {
	v, step = v/scale, step/scale
	if math.Abs(v) < step*1e-6 {
		v = 0
	}
	dec := 0
	if step < 1 {
		dec = int(math.Ceil(-math.Log10(step) - 1e-9))
	}
	return minus(strconv.FormatFloat(v, 'f', dec, 64))
}

// minus writes a typographic minus sign (U+2212) for a hyphen.
func minus(s string) string { return strings.ReplaceAll(s, "-", "−") }

// LogTicks is a plot.Ticker for log axes: a tick at every power of ten labelled as one
// ("10^{−2}", drawn as 10⁻² by Super), at most MaxLabels of them labelled (every
// other, every third… power when the range spans many decades); unlabelled ticks at 2…9
// × each power when the range spans at most four decades; and labelled ticks at 2 and 5
// × each power when it spans less than two, so that at least MinTicks labels show.
type LogTicks struct {
	MaxLabels int
}

// Ticks implements plot.Ticker.
func (t LogTicks) Ticks(lo, hi float64) []plot.Tick {
	maxLabels := t.MaxLabels
	if maxLabels <= 0 {
		maxLabels = 6
	}
	in := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	e0, e1 := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	decades := math.Log10(hi / lo)
	var powers []float64
	for e := e0; e <= e1; e++ {
		if in(math.Pow(10, e)) {
			powers = append(powers, e)
		}
	}
	every := (len(powers) + maxLabels - 1) / maxLabels
	var ticks []plot.Tick
	for e := e0; e <= e1; e++ {
		p := math.Pow(10, e)
		if in(p) {
			tk := plot.Tick{Value: p}
			if i := int(e - powers[0]); every <= 1 || i%every == 0 {
				tk.Label = PowerOfTen(int(e))
			}
			ticks = append(ticks, tk)
		}
		if decades > 4 {
			continue
		}
		for m := 2.0; m <= 9; m++ {
			if !in(m * p) {
				continue
			}
			tk := plot.Tick{Value: m * p}
			if decades < 2 && (m == 2 || m == 5) {
				tk.Label = fmt.Sprintf("%g×%s", m, PowerOfTen(int(e)))
			}
			ticks = append(ticks, tk)
		}
	}
	return ticks
}

// PowerOfTen writes 10^e for the Super text handler: "10^{−2}".
func PowerOfTen(e int) string { return "10^{" + minus(strconv.Itoa(e)) + "}" }

// ScaleFactor returns the power of ten that labels of values up to maxAbs in size are
// divided by (6 for 5.575e6), and 0 where the values read well as they are (from 0.01
// to below 10 000).
func ScaleFactor(maxAbs float64) int {
	if maxAbs == 0 || math.IsNaN(maxAbs) || math.IsInf(maxAbs, 0) || (maxAbs >= 1e-2 && maxAbs < 1e4) {
		return 0
	}
	return int(math.Floor(math.Log10(maxAbs)))
}

// ScaleAxis gives a linear axis of values in [lo, hi] readable tick labels: where they
// are large or small (ScaleFactor), ticks divided by 10^k and " (×10^k)" added to the
// axis label ("objective (×10⁶)"), so that no tick reads 5.575e6.
func ScaleAxis(a *plot.Axis, lo, hi float64) {
	k := ScaleFactor(math.Max(math.Abs(lo), math.Abs(hi)))
	if k == 0 {
		a.Tick.Marker = Ticks{}
		return
	}
	a.Tick.Marker = Ticks{Scale: math.Pow(10, float64(k))}
	a.Label.Text += " (×" + PowerOfTen(k) + ")"
}

// oneValue reports whether lo ≤ hi are one value to an axis: equal, or apart in their
// last bits only (a step that fine would not move a tick).
func oneValue(lo, hi float64) bool {
	return hi-lo <= 1e-12*math.Max(math.Abs(lo), math.Abs(hi))
}

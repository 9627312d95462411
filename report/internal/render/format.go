package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
)

// Dash is what a cell without a value shows.
const Dash = "—"

// Fmt3 prints v with three decimals, with a true minus sign, or Dash for NaN.
func fmt3(v float64) string {
	if math.IsNaN(v) {
		return Dash
	}
	return minus(fmt.Sprintf("%.3f", v))
}

// FmtMeanStd prints "mean ± std" with three decimals.
func fmtMeanStd(mean, std float64) string {
	if math.IsNaN(mean) {
		return Dash
	}
	if math.IsNaN(std) {
		return fmt3(mean)
	}
	return fmt3(mean) + " ± " + fmt.Sprintf("%.3f", std)
}

// FmtDiff prints a signed difference with three decimals ("+0.012", "−0.025", "0.000").
func fmtDiff(d float64) string {
	if math.IsNaN(d) {
		return ""
	}
	s := fmt.Sprintf("%.3f", d)
	switch {
	case s == "0.000" || s == "-0.000":
		return "0.000"
	case d > 0:
		return "+" + s
	}
	return minus(s)
}

// FmtSeconds prints a duration in seconds like the paper (two decimals), with more
// significant digits for very short times.
func FmtSeconds(v float64) string {
	switch {
	case math.IsNaN(v):
		return Dash
	case v != 0 && math.Abs(v) < 0.005:
		return minus(strconv.FormatFloat(v, 'g', 2, 64))
	}
	return minus(fmt.Sprintf("%.2f", v))
}

// FmtParam prints a parameter value compactly: 1e-04 → "1e-4", 0.01 → "0.01".
func fmtParam(v float64) string {
	if math.IsNaN(v) {
		return Dash
	}
	if v != 0 && (math.Abs(v) < 1e-3 || math.Abs(v) >= 1e4) {
		s := strconv.FormatFloat(v, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		e, _ := strconv.Atoi(exp)
		return fmt.Sprintf("%se%d", mant, e)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// minus replaces a leading ASCII hyphen with a true minus sign.
func minus(s string) string {
	if strings.HasPrefix(s, "-") {
		return "−" + s[1:]
	}
	return s
}

// MetricOf returns the mean and std of a metric at a point, NaN if not recorded or if
// the point has no finished run.
func metricOf(p *experiments.PointStats, metric string) (mean, std float64) {
	if p == nil || p.Runs == 0 {
		return math.NaN(), math.NaN()
	}
	m, ok := p.Mean[metric]
	if !ok {
		return math.NaN(), math.NaN()
	}
	return m, p.Std[metric]
}

// Argmax returns the index of the largest value of v that is not NaN (-1 if none).
func argmax(v []float64) int {
	j := -1
	for i, x := range v {
		if !math.IsNaN(x) && (j < 0 || x > v[j]) {
			j = i
		}
	}
	return j
}

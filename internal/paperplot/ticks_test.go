package paperplot

import (
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/plot/vg"
)

func TestTicksLabelAtLeastFour(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		scale  float64
		want   []string
	}{
		{0.3, 0.56, 0, []string{"0.30", "0.35", "0.40", "0.45", "0.50", "0.55"}},
		{0, 1, 0, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{0.41, 0.47, 0, nil},
		{1, 60, 0, []string{"10", "20", "30", "40", "50", "60"}},
		{-1, 1, 0, []string{"−1.0", "−0.5", "0.0", "0.5", "1.0"}},
		{5.575e6, 5.6e6, 1e6, []string{"5.575", "5.580", "5.585", "5.590", "5.595", "5.600"}},
	} {
		var got []string
		for _, tk := range (Ticks{Scale: tc.scale}).Ticks(tc.lo, tc.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
			if tk.Value < tc.lo-1e-12 || tk.Value > tc.hi+1e-12 {
				t.Errorf("[%g, %g]: tick %g outside the range", tc.lo, tc.hi, tk.Value)
			}
		}
		if len(got) < MinTicks {
			t.Errorf("[%g, %g]: %d labels %q, want at least %d", tc.lo, tc.hi, len(got), got, MinTicks)
		}
		if len(tc.want) > 0 && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("[%g, %g]: labels %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{1e-10, 1e-2, []string{"10^{−10}", "10^{−8}", "10^{−6}", "10^{−4}", "10^{−2}"}},
		{1e-3, 1, []string{"10^{−3}", "10^{−2}", "10^{−1}", "10^{0}"}},
		{0.1, 5, []string{"10^{−1}", "2×10^{−1}", "5×10^{−1}", "10^{0}", "2×10^{0}", "5×10^{0}"}},
	} {
		var got []string
		for _, tk := range (LogTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("[%g, %g]: labels %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestScaleFactor(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want int
	}{{5.575e6, 6}, {0.5, 0}, {9999, 0}, {12000, 4}, {0.003, -3}, {0, 0}, {math.NaN(), 0}} {
		if got := ScaleFactor(tc.v); got != tc.want {
			t.Errorf("ScaleFactor(%g) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

func TestParseLength(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want vg.Length
		ok   bool
	}{
		{"column", ColumnWidth, true}, {"page", PageWidth, true}, {"3.5in", 3.5 * vg.Inch, true},
		{"8cm", 8 * vg.Centimeter, true}, {"90 mm", 90 * vg.Millimeter, true}, {"240pt", 240, true},
		{"8", 0, false}, {"-3in", 0, false}, {"wide", 0, false}, {"100in", 0, false},
	} {
		got, err := ParseLength(tc.in)
		if (err == nil) != tc.ok || math.Abs(float64(got-tc.want)) > 1e-9 {
			t.Errorf("ParseLength(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestPieces(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []piece
	}{
		{"10^{−2}", []piece{{"10", 0}, {"−2", 1}}},
		{"k_{2}", []piece{{"k", 0}, {"2", -1}}},
		{"objective (×10^{6})", []piece{{"objective (×10", 0}, {"6", 1}, {")", 0}}},
		{"a_b^c", []piece{{"a_b^c", 0}}},
	} {
		if got := pieces(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("pieces(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if got := Plain("k_{2} at 10^{−2}"); got != "k2 at 10^−2" {
		t.Errorf("Plain = %q", got)
	}
}

// An axis of one value labels it to four significant digits, not rounded to a whole
// number (parallel coordinates whose finished trials all share one value).
func TestTicksOneValue(t *testing.T) {
	for _, c := range []struct {
		v, scale float64
		want     string
	}{{0.5948, 0, "0.5948"}, {0.59481234, 0, "0.5948"}, {7, 0, "7"}, {1234.5, 0, "1234"}, {0, 0, "0"}, {-0.25, 0, "−0.25"}, {0.003, 0.001, "3"}} {
		got := Ticks{Scale: c.scale}.Ticks(c.v, c.v)
		if len(got) != 1 || got[0].Value != c.v || got[0].Label != c.want {
			t.Errorf("Ticks(%v, %v) scale %v = %v, want one tick labelled %q", c.v, c.v, c.scale, got, c.want)
		}
	}
}

// Values one or two ulps apart (a search whose trials all reached one value, summed in
// another order) are labelled as one value; a step that fine would never move a tick.
func TestTicksValuesUlpsApart(t *testing.T) {
	for _, lo := range []float64{0.59411, 1234.5, -0.25} {
		hi := math.Nextafter(math.Nextafter(lo, math.Inf(1)), math.Inf(1))
		got := Ticks{}.Ticks(lo, hi)
		if len(got) != 1 || got[0].Value != lo {
			t.Errorf("Ticks(%v, %v) = %d ticks, want one at %v", lo, hi, len(got), lo)
		}
	}
}

// Values apart in their last bits only are one value to Pad: centred, padded by 4 % of
// their size each side, not spread from the bottom of the axis to its top.
func TestPadValuesUlpsApart(t *testing.T) {
	for _, c := range []struct{ lo, hi, min, max float64 }{
		{0.5941, math.Nextafter(math.Nextafter(0.5941, 1), 1), 0.5941 - 0.04, 0.5941 + 0.04},
		{250, 250, 240, 260},
		{0.2, 0.6, 0.184, 0.616},
	} {
		f := Style{}.NewFigure("t", "x", "y")
		f.Plot.Y.Min, f.Plot.Y.Max = c.lo, c.hi
		f.Pad()
		if math.Abs(f.Plot.Y.Min-c.min) > 1e-9 || math.Abs(f.Plot.Y.Max-c.max) > 1e-9 {
			t.Errorf("[%v, %v] padded to [%v, %v], want [%v, %v]", c.lo, c.hi, f.Plot.Y.Min, f.Plot.Y.Max, c.min, c.max)
		}
	}
}

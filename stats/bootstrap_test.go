package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat"
)

func TestBootstrapMeanDiff(t *testing.T) {
	// Constant samples: every resample has the same means, so the interval is a point.
	c, err := BootstrapMeanDiff([]float64{2, 2, 2}, []float64{0.5, 0.5}, 1000, 0.05, 1)
	if err != nil || c.Estimate != 1.5 || c.Lo != 1.5 || c.Hi != 1.5 {
		t.Errorf("constant samples: %+v (%v), want [1.5, 1.5]", c, err)
	}
	// Large samples: the percentile interval approaches the normal one,
	// Δ ± 1.96·√(σx²/nx + σy²/ny) with population variances (the bootstrap's).
	x := make([]float64, 400)
	y := make([]float64, 300)
	for i := range x {
		x[i] = float64(i%20) / 10 // mean 0.95
	}
	for i := range y {
		y[i] = float64(i%10) / 10 // mean 0.45
	}
	c, err = BootstrapMeanDiff(x, y, 20000, 0.05, 7)
	if err != nil {
		t.Fatal(err)
	}
	_, sx := stat.PopMeanStdDev(x, nil)
	_, sy := stat.PopMeanStdDev(y, nil)
	half := 1.96 * math.Sqrt(sx*sx/400+sy*sy/300)
	if math.Abs(c.Estimate-0.5) > 1e-12 || math.Abs(c.Lo-(0.5-half)) > 0.01 || math.Abs(c.Hi-(0.5+half)) > 0.01 {
		t.Errorf("interval %+v, normal approximation [%.4f, %.4f]", c, 0.5-half, 0.5+half)
	}
	if !c.Excludes(0) || c.Excludes(0.5) {
		t.Errorf("interval %+v: should exclude 0 and hold 0.5", c)
	}
	// Seeded: the same seed gives the same interval, another seed another one.
	again, _ := BootstrapMeanDiff(x, y, 20000, 0.05, 7)
	other, _ := BootstrapMeanDiff(x, y, 20000, 0.05, 8)
	if again != c || other == c {
		t.Errorf("seed 7 twice: %+v %+v; seed 8: %+v", c, again, other)
	}
}

func TestBootstrapMeanDiffErrors(t *testing.T) {
	for _, c := range []struct {
		x, y      []float64
		resamples int
		alpha     float64
	}{{nil, []float64{1}, 10, 0.05}, {[]float64{1}, nil, 10, 0.05}, {[]float64{1}, []float64{1}, 0, 0.05}, {[]float64{1}, []float64{1}, 10, 1}} {
		if _, err := BootstrapMeanDiff(c.x, c.y, c.resamples, c.alpha, 1); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

package paperplot

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/paperplot/plottest"
)

// parallel is parallel coordinates of twelve trials over a log axis λ ∈ [10⁻⁸, 10²],
// a categorical init ∈ {kmeans, random} and an integer k₂ ∈ [2, 20], with ARI as the
// last axis; trials 0–3 are muted and stop before the ARI axis, trial 4 stops before k₂.
func parallel(t *testing.T) *Figure {
	axes := []ParallelAxis{
		{Name: "λ", Lo: 1e-8, Hi: 100, Log: true},
		{Name: "init", Labels: []string{"kmeans", "random"}},
		{Name: "k_{2}", Lo: 2, Hi: 20},
		{Name: "ARI", Lo: 0.2, Hi: 0.6},
	}
	var lines []ParallelLine
	for i := range 12 {
		ari := 0.2 + 0.4*float64(i)/11
		l := ParallelLine{X: []float64{math.Pow(10, -8+float64(i)*10/11), float64(i % 2), 2 + float64(i*i%19), ari}, Value: ari}
		switch {
		case i < 4:
			l.Muted, l.X[3] = true, math.NaN()
		case i == 4:
			l.X[2], l.X[3] = math.NaN(), math.NaN()
		}
		lines = append(lines, l)
	}
	f, err := Style{}.Parallel("trials", axes, lines)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestParallelGolden renders parallel and compares it with its golden image (as
// TestGolden); -update rewrites it.
func TestParallelGolden(t *testing.T) {
	files, err := parallel(t).Save(filepath.Join(outDir(t), "parallel"), PNG)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	plottest.CheckPNG(t, filepath.Join("testdata", "parallel_golden.png"), got, *update)
}

// The heights of coordinates on each kind of axis, and the faults Parallel refuses.
func TestParallelAxes(t *testing.T) {
	for _, c := range []struct {
		axis ParallelAxis
		v    float64
		want float64
	}{
		{ParallelAxis{Lo: 1e-8, Hi: 100, Log: true}, 1e-3, 0.5},
		{ParallelAxis{Lo: 1e-8, Hi: 100, Log: true}, 100, 1},
		{ParallelAxis{Lo: 2, Hi: 6}, 3, 0.25},
		{ParallelAxis{Lo: 5, Hi: 5}, 5, 0.5},
		{ParallelAxis{Labels: []string{"a", "b", "c"}}, 1, 0.5},
		{ParallelAxis{Labels: []string{"a"}}, 0, 0.5},
	} {
		if got := c.axis.position(c.v); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%+v at %v: %v, want %v", c.axis, c.v, got, c.want)
		}
	}
	if y := (ParallelAxis{Lo: 1, Hi: 10, Log: true}).position(math.NaN()); !math.IsNaN(y) {
		t.Errorf("NaN placed at %v", y)
	}
	for _, c := range []struct {
		axes  []ParallelAxis
		lines []ParallelLine
		want  string
	}{
		{nil, nil, "no axis"},
		{[]ParallelAxis{{Name: "λ", Lo: 0, Hi: 1, Log: true}}, nil, "axis λ over [0, 1]"},
		{[]ParallelAxis{{Name: "ρ", Lo: 1, Hi: 0}}, nil, "axis ρ over [1, 0]"},
		{[]ParallelAxis{{Name: "ρ", Lo: 0, Hi: 1}}, []ParallelLine{{X: []float64{0.5, 1}}}, "a line of 2 coordinates on 1 axes"},
	} {
		if _, err := (Style{}).Parallel("", c.axes, c.lines); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.axes, err, c.want)
		}
	}
}

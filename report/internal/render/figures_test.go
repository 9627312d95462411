package render

import (
	"path/filepath"
	"testing"

	"github.com/nagc-harness/nagc/report/internal/reporttest"
)

// TestObjectiveFigure draws the objective curves of the fixture.
func TestObjectiveFigure(t *testing.T) {
	r := fixtureResults(t, fixtureRuns())
	dir := t.TempDir()
	fig, err := ObjectiveFigure(r, "webkb", FigureOptions{Dir: dir, Formats: []string{FormatPNG}})
	if err != nil || fig == nil {
		t.Fatalf("%v, %v", fig, err)
	}
	// Prop., METIS and Foo have curves: 3 panels in one row of 3.4 × 2.8 inches.
	reporttest.CheckPNG(t, filepath.Join(dir, "objective_webkb.png"), int(3*3.4*PNGDPI), int(2.8*PNGDPI))
	if got := increases([]float64{3, 2, 2.5, 1, 1}); got != 1 {
		t.Errorf("increases = %d, want 1", got)
	}
}

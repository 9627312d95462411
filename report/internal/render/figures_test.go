package render

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/paperplot"
	"github.com/nagc-harness/nagc/report/internal/reporttest"
)

// TestObjectiveFigure draws the objective curves of the fixture.
func TestObjectiveFigure(t *testing.T) {
	r := fixtureResults(t, fixtureRuns())
	dir := t.TempDir()
	fig, err := objectiveFigure(r, "webkb", FigureOptions{Dir: dir, Formats: []string{FormatPNG}})
	if err != nil || fig == nil {
		t.Fatalf("%v, %v", fig, err)
	}
	// Prop., METIS and Foo have curves: 3 panels of a column's width at aspect 1.6, two
	// to a row, 8 pt apart, at 300 dpi.
	w, h := 2*paperplot.ColumnWidth+8, 2*paperplot.ColumnWidth/paperplot.DefaultAspect+8
	reporttest.CheckPNG(t, filepath.Join(dir, "objective_webkb.png"), int(math.Round(w.Dots(300))), int(math.Round(h.Dots(300))))
	if got := increases([]float64{3, 2, 2.5, 1, 1}); got != 1 {
		t.Errorf("increases = %d, want 1", got)
	}
}

// TestSensitivityMeasure checks that without figure settings a sensitivity figure plots
// the measure of the dataset's first selection rule (the ARI on a labelled dataset) in
// paperplot's zero Style: a column wide at aspect 1.6, 300 dpi.
func TestSensitivityMeasure(t *testing.T) {
	r := fixtureResults(t, fixtureRuns())
	dir := t.TempDir()
	fig, err := sensitivityFigure(r, "webkb", "Prop.", "lambda", FigureOptions{Dir: dir, Formats: []string{FormatPNG}}, &figureSettings{})
	if err != nil || fig == nil {
		t.Fatalf("sensitivity figure: %v, %v", fig, err)
	}
	if !strings.HasPrefix(fig.Caption, "ARI (mean over restarts") {
		t.Errorf("the figure of the first rule's measure says: %s", fig.Caption)
	}
	w, h := paperplot.ColumnWidth, paperplot.ColumnWidth/paperplot.DefaultAspect
	reporttest.CheckPNG(t, filepath.Join(dir, fig.Files[0]), int(math.Round(w.Dots(300))), int(math.Round(h.Dots(300))))
}

package paperplot_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/nagc-harness/nagc/internal/paperplot"
)

// A column-wide figure of a measure against λ on a log axis, one line per ρ with error
// bars, the legend inside in the emptiest corner, saved as PDF and PNG.
func Example() {
	width, err := paperplot.ParseLength("column")
	if err != nil {
		log.Fatal(err)
	}
	s := paperplot.Style{Width: width, FontSize: 8, Legend: paperplot.LegendInside}
	f := s.NewFigure("", "λ", "NMI")
	f.Grid()
	for i, rho := range []float64{0.1, 0.9} {
		pts := plotter.XYs{{X: 1e-6, Y: 0.40 + 0.1*rho}, {X: 1e-4, Y: 0.42 + 0.1*rho}, {X: 1e-2, Y: 0.35 + 0.1*rho}}
		std := []float64{0.01, 0.02, 0.01}
		if err := f.Line(i, fmt.Sprintf("ρ = %g", rho), pts); err != nil {
			log.Fatal(err)
		}
		if err := f.Spread(i, pts, std, std); err != nil {
			log.Fatal(err)
		}
	}
	f.Plot.X.Scale, f.Plot.X.Tick.Marker = plot.LogScale{}, paperplot.LogTicks{}
	f.Pad(0, 1)
	dir, err := os.MkdirTemp("", "paperplot")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	files, err := f.Save(filepath.Join(dir, "nmi_lambda"), paperplot.PDF, paperplot.PNG)
	if err != nil {
		log.Fatal(err)
	}
	w, h := s.Size()
	fmt.Printf("%d files, %.1f × %.2f in\n", len(files), w/vg.Inch, h/vg.Inch)
	// Output: 2 files, 3.3 × 2.06 in
}

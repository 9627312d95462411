package pdfcanvas_test

import (
	"bytes"
	"fmt"
	"log"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/nagc-harness/nagc/internal/pdfcanvas"
)

// A plot with Greek in its labels, drawn to a 4 in × 3 in PDF.
func Example() {
	p := plot.New()
	p.X.Label.Text = "λ"
	p.Y.Label.Text = "ARI"
	line, err := plotter.NewLine(plotter.XYs{{X: 1, Y: 0.2}, {X: 2, Y: 0.8}})
	if err != nil {
		log.Fatal(err)
	}
	p.Add(line)
	c := pdfcanvas.New(4*vg.Inch, 3*vg.Inch)
	p.Draw(draw.New(c))
	var pdf bytes.Buffer
	if _, err := c.WriteTo(&pdf); err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")))
	// Output: true
}

package pdfcanvas

import (
	"bytes"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TestPDFReproducible checks that the same figure drawn twice gives the same bytes (no
// creation time of the moment in the file), dated $SOURCE_DATE_EPOCH when it is set.
func TestPDFReproducible(t *testing.T) {
	render := func() []byte {
		p := plot.New()
		p.Title.Text = "ARI against λ"
		l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		if err != nil {
			t.Fatal(err)
		}
		p.Add(l)
		c := New(4*vg.Inch, 3*vg.Inch)
		p.Draw(draw.New(c))
		var b bytes.Buffer
		if _, err := c.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	first := render()
	time.Sleep(1100 * time.Millisecond) // PDF dates have whole seconds
	if !bytes.Equal(first, render()) {
		t.Error("two renders of one figure differ")
	}
	if !bytes.Contains(first, []byte("D:20000101000000")) {
		t.Error("the PDF is not dated 2000-01-01 without SOURCE_DATE_EPOCH")
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000") // 2023-11-14 22:13:20 UTC
	if !bytes.Contains(render(), []byte("D:20231114221320")) {
		t.Error("SOURCE_DATE_EPOCH is not the PDF's date")
	}
}

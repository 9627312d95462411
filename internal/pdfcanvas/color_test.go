package pdfcanvas

import (
	"bytes"
	"image/color"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"rsc.io/pdf"
)

// TestTranslucentColour checks that a translucent fill is written with its straight RGB
// (0, 114, 178 at 25 % opacity is "0 0.447 0.698 rg"), not the premultiplied one.
func TestTranslucentColour(t *testing.T) {
	c := New(2*vg.Inch, 1*vg.Inch)
	dc := draw.New(c)
	dc.SetColor(color.NRGBA{0x00, 0x72, 0xB2, 0x40})
	dc.Fill(dc.Rectangle.Path())
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	r, err := pdf.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var fills [][3]float64
	pdf.Interpret(r.Page(1).V.Key("Contents"), func(stk *pdf.Stack, op string) {
		n := stk.Len()
		args := make([]pdf.Value, n)
		for i := n - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		if op == "rg" && n == 3 {
			fills = append(fills, [3]float64{args[0].Float64(), args[1].Float64(), args[2].Float64()})
		}
	})
	want := [3]float64{0, 0x72 / 255.0, 0xB2 / 255.0}
	for _, f := range fills {
		if abs(f[0]-want[0]) < 0.002 && abs(f[1]-want[1]) < 0.002 && abs(f[2]-want[2]) < 0.002 {
			return
		}
	}
	t.Errorf("fill colours %v, want one of %v", fills, want)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

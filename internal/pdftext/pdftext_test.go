package pdftext

import (
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"

	"github.com/nagc-harness/nagc/internal/pdfcanvas"
)

func TestRead(t *testing.T) {
	c := pdfcanvas.New(3*vg.Inch, 2*vg.Inch)
	face := font.DefaultCache.Lookup(plot.DefaultFont, 9)
	c.FillString(face, vg.Point{X: 10, Y: 100}, "λ = 10")
	c.FillString(face, vg.Point{X: 10, Y: 50}, "ρ × k₂ − 1")
	path := filepath.Join(t.TempDir(), "t.pdf")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	p, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Width != 216 || p.Height != 144 {
		t.Errorf("size %v × %v, want 216 × 144", p.Width, p.Height)
	}
	if got := p.Lines(); len(got) != 2 || got[0] != "λ = 10" || got[1] != "ρ × k₂ − 1" {
		t.Errorf("lines %q", got)
	}
	if len(p.Fonts) != 1 {
		t.Errorf("fonts %v", p.Fonts)
	}
	for name, emb := range p.Fonts {
		if !emb {
			t.Errorf("%s not embedded", name)
		}
	}
	if _, err := Read(filepath.Join(t.TempDir(), "none.pdf")); err == nil {
		t.Error("no error for a missing file")
	}
}

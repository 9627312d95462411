package pdfcanvas

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestImageUpright draws an image whose top half is red and bottom half blue over the
// whole page, renders the PDF with pdftoppm (skipped where it is not installed) and
// checks that red is at the top: the canvas's y axis points up, fpdf's down.
func TestImageUpright(t *testing.T) {
	pdftoppm, err := exec.LookPath("pdftoppm")
	if err != nil {
		t.Skip("pdftoppm is not installed (Debian: poppler-utils): the PDF is not rendered")
	}
	img := image.NewRGBA(image.Rect(0, 0, 1, 2))
	img.Set(0, 0, color.RGBA{0xff, 0, 0, 0xff}) // top row
	img.Set(0, 1, color.RGBA{0, 0, 0xff, 0xff})
	c := New(1*vg.Inch, 1*vg.Inch)
	c.DrawImage(vg.Rectangle{Max: vg.Point{X: vg.Inch, Y: vg.Inch}}, img)
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "img.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if out, err := exec.Command(pdftoppm, "-r", "20", "-png", "-singlefile", filepath.Join(dir, "img.pdf"), filepath.Join(dir, "img")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	rf, err := os.Open(filepath.Join(dir, "img.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	page, err := png.Decode(rf)
	if err != nil {
		t.Fatal(err)
	}
	b := page.Bounds()
	top := color.RGBAModel.Convert(page.At(b.Dx()/2, b.Dy()/5)).(color.RGBA)
	bottom := color.RGBAModel.Convert(page.At(b.Dx()/2, 4*b.Dy()/5)).(color.RGBA)
	if top.R < 0xc0 || top.B > 0x40 || bottom.B < 0xc0 || bottom.R > 0x40 {
		t.Errorf("top %v, bottom %v: want red above blue", top, bottom)
	}
}

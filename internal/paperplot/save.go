package paperplot

import (
	"fmt"
	"image/color"
	"io"
	"os"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/nagc-harness/nagc/internal/pdfcanvas"
)

// Figure file formats.
const (
	PNG = "png"
	PDF = "pdf"
)

// margin is the blank border of a figure: a hairline, so that the figure's bounding box
// is its drawing (LaTeX places it as it is, with no trimming).
const margin = vg.Length(1.5)

// Save draws paint on a canvas of the style's size in each format and writes it to
// stem.FORMAT: PNG at the style's DPI on white, PDF of exactly the size (points) with
// its fonts embedded and text kept as Unicode text. It returns the files written.
func (s Style) Save(stem string, formats []string, paint func(draw.Canvas)) ([]string, error) {
	w, h := s.Size()
	var files []string
	for _, f := range formats {
		path := stem + "." + f
		var c vg.CanvasWriterTo
		switch f {
		case PNG:
			img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(int(s.dpi())), vgimg.UseBackgroundColor(color.White))
			c = vgimg.PngCanvas{Canvas: img}
		case PDF:
			c = pdfcanvas.New(w, h)
		default:
			return files, fmt.Errorf("figure format %q: want png or pdf", f)
		}
		dc := draw.New(c)
		if f == PDF {
			dc.SetColor(color.White)
			dc.Fill(dc.Rectangle.Path())
		}
		paint(draw.Crop(dc, margin, -margin, margin, -margin))
		if err := WriteFile(path, c); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	return files, nil
}

// WriteFile writes a canvas (or anything that writes itself) to the file path.
func WriteFile(path string, c io.WriterTo) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

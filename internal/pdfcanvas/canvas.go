// The drawing code of this file follows gonum.org/v1/plot/vg/vgpdf (Copyright ©2015 The
// Gonum Authors, BSD licence); it differs in how text is encoded: vgpdf embeds fonts
// with the cp1252 code page, which has no Greek, so λ and ρ came out as "Î»" and "Ï•".

package pdfcanvas

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	pdf "codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// Canvas is a vg.Canvas drawing to a PDF document whose fonts are embedded as
// Unicode (Type0, Identity-H) subsets with a ToUnicode map: every character the font
// has is drawn and can be copied or searched in the PDF, Greek letters included. Fonts
// are the TrueType files behind the plot's font faces (Liberation by default).
type Canvas struct {
	doc   *pdf.Fpdf
	w, h  vg.Length
	stack []pdfContext
	fonts map[string]bool
	imgs  int
}

type pdfContext struct {
	color color.Color
	width vg.Length
}

// pdfDPI is the nominal resolution of drawing in PDF (one dot is one point).
const pdfDPI = 72

// pdfDate is the creation and modification date written into every PDF: the time in
// $SOURCE_DATE_EPOCH (seconds since 1970, the reproducible-builds convention) when set,
// else 2000-01-01 UTC, so that the same runs give byte-identical figures and a
// regenerated report changes only the files whose content changed.
func pdfDate() time.Time {
	if s, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
		return time.Unix(s, 0).UTC()
	}
	return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
}

// New returns a one-page PDF canvas of size w × h.
func New(w, h vg.Length) *Canvas {
	c := &Canvas{
		doc:   pdf.NewCustom(&pdf.InitType{UnitStr: "pt", Size: pdf.SizeType{Wd: w.Points(), Ht: h.Points()}}),
		w:     w,
		h:     h,
		stack: make([]pdfContext, 1),
		fonts: map[string]bool{},
	}
	c.doc.SetCreationDate(pdfDate())
	c.doc.SetModificationDate(pdfDate())
	c.doc.SetCompression(true)
	c.doc.SetMargins(0, 0, 0)
	c.doc.SetAutoPageBreak(false, 0)
	c.doc.AddPage()
	c.Push()
	c.Translate(vg.Point{X: 0, Y: c.h})
	c.Scale(1, -1)
	vg.Initialize(c)
	return c
}

// Size implements vg.Canvas.
func (c *Canvas) Size() (w, h vg.Length) { return c.w, c.h }

// DPI implements vg.Canvas.
func (c *Canvas) DPI() float64 { return pdfDPI }

func (c *Canvas) context() *pdfContext { return &c.stack[len(c.stack)-1] }

// SetLineWidth implements vg.Canvas.
func (c *Canvas) SetLineWidth(w vg.Length) {
	c.context().width = w
	c.doc.SetLineWidth(unitPt(w))
}

// SetLineDash implements vg.Canvas.
func (c *Canvas) SetLineDash(dashes []vg.Length, offs vg.Length) {
	ds := make([]float64, len(dashes))
	for i, d := range dashes {
		ds[i] = unitPt(d)
	}
	c.doc.SetDashPattern(ds, unitPt(offs))
}

// SetColor implements vg.Canvas.
func (c *Canvas) SetColor(clr color.Color) {
	if clr == nil {
		clr = color.Black
	}
	c.context().color = clr
	// PDF colours are not premultiplied: a translucent colour is its straight RGB with
	// an opacity (vgpdf passes the premultiplied RGB, darkening translucent fills).
	n := color.NRGBAModel.Convert(clr).(color.NRGBA)
	_, _, _, a := clr.RGBA()
	ri, gi, bi := int(n.R), int(n.G), int(n.B)
	c.doc.SetFillColor(ri, gi, bi)
	c.doc.SetDrawColor(ri, gi, bi)
	c.doc.SetTextColor(ri, gi, bi)
	c.doc.SetAlpha(float64(a)/math.MaxUint16, "Normal")
}

// Rotate implements vg.Canvas.
func (c *Canvas) Rotate(r float64) { c.doc.TransformRotate(-r*180/math.Pi, 0, 0) }

// Translate implements vg.Canvas.
func (c *Canvas) Translate(pt vg.Point) { c.doc.TransformTranslate(unitPt(pt.X), unitPt(pt.Y)) }

// Scale implements vg.Canvas.
func (c *Canvas) Scale(x, y float64) { c.doc.TransformScale(x*100, y*100, 0, 0) }

// Push implements vg.Canvas.
func (c *Canvas) Push() {
	c.stack = append(c.stack, *c.context())
	c.doc.TransformBegin()
}

// Pop implements vg.Canvas.
func (c *Canvas) Pop() {
	c.doc.TransformEnd()
	c.stack = c.stack[:len(c.stack)-1]
}

// Stroke implements vg.Canvas.
func (c *Canvas) Stroke(p vg.Path) {
	if c.context().width > 0 {
		c.path(p, "D")
	}
}

// Fill implements vg.Canvas.
func (c *Canvas) Fill(p vg.Path) { c.path(p, "F") }

// FillString implements vg.Canvas: the text is written with its face's font embedded
// as a Unicode subset.
func (c *Canvas) FillString(fnt font.Face, pt vg.Point, str string) {
	if fnt.Font.Size == 0 {
		return
	}
	name := fnt.Name()
	if !c.fonts[name] {
		var raw bytes.Buffer
		if _, err := fnt.Face.WriteSourceTo(nil, &raw); err != nil {
			c.doc.SetError(fmt.Errorf("font %s: %w", name, err))
			return
		}
		c.doc.AddUTF8FontFromBytes(name, "", raw.Bytes())
		c.fonts[name] = true
	}
	c.doc.SetFont(name, "", unitPt(fnt.Font.Size))
	c.Push()
	defer c.Pop()
	c.Translate(pt)
	c.Scale(1, -1) // fpdf's text origin is the top left corner
	_, h := c.doc.GetFontSize()
	top := 0.81 * h
	if d := c.doc.GetFontDesc(name, ""); d.Ascent != 0 {
		top = -float64(d.Ascent) * h / float64(d.Ascent-d.Descent)
	}
	c.doc.MoveTo(-c.doc.GetCellMargin(), top)
	c.doc.CellFormat(c.doc.GetStringWidth(str), h, str, "", 0, "BL", false, 0, "")
}

// DrawImage implements vg.Canvas.
func (c *Canvas) DrawImage(rect vg.Rectangle, img image.Image) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		c.doc.SetError(err)
		return
	}
	c.imgs++
	name := fmt.Sprintf("image_%03d.png", c.imgs)
	opts := pdf.ImageOptions{ImageType: "png", ReadDpi: true}
	c.doc.RegisterImageOptionsReader(name, opts, &buf)
	size := rect.Size()
	// fpdf places an image top row first, downwards; the canvas's y axis points up, so
	// the image is drawn through a flip about its rectangle's middle (y → Min+Max−y) to
	// keep its top row at the top (a colour bar's highest value above).
	c.Push()
	c.Translate(vg.Point{Y: rect.Min.Y + rect.Max.Y})
	c.Scale(1, -1)
	c.doc.ImageOptions(name, unitPt(rect.Min.X), unitPt(rect.Min.Y), unitPt(size.X), unitPt(size.Y), false, opts, 0, "")
	c.Pop()
}

// path strokes ("D") or fills ("F") a vg.Path.
func (c *Canvas) path(p vg.Path, style string) {
	var x0, y0 float64
	for _, comp := range p {
		switch comp.Type {
		case vg.MoveComp:
			x0, y0 = unitPt(comp.Pos.X), unitPt(comp.Pos.Y)
			c.doc.MoveTo(x0, y0)
		case vg.LineComp:
			c.doc.LineTo(unitPt(comp.Pos.X), unitPt(comp.Pos.Y))
		case vg.ArcComp:
			c.arc(comp, style)
		case vg.CurveComp:
			px, py := unitPt(comp.Pos.X), unitPt(comp.Pos.Y)
			switch len(comp.Control) {
			case 1:
				c.doc.CurveTo(unitPt(comp.Control[0].X), unitPt(comp.Control[0].Y), px, py)
			case 2:
				c.doc.CurveBezierCubicTo(unitPt(comp.Control[0].X), unitPt(comp.Control[0].Y),
					unitPt(comp.Control[1].X), unitPt(comp.Control[1].Y), px, py)
			}
		case vg.CloseComp:
			c.doc.LineTo(x0, y0)
			c.doc.ClosePath()
		}
	}
	c.doc.DrawPath(style)
}

func (c *Canvas) arc(comp vg.PathComp, style string) {
	x0 := comp.Pos.X + comp.Radius*vg.Length(math.Cos(comp.Start))
	y0 := comp.Pos.Y + comp.Radius*vg.Length(math.Sin(comp.Start))
	c.doc.LineTo(unitPt(x0), unitPt(y0))
	r := unitPt(comp.Radius)
	const deg = 180 / math.Pi
	beg := comp.Start * deg
	c.doc.Arc(unitPt(comp.Pos.X), unitPt(comp.Pos.Y), r, r, comp.Angle*deg, beg, beg+comp.Angle*deg, style)
	x1 := comp.Pos.X + comp.Radius*vg.Length(math.Cos(comp.Start+comp.Angle))
	y1 := comp.Pos.Y + comp.Radius*vg.Length(math.Sin(comp.Start+comp.Angle))
	c.doc.MoveTo(unitPt(x1), unitPt(y1))
}

// unitPt converts a length to PDF points.
func unitPt(l vg.Length) float64 { return l.Dots(pdfDPI) }

// WriteTo writes the PDF document to w; the canvas may not be drawn on afterwards.
func (c *Canvas) WriteTo(w io.Writer) (int64, error) {
	c.Pop()
	c.doc.Close()
	cw := &countWriter{w: w}
	b := bufio.NewWriter(cw)
	if err := c.doc.Output(b); err != nil {
		return cw.n, err
	}
	err := b.Flush()
	return cw.n, err
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (w *countWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	w.n += int64(n)
	return n, err
}

package paperplot

import (
	"fmt"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Panels are figures drawn side by side in one file, cols to a row (the objective
// curves of several methods, whose scales differ): each panel is of its own style's
// size and draws its title, which names it.
type Panels struct {
	// Style sizes the file (its DPI) and the gap between panels (its font size).
	Style Style
	Cols  int
	Figs  []*Figure
}

// NewPanels returns panels of figs, at most cols to a row; each panel's plot is given
// its title (Style.Title is for a figure's title, which a caption replaces; a panel's
// names the panel).
func (s Style) NewPanels(cols int, figs ...*Figure) (*Panels, error) {
	if len(figs) == 0 || cols < 1 {
		return nil, fmt.Errorf("panels: %d figures in %d columns", len(figs), cols)
	}
	return &Panels{Style: s, Cols: min(cols, len(figs)), Figs: figs}, nil
}

// rows returns the number of rows of panels.
func (p *Panels) rows() int { return (len(p.Figs) + p.Cols - 1) / p.Cols }

// size returns the size of the whole: the widest panel times the columns, the highest
// times the rows, with a gap of one font size between panels.
func (p *Panels) size() (w, h vg.Length) {
	var pw, ph vg.Length
	for _, f := range p.Figs {
		fw, fh := f.Style.Size()
		pw, ph = max(pw, fw), max(ph, fh)
	}
	gap := p.Style.fontSize()
	c, r := vg.Length(p.Cols), vg.Length(p.rows())
	return c*pw + (c-1)*gap, r*ph + (r-1)*gap
}

// Save draws the panels and writes stem.FORMAT for each format (see Style.Save).
func (p *Panels) Save(stem string, formats ...string) ([]string, error) {
	s := p.Style
	s.Width, s.Height = p.size()
	return s.Save(stem, formats, p.Draw)
}

// Draw draws the panels on c, left to right, top to bottom.
func (p *Panels) Draw(c draw.Canvas) {
	gap := p.Style.fontSize()
	tiles := draw.Tiles{Rows: p.rows(), Cols: p.Cols, PadX: gap, PadY: gap}
	for i, f := range p.Figs {
		f.Draw(tiles.At(c, i%p.Cols, i/p.Cols))
	}
}

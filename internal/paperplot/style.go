package paperplot

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// Legend is where a figure's legend goes.
type Legend int

const (
	// LegendInside puts the legend inside the axes, in the corner that hides the fewest
	// data points (top right first on ties), making room above or below the data where
	// every corner hides some, and right of the axes where no room can be made.
	LegendInside Legend = iota
	// LegendOutside puts the legend in a column right of the axes.
	LegendOutside
	// LegendNone draws no legend (the caption says what the lines are).
	LegendNone
)

// String returns the name ParseLegend reads.
func (l Legend) String() string {
	switch l {
	case LegendOutside:
		return "outside"
	case LegendNone:
		return "none"
	}
	return "inside"
}

// ParseLegend reads a legend placement: inside (or best), outside, or none.
func ParseLegend(s string) (Legend, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "inside", "best", "inside-best":
		return LegendInside, nil
	case "outside", "right":
		return LegendOutside, nil
	case "none", "off", "false":
		return LegendNone, nil
	}
	return 0, fmt.Errorf("legend %q: want inside, outside or none", s)
}

// Style is how a figure is sized and lettered.
type Style struct {
	// Width is the figure's width; 0 means ColumnWidth.
	Width vg.Length
	// Height is the figure's height; 0 means Width / Aspect.
	Height vg.Length
	// Aspect is width / height when Height is 0; 0 means 1.6.
	Aspect float64
	// FontSize is the size of every text of the figure; 0 means 8 pt.
	FontSize vg.Length
	// Title is whether the figure draws its title (papers put it in the caption).
	Title bool
	// Legend is where the legend goes.
	Legend Legend
	// Errors is how the spread around a line is drawn.
	Errors Errors
	// DPI is the resolution of PNGs; 0 means 300.
	DPI float64
}

// Errors is how a figure draws the spread (a std, an interval) around its lines.
type Errors int

const (
	// ErrorBars draws a vertical bar with caps at each point.
	ErrorBars Errors = iota
	// ErrorBands shades the band between the low and high curves in the line's colour.
	ErrorBands
	// ErrorsNone draws no spread.
	ErrorsNone
)

// String returns the name ParseErrors reads.
func (e Errors) String() string {
	switch e {
	case ErrorBands:
		return "bands"
	case ErrorsNone:
		return "none"
	}
	return "bars"
}

// ParseErrors reads how spread is drawn: bars, bands or none.
func ParseErrors(s string) (Errors, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "bars", "bar":
		return ErrorBars, nil
	case "bands", "band":
		return ErrorBands, nil
	case "none", "off", "false":
		return ErrorsNone, nil
	}
	return 0, fmt.Errorf("errors %q: want bars, bands or none", s)
}

// Defaults of a Style's zero fields.
const (
	DefaultAspect   = 1.6
	DefaultFontSize = 8 * vg.Length(1)
	DefaultDPI      = 300
)

// Size returns the figure's width and height with defaults filled in.
func (s Style) Size() (w, h vg.Length) {
	w = s.Width
	if w <= 0 {
		w = ColumnWidth
	}
	h = s.Height
	if h <= 0 {
		a := s.Aspect
		if a <= 0 {
			a = DefaultAspect
		}
		h = w / vg.Length(a)
	}
	return w, h
}

// fontSize returns the font size with its default filled in.
func (s Style) fontSize() vg.Length {
	if s.FontSize <= 0 {
		return DefaultFontSize
	}
	return s.FontSize
}

// dpi returns the PNG resolution with its default filled in.
func (s Style) dpi() float64 {
	if s.DPI <= 0 {
		return DefaultDPI
	}
	return s.DPI
}

// NewPlot returns a plot lettered in the style: every text at the font size (the title
// one point larger, and empty unless s.Title), labels that may carry superscripts
// ("10^{-2}", see Super), at least four labelled ticks on linear axes and thin lines.
func (s Style) NewPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	if s.Title {
		p.Title.Text = title
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Tick.Marker = Ticks{}
	p.Y.Tick.Marker = Ticks{}
	s.Apply(p)
	return p
}

// Apply sets every text of p to the style's font size (the title one point larger) and
// the superscript-aware text handler, and scales paddings and tick lengths with the font.
func (s Style) Apply(p *plot.Plot) {
	fs := s.fontSize()
	set := func(f *font.Font, size vg.Length) { f.Size = size }
	set(&p.Title.TextStyle.Font, fs+1)
	p.Title.Padding = fs / 2
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		set(&a.Label.TextStyle.Font, fs)
		set(&a.Tick.Label.Font, fs)
		a.Label.TextStyle.Handler = Super
		a.Tick.Label.Handler = Super
		a.Label.Padding = fs / 4
		a.Padding = fs / 4
		a.Tick.Length = fs / 2
		a.LineStyle.Width = vg.Points(0.6)
		a.Tick.LineStyle.Width = vg.Points(0.6)
	}
	p.Title.TextStyle.Handler = Super
	p.Legend.TextStyle.Font.Size = fs
	p.Legend.TextStyle.Handler = Super
}

package results

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nagc-harness/nagc/internal/paperplot"
)

// Figures is a config's figures section: how `nagc report` draws the sensitivity figures,
// heatmaps and objective plots of the sweep for a paper. Every key is optional; `nagc
// report` flags of the same names override them. It is recorded in sweeps.jsonl
// (Provenance.Figures), where the report reads it.
//
//	figures:
//	  width: column        # column (3.3 in), page (7 in) or a length: 8cm, 3.5in, 90mm, 240pt
//	  aspect: 1.6          # width / height, when height is not given
//	  height: 2in
//	  font_size: 8         # points, every text of a figure
//	  title: false         # papers put the title in the caption
//	  legend: inside       # inside (the emptiest corner), outside, none
//	  errors: bars         # bars, bands, none: the std over restarts
//	  metric: nmi          # any recorded metric: ari, nmi, acc, modularity, heldout_modularity, …
//	  rows: [Prop.]        # rows that get figures (default all)
//	  params: [lambda, rho] # swept parameters that get figures (default all)
//	  formats: [pdf]       # png, pdf
//	  dpi: 300             # PNG resolution
type Figures struct {
	Width    string   `yaml:"width" json:"width,omitempty"`
	Height   string   `yaml:"height" json:"height,omitempty"`
	Aspect   float64  `yaml:"aspect" json:"aspect,omitempty"`
	FontSize float64  `yaml:"font_size" json:"font_size,omitempty"`
	Title    *bool    `yaml:"title" json:"title,omitempty"`
	Legend   string   `yaml:"legend" json:"legend,omitempty"`
	Errors   string   `yaml:"errors" json:"errors,omitempty"`
	Metric   string   `yaml:"metric" json:"metric,omitempty"`
	Rows     []string `yaml:"rows" json:"rows,omitempty"`
	Params   []string `yaml:"params" json:"params,omitempty"`
	Formats  []string `yaml:"formats" json:"formats,omitempty"`
	DPI      float64  `yaml:"dpi" json:"dpi,omitempty"`
}

// figureMetrics are the metrics a figure can plot: every metric a run records.
var figureMetrics = append(slices.Clone(AllMetrics), MetricHeldOut)

// IsZero reports whether no key is set.
func (f *Figures) IsZero() bool {
	return f == nil || (f.Width == "" && f.Height == "" && f.Aspect == 0 && f.FontSize == 0 && f.Title == nil &&
		f.Legend == "" && f.Errors == "" && f.Metric == "" && len(f.Rows) == 0 && len(f.Params) == 0 &&
		len(f.Formats) == 0 && f.DPI == 0)
}

// Merge returns f with every key set in over replacing f's (flags over a config).
func (f Figures) Merge(over Figures) Figures {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&f.Width, over.Width)
	set(&f.Height, over.Height)
	set(&f.Legend, over.Legend)
	set(&f.Errors, over.Errors)
	set(&f.Metric, over.Metric)
	if over.Aspect != 0 {
		f.Aspect = over.Aspect
	}
	if over.FontSize != 0 {
		f.FontSize = over.FontSize
	}
	if over.DPI != 0 {
		f.DPI = over.DPI
	}
	if over.Title != nil {
		f.Title = over.Title
	}
	if over.Rows != nil {
		f.Rows = over.Rows
	}
	if over.Params != nil {
		f.Params = over.Params
	}
	if over.Formats != nil {
		f.Formats = over.Formats
	}
	return f
}

// Check returns what is wrong with the settings, in the words of the key at fault
// ("width: …"), or nil.
func (f *Figures) Check() error {
	if f == nil {
		return nil
	}
	if f.Width != "" {
		if _, err := paperplot.ParseLength(f.Width); err != nil {
			return fmt.Errorf("width: %v", err)
		}
	}
	if f.Height != "" {
		if _, err := paperplot.ParseLength(f.Height); err != nil {
			return fmt.Errorf("height: %v", err)
		}
	}
	if f.Aspect < 0 || f.Aspect > 20 {
		return fmt.Errorf("aspect: width / height must be in (0, 20], got %v", f.Aspect)
	}
	if f.FontSize != 0 && (f.FontSize < 4 || f.FontSize > 30) {
		return fmt.Errorf("font_size: must be 4 to 30 points, got %v", f.FontSize)
	}
	if f.DPI != 0 && (f.DPI < 50 || f.DPI > 1200) {
		return fmt.Errorf("dpi: must be 50 to 1200, got %v", f.DPI)
	}
	if f.Legend != "" {
		if _, err := paperplot.ParseLegend(f.Legend); err != nil {
			return fmt.Errorf("legend: %v", err)
		}
	}
	if f.Errors != "" {
		if _, err := paperplot.ParseErrors(f.Errors); err != nil {
			return fmt.Errorf("errors: %v", err)
		}
	}
	if f.Metric != "" && !slices.Contains(figureMetrics, f.Metric) {
		return fmt.Errorf("metric: unknown metric %q (known: %s)", f.Metric, strings.Join(figureMetrics, ", "))
	}
	for _, x := range f.Formats {
		if x != paperplot.PNG && x != paperplot.PDF {
			return fmt.Errorf("formats: unknown figure format %q (known: png, pdf)", x)
		}
	}
	return nil
}

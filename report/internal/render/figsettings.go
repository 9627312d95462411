package render

import (
	"fmt"
	"slices"

	"github.com/nagc-harness/nagc/internal/paperplot"
	recorded "github.com/nagc-harness/nagc/results"
)

// figureSettings are how the report draws its figures: a config's figures section with
// `nagc report`'s flags laid over it. Without any setting every figure is drawn in
// paperplot's zero Style, ready for a paper.
type figureSettings struct {
	// custom is whether some key was set: the sweep figures are then drawn as the
	// section asks (which rows and parameters, the objective one figure per row) and
	// captioned with its style's words.
	custom bool
	// Style sizes and letters every figure (paperplot: a column wide, 8 pt, no title,
	// legend inside, error bars, unless set).
	Style paperplot.Style
	// Metric is the recorded metric plotted ("": each dataset's first rule's measure).
	Metric string
	// Rows and Params, when set, are the only rows and swept parameters that get figures.
	Rows, Params []string
	// Formats are the figure formats from the config (used when the report's own are not
	// set).
	Formats []string
}

// newFigureSettings reads a figures section (a config's with flags laid over it); with
// no key set, the zero settings.
func newFigureSettings(f *recorded.Figures) (*figureSettings, error) {
	if f.IsZero() {
		return &figureSettings{}, nil
	}
	if err := f.Check(); err != nil {
		return nil, fmt.Errorf("figures: %w", err)
	}
	s := &figureSettings{custom: true, Metric: f.Metric, Rows: f.Rows, Params: f.Params, Formats: f.Formats}
	st := &s.Style
	var err error
	if f.Width != "" {
		if st.Width, err = paperplot.ParseLength(f.Width); err != nil {
			return nil, err
		}
	}
	if f.Height != "" {
		if st.Height, err = paperplot.ParseLength(f.Height); err != nil {
			return nil, err
		}
	}
	st.Aspect = f.Aspect
	st.FontSize = paperplot.Pt(f.FontSize)
	if f.Title != nil {
		st.Title = *f.Title
	}
	if f.Legend != "" {
		if st.Legend, err = paperplot.ParseLegend(f.Legend); err != nil {
			return nil, err
		}
	}
	if f.Errors != "" {
		if st.Errors, err = paperplot.ParseErrors(f.Errors); err != nil {
			return nil, err
		}
	}
	st.DPI = f.DPI
	return s, nil
}

// wantsRow reports whether a row gets figures.
func (s *figureSettings) wantsRow(method string) bool {
	return len(s.Rows) == 0 || slices.Contains(s.Rows, method)
}

// wantsParam reports whether a swept parameter gets figures.
func (s *figureSettings) wantsParam(param string) bool {
	return len(s.Params) == 0 || slices.Contains(s.Params, param)
}

// recordedFigures returns the figures section of the last sweep that recorded one.
func (r *Results) recordedFigures() *recorded.Figures {
	for i := len(r.Provenance) - 1; i >= 0; i-- {
		if f := r.Provenance[i].Figures; !f.IsZero() {
			return f
		}
	}
	return nil
}

// settingsFor returns the report's figure settings: opt.FigureSettings laid over the
// recorded figures section (the zero settings when neither sets a key).
func (r *Results) settingsFor(opt Options) (*figureSettings, error) {
	var f recorded.Figures
	if rec := r.recordedFigures(); rec != nil {
		f = *rec
	}
	if opt.FigureSettings != nil {
		f = f.Merge(*opt.FigureSettings)
	}
	return newFigureSettings(&f)
}

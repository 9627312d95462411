package render

import "bytes"

// Comparer is what the renderer asks of a comparison of the sweep with a paper (the
// NAGC paper's is Paper): its tables, its figures and its
// sections of REPORT.md. The renderer reaches the comparison only through these methods.
type Comparer interface {
	// Tables returns the comparison's tables, in the paper's order, set after the
	// datasets table.
	Tables(r *Results) []*Table
	// DrawFigures draws the comparison's figures (before the sweep's) as o says,
	// passing each to add, and notes on rep.Skipped the ones it cannot draw.
	DrawFigures(rep *Report, opt Options, o FigureOptions, add func(*Figure, error) error) error
	// DrawsSensitivity reports whether the comparison draws the sensitivity of a row to
	// a parameter itself (the renderer then leaves out its own sensitivity figure, unless
	// a figures section asks for its rows and parameters).
	DrawsSensitivity(r *Results, method, param string) bool
	// WriteIntro writes the opening paragraphs of REPORT.md.
	WriteIntro(b *bytes.Buffer, r *Results, opt Options)
	// WriteSections writes the comparison's sections of REPORT.md, after the
	// provenance and before the links to the per-dataset pages.
	WriteSections(b *bytes.Buffer, rep *Report, opt Options, tables map[string]*Table, figs map[string][]*Figure)
	// WriteClosing writes the comparison's sections after "Every grid point".
	WriteClosing(b *bytes.Buffer, r *Results)
}

// comparer returns the comparison the report makes (nil: a report of the sweep
// alone).
func (r *Results) comparer() Comparer {
	if !r.Compare {
		return nil
	}
	return r.Comparison
}

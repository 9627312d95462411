package report

import "bytes"

// Comparer is what the general renderer asks of a comparison of the sweep with a
// paper (the NAGC paper's: paperComparison, the paper_*.go files): its tables, its
// figures and its sections of REPORT.md. The renderer reaches the comparison only
// through these methods, the seam along which it can become a package of its own.
type Comparer interface {
	// tables returns the comparison's tables, in the paper's order, set after the
	// datasets table.
	Tables(r *Results) []*Table
	// drawFigures draws the comparison's figures (before the sweep's), passing each to
	// add, and notes on rep.Skipped the ones it cannot draw.
	DrawFigures(rep *Report, opt Options, add func(*Figure, error) error) error
	// drawsSensitivity reports whether the comparison draws the sensitivity of a row to
	// a parameter itself (the renderer then leaves out its own figure in its own look).
	DrawsSensitivity(r *Results, method, param string) bool
	// writeIntro writes the opening paragraphs of REPORT.md.
	WriteIntro(b *bytes.Buffer, r *Results, opt Options)
	// writeSections writes the comparison's sections of REPORT.md, after the
	// provenance and before the per-dataset sections.
	WriteSections(b *bytes.Buffer, rep *Report, opt Options, tables map[string]*Table, figs map[string][]*Figure)
	// writeClosing writes the comparison's sections after "Every grid point".
	WriteClosing(b *bytes.Buffer, r *Results)
}

// Comparer returns the comparison the report makes (nil: a report of the sweep
// alone).
func (r *Results) comparer() Comparer {
	if !r.Compare {
		return nil
	}
	return paperComparison{}
}

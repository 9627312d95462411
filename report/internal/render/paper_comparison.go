package render

import (
	"bytes"
	"fmt"
	"strings"
)

// Paper is the comparison with the NAGC paper (the Results' Spec and Paper, package
// report/paper), the Comparer that package report wires in.
type Paper struct {
	// notes explain the cells of the ARI and ρ tables that are off the paper (nil: the
	// notes shipped with nagc, defaultOffPaper).
	notes *offPaper
}

var _ Comparer = Paper{}

// results are the aggregated runs as the comparison reads them: with the notes that
// explain the cells off the paper.
type results struct {
	*Results
	notes *offPaper
}

// of returns r as the comparison reads it.
func (c Paper) of(r *Results) results { return results{Results: r, notes: c.notes} }

// Tables returns the paper's tables in its order: ARI, then ARI without isolated
// vertices (not in the paper), the modularity table when the spec has one, ρ, runtime.
func (c Paper) Tables(res *Results) []*Table {
	r := c.of(res)
	out := []*Table{ariTable(r), ariConnectedTable(r)}
	if r.Spec.Modularity.Dataset != "" {
		out = append(out, modularityTable(r))
	}
	return append(out, rhoTable(r), runtimeTableOf(r))
}

// DrawsSensitivity reports whether the paper's figures show a row's sensitivity to a
// parameter: the λ and k2 sweeps of the proposed row.
func (Paper) DrawsSensitivity(r *Results, method, param string) bool {
	return method == r.Spec.Proposed && (param == "lambda" || param == "k2")
}

// WriteIntro writes the opening paragraphs of REPORT.md: what the report sets beside
// the paper.
func (c Paper) WriteIntro(b *bytes.Buffer, r *Results, opt Options) {
	writePaperIntro(b, c.of(r), opt)
}

// WriteSections writes the paper's tables and figures with a paragraph on each.
func (c Paper) WriteSections(b *bytes.Buffer, rep *Report, opt Options, tables map[string]*Table, figs map[string][]*Figure) {
	writePaperSections(b, c.of(rep.Results), rep, opt, tables, figs)
}

// WriteClosing writes the grid points the paper's rule selected.
func (c Paper) WriteClosing(b *bytes.Buffer, r *Results) { writeSelected(b, c.of(r)) }

// DrawFigures draws the paper's figures: the WebKB layout, then per dataset the λ
// and k2 sweeps of Prop.
func (c Paper) DrawFigures(rep *Report, opt Options, o FigureOptions, add func(*Figure, error) error) error {
	r := c.of(rep.Results)
	var ds string
	for _, d := range r.Datasets {
		if strings.EqualFold(d, r.Spec.Layout.Dataset) {
			ds = d
		}
	}
	switch {
	case r.Spec.Layout.Dataset == "": // the paper has no such figure
	case ds == "":
		rep.Skipped = append(rep.Skipped, r.Spec.Layout.Figure+": "+DatasetTitle(r.Spec.Layout.Dataset)+" is not in these results.")
	default:
		g, err := opt.LoadGraph(ds)
		if err != nil {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s: the graph could not be loaded (%v); "+
				"pass --data DIR or set NAGC_DATA.", r.Spec.Layout.Figure, err))
			break
		}
		if err := add(layoutFigure(r, ds, g, o)); err != nil {
			return err
		}
	}
	for _, param := range []string{"lambda", "k2"} {
		for _, d := range r.Datasets {
			f, err := sweepFigure(r, d, param, o)
			if f == nil && err == nil {
				rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s figure on %s: no finished Prop. runs with this parameter recorded.",
					param, DatasetTitle(d)))
			}
			if err := add(f, err); err != nil {
				return err
			}
		}
	}
	return nil
}

package report

import (
	"bytes"
	"fmt"
	"strings"
)

// paperComparison is the comparison with the NAGC paper (paper.Spec, the Results' Spec
// and Paper): the renderer's comparison, made of the paper_*.go files.
type paperComparison struct{}

// tables returns the paper's tables in its order: ARI, then ARI without isolated
// vertices (not in the paper), the modularity table when the spec has one, ρ, runtime.
func (paperComparison) Tables(r *Results) []*Table {
	out := []*Table{ariTable(r), ariConnectedTable(r)}
	if r.Spec.Modularity.Dataset != "" {
		out = append(out, modularityTable(r))
	}
	return append(out, rhoTable(r), runtimeTableOf(r))
}

// drawsSensitivity reports whether the paper's figures show a row's sensitivity to a
// parameter: the λ and k2 sweeps of the proposed row.
func (paperComparison) DrawsSensitivity(r *Results, method, param string) bool {
	return method == r.Spec.Proposed && (param == "lambda" || param == "k2")
}

func (paperComparison) WriteIntro(b *bytes.Buffer, r *Results, opt Options) {
	writePaperIntro(b, r, opt)
}

func (paperComparison) WriteSections(b *bytes.Buffer, rep *Report, opt Options, tables map[string]*Table, figs map[string][]*Figure) {
	writePaperSections(b, rep, opt, tables, figs)
}

func (paperComparison) WriteClosing(b *bytes.Buffer, r *Results) { writeSelected(b, r) }

// drawFigures draws the paper's figures: the WebKB layout, then per dataset the λ
// and k2 sweeps of Prop.
func (paperComparison) DrawFigures(rep *Report, opt Options, add func(*Figure, error) error) error {
	r := rep.Results
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
		if err := add(layoutFigure(r, ds, g, opt.FigureOptions())); err != nil {
			return err
		}
	}
	for _, param := range []string{"lambda", "k2"} {
		for _, d := range r.Datasets {
			f, err := sweepFigure(r, d, param, opt.FigureOptions())
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

package render

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/texttable"
	"github.com/nagc-harness/nagc/report/paper"
)

// writePaperIntro writes the opening paragraphs of a report set beside the paper: what
// was run and by which rules the cells are selected.
func writePaperIntro(b *bytes.Buffer, r results, opt Options) {
	total, done, failed := r.Counts()
	fmt.Fprintf(b, "Reproduction of \"%s\" (%s) "+
		"from the recorded runs in `%s`: %d runs (%d done, %d failed) on %s; methods %s. "+
		"This report only reads recorded runs; nothing was re-run.\n\n",
		r.Spec.Title, r.Spec.Name, opt.ResultsDir, total, done, failed, datasetList(r.Datasets), strings.Join(r.Methods, ", "))
	fmt.Fprintf(b, "**Selection rule.** Each table cell is at the grid point chosen per dataset and method by the "+
		"paper's rule, %s. Because that rule reads the labels it is optimistic for every tuned method; beside it, each "+
		"table gives the numbers chosen by the label-free rule, %s. Mean ± std are over the restarts of the chosen grid "+
		"point (population std, ddof = 0). Agreement means within %.2f of the paper's value.\n\n",
		ruleText(PaperRule), ruleText(r.FreeRule), agreeTolerance)
}

// writePaperSections writes the paper's tables and figures in its order, each with a
// paragraph comparing it with the paper.
func writePaperSections(b *bytes.Buffer, r results, rep *Report, opt Options, tables map[string]*Table, figs map[string][]*Figure) {
	if r.Spec.Layout.Dataset != "" {
		b.WriteString("## " + r.Spec.Heading("layout", "Clusterings on a graph layout") + "\n\n")
		b.WriteString(r.Spec.Layout.Stated + "\n\n")
		writeFigures(b, figs["layout"])
		writeSkipped(b, rep.Skipped, r.Spec.Layout.Figure)
	}

	if t := tables["datasets"]; t != nil {
		writeTable(b, t, opt, r.Spec.Heading("datasets", t.Title), datasetsParagraph(t))
	}
	if t := tables["ari"]; t != nil {
		writeTable(b, t, opt, r.Spec.Heading("ari", t.Title), ariParagraph(t, r)+"\n\n"+offPaperParagraph(t, r))
	}
	if t := tables["ari_connected"]; t != nil {
		writeTable(b, t, opt, "ARI without isolated vertices (not in the paper)", ariConnectedParagraph(t, r))
	}
	if t := tables["modularity"]; t != nil {
		writeTable(b, t, opt, r.Spec.Heading("modularity", t.Title), modularityParagraph(t, r))
	}

	b.WriteString("## " + r.Spec.Heading("lambda", "Effect of λ on ARI") + "\n\n")
	writeStated(b, r.Spec.StatedAbout("lambda"))
	writeSweepFacts(figs["lambda"], r, "lambda")
	writeFigures(b, figs["lambda"])
	writeSkipped(b, rep.Skipped, "lambda figure")

	b.WriteString("## " + r.Spec.Heading("k2", "Effect of k2 on ARI") + "\n\n")
	writeStated(b, r.Spec.StatedAbout("k2"))
	writeSweepFacts(figs["k2"], r, "k2")
	writeFigures(b, figs["k2"])
	writeSkipped(b, rep.Skipped, "k2 figure")

	if t := tables["rho"]; t != nil {
		writeTable(b, t, opt, r.Spec.Heading("rho", t.Title), rhoParagraph(t, r)+"\n\n"+offPaperParagraph(t, r))
	}
	if t := tables["runtime"]; t != nil {
		writeTable(b, t, opt, r.Spec.Heading("runtime", t.Title), runtimeParagraph(t, r))
	}

	writeOtherStatements(b, r)
}

// writeStated writes the paper's stated facts about a figure.
func writeStated(b *bytes.Buffer, facts []string) {
	if len(facts) == 0 {
		return
	}
	b.WriteString("The paper's figure is not available as an image; its text states:\n\n")
	for _, f := range facts {
		fmt.Fprintf(b, "- %s\n", f)
	}
	b.WriteString("\n")
}

// writeSweepFacts adds to each sweep figure our peak per ρ and the overall peak, beside
// the paper's stated mark.
func writeSweepFacts(figs []*Figure, r results, param string) {
	for _, f := range figs {
		d := f.Dataset
		series := r.propSweep(d, param)
		sym := sweepNames[param].symbol
		bestX, bestRho, bestV := math.NaN(), math.NaN(), math.Inf(-1)
		var per []string
		for _, s := range series {
			j := argmax(s.Mean)
			if j < 0 {
				continue
			}
			per = append(per, fmt.Sprintf("ρ = %s: peak at %s = %s (ARI %s)", fmtParam(s.Rho), sym, fmtParam(s.X[j]), fmtMeanStd(s.Mean[j], s.Std[j])))
			if s.Mean[j] > bestV {
				bestX, bestRho, bestV = s.X[j], s.Rho, s.Mean[j]
			}
		}
		if len(per) == 0 {
			continue
		}
		fact := fmt.Sprintf("Here (%s): %s. Overall peak %s = %s at ρ = %s (ARI %s).", DatasetTitle(d), strings.Join(per, "; "),
			sym, fmtParam(bestX), fmtParam(bestRho), fmt3(bestV))
		if r.Paper != nil {
			if mk, ok := r.Spec.Marks(param)[strings.ToLower(d)]; ok {
				fact += " " + strings.ToUpper(mk.Label[:1]) + mk.Label[1:] + ": "
				if paper.SameFloat(mk.X, bestX) {
					fact += "the overall peak here is at the same " + sym + "."
				} else {
					fact += "the overall peak here is elsewhere."
				}
				atRho, atV, atStd := math.NaN(), math.Inf(-1), 0.0
				for _, s := range series {
					for j, x := range s.X {
						if paper.SameFloat(x, mk.X) && s.Mean[j] > atV && (math.IsNaN(mk.RhoOrNaN()) || paper.SameFloat(s.Rho, mk.RhoOrNaN())) {
							atRho, atV, atStd = s.Rho, s.Mean[j], s.Std[j]
						}
					}
				}
				if !math.IsNaN(atRho) {
					fact += fmt.Sprintf(" Here at %s = %s: ARI %s (ρ = %s).", sym, fmtParam(mk.X), fmtMeanStd(atV, atStd), fmtParam(atRho))
				} else {
					fact += fmt.Sprintf(" %s = %s is not in the recorded grid.", sym, fmtParam(mk.X))
				}
			}
		}
		if name, v, ok := r.paperBaseline(d); ok && r.Paper != nil {
			fact += fmt.Sprintf(" The paper's best competitor: %s (%s published).", name, fmt3(v))
		}
		if name, v, ok := r.bestBaseline(d); ok {
			fact += fmt.Sprintf(" Best other row here: %s (%s).", name, fmt3(v))
		}
		f.Facts = append(f.Facts, fact)
	}
}

// writeOtherStatements checks the paper's statements about no figure that name a
// parameter setting (paper.Statement.Setting) against the recorded runs of the proposed
// row (and the rows compared with it) at that setting.
func writeOtherStatements(b *bytes.Buffer, r results) {
	var other []paper.Statement
	for _, st := range r.Spec.Stated {
		if st.Figure == "" {
			other = append(other, st)
		}
	}
	if len(other) == 0 {
		return
	}
	b.WriteString("## Other statements of the paper\n\n")
	for _, st := range other {
		fmt.Fprintf(b, "- Paper: \"%s\".", st.Text)
		if len(st.Setting) == 0 {
			b.WriteString(" (No parameter setting to check against the runs.)\n")
			continue
		}
		var ds []string
		for _, d := range r.Datasets {
			if len(st.Datasets) == 0 || containsFold(st.Datasets, d) {
				ds = append(ds, d)
			}
		}
		var found []string
		for _, d := range ds {
			for _, m := range r.propRows() {
				if p := r.matchingProp(d, m, st.Setting); p != nil {
					row := ""
					if m != r.Spec.Proposed {
						row = m + ", "
					}
					found = append(found, fmt.Sprintf("%s (%s%s): ARI %s, modularity %s, entropy %s", DatasetTitle(d), row,
						ParamString(p.Params), fmtMeanStd(p.Mean["ari"], p.Std["ari"]), fmt3(p.Mean["modularity"]), fmt3(p.Mean["entropy"])))
				}
			}
		}
		if st.Measured != "" && len(found) > 0 {
			found[len(found)-1] += " (paper: " + st.Measured + ")"
		}
		if len(found) == 0 {
			b.WriteString(" Here: no finished run of a Prop. row at this setting.\n")
			continue
		}
		fmt.Fprintf(b, " Here (best over the parameters it leaves free): %s.\n", strings.Join(found, "; "))
	}
	b.WriteString("\n")
}

// propRows returns Prop. and the recorded rows compared with it (PaperRows).
func (r results) propRows() []string {
	out := []string{r.Spec.Proposed}
	for _, m := range r.Methods {
		if r.Spec.ComparedWith[m] == r.Spec.Proposed {
			out = append(out, m)
		}
	}
	return out
}

// matchingProp returns the grid point of a Prop. row on a dataset whose parameters match
// want (values compared as numbers; "k1" is the dataset's number of classes), the best by
// mean ARI if several match, or nil.
func (r results) matchingProp(dataset, method string, want map[string]string) *experiments.PointStats {
	var best *experiments.PointStats
	for _, p := range r.PointsOf(dataset, method) {
		if p.Runs == 0 {
			continue
		}
		ok := true
		for k, v := range want {
			if k == "k1" {
				continue
			}
			got := paramFloat(p.Params, k)
			var w float64
			if v == "k1" {
				w = float64(p.Records[0].K1)
			} else {
				var err error
				if w, err = strconv.ParseFloat(v, 64); err != nil {
					ok = false
					break
				}
			}
			if !paper.SameFloat(got, w) {
				ok = false
				break
			}
		}
		if k1, has := want["k1"]; has && ok {
			if w, err := strconv.Atoi(k1); err == nil && p.Records[0].K1 != w {
				ok = false
			}
		}
		if ok && (best == nil || p.Mean["ari"] > best.Mean["ari"]) {
			best = p
		}
	}
	return best
}

// writeSelected lists the grid point selected per dataset and method under both rules.
func writeSelected(b *bytes.Buffer, r results) {
	b.WriteString("## Appendix: selected grid points\n\n")
	fmt.Fprintf(b, "| Dataset | Method | %s | runs | %s | runs |\n|---|---|---|---:|---|---:|\n",
		texttable.MarkdownEscape(ruleShort(PaperRule)), texttable.MarkdownEscape(ruleShort(r.FreeRule)))
	for _, d := range r.Datasets {
		for _, m := range r.Methods {
			if len(r.PointsOf(d, m)) == 0 {
				continue
			}
			cells := []string{DatasetTitle(d), texttable.MarkdownEscape(m)}
			for _, rule := range []string{PaperRule, r.FreeRule} {
				p := r.Selected(rule, d, m)
				if p == nil || p.Runs == 0 {
					cells = append(cells, texttable.MarkdownEscape(Dash+" "+r.Missing(d, m)+r.Unselected(rule, d, m)), "0")
					continue
				}
				ps := ParamString(p.Params)
				if ps == "" {
					ps = "(no parameters)"
				}
				runs := strconv.Itoa(p.Runs)
				if p.Failed > 0 {
					runs += fmt.Sprintf(" (+%d failed)", p.Failed)
				}
				cells = append(cells, texttable.MarkdownEscape(ps), runs)
			}
			fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	b.WriteString("\n")
}

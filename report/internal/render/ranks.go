package render

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/stats"
)

// RankTest compares rows across datasets under a selection rule (Demšar 2006): their
// average ranks on a metric, Friedman's test and Nemenyi's critical difference.
type RankTest struct {
	Rule, Metric string
	// Methods are the rows ranked, those with the metric on every dataset of Datasets;
	// Left the rows left out for a missing dataset.
	Methods, Left []string
	Datasets      []string
	Friedman      stats.FriedmanResult
	// CD is Nemenyi's critical difference at Alpha.
	CD float64
}

// RankMetric is the metric the report ranks rows by across datasets: ARI where some
// dataset has labels, modularity else.
func (r *Results) RankMetric() string {
	if r.AnyLabeled() {
		return "ari"
	}
	return "modularity"
}

// RankRules are the rules under which rows are ranked across datasets: the paper's
// where some dataset has labels, then the label-free rule.
func (r *Results) RankRules() []string {
	if r.AnyLabeled() {
		return []string{PaperRule, r.FreeRule}
	}
	return []string{r.FreeRule}
}

// Ranks ranks methods across the datasets on which rule selects (for the paper's rule,
// those with labels) by metric at the selected grid points, keeping the rows with the
// metric on every such dataset; nil when fewer than two rows or two datasets remain.
// Cost O(datasets · methods · log methods) and one NemenyiQ.
func (r *Results) Ranks(rule, metric string, methods []string) *RankTest {
	rt := &RankTest{Rule: rule, Metric: metric}
	for _, d := range r.Datasets {
		if r.noSweepSection(d) {
			continue
		}
		for _, m := range methods {
			if v, _ := metricOf(r.Selected(rule, d, m), metric); !math.IsNaN(v) && r.Missing(d, m) == "" {
				rt.Datasets = append(rt.Datasets, d)
				break
			}
		}
	}
	for _, m := range methods {
		ok := len(rt.Datasets) > 0
		for _, d := range rt.Datasets {
			if v, _ := metricOf(r.Selected(rule, d, m), metric); math.IsNaN(v) || r.Missing(d, m) != "" {
				ok = false
			}
		}
		if ok {
			rt.Methods = append(rt.Methods, m)
		} else {
			rt.Left = append(rt.Left, m)
		}
	}
	if len(rt.Methods) < 2 || len(rt.Datasets) < 2 {
		return nil
	}
	scores := make([][]float64, len(rt.Datasets))
	for i, d := range rt.Datasets {
		scores[i] = make([]float64, len(rt.Methods))
		for j, m := range rt.Methods {
			scores[i][j], _ = metricOf(r.Selected(rule, d, m), metric)
		}
	}
	var err error
	if rt.Friedman, err = stats.Friedman(scores, metrics.DirectionOf(metric) == metrics.LowerIsBetter); err != nil {
		return nil
	}
	if rt.CD, err = stats.CriticalDifference(len(rt.Methods), len(rt.Datasets), Alpha); err != nil {
		return nil
	}
	return rt
}

// Rank returns a method's average rank, NaN when it was not ranked.
func (t *RankTest) Rank(method string) float64 {
	if i := slices.Index(t.Methods, method); i >= 0 {
		return t.Friedman.AvgRanks[i]
	}
	return math.NaN()
}

// Sentence states the test's outcome for a caption or a paragraph.
func (t *RankTest) Sentence() string {
	f := t.Friedman
	s := fmt.Sprintf("Over %d datasets (%s), %d rows ranked by %s at the grid points of %s (1 best, ties averaged): "+
		"Friedman χ² = %.2f (p = %s), Iman–Davenport F = %s (p = %s); Nemenyi's critical difference at α = %.2f is %.2f.",
		f.N, datasetList(t.Datasets), f.K, metricMeasure(t.Metric).Label, ruleText(t.Rule), f.ChiSq, fmtP(f.PChiSq),
		fmtNaN(f.F), fmtP(f.PF), Alpha, t.CD)
	if len(t.Left) > 0 {
		s += " Not ranked (no result on every dataset): " + strings.Join(t.Left, ", ") + "."
	}
	return s
}

// Short states the test's outcome in a table's note.
func (t *RankTest) Short() string {
	f := t.Friedman
	s := fmt.Sprintf("over %d datasets, Friedman χ² = %.2f (p = %s), Iman–Davenport F = %s (p = %s), Nemenyi CD = %.2f (α = %.2f)",
		f.N, f.ChiSq, fmtP(f.PChiSq), fmtNaN(f.F), fmtP(f.PF), t.CD, Alpha)
	if len(t.Left) > 0 {
		s += "; not ranked: " + strings.Join(t.Left, ", ")
	}
	return s + "."
}

// fmtP prints a p-value: three significant digits, "< 0.001" below.
func fmtP(p float64) string {
	switch {
	case math.IsNaN(p):
		return Dash
	case p < 0.001:
		return "< 0.001"
	}
	return fmt.Sprintf("%.3g", p)
}

func fmtNaN(v float64) string {
	if math.IsNaN(v) {
		return Dash
	}
	return fmt.Sprintf("%.2f", v)
}

// cdFigure draws the critical-difference diagram of t in the report's figure style and
// formats.
func (r *Results) cdFigure(t *RankTest, o FigureOptions) (*Figure, error) {
	d, err := o.Style.NewCDDiagram("", t.Methods, t.Friedman.AvgRanks, t.CD)
	if err != nil {
		return nil, err
	}
	fig := &Figure{Name: cdName(t), Kind: "cd", Title: fmt.Sprintf("Critical differences: %s, %s", metricMeasure(t.Metric).Label, ruleShort(t.Rule)),
		Caption: t.Sentence() + " A bar joins rows whose average ranks differ by less than it: no significant difference."}
	return fig, o.Save(fig, d)
}

// writeRanks writes the comparison of rows across datasets: the methods × datasets
// table, the average ranks with Friedman's test and Nemenyi's critical difference
// (drawn as critical-difference diagrams where figures are drawn), and with a
// comparison, the paper's claims of superiority under these tests.
func writeRanks(b *bytes.Buffer, rep *Report, opt Options, tables map[string]*Table, figs []*Figure) {
	r := rep.Results
	if t := tables["methods"]; t != nil {
		writeTable(b, t, opt, "Methods × datasets", "")
	}
	var tests []*RankTest
	for _, rule := range r.RankRules() {
		if t := r.Ranks(rule, r.RankMetric(), r.Methods); t != nil {
			tests = append(tests, t)
		}
	}
	if len(tests) > 0 {
		b.WriteString("## Ranks across datasets\n\n")
		b.WriteString("Rows ranked on every dataset by the mean of their selected grid point, as Demšar (JMLR 2006) " +
			"compares methods over datasets. Two rows differ significantly when their average ranks differ by at least " +
			"the critical difference.\n\n")
		if len(figs) > 0 && r.comparer() != nil {
			writeFigures(b, figs)
		} else { // a sweep's REPORT.md is an index: it links its figures
			for _, t := range tests {
				fmt.Fprintf(b, "- %s: %s", ruleShort(t.Rule), t.Sentence())
				for _, f := range figs {
					if f.Name == cdName(t) {
						fmt.Fprintf(b, " Critical-difference diagram: %s.", fileLinks(f))
					}
				}
				b.WriteString("\n")
			}
			b.WriteString("\n")
		}
	}
	if t := tables["claims"]; t != nil {
		writeTable(b, t, opt, "The paper's claims under significance tests", "")
	}
}

// cdName is the file stem of the critical-difference diagram of t.
func cdName(t *RankTest) string { return "cd_" + t.Metric + "_" + slug(t.Rule) }

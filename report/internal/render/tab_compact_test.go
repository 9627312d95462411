package render

import (
	"math"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/texttable"
)

// TestCompactLaTeX checks the compact table's layout on hand-made cells: datasets as
// columns and (metric, rule) blocks when there are several datasets, metrics as columns
// otherwise; mean ± std with \pm; the best mean per column and block bold (the lowest
// for times); the paper's numbers left out; the tabular shrunk to \columnwidth only
// when wider.
func TestCompactLaTeX(t *testing.T) {
	cell := func(dataset, method, metric, sel string, mean, std float64) TidyRow {
		r := newTidy("ari", dataset, method, metric, sel)
		r.Mean, r.Std, r.Paper = mean, std, 0.5
		return r
	}
	twoData := &Table{Name: "ari", Table: texttable.Table{Title: "ARI", Caption: "ARI."}, Tidy: []TidyRow{
		cell("webkb", "Prop.", "ari", "ari", 0.991, 0.006), cell("cora", "Prop.", "ari", "ari", 0.333, 0.026),
		cell("webkb", "SNMF", "ari", "ari", 0.909, 0.013), cell("cora", "SNMF", "ari", "ari", 0.402, math.NaN()),
		cell("webkb", "Prop.", "ari", "modularity", 0.912, 0.014), cell("webkb", "SNMF", "ari", "modularity", 0.95, 0.01),
	}}
	oneData := &Table{Name: "rows_cora", Table: texttable.Table{Title: "Cora"}, Tidy: []TidyRow{
		cell("cora", "Prop.", "ari", "ari", 0.3, 0.01), cell("cora", "Prop.", "nmi", "ari", 0.4, 0.01),
		cell("cora", "Prop.", "acc", "ari", 0.5, 0.01), cell("cora", "Prop.", "modularity", "ari", 0.7, 0.01),
		cell("cora", "Prop.", "entropy", "ari", 0.2, 0.01), cell("cora", "Prop.", "fit_seconds", "ari", 1.5, 0.1),
		cell("cora", "SNMF", "ari", "ari", 0.2, 0.01), cell("cora", "SNMF", "nmi", "ari", 0.45, 0.01),
		cell("cora", "SNMF", "acc", "ari", 0.5, 0.02), cell("cora", "SNMF", "modularity", "ari", 0.6, 0.01),
	}}
	for _, tc := range []struct {
		name string
		tab  *Table
		want []string
		not  []string
	}{
		{"datasets as columns", twoData, []string{
			`\begin{tabular}{@{}l*{2}{c}@{}}`, " & WebKB & Cora \\\\",
			`\emph{ARI, selected by best mean ARI}`, `\emph{ARI, selected by best mean modularity}`,
			`Prop. & $\mathbf{0.991}_{\pm 0.006}$ & $0.333_{\pm 0.026}$ \\`,
			`SNMF & $0.909_{\pm 0.013}$ & $\mathbf{0.402}$ \\`,
			`Prop. & $0.912_{\pm 0.014}$ & --- \\`, `SNMF & $\mathbf{0.950}_{\pm 0.010}$ & --- \\`,
			`\ifdim\wd\nagcbox>\columnwidth\resizebox{\columnwidth}{!}{\usebox\nagcbox}\else\usebox\nagcbox\fi`,
			`\toprule`, `\midrule`, `\bottomrule`,
		}, []string{"0.500", "paper"}},
		{"metrics as columns", oneData, []string{
			" & ARI & NMI & accuracy & modularity \\\\",
			`Prop. & $\mathbf{0.300}_{\pm 0.010}$ & $0.400_{\pm 0.010}$ & $\mathbf{0.500}_{\pm 0.010}$ & $\mathbf{0.700}_{\pm 0.010}$ \\`,
			`SNMF & $0.200_{\pm 0.010}$ & $\mathbf{0.450}_{\pm 0.010}$ & $\mathbf{0.500}_{\pm 0.020}$ & $0.600_{\pm 0.010}$ \\`,
			"% Left out to fit a column (see rows_cora.tex): entropy, fit_seconds.",
		}, []string{`\emph{`}},
	} {
		got := tc.tab.CompactLaTeX()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: no %q in\n%s", tc.name, w, got)
			}
		}
		for _, w := range tc.not {
			body := got[strings.Index(got, `\sbox`):]
			if strings.Contains(body, w) {
				t.Errorf("%s: %q in the table body\n%s", tc.name, w, got)
			}
		}
	}
	// Times: the lowest is best.
	times := &Table{Name: "runtime", Tidy: []TidyRow{cell("cora", "A", "fit_seconds", "k2=k1", 2.5, 0.1), cell("cora", "B", "fit_seconds", "k2=k1", 0.75, 0.1)}}
	if got := times.CompactLaTeX(); !strings.Contains(got, `B & $\mathbf{0.75}_{\pm 0.1}$`) {
		t.Errorf("fastest not bold:\n%s", got)
	}
}

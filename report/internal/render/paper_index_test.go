package render

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/report/internal/reporttest"
	recorded "github.com/nagc-harness/nagc/results"
)

// paperSizedRuns is a results set shaped like the paper's: its four datasets, Prop. on a
// λ × ρ × k2 grid, Prop. (w/o PU) on λ × k2, JWNMF on λ, METIS and k-means, two restarts
// each; the ARI rises with λ and falls with ρ so that every figure has a shape.
func paperSizedRuns() []run {
	var out []run
	lambdas, rhos, k2s := []float64{1e-4, 1e-2, 1}, []float64{0.5, 0.75, 0.95}, []float64{4, 20}
	for di, d := range []string{"webkb", "citeseer", "cora", "polblog"} {
		base := 0.3 + 0.1*float64(di)
		for restart := range 2 {
			jitter := 0.01 * float64(restart)
			for li, l := range lambdas {
				for ri, rho := range rhos {
					for ki, k2 := range k2s {
						p := map[string]any{"lambda": l, "rho": rho, "k2": k2, "init": "kmeans"}
						ari := base + 0.05*float64(li) - 0.03*float64(ri) + 0.01*float64(ki) + jitter
						out = append(out, run{d, "Prop.", p, restart, ari, 0.5 + 0.01*float64(li), 0.2, 1, ""})
					}
				}
				for ki, k2 := range k2s {
					p := map[string]any{"lambda": l, "k2": k2, "init": "kmeans"}
					out = append(out, run{d, "Prop. (w/o PU)", p, restart, base - 0.02 + 0.02*float64(li+ki) + jitter, 0.5, 0.2, 1, ""})
				}
				out = append(out, run{d, "JWNMF", map[string]any{"lambda": l}, restart, base - 0.1 + 0.01*float64(li) + jitter, 0.45, 0.25, 2, ""})
			}
			out = append(out, run{d, "METIS", map[string]any{}, restart, base - 0.05 + jitter, 0.6, 0.3, 0.1, ""},
				run{d, "k-means", map[string]any{}, restart, base - 0.2 + jitter, 0.2, 0.1, 0.1, ""})
		}
	}
	return out
}

// TestIndexAndPages writes the report of a paper-sized results set and checks that
// REPORT.md is an index: the paper's tables and figures, links to one page per dataset
// and to figures.md, no figure of the whole sweep, and small (the report before the
// pages held every dataset's rows and figures: 66 KiB on this fixture, 39 KiB now); that each dataset's
// page holds its rows table and figures; and that every link and image of REPORT.md and
// its pages resolves to a file the report wrote, every file being reached.
func TestIndexAndPages(t *testing.T) {
	dir := writeFixtureDir(t, paperSizedRuns())
	out := filepath.Join(t.TempDir(), "rep")
	rep, err := Generate(Options{ResultsDir: dir, OutDir: out, Figures: []string{FormatPDF}, Compare: recorded.ComparePaper,
		LoadGraph: func(string) (*datasets.Graph, error) { return nil, errors.New("no data here") },
	}, Paper{})
	if err != nil {
		t.Fatal(err)
	}
	pages := reporttest.CheckLinks(t, out, ReportFile, rep.Files)
	md := pages[ReportFile]
	const maxIndex = 48 << 10 // the report before the pages: 66 KiB on this fixture; with them 39 KiB
	if len(md) > maxIndex {
		t.Errorf("REPORT.md is %d bytes, more than %d: not an index a reader takes in at once", len(md), maxIndex)
	}
	for _, want := range []string{"## Table 2 — ARI", "## Fig. 2 — Effect of λ on ARI", "## The whole sweep, per dataset",
		"- [WebKB](sweep_webkb.md): every row at its selected grid points ([md](rows_webkb.md) · [tex](rows_webkb.tex) · [csv](rows_webkb.csv)); " +
			"figures: 4 sensitivity, 4 heatmap, 1 objective.",
		"- [polblog](sweep_polblog.md)", "[figures.md](figures.md)", "[grid.csv](grid.csv)",
		"The 46 files of the figures are linked from [figures.md](figures.md).", // 44, and the 2 critical-difference diagrams
	} {
		if !strings.Contains(md, want) {
			t.Errorf("REPORT.md lacks %q:\n%s", want, md)
		}
	}
	for _, bad := range []string{"sens_", "heat_", "objective_", "## WebKB", "| Row | Selection"} {
		if strings.Contains(md, bad) {
			t.Errorf("REPORT.md holds %q of a dataset's page", bad)
		}
	}
	for _, d := range []string{"webkb", "citeseer", "cora", "polblog"} {
		page := pages["sweep_"+d+".md"]
		title := DatasetTitle(d)
		for _, want := range []string{
			"# " + title + " — Reproduction report: NAGC (test)",
			"## Every row at its selected grid points\n\nFiles: [md](rows_" + d + ".md)",
			"| Prop. | best ari (reads the labels) |",
			fmt.Sprintf("### Prop. on %s: sensitivity to ρ", title),
			fmt.Sprintf("### Prop. (w/o PU) on %s: λ × k2\n\nARI", title),
			fmt.Sprintf("Files: [pdf](heat_%s_prop-w-o-pu_lambda_k2.pdf).", d),
			"## Objective against iteration",
			fmt.Sprintf("Shown in [REPORT.md](REPORT.md): [Effect of λ on ARI, %s](lambda_%s.pdf) · [Effect of k2 on ARI, %s](k2_%s.pdf).", title, d, title, d),
		} {
			if !strings.Contains(page, want) {
				t.Errorf("sweep_%s.md lacks %q:\n%s", d, want, page)
			}
		}
	}
	for _, want := range []string{"## Cora\n\n### Drawn with the comparison\n\nShown in [REPORT.md](REPORT.md).\n\n- Effect of λ on ARI, Cora: [pdf](lambda_cora.pdf)",
		"### Heatmaps of pairs of parameters\n\nShown in [sweep_cora.md](sweep_cora.md).",
		"## Not drawn\n\n- Fig. 1 (WebKB layout): the graph could not be loaded"} {
		if !strings.Contains(pages[FiguresFile], want) {
			t.Errorf("figures.md lacks %q:\n%s", want, pages[FiguresFile])
		}
	}
}

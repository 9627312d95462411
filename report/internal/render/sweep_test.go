package render

import (
	"bytes"
	"compress/zlib"
	"errors"
	"github.com/nagc-harness/nagc/report/internal/reporttest"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
)

// unlabeledSweep is a user's sweep: rows named freely ("NAGC", "my-sgc"), datasets given
// as paths, no labels (no ARI recorded), no compare key. NAGC sweeps λ × ρ (modularity
// peaks at λ = 1e-2, ρ = 0.95), my-sgc sweeps p.
func unlabeledSweep(t *testing.T) ([]experiments.Record, []experiments.Provenance) {
	t.Helper()
	var recs []experiments.Record
	add := func(ds, method string, params map[string]any, restart int, mod float64) {
		obj := []float64{10, 4, 9, 3, 8, 2.5, 7.5, 2.2}
		recs = append(recs, experiments.Record{
			RunID: ds + method + ParamString(params) + string(rune('0'+restart)), Dataset: ds, Methods: []string{method},
			Algorithm: "nagc", Params: params, Restart: restart, Status: experiments.StatusDone, FitSeconds: 0.1,
			Metrics:   map[string]float64{"modularity": mod, "attr_modularity": mod / 2},
			Objective: obj, Info: map[string]string{"objective": "loss"},
		})
	}
	for _, ds := range []string{"../own/x", "data/y"} {
		for _, lambda := range []float64{1e-4, 1e-2, 1} {
			for _, rho := range []float64{0.5, 0.95} {
				for r := 0; r < 2; r++ {
					mod := 0.5 + 0.1*rho
					if lambda == 1e-2 {
						mod += 0.1
					}
					add(ds, "NAGC", map[string]any{"lambda": lambda, "rho": rho, "init": "kmeans", "iterations": 40.0}, r, mod+0.01*float64(r))
				}
			}
		}
		for _, p := range []float64{0, 2, 4} {
			add(ds, "my-sgc", map[string]any{"p": p}, 0, 0.4+0.01*p)
		}
	}
	prov := []experiments.Provenance{{Sweep: "s", Config: "mine.yaml", Name: "my sweep", Started: time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC),
		Datasets: []datasets.Stats{{Name: "../own/x", N: 10, Edges: 20, M: 5, K: 2}, {Name: "data/y", N: 12, Edges: 30, M: 5, K: 3}}}}
	return recs, prov
}

// TestGenerateSweepReport renders the report of a sweep with no paper rows, rows named
// freely, datasets given as paths and no labels, and checks that it is complete and
// assumes nothing of the paper.
func TestGenerateSweepReport(t *testing.T) {
	recs, prov := unlabeledSweep(t)
	dir := reporttest.WriteResultsDir(t, recs, prov)
	out := filepath.Join(t.TempDir(), "rep")
	rep, err := Generate(Options{ResultsDir: dir, OutDir: out, Figures: []string{FormatPNG, FormatPDF}, NoPaper: true,
		LoadGraph: func(string) (*datasets.Graph, error) { return nil, errors.New("no data") }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"REPORT.md", "grid.csv", "tables.csv", "datasets.md", "rows_own-x.md", "rows_own-x.tex", "rows_data-y.csv",
		"sens_own-x_nagc_lambda.png", "sens_own-x_nagc_rho.pdf", "sens_data-y_my-sgc_p.png", "heat_own-x_nagc_lambda_rho.png",
		"objective_own-x.png", "objective_data-y.pdf"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".report-tmp") {
			t.Errorf("temporary folder %s left behind", e.Name())
		}
	}
	if len(rep.Files) != len(entries) {
		t.Errorf("%d files reported, %d in the folder", len(rep.Files), len(entries))
	}
	reporttest.CheckLinks(t, out, ReportFile, rep.Files)
	md := reporttest.ReadText(t, filepath.Join(out, ReportFile))
	for _, want := range []string{
		"# Sweep report: my sweep",
		"No run recorded ARI on ../own/x, data/y (no labels)",
		"- [../own/x](sweep_own-x.md): every row at its selected grid points ([md](rows_own-x.md) · [tex](rows_own-x.tex) · [csv](rows_own-x.csv)); figures: 3 sensitivity, 1 heatmap, 1 objective.",
		"- [data/y](sweep_data-y.md)",
		"[figures.md](figures.md)",
		"[grid.csv](grid.csv)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("REPORT.md lacks %q:\n%s", want, md)
		}
	}
	pages := map[string][]string{
		"sweep_own-x.md": {"# ../own/x — Sweep report: my sweep", "Part of [REPORT.md](REPORT.md)",
			"| NAGC | best modularity (label-free) | init=kmeans iterations=40 lambda=0.01 rho=0.95 |",
			"## Sensitivity to each parameter", "![NAGC on ../own/x: λ × ρ](heat_own-x_nagc_lambda_rho.png)"},
		"sweep_data-y.md": {"## Heatmaps of pairs of parameters", "![NAGC on data/y: λ × ρ](heat_data-y_nagc_lambda_rho.png)",
			"## Objective against iteration", "it oscillates with period 2"},
		"figures.md": {"## ../own/x", "### Sensitivity to each parameter\n\nShown in [sweep_own-x.md](sweep_own-x.md).",
			"- NAGC on data/y: λ × ρ: [png](heat_data-y_nagc_lambda_rho.png) · [pdf](heat_data-y_nagc_lambda_rho.pdf)"},
	}
	all := md
	for page, wants := range pages {
		text := reporttest.ReadText(t, filepath.Join(out, page))
		all += text
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q:\n%s", page, want, text)
			}
		}
	}
	if strings.Contains(md, "![") {
		t.Errorf("REPORT.md of a sweep alone shows a figure of a dataset's page:\n%s", md)
	}
	for _, bad := range []string{"Prop.", "paper's rule", "not in the paper", "Reproduction report", "reads the labels", "| ARI |"} {
		if strings.Contains(all, bad) {
			t.Errorf("REPORT.md or a page of an unlabeled sweep without the paper says %q", bad)
		}
	}
	rows := reporttest.ReadCSV(t, filepath.Join(out, GridFile))
	// 2 datasets × 9 grid points × 3 metrics (modularity, attr_modularity, fit_seconds:
	// no final objective is recorded) + header.
	if want := 1 + 2*9*3; len(rows) != want {
		t.Errorf("grid.csv has %d lines, want %d", len(rows), want)
	}
	if got := strings.Join(rows[0], ","); got != "dataset,method,init,iterations,lambda,p,rho,params,metric,mean,std,n,failed" {
		t.Errorf("grid.csv header %s", got)
	}
}

// TestGenerateFailsWhole checks that a report that cannot be written leaves nothing behind.
func TestGenerateFailsWhole(t *testing.T) {
	recs, prov := unlabeledSweep(t)
	dir := reporttest.WriteResultsDir(t, recs, prov)
	out := filepath.Join(t.TempDir(), "rep")
	_, err := Generate(Options{ResultsDir: dir, OutDir: out, Figures: []string{FormatPNG}, Formats: []string{"md"}, NoPaper: true,
		Compare: experiments.ComparePaper}, nil)
	if err == nil {
		t.Fatal("compare: paper without the paper's numbers: no error")
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("a failed report left %d files", len(entries))
	}
}

// TestSlug checks file-name slugs of dataset and row names.
func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"../own/x": "own-x", "JWNMF*": "jwnmf-star", "Prop. + filter": "prop-plus-filter",
		"Prop. (w/o PU)": "prop-w-o-pu", "webkb": "webkb", "": "x", "Ωμέγα": "x"} {
		if got := slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	used := map[string]bool{}
	if a, b := uniqueSlug("a/b", used), uniqueSlug("a-b", used); a != "a-b" || b != "a-b-2" {
		t.Errorf("unique slugs %q, %q", a, b)
	}
}

// TestPDFGreek renders a figure whose title and legend have λ and ρ to PDF and checks
// that the text layer carries them: the font is embedded as Identity-H with the identity
// ToUnicode map, and the page's text shows the code points U+03BB and U+03C1. Where
// poppler's pdftotext is installed, its extraction is checked too.
func TestPDFGreek(t *testing.T) {
	recs, prov := unlabeledSweep(t)
	r, err := NewResults(recs, prov, nil, experiments.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fig, err := sensitivityFigure(r, "../own/x", "NAGC", "lambda", FigureOptions{Dir: dir, Formats: []string{FormatPDF}}, &figureSettings{})
	if err != nil || fig == nil {
		t.Fatalf("%v, %v", fig, err)
	}
	path := filepath.Join(dir, fig.Files[0])
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("/Encoding /Identity-H")) || !bytes.Contains(raw, []byte("/ToUnicode")) {
		t.Fatal("no Unicode (Identity-H, ToUnicode) font in the PDF")
	}
	var text bytes.Buffer
	text.Write(raw)
	for _, m := range regexp.MustCompile(`(?s)stream\r?\n(.*?)endstream`).FindAllSubmatch(raw, -1) {
		zr, err := zlib.NewReader(bytes.NewReader(m[1]))
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(zr)
		text.Write(b)
	}
	if !bytes.Contains(text.Bytes(), []byte("<0000> <FFFF> <0000>")) {
		t.Error("the ToUnicode map is not the identity")
	}
	for _, c := range []string{"\x03\xbb", "\x03\xc1"} { // λ, ρ as UTF-16BE code units
		if !bytes.Contains(text.Bytes(), []byte(c)) {
			t.Errorf("the page's text lacks U+%02X%02X", c[0], c[1])
		}
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Log("pdftotext not installed: the text layer is checked from the PDF's bytes only")
		return
	}
	got, err := exec.Command("pdftotext", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nλ\n", "ρ = 0.95"} { // the axis label, a legend entry
		if !strings.Contains(string(got), want) {
			t.Errorf("pdftotext: %q lacks %q", got, want)
		}
	}
}

// TestRowsTables checks the rows tables and the datasets table of a report of the sweep
// alone against golden Markdown and LaTeX: the fixture's WebKB (labels: both rules, every
// parameter of the chosen point) and the unlabeled sweep's "../own/x" (the label-free rule
// alone, no paper column).
func TestRowsTables(t *testing.T) {
	labeled := fixtureResults(t, fixtureRuns())
	labeled.Paper = nil
	recs, prov := unlabeledSweep(t)
	unlabeled, err := NewResults(recs, prov, nil, experiments.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		golden string
		table  *Table
		lines  []string
	}{
		{"rows_webkb", RowsTable(labeled, "webkb"), []string{
			"| Prop. | best ari (reads the labels) | init=kmeans k2=4 lambda=1e-4 rho=0.5 | 0.950 ± 0.050 | 0.710 ± 0.010 † | 0.150 ± 0.000 | 2.00 | 2 |",
			"| Prop. | best modularity (label-free) | init=kmeans k2=4 lambda=0.01 rho=0.5 | 0.800 ± 0.000 † | 0.740 ± 0.000 | 0.160 ± 0.000 † | 1.00 | 2 |",
			"| JWNMF | best ari (reads the labels) | — [1] | — | — | — | — | 0 |",
		}},
		{"rows_own-x", RowsTable(unlabeled, "../own/x"), []string{
			"| NAGC | best modularity (label-free) | init=kmeans iterations=40 lambda=0.01 rho=0.95 | 0.700 ± 0.005 | 0.350 ± 0.003 | 0.10 | 2 |",
		}},
		{"datasets_sweep", datasetsTable(unlabeled), []string{
			"| ../own/x | 10 | 20 | 5 | 2 | 0.00 |",
		}},
		{"methods_unlabeled", methodsTable(unlabeled), nil},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) { checkTable(t, tc.golden, tc.table, tc.lines) })
	}
}

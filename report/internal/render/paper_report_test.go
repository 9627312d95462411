package render

import (
	"bytes"
	"errors"
	"github.com/nagc-harness/nagc/report/internal/reporttest"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/configs"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/testenv"
	"github.com/nagc-harness/nagc/report/paper"
)

// TestGenerate writes a whole report from the fixture (a failed method, methods not
// run, a graph that cannot be loaded) and checks its files and REPORT.md.
func TestGenerate(t *testing.T) {
	dir := writeFixtureDir(t, fixtureRuns())
	out := filepath.Join(t.TempDir(), "rep")
	rep, err := Generate(Options{ResultsDir: dir, OutDir: out, Figures: []string{FormatPNG}, Compare: experiments.ComparePaper,
		LoadGraph: func(string) (*datasets.Graph, error) { return nil, errors.New("no data here") },
	}, Paper{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"REPORT.md", "ari.md", "ari.tex", "ari.csv", "datasets.tex", "rho.csv", "runtime.md",
		"modularity.tex", "tables.csv", "lambda_webkb.png", "k2_webkb.png", "objective_webkb.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	reporttest.CheckLinks(t, out, ReportFile, rep.Files)
	md := reporttest.ReadText(t, filepath.Join(out, ReportFile))
	for _, want := range []string{
		"Prop. on WebKB: 0.950 ± 0.050 vs the paper's 0.995 (−0.045)",
		"Under the paper's rule 2 of 2 cells that have a paper value are within 0.05 of it",
		"all 2 runs failed: boom: diverged",
		"not run",
		"the graph could not be loaded (no data here)",
		"git commit: `abc123`",
		"config: `cfg.yaml` (sha256 `deadbeef`)",
		"machine: testhost, TestCPU, 4 cores, 4 workers",
		"nagc run cfg.yaml --results " + dir,
		"nagc report " + dir,
		"lambda peak: 1e-4 on WebKB, 1e-2 on Cora",
		"Paper's peak: λ = 1e-4: the overall peak here is at the same λ. Here at λ = 1e-4: ARI 0.950 ± 0.050 (ρ = 0.5).",
		"![Effect of λ on ARI, WebKB](lambda_webkb.png)",
		"runs: 11 recorded, 9 done, 2 failed",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	// The paper's order: Fig. 1, datasets, ARI, modularity, λ, k2, ρ, runtime.
	last := -1
	for _, h := range []string{"## Fig. 1", "## Table 1", "## Table 2", "## Table 3", "## Fig. 2", "## Fig. 3", "## Table 4", "## Table 5"} {
		i := strings.Index(md, h)
		if i <= last {
			t.Errorf("%q out of order", h)
		}
		last = i
	}
	if len(rep.Skipped) == 0 || !strings.HasPrefix(rep.Skipped[0], "Fig. 1") {
		t.Errorf("skipped %v, want the layout figure first", rep.Skipped)
	}
}

// TestAllFailed renders every table from results where a method's runs all failed and a
// dataset of the provenance has no run at all.
func TestAllFailed(t *testing.T) {
	runs := []run{
		{"webkb", "Prop.", map[string]any{"lambda": 1e-4, "rho": 0.5}, 0, 0, 0, 0, 0, "out of memory"},
		{"webkb", "Prop.", map[string]any{"lambda": 1e-4, "rho": 0.5}, 1, 0, 0, 0, 0, "out of memory"},
		{"webkb", "METIS", map[string]any{}, 0, 0.8, 0.7, 0.1, 0.1, ""},
	}
	recs := fixtureRecords(t, runs)
	prov := fixtureProvenance()
	prov[0].Datasets = append(prov[0].Datasets, datasets.Stats{Name: "cora", N: 2708, Edges: 5278, M: 1433, K: 7, Density: 5278.0 / 2708 / 2708})
	paper, _ := paper.DefaultPublished()
	r, err := NewResults(recs, prov, paper, experiments.SelectObjective)
	if err != nil {
		t.Fatal(err)
	}
	r.Compare, r.Comparison = true, Paper{}
	if got := r.Missing("webkb", "Prop."); got != "all 2 runs failed: out of memory" {
		t.Errorf("Missing = %q", got)
	}
	if got := r.Missing("cora", "METIS"); got != "not run" {
		t.Errorf("Missing = %q", got)
	}
	for _, tb := range buildTables(r) {
		md := tb.Markdown()
		if tb.Name != "datasets" && !strings.Contains(md, "— [") {
			t.Errorf("%s: no dash with a note:\n%s", tb.Name, md)
		}
		if tb.Name == "ari" || tb.Name == "runtime" {
			for _, want := range []string{"all 2 runs failed: out of memory", "not run"} {
				if !strings.Contains(md, want) {
					t.Errorf("%s lacks %q:\n%s", tb.Name, want, md)
				}
			}
		}
		_ = tb.LaTeX()
	}
	if s := (Paper{}.of(r)).propSweep("webkb", "lambda"); len(s) != 0 {
		t.Errorf("sweep of failed runs: %+v", s)
	}
}

// TestNewResultsRejectsARIAsFreeRule checks that the label-free rule cannot be the ARI.
func TestNewResultsRejectsARIAsFreeRule(t *testing.T) {
	if _, err := NewResults(nil, nil, nil, experiments.SelectARI); err == nil {
		t.Error("no error")
	}
	if _, err := Generate(Options{ResultsDir: t.TempDir()}, Paper{}); err == nil {
		t.Error("no error for a folder without runs")
	}
	if _, err := Generate(Options{ResultsDir: writeFixtureDir(t, fixtureRuns()), Formats: []string{"docx"}}, Paper{}); err == nil {
		t.Error("no error for an unknown format")
	}
}

// TestFormat checks the number formats of the tables.
func TestFormat(t *testing.T) {
	tests := []struct{ got, want string }{
		{fmtMeanStd(0.3226, 0.0251), "0.323 ± 0.025"},
		{fmtMeanStd(-0.01, 0.002), "−0.010 ± 0.002"},
		{fmtMeanStd(math.NaN(), 0), "—"},
		{fmtDiff(-0.025), "−0.025"},
		{fmtDiff(0.0123), "+0.012"},
		{fmtDiff(-0.0001), "0.000"},
		{fmtDiff(math.NaN()), ""},
		{fmtParam(1e-4), "1e-4"},
		{fmtParam(0.01), "0.01"},
		{fmtParam(1e-10), "1e-10"},
		{fmtParam(100), "100"},
		{fmtParam(0.995), "0.995"},
		{FmtSeconds(2.615), "2.62"},
		{FmtSeconds(0.0012), "0.0012"},
		{ParamString(map[string]any{"lambda": 1e-4, "k2": 20.0, "init": "kmeans", "iterations": 100.0}), "init=kmeans iterations=100 k2=20 lambda=1e-4"},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("case %d: %q, want %q", i, tc.got, tc.want)
		}
	}
}

// TestPublishedCopyCurrent checks that configs/published-results.yaml equals the shared
// original.
func TestPublishedCopyCurrent(t *testing.T) {
	shared, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "shared", "paper", "published-results.yaml"))
	if err != nil {
		testenv.Missing(t, "the project's shared folder (../shared/paper/published-results.yaml)",
			"this check compares the embedded copy of the paper's numbers with the shared original, which the project's CI has beside the checkout")
	}
	if !bytes.Equal(shared, configs.PublishedResults) {
		t.Error("configs/published-results.yaml differs from shared/paper/published-results.yaml: copy it again")
	}
}

// TestHeldOutRuleWithoutHeldOutFits checks that under the heldout rule a method whose
// runs have no held-out fit renders a dash saying so (and nothing panics), while a
// method whose runs have it is selected by it.
func TestHeldOutRuleWithoutHeldOutFits(t *testing.T) {
	runs := []run{
		{"webkb", "METIS", map[string]any{}, 0, 0.8, 0.7, 0.1, 0.1, ""},
		{"webkb", "Prop. + filter", map[string]any{"p": 2}, 0, 0.9, 0.7, 0.1, 0.1, ""},
		{"webkb", "Prop. + filter", map[string]any{"p": 8}, 0, 0.5, 0.7, 0.1, 0.1, ""},
	}
	recs := fixtureRecords(t, runs)
	recs[1].Metrics[experiments.MetricHeldOut] = 0.4
	recs[2].Metrics[experiments.MetricHeldOut] = 0.6
	paper, _ := paper.DefaultPublished()
	r, err := NewResults(recs, fixtureProvenance(), paper, experiments.SelectHeldOut)
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Selected(experiments.SelectHeldOut, "webkb", "Prop. + filter"); p == nil || p.Params["p"] != float64(8) {
		t.Errorf("heldout rule chose %+v, want the point with the larger held-out modularity (p = 8)", p)
	}
	want := "no held-out fit recorded"
	if got := r.Unselected(experiments.SelectHeldOut, "webkb", "METIS"); !strings.Contains(got, want) {
		t.Errorf("Unselected = %q, want %q", got, want)
	}
	if got := r.Unselected(PaperRule, "webkb", "METIS"); got != "" {
		t.Errorf("Unselected under the paper's rule = %q", got)
	}
	for _, tb := range buildTables(r) {
		if tb.Name == "ari" || tb.Name == "runtime" {
			if md := tb.Markdown(); !strings.Contains(md, want) {
				t.Errorf("%s lacks %q:\n%s", tb.Name, want, md)
			}
		}
	}
	var b bytes.Buffer
	writeSelected(&b, Paper{}.of(r))
	if !strings.Contains(b.String(), want) {
		t.Errorf("selected points lack %q:\n%s", want, b.String())
	}
}

// TestGenerateOtherSpec checks that the comparison follows its spec, not Go: a spec
// whose rows put METIS first, with its own name, headings, stated text and claims, gives
// a report titled and headed by it, with METIS's row first and no NAGC statement.
func TestGenerateOtherSpec(t *testing.T) {
	spec, err := paper.ParseSpec("other.yaml", []byte(`
name: OTHER
title: "Another paper"
datasets: [webkb]
rows: ["METIS", "Prop."]
proposed: "Prop."
headings: {ari: "Table 9 — ARI of the other paper", layout: "Fig. 7 — layout"}
layout: {figure: "Fig. 7 (layout)", dataset: webkb, rows: ["METIS"], stated: "The other paper draws a layout."}
modularity: {dataset: webkb, metrics: [modularity]}
stated:
  - text: "the other paper's setting: lambda=1e-4"
    setting: {lambda: "1e-4"}
`))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rep")
	if _, err := Generate(Options{ResultsDir: writeFixtureDir(t, fixtureRuns()), OutDir: out, NoFigures: true, Compare: experiments.ComparePaper,
		Spec: spec,
	}, Paper{}); err != nil {
		t.Fatal(err)
	}
	md := reporttest.ReadText(t, filepath.Join(out, ReportFile))
	for _, want := range []string{"# Reproduction report: OTHER", `Reproduction of "Another paper" (OTHER)`,
		"## Table 9 — ARI of the other paper", "## Fig. 7 — layout", "The other paper draws a layout.",
		`- Paper: "the other paper's setting: lambda=1e-4". Here (best over the parameters it leaves free): WebKB (`} {
		if !strings.Contains(md, want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	for _, bad := range []string{"Non-linear Attributed", "Gephi", "lambda peak", "more efficient than JWNMF"} {
		if strings.Contains(md, bad) {
			t.Errorf("REPORT.md has the NAGC paper's %q", bad)
		}
	}
	ari := reporttest.ReadText(t, filepath.Join(out, "ari.md"))
	if i, j := strings.Index(ari, "| METIS"), strings.Index(ari, "| Prop. |"); i < 0 || j < 0 || i > j {
		t.Errorf("METIS is not the first row of the ARI table:\n%s", ari)
	}
}

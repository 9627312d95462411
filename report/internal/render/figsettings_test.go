package render

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/report/internal/reporttest"
	recorded "github.com/nagc-harness/nagc/results"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/pdftext"
)

// TestStyledFigures renders a sweep's figures with a recorded figures section (8 cm
// wide, attribute modularity, one row, PDF only) and a flag laid over it (titles on),
// and reads the PDFs back: their size, their fonts, and their text (the Greek axis
// symbols, the metric's axis label, exponents of the log axis, the title).
func TestStyledFigures(t *testing.T) {
	recs, prov := unlabeledSweep(t)
	prov[0].Figures = &recorded.Figures{Width: "8cm", Metric: "attr_modularity", Rows: []string{"NAGC"}, Formats: []string{"pdf"}}
	dir := reporttest.WriteResultsDir(t, recs, prov)
	out := filepath.Join(t.TempDir(), "rep")
	yes := true
	_, err := Generate(Options{ResultsDir: dir, OutDir: out, NoPaper: true, Formats: []string{FormatMarkdown},
		FigureSettings: &recorded.Figures{Title: &yes},
		LoadGraph:      func(string) (*datasets.Graph, error) { return nil, errors.New("no data") }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := 8 / 2.54 * 72
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"sens_own-x_nagc_lambda.pdf", []string{"NAGC on ../own/x: attribute modularity against λ", "λ", "attribute modularity", "ρ = 0.5", "ρ = 0.95", "10\n−4", "10\n−2"}},
		{"sens_own-x_nagc_rho.pdf", []string{"ρ", "attribute modularity", "λ = 10\n−4"}},
		{"heat_own-x_nagc_lambda_rho.pdf", []string{"λ", "ρ", "attribute modularity", "10\n−4"}},
		{"objective_own-x_nagc.pdf", []string{"iteration", "objective", "odd iterations", "even iterations"}},
	} {
		page, err := pdftext.Read(filepath.Join(out, tc.file))
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if math.Abs(page.Width-w) > 0.01 || math.Abs(page.Height-w/1.6) > 0.01 {
			t.Errorf("%s: %.2f × %.2f pt, want %.2f × %.2f", tc.file, page.Width, page.Height, w, w/1.6)
		}
		for f, emb := range page.Fonts {
			if !emb {
				t.Errorf("%s: font %s not embedded", tc.file, f)
			}
		}
		text := strings.Join(page.Lines(), "\n")
		for _, s := range tc.want {
			if !strings.Contains(text, s) {
				t.Errorf("%s: no %q in its text:\n%s", tc.file, s, text)
			}
		}
	}
	for _, absent := range []string{"sens_own-x_nagc_lambda.png", "sens_own-x_my-sgc_p.pdf", "objective_own-x.pdf"} {
		if _, err := os.Stat(filepath.Join(out, absent)); err == nil {
			t.Errorf("%s written: the settings ask for PDF figures of NAGC only", absent)
		}
	}
}

package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/report/internal/reporttest"
	"github.com/nagc-harness/nagc/results"
)

// TestGenerateWiresTheComparison checks that Generate sets the rows beside the paper
// when the records ask for it (a config with compare: paper) and leaves every paper
// table out under Compare "none", that it refuses an unknown comparison, and that
// Report lists what was written.
func TestGenerateWiresTheComparison(t *testing.T) {
	var recs []results.Record
	for i, ari := range []float64{0.9, 1.0} {
		recs = append(recs, reporttest.Record(t, "webkb", "Prop.", map[string]any{"lambda": 1e-4, "rho": 0.5, "k2": 4.0}, i, ari, 0.7, 0.15, 1, ""))
	}
	prov := reporttest.Provenance()
	prov[0].Compare = results.ComparePaper
	dir := reporttest.WriteResultsDir(t, recs, prov)
	for _, tc := range []struct {
		compare string
		paper   bool
	}{{"", true}, {"paper", true}, {"none", false}} {
		out := t.TempDir()
		rep, err := Generate(Options{ResultsDir: dir, OutDir: out, NoFigures: true, Formats: []string{"md"}, Compare: tc.compare})
		if err != nil {
			t.Fatalf("compare %q: %v", tc.compare, err)
		}
		if rep.Dir != out || !slices.Contains(rep.Files, ReportFile) || !slices.Contains(rep.Files, "rows_webkb.md") {
			t.Errorf("compare %q: report in %s with files %v", tc.compare, rep.Dir, rep.Files)
		}
		for _, f := range rep.Files {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("compare %q: listed file %s: %v", tc.compare, f, err)
			}
		}
		for _, f := range []string{"ari.md", "rho.md", "runtime.md"} {
			if got := slices.Contains(rep.Files, f); got != tc.paper {
				t.Errorf("compare %q: %s written %v, want %v", tc.compare, f, got, tc.paper)
			}
		}
		md, err := os.ReadFile(filepath.Join(out, ReportFile))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(md), "Reproduction report"); got != tc.paper {
			t.Errorf("compare %q: REPORT.md titled as a reproduction %v, want %v:\n%.300s", tc.compare, got, tc.paper, md)
		}
	}
	if _, err := Generate(Options{ResultsDir: dir, OutDir: t.TempDir(), NoFigures: true, Compare: "other"}); err == nil {
		t.Error("unknown comparison: no error")
	}
}

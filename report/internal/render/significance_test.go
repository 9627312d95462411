package render

import (
	"math"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/texttable"
	"github.com/nagc-harness/nagc/report/internal/reporttest"
	recorded "github.com/nagc-harness/nagc/results"
)

// TestBestVersus checks the per-dataset tests against the best row: B is worse than A
// on every one of 8 paired restarts (exact one-sided Wilcoxon p = 1/2⁸), C crosses A
// (W+ = W− = 18: p = P(W+ ≥ 18) = 135/256, scipy.stats.wilcoxon(a, c,
// alternative="greater")), D's restarts have other seeds (bootstrap), E is far below
// with unpaired restarts.
func TestBestVersus(t *testing.T) {
	a := []float64{0.80, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.87}
	rows := map[string]struct {
		ari  []float64
		seed uint64
	}{
		"A": {a, 0},
		"B": {[]float64{0.70, 0.70, 0.70, 0.70, 0.70, 0.70, 0.70, 0.70}, 0},
		// Differences from A: +0.01, −0.02, −0.03, +0.04, +0.05, −0.06, −0.07, +0.09
		// (ranks 1 … 8): W+ = 1+4+5+8 = 18 = W−.
		"C": {[]float64{0.79, 0.83, 0.85, 0.79, 0.79, 0.91, 0.93, 0.78}, 0},
		"D": {[]float64{0.80, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.86}, 100},
		"E": {[]float64{0.30, 0.31, 0.32, 0.33, 0.34, 0.35, 0.36, 0.37}, 100},
	}
	var recs []recorded.Record
	for _, m := range []string{"A", "B", "C", "D", "E"} {
		for i, v := range rows[m].ari {
			rec := reporttest.Record(t, "d", m, map[string]any{"x": 1.0}, i, v, 0.5, 1, 1, "")
			rec.Seed = rows[m].seed + uint64(i)
			recs = append(recs, rec)
		}
	}
	r, err := NewResults(recs, reporttest.Provenance(), nil, recorded.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	best, mean, vs := r.Best(PaperRule, "d", "ari", []string{"A", "B", "C", "D", "E"})
	if best != "A" || math.Abs(mean-0.835) > 1e-12 {
		t.Fatalf("best %s %v, want A 0.835", best, mean)
	}
	for _, c := range []struct {
		m     string
		test  string
		p     float64
		worse bool
	}{{"B", "wilcoxon", 1.0 / 256, true}, {"C", "wilcoxon", 135.0 / 256, false}, {"D", "bootstrap", math.NaN(), false}, {"E", "bootstrap", math.NaN(), true}} {
		v := vs[c.m]
		if v.Test != c.test || v.Worse != c.worse || v.N != 8 || !(math.IsNaN(c.p) && math.IsNaN(v.P) || math.Abs(v.P-c.p) < 1e-12) {
			t.Errorf("%s: %+v, want test %s p %v worse %v over 8", c.m, v, c.test, c.p, c.worse)
		}
	}
	if e := vs["E"]; math.Abs(e.CI.Estimate-0.5) > 1e-12 || !(e.CI.Lo > 0.45 && e.CI.Hi < 0.55) {
		t.Errorf("E: interval %+v of a difference of means 0.5", e.CI)
	}
	marks := r.MarkNotWorse("ari", []string{"A", "B", "C", "D", "E"})
	var marked []string
	for _, m := range []string{"A", "B", "C", "D", "E"} {
		c, _, _ := r.MetricCell("x", PaperRule, "d", m, "ari")
		marks.Mark(&c, PaperRule, "d", m)
		if strings.HasSuffix(c.Text, SignificanceMark) {
			marked = append(marked, m)
		}
	}
	if strings.Join(marked, ",") != "C,D" {
		t.Errorf("marked %v, want C and D", marked)
	}
	var tb texttable.Table
	marks.AddNote(&tb)
	if len(tb.Notes) != 1 || !strings.Contains(tb.Notes[0], "8 restarts; one-sided Wilcoxon") || !strings.Contains(tb.Notes[0], "bootstrap") {
		t.Errorf("note %q", tb.Notes)
	}
}

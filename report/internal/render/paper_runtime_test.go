package render

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/report/paper"
)

// timingRuns are runs of the rows of the paper's speed claims on WebKB and Citeseer, at
// k2 = k1 (the fixture's k1 is 4) but for one Prop. point at k2 = 20, with known times.
func timingRuns() []run {
	at := func(k2 float64, rho float64) map[string]any {
		return map[string]any{"lambda": 1e-4, "rho": rho, "k2": k2, "init": "kmeans"}
	}
	var out []run
	for _, d := range []string{"webkb", "citeseer"} {
		out = append(out,
			run{d, "Prop.", at(4, 0.95), 0, 0.9, 0.7, 0.1, 1.0, ""},
			run{d, "Prop.", at(20, 0.95), 0, 0.9, 0.7, 0.1, 3.0, ""}, // not at k2 = k1
			run{d, "Prop. (w/o PU)", at(4, 0.5), 0, 0.9, 0.7, 0.1, 0.8, ""},
			run{d, "JWNMF", map[string]any{"lambda": 1e-4}, 0, 0.8, 0.7, 0.1, 0.5, ""})
	}
	return out
}

// TestRuntimeClaims checks that, without fits timed alone, the runtime paragraph puts each
// of the paper's speed claims beside our times at k2 = k1 from the sweep, says they were
// timed concurrently, and gives the ratio and the reason.
func TestRuntimeClaims(t *testing.T) {
	r := fixturePaperResults(t, timingRuns())
	tb := runtimeTableOf(r)
	if tr := lookupSel(tb.Tidy, "webkb", "Prop.", SelTimingSet); tr == nil || tr.Mean != 1.0 || tr.Runs != 1 {
		t.Fatalf("Prop. at k2 = k1 on WebKB = %+v, want 1 s over 1 run", tr)
	}
	if tr := lookupSel(tb.Tidy, "webkb", "Prop.", SelAll); tr == nil || tr.Mean != 2.0 {
		t.Fatalf("Prop. over all runs on WebKB = %+v, want 2 s", tr)
	}
	p := runtimeParagraph(tb, r)
	for _, want := range []string{
		"the means over the sweep's runs at k2 = k1 (column \"k2 = k1\"), timed 4 at a time",
		"Here, Prop. (w/o PU) then JWNMF: WebKB 0.800 vs 0.500 s, 0.62× (paper 0.81 vs 8.80 s, 10.86×); " +
			"Citeseer 0.800 vs 0.500 s, 0.62× (paper 10.15 vs 60.71 s, 5.98×) — the claim holds on 0 of 2 " +
			"(JWNMF takes 0.62× the time of Prop. (w/o PU); in the paper 5.98–10.86×). At ρ = 0.5",
		"Here, Prop. (w/o PU) then Prop.: WebKB 0.800 vs 1.00 s, 1.25× (paper 0.81 vs 2.62 s, 3.23×)",
		"the claim holds on 2 of 2 (Prop. takes 1.25× the time of Prop. (w/o PU); in the paper 3.23–5.35×). " +
			"The paper's gap comes from the authors' dense code",
		"Here, Prop. then JWNMF: WebKB 1.00 vs 0.500 s, 0.50× (paper 2.62 vs 8.80 s, 3.36×); Citeseer",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("runtime paragraph lacks\n%s\ngot:\n%s", want, p)
		}
	}
	if strings.Count(p, "*Paper: ") != 3 || strings.Contains(p, "alone\"") {
		t.Errorf("want the paper's three claims, against the sweep's times:\n%s", p)
	}
}

// timedRecord is the record of a fit timed alone: restart, fit and initialisation times.
func timedRecord(t *testing.T, d, method string, params map[string]any, restart int, ari, fit, init float64) experiments.Record {
	t.Helper()
	rec := fixtureRecords(t, []run{{d, method, params, restart, ari, 0.5, 0.1, fit, ""}})[0]
	rec.RunID += "|timed"
	rec.TimedAlone, rec.InitSeconds, rec.Iterations = true, init, 100
	rec.Algorithm = map[string]string{"Prop.": "nagc", "Prop. (w/o PU)": "nagc", "JWNMF": "jwnmf", "BAGC": "bagc"}[method]
	return rec
}

// aloneFits are the fit times of five restarts timed alone: median 0.012, mean 0.0296 (the
// last one slowed down), so that a mean instead of the median shows.
var aloneFits = []float64{0.013, 0.010, 0.100, 0.012, 0.011}

// timedRecords are fits timed alone on WebKB and Citeseer, at the paper's timing setting
// (the fixture's k1 is 4): Prop. ×1, Prop. (w/o PU) ×0.5 (on Citeseer ×1.5), JWNMF ×4
// with its k-means start computed apart, BAGC ×2 with no initialisation timed apart.
// Cora has none: its claims fall back to the sweep.
func timedRecords(t *testing.T) []experiments.Record {
	prop := map[string]any{"init": "kmeans", "iterations": 100, "k2": 4.0, "lambda": 0.01, "rho": 0.95}
	wo := map[string]any{"init": "kmeans", "iterations": 100, "k2": 4.0, "lambda": 0.01, "rho": 0.5}
	jw := map[string]any{"init": "kmeans", "iterations": 100, "lambda": 0.01}
	var out []experiments.Record
	for _, d := range []string{"webkb", "citeseer"} {
		woFactor := 0.5
		if d == "citeseer" {
			woFactor = 1.5
		}
		for i, f := range aloneFits {
			out = append(out,
				timedRecord(t, d, "Prop.", prop, i, 0.0, f, 0.2+float64(i)/100),
				timedRecord(t, d, "Prop. (w/o PU)", wo, i, 0.0, woFactor*f, 0.2),
				timedRecord(t, d, "JWNMF", jw, i, 0.0, 4*f, 0.3),
				timedRecord(t, d, "BAGC", map[string]any{}, i, 0.0, 2*f, 0))
		}
	}
	return out
}

// TestRuntimeTimedAlone checks the runtime table of results with fits timed alone: their
// median fit and initialisation times in the "alone" and "init" columns beside the sweep's
// concurrent means, a caption saying how they were timed and at which settings (λ and ρ
// the timing config's choice), and the speed claims read from them, falling back to the
// sweep where a dataset has none.
func TestRuntimeTimedAlone(t *testing.T) {
	paper, err := paper.DefaultPublished()
	if err != nil {
		t.Fatal(err)
	}
	runs := append(timingRuns(),
		run{"cora", "Prop.", map[string]any{"k2": 4.0, "rho": 0.95}, 0, 0.3, 0.6, 0.1, 2.0, ""},
		run{"cora", "Prop. (w/o PU)", map[string]any{"k2": 4.0, "rho": 0.5}, 0, 0.3, 0.6, 0.1, 1.0, ""})
	recs := append(fixtureRecords(t, runs), timedRecords(t)...)
	prov := fixtureProvenance()
	timing := prov[0]
	timing.Name, timing.Timing, timing.Workers = "timing", true, 1
	prov = append(prov, timing)
	r, err := NewResults(recs, prov, paper, experiments.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	tb := runtimeTableOf(Paper{}.of(r))
	for _, tc := range []struct {
		dataset, method, metric, sel string
		want                         float64
		runs                         int
	}{
		{"webkb", "Prop.", MetricFitTime, SelAlone, 0.012, 5},
		{"webkb", "Prop.", MetricInit, SelAlone, 0.22, 5},
		{"webkb", "Prop. (w/o PU)", MetricFitTime, SelAlone, 0.006, 5},
		{"citeseer", "Prop. (w/o PU)", MetricFitTime, SelAlone, 0.018, 5},
		{"webkb", "JWNMF", MetricFitTime, SelAlone, 0.048, 5},
		{"webkb", "JWNMF", MetricInit, SelAlone, 0.3, 5},
		{"webkb", "BAGC", MetricFitTime, SelAlone, 0.024, 5},
		{"webkb", "Prop.", MetricFitTime, SelTimingSet, 1.0, 1}, // the sweep's, as before
		{"cora", "Prop.", MetricFitTime, SelTimingSet, 2.0, 1},
	} {
		var got *TidyRow
		for i, tr := range tb.Tidy {
			if tr.Dataset == tc.dataset && tr.Method == tc.method && tr.Metric == tc.metric && tr.Selection == tc.sel {
				got = &tb.Tidy[i]
			}
		}
		if got == nil || math.Abs(got.Mean-tc.want) > 1e-12 || got.Runs != tc.runs {
			t.Errorf("%s %s %s %s = %+v, want %v over %d", tc.dataset, tc.method, tc.metric, tc.sel, got, tc.want, tc.runs)
		}
	}
	md := tb.Markdown()
	for _, want := range []string{
		"| Method | WebKB alone | WebKB init | WebKB sweep k2 = k1 | WebKB paper |",
		"| Prop. | 0.0120 | 0.220 | 1.00 | 2.62 |",
		"| BAGC | 0.0240 | — [3] | — [2] | 4.20 | 0.0240 | — [3] | — [2] | 9.38 | — [1] | — | — [2] | 4.84 |",
		"[1] not timed alone (no fit of a config with timing: true)  ",
		"[3] no initialisation timed apart: the fit time includes it  ",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	for _, want := range []string{
		"median over the restarts of the fits timed alone (config timing, with timing: true): one fit at a time",
		"For Prop., Prop. (w/o PU) and JWNMF that time is the iterations alone, and \"init\" the median time of the " +
			"initialisation, timed apart (init_seconds; JWNMF times none itself, so the runner computes its k-means start",
		"For BAGC it is the whole fit",
		"Prop.: init=kmeans iterations=100 k2=k1 lambda=0.01 rho=0.95;",
		"BAGC: defaults.",
		"neither λ nor ρ: those above are the timing config's choice, not the paper's",
		"\"sweep k2 = k1\": mean fit time over the sweep's finished runs at k2 = k1 (every run for methods without k2), timed 4 at a time",
	} {
		if !strings.Contains(tb.Caption, want) {
			t.Errorf("caption lacks %q:\n%s", want, tb.Caption)
		}
	}
	p := runtimeParagraph(tb, Paper{}.of(r))
	for _, want := range []string{
		"the medians of the fits timed alone (column \"alone\"",
		"marked (sweep) where a pair has no fits timed alone",
		"Here, Prop. (w/o PU) then JWNMF: WebKB 0.00600 vs 0.0480 s, 8.00× (paper 0.81 vs 8.80 s, 10.86×); " +
			"Citeseer 0.0180 vs 0.0480 s, 2.67× (paper 10.15 vs 60.71 s, 5.98×) — the claim holds on 2 of 2 " +
			"(JWNMF takes 2.67–8.00× the time of Prop. (w/o PU)",
		"Here, Prop. (w/o PU) then Prop.: WebKB 0.00600 vs 0.0120 s, 2.00× (paper 0.81 vs 2.62 s, 3.23×); " +
			"Citeseer 0.0180 vs 0.0120 s, 0.67× (paper 10.15 vs 54.32 s, 5.35×); " +
			"Cora 1.00 vs 2.00 s, 2.00× (paper 4.82 vs 29.13 s, 6.04×) (sweep) — the claim holds on 2 of 3 " +
			"(Prop. takes 0.67–2.00× the time of Prop. (w/o PU); in the paper 3.23–6.04×).",
		"Here, Prop. then JWNMF: WebKB 0.0120 vs 0.0480 s, 4.00× (paper 2.62 vs 8.80 s, 3.36×); " +
			"Citeseer 0.0120 vs 0.0480 s, 4.00× (paper 54.32 vs 60.71 s, 1.12×) — the claim holds on 2 of 2",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("runtime paragraph lacks\n%s\ngot:\n%s", want, p)
		}
	}
	checkTable(t, "runtime_alone", tb, nil)
}

// TestTimedRecordsLeaveTablesUnchanged checks that records timed alone, at grid points of
// the sweep (the ARI-best point of Prop. among them) and with other scores, change no
// table but the runtime table, and neither the counts nor the grid points.
func TestTimedRecordsLeaveTablesUnchanged(t *testing.T) {
	paper, err := paper.DefaultPublished()
	if err != nil {
		t.Fatal(err)
	}
	best := map[string]any{"lambda": 1e-4, "rho": 0.5, "k2": 4.0, "init": "kmeans"} // fixtureRuns' best-ARI point
	timed := timedRecords(t)
	for i := range 5 {
		timed = append(timed, timedRecord(t, "webkb", "Prop.", best, i, 0.0, 0.01, 0.2),
			timedRecord(t, "webkb", "METIS", map[string]any{}, i, 1.0, 0.01, 0))
	}
	sweep := fixtureRecords(t, fixtureRuns())
	before, err := NewResults(sweep, fixtureProvenance(), paper, experiments.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	after, err := NewResults(append(append([]experiments.Record{}, sweep...), timed...), fixtureProvenance(), paper, experiments.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Timed) != len(timed) || len(after.Records) != len(sweep) {
		t.Errorf("%d records timed alone and %d of the sweep, want %d and %d", len(after.Timed), len(after.Records), len(timed), len(sweep))
	}
	if b, a := pointsText(before.Points), pointsText(after.Points); b != a {
		t.Errorf("grid points changed by records timed alone:\nbefore:\n%s\nafter:\n%s", b, a)
	}
	for _, tc := range []struct {
		name  string
		build func(results) *Table
	}{
		{"ari", ariTable}, {"ari_connected", ariConnectedTable}, {"modularity", modularityTable}, {"rho", rhoTable},
		{"datasets", func(r results) *Table { return datasetsTable(r.Results) }},
		{"rows", func(r results) *Table { return RowsTable(r.Results, "webkb") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, a := tc.build(Paper{}.of(before)), tc.build(Paper{}.of(after))
			if b.Markdown() != a.Markdown() || b.LaTeX() != a.LaTeX() || !tidyEqual(b.Tidy, a.Tidy) {
				t.Errorf("records timed alone changed the table:\nbefore:\n%s\nafter:\n%s", b.Markdown(), a.Markdown())
			}
		})
	}
	bt, bd, bf := before.Counts()
	at, ad, af := after.Counts()
	if at != bt || ad != bd || af != bf {
		t.Errorf("counts changed: %d/%d/%d before, %d/%d/%d after", bt, bd, bf, at, ad, af)
	}
}

// pointsText prints grid points with their statistics and records, NaN as NaN.
func pointsText(ps []*experiments.PointStats) string {
	var b strings.Builder
	for _, p := range ps {
		var ids []string
		for _, rec := range p.Records {
			ids = append(ids, rec.RunID)
		}
		fmt.Fprintf(&b, "%s %s %s runs %d failed %d mean %v std %v fit %v obj %v records %v\n", p.Dataset, p.Method,
			p.GridPoint(), p.Runs, p.Failed, p.Mean, p.Std, p.FitSeconds, p.Objective, ids)
	}
	return b.String()
}

// tidyEqual compares tidy rows, NaN equal to NaN.
func tidyEqual(a, b []TidyRow) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !reflect.DeepEqual(a[i].Fields(), b[i].Fields()) {
			return false
		}
	}
	return true
}

// TestRuntimeInitColumn checks that the runtime table has an "init" column exactly when
// records carry init_seconds, read from the record (records made before the field existed
// lack it), and says which field its times come from.
func TestRuntimeInitColumn(t *testing.T) {
	recs := fixtureRecords(t, fixtureRuns())
	for i := range recs {
		b, err := json.Marshal(recs[i])
		if err != nil {
			t.Fatal(err)
		}
		b = append(b[:len(b)-1], []byte(`,"init_seconds":0.25}`)...)
		var rec experiments.Record
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		recs[i] = rec
	}
	_, carried := initSeconds(recs[0])
	paper, err := paper.DefaultPublished()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewResults(recs, fixtureProvenance(), paper, experiments.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	tb := runtimeTableOf(Paper{}.of(r))
	if !strings.Contains(tb.Caption, "fit_seconds") {
		t.Errorf("caption does not name the field it reads: %s", tb.Caption)
	}
	hasCol := false
	for _, c := range tb.Columns {
		hasCol = hasCol || c.Title == "init"
	}
	if hasCol != carried {
		t.Fatalf("init column = %v, want %v (records carry init_seconds: %v)", hasCol, carried, carried)
	}
	if carried {
		if md := tb.Markdown(); !strings.Contains(md, "| Prop. | 2.00 | 1.00 | 1.17 | 1.17 | 0.25 | 2.62 |") {
			t.Errorf("no init time in the Prop. row:\n%s", md)
		}
	}
	// Old records: no column, and the caption says what their fit_seconds covers.
	old := runtimeTableOf(fixturePaperResults(t, fixtureRuns()))
	for _, c := range old.Columns {
		if c.Title == "init" {
			t.Error("init column without init_seconds")
		}
	}
	if !strings.Contains(old.Caption, "time from before the initialisation") {
		t.Errorf("caption of old records: %s", old.Caption)
	}
}

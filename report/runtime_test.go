package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/experiments"
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
			run{d, PropMethod, at(4, 0.95), 0, 0.9, 0.7, 0.1, 1.0, ""},
			run{d, PropMethod, at(20, 0.95), 0, 0.9, 0.7, 0.1, 3.0, ""}, // not at k2 = k1
			run{d, "Prop. (w/o PU)", at(4, 0.5), 0, 0.9, 0.7, 0.1, 0.8, ""},
			run{d, "JWNMF", map[string]any{"lambda": 1e-4}, 0, 0.8, 0.7, 0.1, 0.5, ""})
	}
	return out
}

// TestRuntimeClaims checks that the runtime paragraph puts each of the paper's speed
// claims beside our times at k2 = k1 with the reason.
func TestRuntimeClaims(t *testing.T) {
	r := fixtureResults(t, timingRuns())
	tb := RuntimeTable(r)
	if tr := lookupSel(tb.Tidy, "webkb", PropMethod, selTimingSet); tr == nil || tr.Mean != 1.0 || tr.Runs != 1 {
		t.Fatalf("Prop. at k2 = k1 on WebKB = %+v, want 1 s over 1 run", tr)
	}
	if tr := lookupSel(tb.Tidy, "webkb", PropMethod, selAll); tr == nil || tr.Mean != 2.0 {
		t.Fatalf("Prop. over all runs on WebKB = %+v, want 2 s", tr)
	}
	p := RuntimeParagraph(tb, r)
	for _, want := range []string{
		"Here, Prop. (w/o PU) against JWNMF at k2 = k1: WebKB 0.80 vs 0.50 s (1.60×; paper 0.81 vs 8.80 s, 0.09×); " +
			"Citeseer 0.80 vs 0.50 s (1.60×; paper 10.15 vs 60.71 s, 0.17×) — Prop. (w/o PU) is faster on 0 of 2. Our JWNMF forms no m×m product",
		"Here, Prop. (w/o PU) against Prop. at k2 = k1: WebKB 0.80 vs 1.00 s (0.80×; paper 0.81 vs 2.62 s, 0.31×)",
		"is faster on 2 of 2. Our PU update has no n² term",
		"Here, Prop. against JWNMF at k2 = k1: WebKB 1.00 vs 0.50 s (2.00×; paper 2.62 vs 8.80 s, 0.30×); Citeseer",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("runtime paragraph lacks\n%s\ngot:\n%s", want, p)
		}
	}
	if strings.Count(p, "*Paper: ") != 3 {
		t.Errorf("want the paper's three claims:\n%s", p)
	}
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
	paper, err := DefaultPublished()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewResults(recs, fixtureProvenance(), paper, experiments.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	tb := RuntimeTable(r)
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
	old := RuntimeTable(fixtureResults(t, fixtureRuns()))
	for _, c := range old.Columns {
		if c.Title == "init" {
			t.Error("init column without init_seconds")
		}
	}
	if !strings.Contains(old.Caption, "time from before the initialisation") {
		t.Errorf("caption of old records: %s", old.Caption)
	}
}

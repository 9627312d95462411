package render

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/datasets"
	recorded "github.com/nagc-harness/nagc/results"
)

// ownTimedRecord is the record of a fit timed alone of a user's own timing config: a row
// named freely, on a dataset with k1 = 4, with its fit and initialisation times (init 0: a
// method that times no initialisation apart); a non-empty err makes it a failed fit.
func ownTimedRecord(t *testing.T, d, row, algorithm string, params map[string]any, restart int, fit, init float64, err string) recorded.Record {
	t.Helper()
	rec := fixtureRecords(t, []run{{d, row, params, restart, 0, 0.5, 0.1, fit, err}})[0]
	rec.RunID += "|timed"
	rec.TimedAlone, rec.InitSeconds, rec.Iterations, rec.Algorithm = true, init, 100, algorithm
	rec.Metrics, rec.Objective = nil, nil // a timing config's fits are read for their times only
	return rec
}

// ownTimedFits are fits timed alone of a user's config "mytiming" on "synthetic", rows
// as it names them (none of the paper's):
//
//	NAGC         k2 = k1 (4):  fits 0.013 0.010 0.100 0.012 0.011 → median 0.012 (mean 0.0292); init 0.2 … 0.24 → 0.22
//	NAGC         k2 = 8:       fits 0.020 0.030 0.040 → median 0.030; init 0.1
//	NAGC w/o PU  k2 = k1:      fits 0.006 0.005 0.007, one more failed → median 0.006
//	JWNMF        defaults:     fits 0.04 0.05 0.06 0.07 → median 0.055; init 0.3
//	BAGC         defaults:     fits 0.2 0.4 0.3 → median 0.3; no initialisation timed apart
//	broken       k2 = k1:      both fits failed
//
// The NAGC fits at k2 = 8 are a second grid point of the same row: their median is a line
// of its own, not merged with k2 = k1's.
func ownTimedFits(t *testing.T) []recorded.Record {
	t.Helper()
	at := func(k2, rho float64) map[string]any {
		return map[string]any{"init": "random", "iterations": 100.0, "k2": k2, "lambda": 0.01, "rho": rho}
	}
	d := "synthetic"
	var out []recorded.Record
	for i, f := range []float64{0.013, 0.010, 0.100, 0.012, 0.011} {
		out = append(out, ownTimedRecord(t, d, "NAGC", "nagc", at(4, 0.95), i, f, 0.2+float64(i)/100, ""))
	}
	for i, f := range []float64{0.020, 0.030, 0.040} {
		out = append(out, ownTimedRecord(t, d, "NAGC", "nagc", at(8, 0.95), i, f, 0.1, ""))
	}
	for i, f := range []float64{0.006, 0.005, 0.007} {
		out = append(out, ownTimedRecord(t, d, "NAGC w/o PU", "nagc", at(4, 0.5), i, f, 0.05, ""))
	}
	out = append(out, ownTimedRecord(t, d, "NAGC w/o PU", "nagc", at(4, 0.5), 3, 0, 0, "out of memory"))
	for i, f := range []float64{0.04, 0.05, 0.06, 0.07} {
		out = append(out, ownTimedRecord(t, d, "JWNMF", "jwnmf", map[string]any{}, i, f, 0.3, ""))
	}
	for i, f := range []float64{0.2, 0.4, 0.3} {
		out = append(out, ownTimedRecord(t, d, "BAGC", "bagc", map[string]any{}, i, f, 0, ""))
	}
	for i := range 2 {
		out = append(out, ownTimedRecord(t, d, "broken", "nagc", at(4, 0.95), i, 0, 0, "the graph has no edge"))
	}
	return out
}

// timingProvenance is the provenance of a user's timing config run into a folder, with
// the loader's statistics of its datasets.
func timingProvenance(name string, stats ...datasets.Stats) recorded.Provenance {
	p := recorded.Provenance{Sweep: "t-" + name, Config: name + ".yaml", ConfigHash: "cafe", Name: name, GitCommit: "abc123",
		GoVersion: "go1.26", Host: "testhost", CPU: "TestCPU, 4 cores", Workers: 1, Timing: true,
		Started: time.Date(2026, 1, 3, 3, 0, 0, 0, time.UTC)}
	p.Datasets = stats
	return p
}

// synthStats are the loader's statistics of the built-in synthetic graph.
var synthStats = datasets.Stats{Name: "synthetic", N: 600, Edges: 2354, M: 300, K: 4}

// TestFitTimesTable checks the fit-times table of a user's own timing config (no
// comparison with the paper): one line per dataset, row and grid point with the settings,
// the number of fits (failed ones beside), the median fit and initialisation times, a
// caption saying how the fits were timed, and nothing of the paper.
func TestFitTimesTable(t *testing.T) {
	r, err := NewResults(ownTimedFits(t), []recorded.Provenance{timingProvenance("mytiming", synthStats)}, nil, recorded.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	r.SweepOrder()
	tb := FitTimesTable(r)
	for _, tc := range []struct {
		row, metric, params string
		want                float64
		runs, failed        int
	}{
		{"NAGC", MetricFitTime, "init=random iterations=100 k2=k1 lambda=0.01 rho=0.95", 0.012, 5, 0},
		{"NAGC", MetricInit, "init=random iterations=100 k2=k1 lambda=0.01 rho=0.95", 0.22, 5, 0},
		{"NAGC", MetricFitTime, "init=random iterations=100 k2=8 lambda=0.01 rho=0.95", 0.030, 3, 0},
		{"NAGC", MetricInit, "init=random iterations=100 k2=8 lambda=0.01 rho=0.95", 0.1, 3, 0},
		{"NAGC w/o PU", MetricFitTime, "init=random iterations=100 k2=k1 lambda=0.01 rho=0.5", 0.006, 3, 1},
		{"JWNMF", MetricFitTime, "defaults", 0.055, 4, 0},
		{"JWNMF", MetricInit, "defaults", 0.3, 4, 0},
		{"BAGC", MetricFitTime, "defaults", 0.3, 3, 0},
		{"BAGC", MetricInit, "", math.NaN(), 0, 0},
		{"broken", MetricFitTime, "", math.NaN(), 0, 0},
	} {
		var got []TidyRow
		for _, tr := range tb.Tidy {
			if tr.Dataset == "synthetic" && tr.Method == tc.row && tr.Metric == tc.metric && tr.Selection == SelAlone &&
				(tc.params == "" || tr.Params == tc.params) {
				got = append(got, tr)
			}
		}
		ok := len(got) == 1 && got[0].Runs == tc.runs && (tc.metric == MetricInit || got[0].Failed == tc.failed) &&
			(math.IsNaN(tc.want) && math.IsNaN(got[0].Mean) || math.Abs(got[0].Mean-tc.want) < 1e-12)
		if !ok {
			t.Errorf("%s %s at %q: %+v, want one row, median %v over %d fits (%d failed)", tc.row, tc.metric, tc.params, got, tc.want, tc.runs, tc.failed)
		}
	}
	checkTable(t, "fit_times", tb, []string{
		"| Row | Settings | fits | fit (s) | init (s) |",
		"| **synthetic** | | | | |",
		"| NAGC | init=random iterations=100 k2=k1 lambda=0.01 rho=0.95 | 5 | 0.0120 | 0.220 |",
		"| NAGC | init=random iterations=100 k2=8 lambda=0.01 rho=0.95 | 3 | 0.0300 | 0.100 |",
		"| NAGC w/o PU | init=random iterations=100 k2=k1 lambda=0.01 rho=0.5 | 3 (+1 failed) | 0.00600 [1] | 0.0500 |",
		"| JWNMF | defaults | 4 | 0.0550 | 0.300 |",
		"| BAGC | defaults | 3 | 0.300 | — [2] |",
		"| broken | init=random iterations=100 k2=k1 lambda=0.01 rho=0.95 | 0 (+2 failed) | — [3] | — |",
		"[1] 1 of 4 fits timed alone failed: out of memory  ",
		"[2] no initialisation timed apart: the fit time includes it  ",
		"[3] all 2 fits timed alone failed: the graph has no edge  ",
	})
	for _, want := range []string{
		"Seconds per fit on this machine (testhost, TestCPU, 4 cores, go1.26)",
		"\"fit (s)\": median over the restarts of a row's fits timed alone at one grid point (config mytiming, with timing: true): " +
			"one fit at a time",
		"the project's kernels on one thread",
		"each fit computing its own initialisation (no start shared with another fit)",
		"For NAGC, NAGC w/o PU and JWNMF that time is the iterations alone, and \"init (s)\" the median time of the initialisation",
		"For BAGC it is the whole fit",
	} {
		if !strings.Contains(tb.Caption, want) {
			t.Errorf("caption lacks %q:\n%s", want, tb.Caption)
		}
	}
	all := tb.Caption + tb.Markdown() + tb.LaTeX() + strings.Join(tb.Notes, " ")
	for _, bad := range []string{"Prop.", "paper", "sweep k2 = k1", "Settings of the fits timed alone"} {
		if strings.Contains(all, bad) {
			t.Errorf("the fit-times table of a user's config says %q:\n%s", bad, all)
		}
	}
	if strings.Contains(strings.Join(tb.Notes, " "), "rows tables") {
		t.Errorf("a note about the sweep's times without a sweep: %q", tb.Notes)
	}
}

package results

import "testing"

// The progress line's best so far: the largest mean over a trial's restarts recorded
// at the last rung, lower rungs and failed fits aside, falling when a later restart
// lowers the best trial's mean; ties to the earlier trial.
func TestSearchBestProgress(t *testing.T) {
	rec := func(trial, rung int, mod float64, done bool) *Record {
		r := &Record{Dataset: "cora", Status: StatusDone, Metrics: map[string]float64{"modularity": mod},
			Search: &SearchInfo{Row: "P", Rule: "modularity", Trial: trial, Rung: rung, Rungs: 2}}
		if !done {
			r.Status = StatusFailed
		}
		return r
	}
	var b SearchBest
	for i, c := range []struct {
		r    *Record
		want string
	}{
		{rec(1, 0, 0.9, true), ""}, // a lower rung
		{rec(1, 1, 0.6, true), "best modularity 0.6000 (cora, P trial 1)"},
		{rec(2, 1, 0.8, true), "best modularity 0.8000 (cora, P trial 2)"},
		{rec(3, 1, 0.9, false), "best modularity 0.8000 (cora, P trial 2)"}, // failed
		{rec(1, 1, 0.8, true), "best modularity 0.8000 (cora, P trial 2)"},  // trial 1: 0.7
		{rec(2, 1, 0.4, true), "best modularity 0.7000 (cora, P trial 1)"},  // trial 2 falls to 0.6
		{rec(4, 1, 0.75, true), "best modularity 0.7500 (cora, P trial 4)"},
		{rec(12, 1, 0.875, true), "best modularity 0.8750 (cora, P trial 12)"},
		// A tie goes to the earlier trial, as status and summary choose (not by the
		// order records arrive in, nor by the trial's number as text: 12 > 9).
		{rec(9, 1, 0.875, true), "best modularity 0.8750 (cora, P trial 9)"},
		{rec(10, 1, 0.875, true), "best modularity 0.8750 (cora, P trial 9)"},
	} {
		if got := b.Add(c.r); got != c.want {
			t.Errorf("record %d: %q, want %q", i, got, c.want)
		}
	}
}

package experiments

import (
	"context"
	"reflect"
	"testing"
)

// The two searches of searchConfig (rows P and Q, one dataset) run at once: with two
// workers a fit of one runs beside a fit of the other, with one never; the first fit
// handed out is the costliest of both searches' first rungs; and the records are the
// same for one and two workers, and for two workers cancelled part way (fits of both
// searches handed out) and run again, which executes no fit twice.
func TestSearchesTogether(t *testing.T) {
	cfg := mustLoad(t, searchConfig)
	defer func() { onSearchFitStart = nil }()
	type start struct {
		rung, batch int
		cost        float64
		both        bool // fits of P and of Q running
	}
	var starts []start
	onSearchFitStart = func(j searchJob, cost float64, running []searchJob) {
		rows := map[string]bool{}
		for _, r := range running {
			rows[r.info.Row] = true
		}
		starts = append(starts, start{j.info.Rung, j.info.Batch, cost, rows["P"] && rows["Q"]})
	}
	dirs := map[int]string{}
	for _, workers := range []int{1, 2} {
		starts = nil
		dirs[workers] = t.TempDir()
		executeSearch(t, cfg, Options{ResultsDir: dirs[workers], Workers: workers})
		together := false
		for _, s := range starts {
			together = together || s.both
			if s.rung == 0 && s.batch == 0 && s.cost > starts[0].cost {
				t.Errorf("%d workers: a first-rung fit of cost %g was ready when the first fit, of cost %g, was handed out", workers, s.cost, starts[0].cost)
			}
		}
		if together != (workers == 2) {
			t.Errorf("%d workers: fits of both searches ran at once: %v", workers, together)
		}
	}
	want := searchRecords(t, dirs[1])
	if got := searchRecords(t, dirs[2]); len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("1 and 2 workers differ (%d and %d records)", len(want), len(got))
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	onSearchFitStart = func(j searchJob, cost float64, running []searchJob) {
		if n++; n == 9 {
			cancel()
		}
	}
	dir := t.TempDir()
	first, err := Execute(ctx, cfg, Options{ResultsDir: dir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	onSearchFitStart = nil
	second := executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2})
	if !first.Interrupted || first.Done >= len(want) {
		t.Errorf("cancelled at the 9th fit: %+v, want it interrupted", first)
	}
	if got := searchRecords(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("cancelled and run again: records differ from one run's (%d and %d)", len(got), len(want))
	}
	if first.Done+second.Done != len(want) {
		t.Errorf("cancelled and run again: %d + %d fits executed, want %d", first.Done, second.Done, len(want))
	}
}

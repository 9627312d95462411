package experiments

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/results"
)

// timingRows are the rows of the timing tests: the four of the paper's runtime table
// (BAGC replaced by k-means, which has no iterations option) at the timing setting.
const timingRows = `seed: 11
restarts: 2
iterations: 20
datasets: [synthetic]
methods:
  - name: "Prop."
    algorithm: nagc
    options: {init: kmeans, k2: k1, lambda: 1.0e-2, rho: 0.95}
  - name: "Prop. (w/o PU)"
    algorithm: nagc
    options: {init: kmeans, k2: k1, lambda: 1.0e-2, rho: 0.5}
  - name: "JWNMF"
    algorithm: jwnmf
    options: {init: kmeans, lambda: 1.0e-2}
  - name: "k-means"
    algorithm: kmeans
`

// sameFit identifies a fit across a sweep and a timing run: dataset, rows, parameters
// and restart (not the run id, which differs).
func sameFit(r results.Record) string {
	return fmt.Sprintf("%s|%v|%s|%d", r.Dataset, r.Methods, r.GridPoint(), r.Restart)
}

// TestTimingRunsAlone runs a config with timing: true with two workers and batches asked
// for, and checks that its runs were executed one at a time (each run's initialisation
// and fit lie between the end of the previous run and its own end), restart after
// restart with the rows side by side, are marked timed
// alone, computed their own initialisation (timed apart for NAGC and JWNMF alike), fit the
// same clusterings as the same config without timing, under other run ids, so that both
// live in one results folder without one resuming or replacing the other, and that
// Aggregate leaves the timed records out.
func TestTimingRunsAlone(t *testing.T) {
	ctx := context.Background()
	sweep := mustLoad(t, "name: sweep\n"+timingRows)
	timing := mustLoad(t, "name: timing\ntiming: true\n"+timingRows)
	if sweep.Timing || !timing.Timing {
		t.Fatalf("timing key read as %v and %v", sweep.Timing, timing.Timing)
	}
	dir := t.TempDir()
	if _, err := Execute(ctx, sweep, Options{ResultsDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	sweepRecs := mustRecords(t, dir)
	sweepPoints := results.Aggregate(sweepRecs)

	sum, err := Execute(ctx, timing, Options{ResultsDir: dir, Workers: 2, Batch: 4})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total != 8 || sum.Done != 8 || sum.Skipped != 0 || sum.Failed != 0 {
		t.Fatalf("timing run beside the sweep: %+v; want its 8 runs done, none skipped as the sweep's", sum)
	}
	prov, err := results.ReadProvenance(dir)
	if err != nil || len(prov) != 2 {
		t.Fatalf("provenance: %d starts, %v", len(prov), err)
	}
	if p := prov[1]; !p.Timing || p.Workers != 1 || prov[0].Timing {
		t.Errorf("provenance of the timing run: timing %v, %d workers; of the sweep: timing %v", p.Timing, p.Workers, prov[0].Timing)
	}

	all := results.Latest(mustRecords(t, dir))
	if len(all) != 16 {
		t.Fatalf("%d records in the folder, want the sweep's 8 and the timing run's 8", len(all))
	}
	bySweep := map[string]results.Record{}
	var timed []results.Record
	for _, r := range all {
		if r.TimedAlone {
			timed = append(timed, r)
		} else {
			bySweep[sameFit(r)] = r
		}
	}
	if len(timed) != 8 || len(bySweep) != 8 {
		t.Fatalf("%d records timed alone and %d of the sweep, want 8 and 8", len(timed), len(bySweep))
	}
	for _, r := range timed {
		s, ok := bySweep[sameFit(r)]
		if !ok {
			t.Fatalf("timed run %s has no counterpart in the sweep", sameFit(r))
		}
		if r.RunID == s.RunID {
			t.Errorf("%s: timed alone under the sweep's run id", sameFit(r))
		}
		if r.Seed != s.Seed || r.Labels != s.Labels || !reflect.DeepEqual(r.Metrics, s.Metrics) {
			t.Errorf("%s: timed alone, the fit differs from the sweep's", sameFit(r))
		}
		if r.Status != results.StatusDone || r.InitCached || r.BatchSize > 1 {
			t.Errorf("%s: status %s, init cached %v, batch %d; want done, its own initialisation, alone",
				sameFit(r), r.Status, r.InitCached, r.BatchSize)
		}
		wantInit := r.Algorithm == "nagc" || r.Algorithm == "jwnmf"
		if (r.InitSeconds > 0) != wantInit {
			t.Errorf("%s: init_seconds %v; want it timed apart: %v", sameFit(r), r.InitSeconds, wantInit)
		}
	}
	// One at a time: each run's initialisation and fit took place after the previous
	// run had finished (times are wall clock, recorded to the nanosecond; 1 ms slack for
	// the difference between the wall and the monotonic clock the fit is timed on).
	// Rows are timed side by side, restart after restart (interleaveRestarts).
	sort.Slice(timed, func(a, b int) bool { return timed[a].Finished.Before(timed[b].Finished) })
	var order []int
	for _, r := range timed {
		order = append(order, r.Restart)
	}
	if want := []int{0, 0, 0, 0, 1, 1, 1, 1}; !reflect.DeepEqual(order, want) {
		t.Errorf("restarts in the order timed: %v, want %v", order, want)
	}
	for i := 1; i < len(timed); i++ {
		gap := timed[i].Finished.Sub(timed[i-1].Finished).Seconds()
		if took := timed[i].InitSeconds + timed[i].FitSeconds; gap+1e-3 < took {
			t.Errorf("%s finished %.4f s after %s but took %.4f s: the two ran at the same time",
				sameFit(timed[i]), gap, sameFit(timed[i-1]), took)
		}
	}
	// The timed records do not enter the sweep's grid points.
	if got := results.Aggregate(all); !reflect.DeepEqual(got, sweepPoints) {
		t.Errorf("Aggregate changed when records timed alone were added: %d points, want %d", len(got), len(sweepPoints))
	}
	// Resuming either config finds its own runs done.
	for _, cfg := range []*Config{sweep, timing} {
		sum, err := Execute(ctx, cfg, Options{ResultsDir: dir, Workers: 2})
		if err != nil || sum.Skipped != 8 || sum.Done != 0 {
			t.Errorf("%s again: %+v, %v; want all 8 runs skipped", cfg.Name, sum, err)
		}
	}
}

// TestRunIDs checks that a sweep's run ids are what they were before the timing key
// existed (a results folder of an earlier version resumes), and that a timed run's id
// differs.
func TestRunIDs(t *testing.T) {
	params := map[string]any{"init": "kmeans", "k2": 4, "lambda": 0.01, "rho": 0.95, "iterations": 100}
	// Computed by the code before the timing key (commit f3c3d4e).
	if got := runID("webkb", "nagc", params, 4, 2, false, nil); got != "5da8d2a34747b7b1" {
		t.Errorf("sweep run id = %s, want 5da8d2a34747b7b1 as before", got)
	}
	if runID("webkb", "nagc", params, 4, 2, true, nil) == runID("webkb", "nagc", params, 4, 2, false, nil) {
		t.Error("a timed run has the id of the sweep's run")
	}
}

// TestStartApart checks that the runner takes JWNMF's k-means start out of its fit time
// exactly when JWNMF would read it from the cache: after startApart the fit adds nothing
// to the cache (it used the stored start) and clusters as without any cache.
func TestStartApart(t *testing.T) {
	g, err := datasets.Load("synthetic")
	if err != nil {
		t.Fatal(err)
	}
	k := g.K()
	for _, tc := range []struct {
		algorithm string
		params    map[string]any
		apart     bool
	}{
		{"jwnmf", map[string]any{"init": "kmeans", "lambda": 0.01, "iterations": 5}, true},
		{"jwnmf", map[string]any{"lambda": 0.01, "iterations": 5}, true}, // kmeans is the default
		{"jwnmf", map[string]any{"init": "random", "iterations": 5}, false},
		{"jwnmf", map[string]any{"p": 2, "iterations": 5}, false}, // filtered attributes: another start
		{"nagc", map[string]any{"init": "kmeans", "iterations": 5}, false},
		{"bagc", map[string]any{}, false},
	} {
		t.Run(fmt.Sprint(tc.algorithm, tc.params), func(t *testing.T) {
			r := Run{Algorithm: tc.algorithm, Params: tc.params, K1: k, Seed: 5}
			in := timedInput(algorithms.Input{Adj: g.Adj, X: g.X, Truth: g.Labels})
			d, apart := startApart(context.Background(), r, in)
			if apart != tc.apart || (apart && d <= 0) || (!apart && in.Cache.Len() != 0) {
				t.Fatalf("startApart = %v, %v with %d cached; want apart %v", d, apart, in.Cache.Len(), tc.apart)
			}
			if !apart {
				return
			}
			m, err := algorithms.New(r.Algorithm, r.Params)
			if err != nil {
				t.Fatal(err)
			}
			before := in.Cache.Len() // the start and its k1 half
			res, err := m.Fit(context.Background(), in, k, r.Seed)
			if err != nil {
				t.Fatal(err)
			}
			if in.Cache.Len() != before {
				t.Errorf("the fit computed another start (%d cached, %d before): the one computed apart was not used", in.Cache.Len(), before)
			}
			alone, err := m.Fit(context.Background(), algorithms.Input{Adj: g.Adj, X: g.X, Truth: g.Labels}, k, r.Seed)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Labels, alone.Labels) {
				t.Error("the fit from the start computed apart clusters differently")
			}
		})
	}
}

// TestTimingWithHoldoutRefused checks the plain-words refusal of timing with holdout.
func TestTimingWithHoldoutRefused(t *testing.T) {
	path := writeConfig(t, "timing: true\nholdout: 0.2\n"+timingRows)
	_, err := LoadConfig(path)
	if err == nil {
		t.Fatal("timing with holdout accepted")
	}
	if ce, ok := err.(*ConfigError); !ok || ce.Line != 2 || ce.Key != "holdout" ||
		!strings.Contains(err.Error(), "timing: true times each fit alone and fits no held-out copy") {
		t.Errorf("error %q: want line 2, key holdout and the reason", err)
	}
}

// TestTimingConfig checks the shipped timing config against the paper's protocol and
// configs/paper.yaml: timing on, no held-out fits, paper.yaml's seed and restarts, and
// every one of its fits a fit of paper.yaml under the same row name (so that the report
// matches its rows with the paper's, and its clusterings are the sweep's), with k2 = k1
// and t = 100 where the method has them, and ρ = 0.5 exactly for the w/o-PU row.
func TestTimingConfig(t *testing.T) {
	timing, err := LoadConfig(filepath.Join("..", "configs", "timing.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	paper, err := LoadConfig(filepath.Join("..", "configs", "paper.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if timing.Name != "timing" || !timing.Timing || timing.Holdout != 0 || timing.Seed != paper.Seed ||
		timing.Restarts != paper.Restarts || timing.Compare != results.ComparePaper {
		t.Fatalf("timing config: name %q, timing %v, holdout %v, seed %d, restarts %d, compare %q",
			timing.Name, timing.Timing, timing.Holdout, timing.Seed, timing.Restarts, timing.Compare)
	}
	if !reflect.DeepEqual(timing.DatasetNames(), paper.DatasetNames()) {
		t.Errorf("timing datasets %v, paper's %v", timing.DatasetNames(), paper.DatasetNames())
	}
	k1 := map[string]int{"webkb": 4, "citeseer": 6, "cora": 7, "polblog": 2}
	tRuns, err := timing.Expand(k1)
	if err != nil {
		t.Fatal(err)
	}
	pRuns, err := paper.Expand(k1)
	if err != nil {
		t.Fatal(err)
	}
	inPaper := map[string]bool{}
	for _, r := range pRuns {
		for _, m := range r.Methods {
			inPaper[fmt.Sprintf("%s|%s|%s|%d|%d", r.Dataset, m, r.GridPoint(), r.Restart, r.Seed)] = true
		}
	}
	rows := map[string]bool{}
	for _, r := range tRuns {
		if len(r.Methods) != 1 || !r.TimedAlone {
			t.Fatalf("timing run %v: want one row and timed alone", r)
		}
		m := r.Methods[0]
		rows[m] = true
		if !inPaper[fmt.Sprintf("%s|%s|%s|%d|%d", r.Dataset, m, r.GridPoint(), r.Restart, r.Seed)] {
			t.Errorf("%s on %s at %s restart %d is not a fit of paper.yaml", m, r.Dataset, r.GridPoint(), r.Restart)
		}
		if k2, ok := r.Params["k2"]; ok && k2 != r.K1 {
			t.Errorf("%s on %s: k2 = %v, want k1 = %d", m, r.Dataset, k2, r.K1)
		}
		if it, ok := r.Params["iterations"]; (r.Algorithm == "nagc" || r.Algorithm == "jwnmf") && (!ok || it != 100) {
			t.Errorf("%s on %s: %v iterations, want 100", m, r.Dataset, it)
		}
		if rho, ok := r.Params["rho"]; ok && (rho == 0.5) != (m == "Prop. (w/o PU)") {
			t.Errorf("%s on %s: ρ = %v", m, r.Dataset, rho)
		}
	}
	if want := map[string]bool{"Prop.": true, "Prop. (w/o PU)": true, "JWNMF": true, "BAGC": true}; !reflect.DeepEqual(rows, want) {
		t.Errorf("timing rows %v, want the paper's runtime rows %v", rows, want)
	}
	if len(tRuns) != 4*4*5 {
		t.Errorf("%d timing runs, want 4 rows × 4 datasets × 5 restarts", len(tRuns))
	}
}

// TestTimingFitsEveryRun checks that a timing config fits each run of a grid over
// iterations on its own, while a sweep reads the shorter fit off the longer.
func TestTimingFitsEveryRun(t *testing.T) {
	const rows = `seed: 1
restarts: 1
datasets: [synthetic]
methods:
  - name: P
    algorithm: nagc
    options: {init: random}
    grid: {iterations: [5, 10]}
`
	for _, timing := range []bool{false, true} {
		cfg := mustLoad(t, fmt.Sprintf("name: t\ntiming: %v\n%s", timing, rows))
		dir := t.TempDir()
		if _, err := Execute(context.Background(), cfg, Options{ResultsDir: dir, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		for _, r := range mustRecords(t, dir) {
			want := 0
			if !timing && r.Iterations == 5 {
				want = 10
			}
			if r.Status != results.StatusDone || r.PrefixOf != want {
				t.Errorf("timing %v, %d iterations: %s, read off %d iterations; want done, %d", timing, r.Iterations, r.Status, r.PrefixOf, want)
			}
		}
	}
}

package experiments

import (
	"context"
	"maps"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/results"
)

const holdoutConfig = `datasets: [synthetic]
restarts: 2
iterations: 10
methods:
  - name: P
    algorithm: nagc
    grid:
      lambda: [0.01, 1]
  - name: km
    algorithm: kmeans
`

// TestHeldOutFit checks the held-out score against a fit done by hand on the split, that
// adding holdout to a config re-fits only on the split (the recorded fits are kept), and
// that the scores do not depend on the number of workers.
func TestHeldOutFit(t *testing.T) {
	ctx := context.Background()
	plain := mustLoad(t, holdoutConfig)
	withHeldOut := mustLoad(t, "holdout: 0.2\n"+holdoutConfig)
	dir := t.TempDir()
	if _, err := Execute(ctx, plain, Options{ResultsDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	first, err := results.Load(dir)
	if err != nil || len(first) != 6 {
		t.Fatalf("%d records, %v", len(first), err)
	}
	for _, r := range first {
		if _, ok := r.Metrics[results.MetricHeldOut]; ok || r.Holdout != 0 {
			t.Fatalf("run %s has a held-out score without holdout in the config", r.RunID)
		}
	}
	sum, err := Execute(ctx, withHeldOut, Options{ResultsDir: dir, Workers: 2})
	if err != nil || sum.Done != 6 || sum.Skipped != 0 {
		t.Fatalf("resume with holdout: %+v, %v; want the 6 runs given their held-out fit", sum, err)
	}
	latest := results.Latest(mustRecords(t, dir))
	byID := map[string]results.Record{}
	for _, r := range first {
		byID[r.RunID] = r
	}
	g, err := datasets.Load("synthetic")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range latest {
		old := byID[r.RunID]
		q, ok := r.Metrics[results.MetricHeldOut]
		if !ok || r.Holdout != 0.2 || r.HeldOutLabels == "" {
			t.Fatalf("run %s: no held-out fit recorded", r.RunID)
		}
		// The run's own fit is kept as it was: same labels, metrics and fit time.
		own := maps.Clone(r.Metrics)
		delete(own, results.MetricHeldOut)
		if r.Labels != old.Labels || r.FitSeconds != old.FitSeconds || !reflect.DeepEqual(own, old.Metrics) {
			t.Errorf("run %s: its own fit changed when the held-out fit was added", r.RunID)
		}
		// The held-out score equals a fit by hand on the same split.
		train, test, err := datasets.HoldOutEdges(g.Adj, 0.2, heldOutSeed(r.Seed))
		if err != nil {
			t.Fatal(err)
		}
		m, err := algorithms.New(r.Algorithm, r.Params)
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Fit(ctx, algorithms.Input{Adj: train, X: g.X, Truth: g.Labels}, r.K1, r.Seed)
		if err != nil {
			t.Fatal(err)
		}
		want, err := metrics.Modularity(test, res.Labels)
		if err != nil {
			t.Fatal(err)
		}
		if q != want || r.HeldOutLabels != results.EncodeLabels(res.Labels) {
			t.Errorf("run %s: held-out modularity %v, a fit by hand on the split gives %v", r.RunID, q, want)
		}
		// The training graph lacks 20 % of the edges, so the split is not the graph.
		if train.NNZ() >= g.Adj.NNZ() || test.NNZ() == 0 {
			t.Fatalf("split: %d + %d stored entries of %d", train.NNZ(), test.NNZ(), g.Adj.NNZ())
		}
	}
	// Complete now: nothing left to do. A fresh folder with one worker gives the same.
	sum, err = Execute(ctx, withHeldOut, Options{ResultsDir: dir, Workers: 2})
	if err != nil || sum.Skipped != 6 || sum.Done != 0 {
		t.Fatalf("second resume: %+v, %v; want everything skipped", sum, err)
	}
	fresh := t.TempDir()
	if _, err := Execute(ctx, withHeldOut, Options{ResultsDir: fresh, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	heldOut := func(recs []results.Record) map[string]float64 {
		out := map[string]float64{}
		for _, r := range results.Latest(recs) {
			out[r.RunID] = r.Metrics[results.MetricHeldOut]
		}
		return out
	}
	if a, b := heldOut(latest), heldOut(mustRecords(t, fresh)); !reflect.DeepEqual(a, b) {
		t.Errorf("held-out scores depend on workers or resumption: %v vs %v", a, b)
	}
	// Rescore recomputes the held-out score from the recorded held-out labels, and stops
	// on a tampered one.
	if _, err := Rescore(dir, nil); err != nil {
		t.Fatalf("rescore: %v", err)
	}
	if got := heldOut(mustRecords(t, dir)); !reflect.DeepEqual(got, heldOut(latest)) {
		t.Errorf("rescored held-out scores %v, recorded %v", got, heldOut(latest))
	}
	tampered := mustRecords(t, dir)
	tampered[len(tampered)-1].Metrics[results.MetricHeldOut] += 0.01 // a record with a held-out fit
	if err := results.RewriteRecords(filepath.Join(dir, results.RunsFile), tampered); err != nil {
		t.Fatal(err)
	}
	if _, err := Rescore(dir, nil); err == nil || !strings.Contains(err.Error(), results.MetricHeldOut) {
		t.Errorf("tampered held-out score: rescore error %v", err)
	}
	// The rule picks by the held-out score.
	best, err := results.Best(results.Aggregate(latest), results.SelectHeldOut)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range best {
		for _, p := range results.Aggregate(latest) {
			if p.Method == b.Method && p.Mean[results.MetricHeldOut] > b.Mean[results.MetricHeldOut] {
				t.Errorf("%s: chose %v (%v) over %v (%v)", b.Method, b.Params, b.Mean[results.MetricHeldOut], p.Params, p.Mean[results.MetricHeldOut])
			}
		}
	}
}

func mustRecords(t *testing.T, dir string) []results.Record {
	t.Helper()
	recs, torn, err := results.ReadRecords(filepath.Join(dir, results.RunsFile))
	if err != nil || torn {
		t.Fatalf("%s: %v (torn %v)", dir, err, torn)
	}
	return recs
}

// TestTwoViewNeedsAttributes checks that the two-view rule chooses only among points that
// recorded attribute modularity, and selects nothing, saying why, for a method that has
// none (a graph without attributes), whatever their modularity.
func TestTwoViewNeedsAttributes(t *testing.T) {
	pt := func(method string, lambda float64, mean map[string]float64) *results.PointStats {
		return &results.PointStats{Dataset: "d", Method: method, Params: map[string]any{"lambda": lambda}, Runs: 2, Mean: mean}
	}
	points := []*results.PointStats{
		pt("M", 1, map[string]float64{"modularity": 0.9}), // best modularity, no attr_modularity
		pt("M", 2, map[string]float64{"modularity": 0.3, "attr_modularity": 0.1}),
		pt("M", 3, map[string]float64{"modularity": 0.2, "attr_modularity": 0.1}),
		pt("N", 1, map[string]float64{"modularity": 0.5}),
	}
	best, err := results.Best(points, results.SelectTwoView)
	if err != nil {
		t.Fatal(err)
	}
	if len(best) != 1 || best[0].Method != "M" || best[0].Params["lambda"] != 2.0 {
		t.Fatalf("Best(two-view) = %v, want M at lambda 2 only", best)
	}
	sels, err := results.Summarize(points, []string{results.SelectTwoView})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sels {
		if s.Method == "N" && (s.Point != nil || !strings.Contains(s.Missing, "the graph has no attributes")) {
			t.Errorf("N under two-view: point %v, missing %q", s.Point, s.Missing)
		}
	}
}

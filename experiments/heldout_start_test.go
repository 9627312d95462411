package experiments

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/results"
)

// sharedStartConfig holds edges out of NAGC rows whose starts read the attributes alone
// (the k-means start, on X and on a transform of X) and one whose start reads the graph
// (the k-means start on graph-filtered attributes).
const sharedStartConfig = `name: shared
seed: 5
restarts: 2
iterations: 8
holdout: 0.2
datasets: [synthetic]
methods:
  - name: P
    algorithm: nagc
    grid: {lambda: [0.01, 1], k2: [k1, 3]}
  - name: P minmax
    algorithm: nagc
    options: {transform: minmax}
    grid: {k2: [k1, 3]}
  - name: P filtered
    algorithm: nagc
    options: {p: 2}
    grid: {k2: [k1, 3]}
`

// sharedStartSearch is a search of the same kind under rule heldout.
const sharedStartSearch = `name: shared-search
seed: 5
restarts: 2
iterations: 9
holdout: 0.2
datasets: [synthetic]
search: {sampler: random, trials: 6, batch: 3, rule: heldout, prune: halving, min_iterations: 3, eta: 3, first_restarts: 1}
methods:
  - name: P
    algorithm: nagc
    space: {lambda: {log: [1.0e-4, 10]}, k2: [k1, 3, 5]}
`

// TestHeldOutSharesTheStart checks that a sweep's and a search's held-out fits find the
// k-means start their run's own fit computed, for one and two workers: every computation
// that reads the attributes alone (the start, its k-means with k1 clusters, the transform)
// is made once, while the start on graph-filtered attributes and the filter are made for
// each graph; and that every record's labels and held-out labels are those of fits with a
// cache of their own.
func TestHeldOutSharesTheStart(t *testing.T) {
	defer func(f func() *algorithms.Cache) { newDatasetCache = f }(newDatasetCache)
	var mu sync.Mutex
	computed := map[string]int{}
	newDatasetCache = func() *algorithms.Cache {
		c := algorithms.NewCache()
		c.Observe(func(key string) { // the held-out copies' caches report here too
			mu.Lock()
			computed[key]++
			mu.Unlock()
		})
		return c
	}
	g, err := datasets.Load("synthetic")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		config  string
		workers int
		// starts is the k-means runs with k1 clusters: per restart, one on X, one on its
		// transform and one on the filtered X of each graph (the graph, its held-out copy).
		starts int
	}{
		{sharedStartConfig, 1, 2 * (1 + 1 + 2)},
		{sharedStartConfig, 2, 2 * (1 + 1 + 2)},
		{sharedStartSearch, 2, 2},
	} {
		clear(computed)
		dir := t.TempDir()
		if _, err := Execute(context.Background(), mustLoad(t, c.config), Options{ResultsDir: dir, Workers: c.workers}); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s, %d workers", strings.SplitN(c.config, "\n", 2)[0], c.workers)
		starts := 0
		for key, n := range computed {
			want := 1
			switch {
			case strings.HasPrefix(key, "kmeans-") && strings.Contains(key, "filtered/"):
				want = 2 // a restart's start on the graph and on its held-out copy
			case strings.Contains(key, "filtered/"):
				want = 3 // the filter of the graph and of each restart's held-out copy
			}
			if n != want {
				t.Errorf("%s: %s computed %d times; want %d", name, key, n, want)
			}
			if strings.HasPrefix(key, "kmeans-start/") {
				starts += n
			}
		}
		if starts != c.starts {
			t.Errorf("%s: %d k-means runs with k1 clusters; want %d", name, starts, c.starts)
		}
		recs := results.Latest(mustRecords(t, dir))
		if len(recs) == 0 {
			t.Fatalf("%s: no record", name)
		}
		for _, r := range recs {
			if r.Status != results.StatusDone || r.HeldOutLabels == "" {
				t.Fatalf("%s: run %s: status %s, held-out labels %q", name, r.RunID, r.Status, r.HeldOutLabels)
			}
			train, _, err := datasets.HoldOutEdges(g.Adj, 0.2, heldOutSeed(r.Seed))
			if err != nil {
				t.Fatal(err)
			}
			own := "" // a search rung that fitted only the held-out copy has no labels of the graph
			if r.Search == nil || !r.Search.HeldOutOnly {
				own = fitAlone(t, r, algorithms.Input{Adj: g.Adj, X: g.X, Truth: g.Labels})
			}
			held := fitAlone(t, r, algorithms.Input{Adj: train, X: g.X, Truth: g.Labels, NoObjective: true})
			if r.Labels != own || r.HeldOutLabels != held {
				t.Errorf("%s: run %s: labels (own %v, held-out %v) differ from fits with a cache of their own",
					name, r.RunID, r.Labels == own, r.HeldOutLabels == held)
			}
		}
	}
}

// fitAlone fits r's method on in with a cache of its own and returns its encoded labels.
func fitAlone(t *testing.T, r results.Record, in algorithms.Input) string {
	t.Helper()
	m, err := algorithms.New(r.Algorithm, r.Params)
	if err != nil {
		t.Fatal(err)
	}
	in.Cache = algorithms.NewCache()
	res, err := m.Fit(context.Background(), in, r.K1, r.Seed)
	if err != nil {
		t.Fatal(err)
	}
	return results.EncodeLabels(res.Labels)
}

package experiments

import (
	"fmt"
	"slices"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/results"
)

// arxivShape is the ogbn-arxiv shape of the measurements: 169,343 vertices,
// 2·1,165,449 stored adjacency entries, 128 dense attributes, 40 classes.
var arxivShape = algorithms.Shape{N: 169_343, M: 128, NNZA: 2 * 1_165_449, NNZX: 169_343 * 128, DenseX: 8, K: 40}

// TestFitCost checks that a run's cost is its method's own work estimate
// (algorithms.EstimateWork, held by its tests to the methods' measured order), and 0 for
// a run whose method cannot be made.
func TestFitCost(t *testing.T) {
	for _, r := range []struct {
		alg    string
		params map[string]any
	}{
		{"nagc", map[string]any{"init": "kmeans", "transform": "split"}},
		{"sgc-kmeans", map[string]any{"p": 2, "rank": 32}},
		{"metis", nil},
		{"bagc", nil},
	} {
		m, err := algorithms.New(r.alg, r.params)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fitCost(r.alg, r.params, arxivShape), algorithms.EstimateWork(m, arxivShape); got != want || !(got > 0) {
			t.Errorf("%s %v costs %.4g, want the estimate %.4g", r.alg, r.params, got, want)
		}
	}
	for _, r := range []struct {
		alg    string
		params map[string]any
	}{{"no-such-method", nil}, {"nagc", map[string]any{"lamda": 1}}} {
		if c := fitCost(r.alg, r.params, arxivShape); c != 0 {
			t.Errorf("%s %v costs %v, want 0", r.alg, r.params, c)
		}
	}
}

// TestLongestFirst checks the order batches are handed out in: within a dataset's group
// of restarts, largest estimated cost first, ties in plan order; the groups and datasets
// in plan order; a job with its record needing only the held-out fit costs half; a chain
// of runs read off one fit costs its longest.
func TestLongestFirst(t *testing.T) {
	mk := func(d string, restart int, alg string, params map[string]any) job {
		return job{Run: Run{ID: fmt.Sprintf("%s/%d/%s/%v", d, restart, alg, params), Dataset: d,
			Algorithm: alg, Params: params, K1: 40, Restart: restart, Seed: uint64(restart)}}
	}
	metis := func(d string, r int) job { return mk(d, r, "metis", nil) }
	sgc := func(d string, r int) job { return mk(d, r, "sgc-kmeans", map[string]any{"p": 2, "rank": 32}) }
	random := func(d string, r int) job { return mk(d, r, "nagc", map[string]any{"init": "random"}) }
	km := func(d string, r int, lambda float64) job {
		return mk(d, r, "nagc", map[string]any{"init": "kmeans", "lambda": lambda})
	}
	shape := func(j job) algorithms.Shape { return arxivShape }
	// Plan order: dataset a, restarts 0 and 1 (group 0 of 2 workers), then restart 2
	// (group 1), then dataset b.
	plan := [][]job{
		{metis("a", 0)}, {sgc("a", 0)}, {random("a", 0)}, {km("a", 0, 1)}, {km("a", 0, 2)},
		{metis("a", 1)}, {km("a", 1, 1)},
		{metis("a", 2)}, {sgc("a", 2)}, {km("a", 2, 1)},
		{sgc("b", 0)}, {random("b", 0)},
	}
	want := [][]job{
		{km("a", 0, 1)}, {km("a", 0, 2)}, {km("a", 1, 1)}, {random("a", 0)}, {sgc("a", 0)}, {metis("a", 0)}, {metis("a", 1)},
		{km("a", 2, 1)}, {sgc("a", 2)}, {metis("a", 2)},
		{random("b", 0)}, {sgc("b", 0)},
	}
	ids := func(ts []task) []string {
		var out []string
		for _, t := range ts {
			out = append(out, fmt.Sprintf("%s part %d", t.batch[0].ID, t.part))
		}
		return out
	}
	got := splitTasks(plan, false)
	longestFirst(got, shape, 2, true)
	if w := splitTasks(want, false); !slices.Equal(ids(got), ids(w)) {
		t.Errorf("order:\n got %q\nwant %q", ids(got), ids(w))
	}
	// Split into their own and held-out fits, of equal cost: each batch's own fits, then
	// its held-out fits, in the order above.
	got = splitTasks(plan, true)
	longestFirst(got, shape, 2, true)
	if w := splitTasks(want, true); !slices.Equal(ids(got), ids(w)) || len(w) != 2*len(want) {
		t.Errorf("order of the split tasks:\n got %q\nwant %q", ids(got), ids(w))
	}

	// Costs of tasks: the held-out fit alone is half; a chain costs its longest fit; a
	// lockstep batch of two runs the sum.
	long, short := random("a", 0), random("a", 0)
	long.Params = map[string]any{"init": "random", "iterations": 100}
	short.Params = map[string]any{"init": "random", "iterations": 10}
	whole := func(b ...job) task { return task{batch: b, part: allFits} }
	one := taskCost(whole(long), shape, true)
	done := long
	done.prior = &results.Record{}
	for _, tc := range []struct {
		name    string
		t       task
		holdout bool
		want    float64
	}{
		{"held-out fit only", whole(done), true, one / 2},
		{"no holdout", whole(long), false, one / 2},
		{"own fit part", task{batch: []job{long}, part: mainFits}, true, one / 2},
		{"held-out fit part", task{batch: []job{long}, part: heldOutFits}, true, one / 2},
		{"own fit part, record kept", task{batch: []job{done}, part: mainFits}, true, 0},
		{"chain", whole(short, long), true, one},
		{"lockstep", whole(long, km("a", 0, 1)), true, one + taskCost(whole(km("a", 0, 1)), shape, true)},
	} {
		if got := taskCost(tc.t, shape, tc.holdout); got != tc.want {
			t.Errorf("%s: cost %.4g, want %.4g", tc.name, got, tc.want)
		}
	}
}

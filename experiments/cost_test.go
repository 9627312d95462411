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

// TestFitCostRanksMethods checks the cost model on the arxiv shape against the order the
// methods measure in there (auto's quick budget: NAGC with the k-means start 62 s a fit,
// NAGC from SGC labels with 30 iterations 19 s, SGC k-means 10 s; METIS 7 s for the
// whole command), and that it grows with every size, iterations and starts.
func TestFitCostRanksMethods(t *testing.T) {
	type run struct {
		alg    string
		params map[string]any
	}
	ranked := []run{
		{"nagc", map[string]any{"init": "kmeans-median-ari"}},
		{"nagc", map[string]any{"init": "kmeans", "iterations": 100}},
		{"nagc", map[string]any{"init": "random", "iterations": 100}},
		{"nagc", map[string]any{"init": "sgc", "init_rank": 32, "p": 8, "norm_after": true, "iterations": 30}},
		{"sgc-kmeans", map[string]any{"p": 8, "rank": 32, "norm_after": true}},
		{"sgc-kmeans", map[string]any{"p": 2, "rank": 32, "norm_after": true}},
		{"metis", nil},
	}
	prev := 0.0
	for i, r := range ranked {
		c := fitCost(r.alg, r.params, arxivShape)
		if c <= 0 || (i > 0 && c >= prev) {
			t.Errorf("%s %v costs %.3g, after %.3g: want positive and below the run before", r.alg, r.params, c, prev)
		}
		prev = c
	}
	if c := fitCost("no-such-method", nil, arxivShape); c != 0 {
		t.Errorf("an unknown method costs %v, want 0", c)
	}
	grow := []func(s *algorithms.Shape){
		func(s *algorithms.Shape) { s.N *= 2 },
		func(s *algorithms.Shape) { s.NNZA *= 2 },
		func(s *algorithms.Shape) { s.NNZX *= 2 },
		func(s *algorithms.Shape) { s.K *= 2 },
	}
	for _, r := range append(ranked, run{"kmeans", nil}, run{"bagc", nil}) {
		base := fitCost(r.alg, r.params, arxivShape)
		for g, f := range grow {
			s := arxivShape
			f(&s)
			if c := fitCost(r.alg, r.params, s); c < base || (g != 2 && r.alg == "nagc" && c == base) {
				t.Errorf("%s %v: size change %d costs %.3g, from %.3g", r.alg, r.params, g, c, base)
			}
		}
	}
	for _, key := range []string{"iterations", "n_init"} {
		alg := map[string]string{"iterations": "nagc", "n_init": "kmeans"}[key]
		if a, b := fitCost(alg, map[string]any{key: 10}, arxivShape), fitCost(alg, map[string]any{key: 20}, arxivShape); !(b > a) {
			t.Errorf("%s: %s 20 costs %.3g, 10 %.3g", alg, key, b, a)
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

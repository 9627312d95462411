package experiments

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/search"
)

const searchConfig = `name: s
seed: 3
restarts: 2
iterations: 27
metrics: [ari, modularity]
datasets: [synthetic]
search: {sampler: tpe, trials: 18, batch: 6, rule: modularity, prune: halving, min_iterations: 3, eta: 3, first_restarts: 1}
methods:
  - name: P
    algorithm: nagc
    space:
      lambda: {log: [1.0e-4, 10]}
      k2: [k1, 3, 5]
      rho: {uniform: [0.5, 0.99]}
  - name: Q
    algorithm: nagc
    options: {rho: 0.5, iterations: 27}
    space:
      lambda: {log: [1.0e-4, 10]}
    search: {sampler: random, trials: 5, batch: 5}
`

// hyperbandConfig is searchConfig with Hyperband: rungs at 3, 9 and 27 iterations,
// brackets starting at each, sized 9 : 5 : 3.
var hyperbandConfig = strings.Replace(searchConfig, "prune: halving", "prune: hyperband", 1)

// heldOutConfig is searchConfig under rule heldout (holdout 0.2), so that the rungs
// before the last fit only the held-out copy (whole_graph last_rung, the default).
var heldOutConfig = "holdout: 0.2\n" + strings.Replace(searchConfig, "rule: modularity", "rule: heldout", 1)

// forEachPruner runs test on searchConfig with halving and with Hyperband, and on
// heldOutConfig.
func forEachPruner(t *testing.T, test func(t *testing.T, text string)) {
	for _, c := range []struct{ name, text string }{{"halving", searchConfig}, {"hyperband", hyperbandConfig}, {"heldout", heldOutConfig}} {
		t.Run(c.name, func(t *testing.T) { test(t, c.text) })
	}
}

// searchRecords returns the latest records of dir, each as the JSON of what a search
// must reproduce (no times), sorted.
func searchRecords(t *testing.T, dir string) []string {
	t.Helper()
	recs, torn, err := results.ReadRecords(filepath.Join(dir, results.RunsFile))
	if err != nil || torn {
		t.Fatalf("%s: %v (torn %v)", dir, err, torn)
	}
	var out []string
	for _, r := range results.Latest(recs) {
		b, _ := json.Marshal([]any{r.RunID, r.Dataset, r.Methods, r.Params, r.Seed, r.Restart, r.Status, r.Error,
			r.Metrics, r.Iterations, r.IterationsRun, r.Objective, r.Labels, r.Search, r.Plan, r.Info,
			r.HeldOutLabels, r.HeldOutIterationsRun})
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out
}

// searchKey names a trial of a row at a rung.
type searchKey struct {
	row         string
	trial, rung int
}

// runSearchConfig runs the config text on 2 workers into a new folder and returns the
// config, the folder and its records.
func runSearchConfig(t *testing.T, text string) (*Config, string, []results.Record) {
	t.Helper()
	cfg := mustLoad(t, text)
	dir := t.TempDir()
	executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2})
	recs, _, err := results.ReadRecords(filepath.Join(dir, results.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	return cfg, dir, recs
}

func executeSearch(t *testing.T, cfg *Config, opt Options) *Summary {
	t.Helper()
	sum, err := Execute(context.Background(), cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// The search's trials, rungs and cuts: every trial has its first rung with
// first_restarts restarts; the best third of each batch's rung goes on with all
// restarts; every record says its trial, rung and cut; continued fits ran only their
// own iterations.
func TestSearchHalving(t *testing.T) {
	cfg, dir, recs := runSearchConfig(t, searchConfig)
	latest := results.Latest(recs)
	restarts := map[searchKey]int{}
	cut := map[searchKey]bool{}
	ran, straight := 0, 0
	for _, r := range latest {
		if r.Search == nil || r.Status != results.StatusDone {
			t.Fatalf("record without search or failed: %+v", r)
		}
		k := searchKey{r.Search.Row, r.Search.Trial, r.Search.Rung}
		restarts[k]++
		cut[k] = cut[k] || r.Search.Cut
		if r.Iterations != []int{3, 9, 27}[r.Search.Rung] || len(r.Objective) != r.Iterations {
			t.Errorf("trial %d rung %d: %d iterations, %d objective values", r.Search.Trial, r.Search.Rung, r.Iterations, len(r.Objective))
		}
		if r.Search.Rung > 0 && r.Restart == 0 && r.IterationsRun != r.Iterations-[]int{3, 9, 27}[r.Search.Rung-1] {
			t.Errorf("continued fit of trial %d rung %d ran %d iterations", r.Search.Trial, r.Search.Rung, r.IterationsRun)
		}
		ran += r.IterationsRun
		straight += r.Iterations
	}
	perRung := map[string][3]int{}
	for k, n := range restarts {
		want := 2
		if k.rung == 0 {
			want = 1
		}
		if n != want {
			t.Errorf("%v: %d restarts, want %d", k, n, want)
		}
		c := perRung[k.row]
		c[k.rung]++
		perRung[k.row] = c
		if k.rung < 2 && !cut[k] != (restarts[searchKey{k.row, k.trial, k.rung + 1}] > 0) {
			t.Errorf("%v: cut %v, but went on: %v", k, cut[k], restarts[searchKey{k.row, k.trial, k.rung + 1}] > 0)
		}
		if k.rung == 2 && cut[k] {
			t.Errorf("%v cut at the last rung", k)
		}
	}
	// P: 3 batches of 6 trials → 2 → 1; Q: one batch of 5 → 1 → 1.
	if perRung["P"] != [3]int{18, 6, 3} || perRung["Q"] != [3]int{5, 1, 1} {
		t.Errorf("trials per rung: %v", perRung)
	}
	total := 0
	p, err := planSweep(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.searches {
		total += s.totalRuns()
	}
	if total != len(latest) {
		t.Errorf("planned %d fits, recorded %d", total, len(latest))
	}
	// Status: every trial done or cut; the best is a trial of the last rung.
	for _, st := range SearchStatusOf(cfg, recs) {
		want := map[string][2]int{"P": {3, 15}, "Q": {1, 4}}[st.Row]
		if st.Finished != want[0] || st.Cut != want[1] || st.Running != 0 || !st.Complete() || st.Best == nil || st.Best.Restarts != 2 {
			t.Errorf("status %+v", st)
		}
		// The summary's choice under the search's rule is the status's best.
		sel, err := results.Summarize(results.Aggregate(recs), []string{st.Rule})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sel {
			if s.Method == st.Row && (s.Point == nil || s.Point.Runs != 2 || s.Point.Mean["modularity"] != st.Best.Value ||
				!reflect.DeepEqual(withoutIterations(s.Point.Params), st.Best.Params)) {
				t.Errorf("%s: summary chose %+v, status's best %+v", st.Row, s.Point, st.Best)
			}
		}
	}
	if ran >= straight {
		t.Errorf("iterations run %d, not fewer than the records' %d", ran, straight)
	}
	// Settings recorded; no factors left behind once the search is over.
	if left, _ := filepath.Glob(filepath.Join(dir, results.SearchDir, "factors", "*")); len(left) != 0 {
		t.Errorf("factors left: %v", left)
	}
}

// A continued configuration's record is the record of the straight fit of the same
// length: the final rung of the search against a grid of the chosen points.
func TestSearchContinuedEqualsStraight(t *testing.T) {
	for _, c := range []struct{ name, text string }{{"halving", searchConfig}, {"hyperband", hyperbandConfig}} {
		t.Run(c.name, func(t *testing.T) {
			for _, whole := range []string{"", WholeGraphEveryRung, WholeGraphLastRung} {
				t.Run("whole_graph="+whole, func(t *testing.T) { testContinuedEqualsStraight(t, c.text, whole) })
			}
		})
	}
}

// testContinuedEqualsStraight checks the fits that continue from their trial's previous
// rung against fits run straight, without holdout (whole "") or with rule heldout and
// whole_graph whole: where only the held-out copy was fitted before the last rung, the
// whole graph's fit is run straight and the held-out one continued.
func testContinuedEqualsStraight(t *testing.T, text, whole string) {
	holdout := ""
	if whole != "" {
		holdout = "holdout: 0.2\n"
		text = strings.Replace(text, "rule: modularity", "rule: heldout, whole_graph: "+whole, 1)
	}
	cfg := mustLoad(t, holdout+text)
	dir := t.TempDir()
	executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 1})
	recs, _, _ := results.ReadRecords(filepath.Join(dir, results.RunsFile))
	checked := 0
	for _, r := range results.Latest(recs) {
		// (first_restarts 1: a restart after the first continues from the bracket's
		// second rung on)
		continued := r.Search.Rung > r.Search.Bracket && (r.Restart == 0 || r.Search.Rung-1 > r.Search.Bracket)
		if r.Search.Rung != 2 || r.Search.Row != "P" || !continued {
			continue
		}
		if (holdout != "") != (r.HeldOutLabels != "") {
			t.Fatalf("holdout %q, held-out labels %q", holdout, r.HeldOutLabels)
		}
		grid := holdout + `seed: 3
restarts: 2
metrics: [ari, modularity]
datasets: [synthetic]
methods:
  - name: G
    algorithm: nagc
    options: ` + mustJSON(t, r.Params) + "\n"
		gdir := t.TempDir()
		executeSearch(t, mustLoad(t, grid), Options{ResultsDir: gdir, Workers: 1})
		grecs, _, _ := results.ReadRecords(filepath.Join(gdir, results.RunsFile))
		for _, g := range grecs {
			if g.Restart != r.Restart {
				continue
			}
			checked++
			if g.Labels != r.Labels || !reflect.DeepEqual(g.Objective, r.Objective) || !reflect.DeepEqual(g.Metrics, r.Metrics) || !reflect.DeepEqual(g.Info, r.Info) || g.HeldOutLabels != r.HeldOutLabels {
				t.Errorf("trial %d restart %d: the continued fit differs from the straight one", r.Search.Trial, r.Restart)
			}
			switch ran := r.IterationsRun; {
			case whole == WholeGraphLastRung && (ran != g.Iterations || r.HeldOutIterationsRun >= g.Iterations):
				t.Errorf("trial %d restart %d ran %d iterations and %d held out: want the whole graph's straight, the held-out continued",
					r.Search.Trial, r.Restart, ran, r.HeldOutIterationsRun)
			case whole != WholeGraphLastRung && ran >= g.Iterations:
				t.Errorf("trial %d restart %d ran %d iterations: not continued", r.Search.Trial, r.Restart, ran)
			case whole == WholeGraphEveryRung && r.HeldOutIterationsRun != ran:
				t.Errorf("trial %d restart %d ran %d iterations, its held-out fit %d", r.Search.Trial, r.Restart, ran, r.HeldOutIterationsRun)
			}
		}
		if checked >= 4 {
			break
		}
	}
	if checked < 4 {
		t.Fatalf("checked %d fits", checked)
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The same records for 1 and 2 workers (with lockstep batches of 8), and for 3 shards
// merged.
func TestSearchDeterministic(t *testing.T) { forEachPruner(t, testSearchDeterministic) }

func testSearchDeterministic(t *testing.T, text string) {
	cfg := mustLoad(t, text)
	one, two := t.TempDir(), t.TempDir()
	executeSearch(t, cfg, Options{ResultsDir: one, Workers: 1})
	executeSearch(t, cfg, Options{ResultsDir: two, Workers: 2, Batch: 8}) // lockstep batches of a grid's fits
	a, b := searchRecords(t, one), searchRecords(t, two)
	for i := range a {
		if i < len(b) && a[i] != b[i] {
			t.Logf("%s\n%s", a[i], b[i])
			break
		}
	}
	p, err := planSweep(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != p.searches[0].totalRuns()+p.searches[1].totalRuns() || !reflect.DeepEqual(a, b) {
		t.Fatalf("1 and 2 workers differ (%d and %d records)", len(a), len(b))
	}
	var shards []string
	for i := 0; i < 3; i++ {
		d := t.TempDir()
		executeSearch(t, cfg, Options{ResultsDir: d, Workers: 2, Shard: i, Shards: 3})
		shards = append(shards, d)
	}
	merged := t.TempDir()
	if _, err := results.Merge(merged, shards); err != nil {
		t.Fatal(err)
	}
	if c := searchRecords(t, merged); !reflect.DeepEqual(a, c) {
		t.Errorf("3 shards merged differ from one run (%d and %d records)", len(a), len(c))
	}
}

// A search stopped after any number of runs and run again ends with the records of
// one never stopped, and executes no fit twice.
func TestSearchResume(t *testing.T) { forEachPruner(t, testSearchResume) }

func testSearchResume(t *testing.T, text string) {
	cfg := mustLoad(t, text)
	whole := t.TempDir()
	executeSearch(t, cfg, Options{ResultsDir: whole, Workers: 2})
	want := searchRecords(t, whole)
	for _, limit := range []int{1, 6, 7, 10, 11, 12, 13, 31, 49} {
		dir := t.TempDir()
		s1 := executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2, Limit: limit})
		s2 := executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 1})
		if got := searchRecords(t, dir); !reflect.DeepEqual(got, want) {
			t.Fatalf("stopped after %d runs: records differ from one run's", limit)
		}
		if s1.Done+s2.Done != len(want) {
			t.Errorf("stopped after %d runs: %d + %d fits executed, want %d", limit, s1.Done, s2.Done, len(want))
		}
	}
}

// A search whose settings changed after runs were recorded is refused, naming what
// changed.
func TestSearchSettingsChangedRefused(t *testing.T) {
	dir := t.TempDir()
	executeSearch(t, mustLoad(t, searchConfig), Options{ResultsDir: dir, Workers: 2, Limit: 3})
	changed := mustLoad(t, searchConfig[:len(searchConfig)-len("batch: 5}\n")]+"batch: 4}\n")
	_, err := Execute(context.Background(), changed, Options{ResultsDir: dir, Workers: 2})
	if err == nil || !strings.Contains(err.Error(), "batch 5 → 4") || !strings.Contains(err.Error(), "other settings") {
		t.Fatalf("changed settings: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, results.SearchDir)); err != nil {
		t.Fatal(err)
	}
}

// The proposals of one batch spread over the space (the constant liar): after 20
// trials whose best are at one combination, a batch of 10 TPE proposals does not land
// ten times at their k2 and ρ.
func TestSearchBatchSpreads(t *testing.T) {
	cfg := mustLoad(t, searchConfig)
	p, err := planSweep(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	task := p.searches[0]
	task.spec.Batch, task.spec.Trials = 10, 30
	var obs []search.Observation
	rng := search.NewRand(1)
	for i := 0; i < 20; i++ {
		x := search.Random(task.space, rng)
		x[0], x[2] = 0, 0.5+0.1*rng.Float64()
		v := 0.0
		if i < 2 { // the two best (γ(20) = 2) at k2 = 5, ρ = 0.99; the rest far from them
			x[0], x[2], v = 2, 0.99, 1
		}
		obs = append(obs, search.Observation{X: x, Value: v})
	}
	atBest := 0
	for _, x := range task.propose(2, obs, map[string]bool{}) {
		if x[0] == 2 && x[2] > 0.9 {
			atBest++
		}
	}
	if atBest > 7 {
		t.Errorf("%d of a batch of 10 proposals at the best trials' k2 and ρ", atBest)
	}
	t.Logf("%d of 10 at the best trials' k2 and ρ", atBest)
}

// A search's runs are counted in the Summary as a grid's are (nagc run prints it): the
// runs of its plan, those already recorded, and those this call ran.
func TestSearchSummaryCounts(t *testing.T) {
	cfg := mustLoad(t, searchConfig)
	whole := executeSearch(t, cfg, Options{ResultsDir: t.TempDir(), Workers: 2})
	if whole.Total == 0 || whole.Skipped != 0 || whole.Done != whole.Total {
		t.Fatalf("one run: %+v, want every run of the plan done", whole)
	}
	dir := t.TempDir()
	first := executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2, Limit: 7})
	second := executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2})
	third := executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2})
	for i, s := range []*Summary{first, second, third} {
		if s.Total != whole.Total {
			t.Errorf("call %d: total %d, want %d", i+1, s.Total, whole.Total)
		}
	}
	if first.Done != 7 || second.Skipped != 7 || second.Done != whole.Total-7 || third.Skipped != whole.Total || third.Done != 0 {
		t.Errorf("resumed: %+v, then %+v, then %+v", first, second, third)
	}
}

// Hyperband: every trial is in a bracket, starts at its bracket's rung with
// first_restarts restarts (all restarts in the last rung's bracket), and the best third
// of each batch's bracket at a rung goes on; the brackets get trials in proportion to
// 9 : 5 : 3; the records, the plan's count and the status agree.
func TestSearchHyperband(t *testing.T) {
	cfg, dir, recs := runSearchConfig(t, hyperbandConfig)
	latest := results.Latest(recs)
	restarts, cut, bracket := map[searchKey]int{}, map[searchKey]bool{}, map[searchKey]int{}
	trialBracket := map[[2]any]int{}
	for _, r := range latest {
		if r.Search == nil || r.Status != results.StatusDone {
			t.Fatalf("record without search or failed: %+v", r)
		}
		s := r.Search
		k := searchKey{s.Row, s.Trial, s.Rung}
		restarts[k]++
		cut[k] = cut[k] || s.Cut
		bracket[k] = s.Bracket
		if b, seen := trialBracket[[2]any{s.Row, s.Trial}]; seen && b != s.Bracket {
			t.Fatalf("trial %d in brackets %d and %d", s.Trial, b, s.Bracket)
		}
		trialBracket[[2]any{s.Row, s.Trial}] = s.Bracket
		if s.Rung < s.Bracket || r.Iterations != []int{3, 9, 27}[s.Rung] {
			t.Errorf("trial %d of bracket %d at rung %d: %d iterations", s.Trial, s.Bracket, s.Rung, r.Iterations)
		}
		wantRan := r.Iterations
		if s.Rung > s.Bracket && (r.Restart == 0 || s.Rung-1 > s.Bracket) { // first_restarts 1
			wantRan -= []int{3, 9, 27}[s.Rung-1]
		}
		if r.IterationsRun != wantRan {
			t.Errorf("trial %d of bracket %d at rung %d restart %d ran %d iterations, want %d", s.Trial, s.Bracket, s.Rung, r.Restart, r.IterationsRun, wantRan)
		}
	}
	// Per row, batch and bracket, the trials at each rung: n, then max(1, ⌊n/3⌋).
	type group struct {
		row            string
		batch, bracket int
	}
	atRung := map[group][3]int{}
	perBracket := map[string][3]int{}
	for k, n := range restarts {
		want := 2
		if k.rung == bracket[k] && k.rung < 2 {
			want = 1
		}
		if n != want {
			t.Errorf("%v (bracket %d): %d restarts, want %d", k, bracket[k], n, want)
		}
		if k.rung < 2 && !cut[k] != (restarts[searchKey{k.row, k.trial, k.rung + 1}] > 0) {
			t.Errorf("%v: cut %v, but went on: %v", k, cut[k], restarts[searchKey{k.row, k.trial, k.rung + 1}] > 0)
		}
		if k.rung == 2 && cut[k] {
			t.Errorf("%v cut at the last rung", k)
		}
		batch := 0
		for _, r := range latest {
			if r.Search.Row == k.row && r.Search.Trial == k.trial {
				batch = r.Search.Batch
			}
		}
		g := group{k.row, batch, bracket[k]}
		c := atRung[g]
		c[k.rung]++
		atRung[g] = c
		if k.rung == bracket[k] {
			pb := perBracket[k.row]
			pb[bracket[k]]++
			perBracket[k.row] = pb
		}
	}
	for g, c := range atRung {
		n := c[g.bracket]
		for k := g.bracket + 1; k < 3; k++ {
			n = max(1, n/3)
			if c[k] != n {
				t.Errorf("%+v: trials per rung %v", g, c)
			}
		}
	}
	// 18 trials split 9 : 5 : 3 (within one of 9.5, 5.3 and 3.2); 5 trials of Q: 3, 1, 1.
	if pb := perBracket["P"]; pb[0] < 9 || pb[0] > 10 || pb[1] < 5 || pb[1] > 6 || pb[2] < 3 || pb[2] > 4 || pb[0]+pb[1]+pb[2] != 18 {
		t.Errorf("P's trials per bracket: %v", pb)
	}
	if pb := perBracket["Q"]; pb != [3]int{3, 1, 1} {
		t.Errorf("Q's trials per bracket: %v", pb)
	}
	p, err := planSweep(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if total := p.searches[0].totalRuns() + p.searches[1].totalRuns(); total != len(latest) {
		t.Errorf("planned %d fits, recorded %d", total, len(latest))
	}
	for _, st := range SearchStatusOf(cfg, recs) {
		if !st.Complete() || st.Running != 0 || st.Best == nil || st.Best.Restarts != 2 {
			t.Errorf("status %+v", st)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, results.SearchDir, "factors", "*")); len(left) != 0 {
		t.Errorf("factors left: %v", left)
	}
}

// A search's records are the same whatever threads its fits' kernels use: one thread,
// and two threads per fit with two fits at once (the synthetic graph's 600 rows split
// into tasks at two threads).
func TestSearchKernelThreads(t *testing.T) {
	forEachPruner(t, func(t *testing.T, text string) {
		cfg := mustLoad(t, text)
		defer func(f func(int, int) int) { kernelThreads = f }(kernelThreads)
		var dirs []string
		for _, threads := range []int{1, 2} {
			used := 0
			kernelThreads = func(workers, concurrent int) int { used++; return threads }
			dir := t.TempDir()
			executeSearch(t, cfg, Options{ResultsDir: dir, Workers: threads})
			if used == 0 {
				t.Fatalf("%d threads: the search never set its kernels' threads", threads)
			}
			dirs = append(dirs, dir)
		}
		if a, b := searchRecords(t, dirs[0]), searchRecords(t, dirs[1]); len(a) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("records at 1 and 2 kernel threads differ (%d and %d records)", len(a), len(b))
		}
	})
}

// A label-reading rule on a graph without labels is refused once the graph is read,
// naming the file, line and key of the rule, before any fit runs.
func TestSearchLabelRuleOnUnlabeledGraph(t *testing.T) {
	root := t.TempDir()
	ownGraph(t, root, "plain", false)
	cfgPath := filepath.Join(root, "u.yaml")
	text := `name: u
seed: 1
restarts: 2
iterations: 9
metrics: [ari, modularity]
datasets: [{path: plain, labels: none, k1: 2}]
search:
  trials: 4
  rule: ari
methods:
  - name: P
    algorithm: nagc
    space: {lambda: {log: [1.0e-4, 10]}}
`
	if err := os.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	resDir := filepath.Join(root, "r")
	_, err = Execute(context.Background(), cfg, Options{ResultsDir: resDir, Workers: 1})
	want := cfgPath + ":9: rule: rule ari reads the labels, and dataset plain has none: use modularity, two-view or heldout"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant %s", err, want)
	}
	if recs, _, _ := results.ReadRecords(filepath.Join(resDir, results.RunsFile)); len(recs) != 0 {
		t.Errorf("%d runs recorded before the refusal", len(recs))
	}
}

// On a tie, the status's best is the summary's choice: the first grid point in
// canonical order, whatever the trials' numbers.
func TestSearchStatusTieIsSummaryChoice(t *testing.T) {
	cfg := mustLoad(t, searchConfig)
	var recs []results.Record
	for trial, lambda := range map[int]float64{1: 0.5, 2: 0.25, 3: 0.125} {
		for r := range 2 {
			mod := 0.7
			if trial == 1 {
				mod = 0.6
			}
			recs = append(recs, results.Record{RunID: fmt.Sprint(trial, r), Dataset: "synthetic", Methods: []string{"P"}, Restart: r, Plan: 2*trial + r,
				Status: results.StatusDone, Params: map[string]any{"lambda": lambda, "iterations": 27}, Metrics: map[string]float64{"modularity": mod},
				Search: &results.SearchInfo{Row: "P", Rule: "modularity", Trial: trial, Rungs: 1}})
		}
	}
	st := SearchStatusOf(cfg, recs)
	sel, err := results.Summarize(results.Aggregate(recs), []string{"modularity"})
	if err != nil || len(st) != 1 || st[0].Best == nil || len(sel) != 1 || sel[0].Point == nil {
		t.Fatalf("status %+v, summary %+v, %v", st, sel, err)
	}
	if got, want := st[0].Best.Params["lambda"], sel[0].Point.Params["lambda"]; got != want || got != 0.125 {
		t.Errorf("status's best λ = %v, the summary's choice %v (want 0.125, first in canonical order)", got, want)
	}
}

package experiments

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// chainConfig is searchConfig with a grid row beside its two searches.
var chainConfig = strings.Replace(searchConfig, "methods:\n", `methods:
  - name: G
    algorithm: nagc
    grid:
      lambda: [1.0e-2, 1]
      rho: [0.5, 0.95]
`, 1)

// chainStep is one array of a chain: the shares it ran and the fits each recorded.
type chainStep struct {
	shares int
	ran    [][]string // run ids recorded by each share
}

// runChain runs cfg as a chain into dir, as `nagc slurm --rungs` does with at most
// shares tasks an array: AdvanceChain, then every share of what is left into a
// folder of its own (each stopped after limit(step, share) runs where that is
// positive, as a task killed by its time limit), merged into dir; until dir holds
// the whole sweep. Before running, each share's ShareFits must name what it runs.
func runChain(t *testing.T, cfg *Config, dir string, shares int, limit func(step, share int) int) []chainStep {
	t.Helper()
	ctx := context.Background()
	var steps []chainStep
	for step := 1; ; step++ {
		st, err := AdvanceChain(ctx, cfg, dir)
		if err != nil {
			t.Fatal(err)
		}
		if st.Complete() {
			if st.Searches != 0 {
				t.Errorf("complete chain with %d searches waiting", st.Searches)
			}
			return steps
		}
		if step > 40 {
			t.Fatalf("the chain does not end: %+v", st)
		}
		n := min(shares, st.Work())
		cs := chainStep{shares: n}
		var dirs []string
		for i := 0; i < n; i++ {
			d := filepath.Join(dir, "rungs", fmt.Sprint(step), fmt.Sprintf("%d-of-%d", i+1, n))
			plan, err := ShareFits(ctx, cfg, dir, i, n)
			if err != nil {
				t.Fatal(err)
			}
			lim := limit(step, i)
			if _, err := ExecuteShare(ctx, cfg, Options{ResultsDir: d, Workers: 2, Shard: i, Shards: n, Limit: lim}, dir); err != nil {
				t.Fatal(err)
			}
			recs, _, err := results.ReadRecords(filepath.Join(d, results.RunsFile))
			if err != nil {
				t.Fatal(err)
			}
			var ran []string
			for _, r := range recs {
				if r.Search == nil || !r.Search.Cut { // a cut mark is not a fit
					ran = append(ran, r.RunID)
				}
			}
			for _, r := range plan {
				if lim <= 0 && !slices.Contains(ran, r.ID) {
					t.Fatalf("step %d share %d/%d: ShareFits planned %s, the share did not run it", step, i+1, n, r.ID)
				}
			}
			cs.ran = append(cs.ran, ran)
			dirs = append(dirs, d)
		}
		if _, err := results.Merge(dir, dirs); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, cs)
	}
}

// A sweep of a grid row and two searches run as a chain of arrays of 3 shares has the
// records of one machine, every fit recorded once; the fits of a rung are split
// among the shares; and a chain whose shares are stopped mid-rung (a time limit)
// finishes to the same records, the next array running what they left.
func TestChainEqualsOneMachine(t *testing.T) {
	forEachPruner(t, testChainEqualsOneMachine)
	// With held-out fits, whose factors a rung keeps too, under rule heldout.
	t.Run("heldout", func(t *testing.T) {
		testChainEqualsOneMachine(t, "holdout: 0.2\n"+strings.Replace(searchConfig, "rule: modularity", "rule: heldout", 1))
	})
}

func testChainEqualsOneMachine(t *testing.T, text string) {
	text = strings.Replace(text, "methods:\n", chainConfig[strings.Index(chainConfig, "methods:\n"):strings.Index(chainConfig, "  - name: P")], 1)
	cfg := mustLoad(t, text)
	one := t.TempDir()
	executeSearch(t, cfg, Options{ResultsDir: one, Workers: 2})
	want := searchRecords(t, one)
	for _, c := range []struct {
		name  string
		limit func(step, share int) int
	}{
		{"whole", func(int, int) int { return 0 }},
		{"killed", func(step, share int) int { // share 2 of every odd array stops after 1 run
			if step%2 == 1 && share == 1 {
				return 1
			}
			return 0
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			steps := runChain(t, cfg, dir, 3, c.limit)
			if got := searchRecords(t, dir); !reflect.DeepEqual(got, want) {
				t.Fatalf("chain of %d arrays: %d records, one machine %d; they differ", len(steps), len(got), len(want))
			}
			seen := map[string]bool{}
			split := 0
			for _, s := range steps {
				busy := 0
				for _, ran := range s.ran {
					for _, id := range ran {
						if seen[id] {
							t.Errorf("run %s fitted twice", id)
						}
						seen[id] = true
					}
					if len(ran) > 0 {
						busy++
					}
				}
				if busy > 1 {
					split++
				}
			}
			if len(seen) != len(want) {
				t.Errorf("%d fits recorded by the shares, want %d", len(seen), len(want))
			}
			if len(steps) < 3 || split < len(steps)/2 {
				t.Errorf("%d arrays, %d of them with more than one busy share: the rungs were not split", len(steps), split)
			}
		})
	}
}

// Which fits a share runs: the shares of a state of the chain partition what is
// left of each search's current rung (and of the grid), so that no fit runs twice and
// none waits for a task that will not run it.
func TestShareFitsPartition(t *testing.T) {
	cfg := mustLoad(t, chainConfig)
	ctx := context.Background()
	dir := t.TempDir()
	// A state mid-sweep: the grid runs and part of the first rungs recorded, one grid
	// run failed (a result: the chain does not run it again).
	executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2, Limit: 9})
	recs, _, err := results.ReadRecords(filepath.Join(dir, results.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(recs, func(r results.Record) bool { return r.Search == nil })
	failed := recs[i]
	failed.Status, failed.Error = results.StatusFailed, "diverged"
	if err := appendFile(filepath.Join(dir, results.RunsFile), &failed); err != nil {
		t.Fatal(err)
	}
	st, err := AdvanceChain(ctx, cfg, dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Grid != 0 || st.Searches != 2 || st.Fits == 0 {
		t.Fatalf("state after 9 runs: %+v, want the grid done and both searches waiting for fits", st)
	}
	for _, n := range []int{1, 2, 3, 7} {
		got := map[string]int{}
		for i := 0; i < n; i++ {
			runs, err := ShareFits(ctx, cfg, dir, i, n)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range runs {
				got[r.ID]++
			}
		}
		if len(got) != st.Fits {
			t.Errorf("%d shares plan %d distinct fits, want the %d left", n, len(got), st.Fits)
		}
		for id, k := range got {
			if k != 1 {
				t.Errorf("%d shares: fit %s planned %d times", n, id, k)
			}
		}
	}
	// A share's progress line counts its own fits still to run: those ShareFits plans.
	for i := 0; i < 2; i++ {
		runs, err := ShareFits(ctx, cfg, dir, i, 2)
		if err != nil {
			t.Fatal(err)
		}
		var p startCounts
		if _, err := ExecuteShare(ctx, cfg, Options{ResultsDir: t.TempDir(), Shard: i, Shards: 2, Workers: 2, Progress: &p}, dir); err != nil {
			t.Fatal(err)
		}
		// (its shard's grid runs, all recorded in the chain's folder, count as done)
		if p.total-p.done != len(runs) || p.finished != len(runs) {
			t.Errorf("share %d of 2: progress %+v, want %d fits to run", i+1, p, len(runs))
		}
	}
	if _, err := ShareFits(ctx, cfg, dir, 3, 3); err == nil {
		t.Error("share 4 of 3 accepted")
	}
	if _, err := ExecuteShare(ctx, cfg, Options{ResultsDir: dir, Shard: 0, Shards: 2}, dir); err == nil {
		t.Error("a share recording into the chain's own folder accepted")
	}
}

// startCounts is a Progress that keeps what Start was told and counts the records.
type startCounts struct{ total, done, finished int }

func (p *startCounts) Start(total, done int)      { p.total, p.done = total, done }
func (p *startCounts) Finished(r *results.Record) { p.finished++ }
func (p *startCounts) Stop()                      {}

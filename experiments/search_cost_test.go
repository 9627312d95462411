package experiments

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/commandtest"
	"github.com/nagc-harness/nagc/results"
)

// TestSearchCostsMatchTheRecords checks that SearchCosts says, before a search runs, the
// fits and iterations its records then hold (each run once, the sums of its
// iterations_run and heldout_iterations_run), with halving and with Hyperband, with one
// restart or several at the first rung, and with rule heldout fitting the whole graph
// at the last rung only or at every rung.
func TestSearchCostsMatchTheRecords(t *testing.T) {
	// A program is refitted at each rung: its fits run all their rung's iterations.
	program := strings.Replace(programSearch(SamplerTPE, PruneHalving), ", "+commandtest.Exit1+"]", "]", 1)
	everyRung := strings.Replace(sharedStartSearch, "first_restarts: 1}", "first_restarts: 1, whole_graph: every_rung}", 1)
	for _, text := range []string{searchConfig, hyperbandConfig, sharedStartSearch, everyRung, program} {
		cfg := mustLoad(t, text)
		costs, err := SearchCosts(cfg)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := Execute(context.Background(), cfg, Options{ResultsDir: dir, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		type size struct{ fits, iterations, heldOutFits, heldOutIterations, restarts int }
		got := map[string]*size{}
		for _, r := range results.Latest(mustRecords(t, dir)) {
			k := fmt.Sprint(r.Dataset, "/", r.Search.Row)
			if got[k] == nil {
				got[k] = &size{}
			}
			if !r.Search.HeldOutOnly {
				got[k].fits++
			}
			if r.Holdout > 0 {
				got[k].heldOutFits++
			}
			got[k].iterations += r.IterationsRun
			got[k].heldOutIterations += r.HeldOutIterationsRun
			got[k].restarts = max(got[k].restarts, r.Restart+1)
		}
		if len(costs) != len(got) || len(costs) == 0 {
			t.Fatalf("%s: %d costs for %d searches recorded", cfg.Name, len(costs), len(got))
		}
		for _, c := range costs {
			g := got[c.Dataset+"/"+c.Row]
			if want := (size{c.Fits, c.Iterations, c.HeldOutFits, c.HeldOutIterations, c.Restarts}); g == nil || *g != want {
				t.Errorf("%s, %s on %s: cost %+v; recorded %+v", cfg.Name, c.Row, c.Dataset, want, g)
			}
			if c.Holdout != cfg.Holdout || len(c.Rungs) < 2 || c.Trials == 0 {
				t.Errorf("%s, %s: %+v", cfg.Name, c.Row, c)
			}
		}
	}
}

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
// fits and iterations its records then hold (each run once, the sum of its
// iterations_run), with halving and with Hyperband, and with one restart or several at
// the first rung.
func TestSearchCostsMatchTheRecords(t *testing.T) {
	// A program is refitted at each rung: its fits run all their rung's iterations.
	program := strings.Replace(programSearch(SamplerTPE, PruneHalving), ", "+commandtest.Exit1+"]", "]", 1)
	for _, text := range []string{searchConfig, hyperbandConfig, sharedStartSearch, program} {
		cfg := mustLoad(t, text)
		costs, err := SearchCosts(cfg)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := Execute(context.Background(), cfg, Options{ResultsDir: dir, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		type size struct{ fits, iterations, restarts int }
		got := map[string]*size{}
		for _, r := range results.Latest(mustRecords(t, dir)) {
			k := fmt.Sprint(r.Dataset, "/", r.Search.Row)
			if got[k] == nil {
				got[k] = &size{}
			}
			got[k].fits++
			got[k].iterations += r.IterationsRun
			got[k].restarts = max(got[k].restarts, r.Restart+1)
		}
		if len(costs) != len(got) || len(costs) == 0 {
			t.Fatalf("%s: %d costs for %d searches recorded", cfg.Name, len(costs), len(got))
		}
		for _, c := range costs {
			g := got[c.Dataset+"/"+c.Row]
			if g == nil || *g != (size{c.Fits, c.Iterations, c.Restarts}) {
				t.Errorf("%s, %s on %s: cost %d fits, %d iterations, %d restarts; recorded %+v",
					cfg.Name, c.Row, c.Dataset, c.Fits, c.Iterations, c.Restarts, g)
			}
			if c.Holdout != cfg.Holdout || len(c.Rungs) < 2 || c.Trials == 0 {
				t.Errorf("%s, %s: %+v", cfg.Name, c.Row, c)
			}
		}
	}
}

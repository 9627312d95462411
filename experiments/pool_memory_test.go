package experiments

import (
	"context"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/memory"
)

// TestOneFitCheckedAsOne checks that a sweep of a single fit, run with two workers,
// checks its memory as one fit, not as two running at once: under a budget of 1.5 times
// the fit's estimate it runs, for a grid row and for a search row.
func TestOneFitCheckedAsOne(t *testing.T) {
	g, err := datasets.Load("synthetic")
	if err != nil {
		t.Fatal(err)
	}
	m, err := algorithms.New("nagc", map[string]any{"init": "random", "iterations": 2})
	if err != nil {
		t.Fatal(err)
	}
	in := algorithms.Input{Adj: g.Adj, X: g.X, Truth: g.Labels}
	est, ok := algorithms.EstimateMemory(m, in, g.K())
	if !ok {
		t.Fatal("nagc has no memory estimate")
	}
	defer memory.SetLimit(0)
	for name, text := range map[string]string{
		"grid": "datasets: [synthetic]\nmethods:\n  - name: P\n    algorithm: nagc\n    options: {init: random, iterations: 2}\n",
		"search": "datasets: [synthetic]\nmethods:\n  - name: P\n    algorithm: nagc\n    options: {init: random, iterations: 2}\n" +
			"    space: {lambda: [0.01]}\n    search: {trials: 1}\n",
	} {
		t.Run(name, func(t *testing.T) {
			memory.SetLimit(est * 3 / 2)
			sum, err := Execute(context.Background(), mustLoad(t, text), Options{ResultsDir: t.TempDir(), Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Total != 1 || sum.Done != 1 || sum.Failed != 0 {
				t.Errorf("one fit under 1.5× its estimate with 2 workers: %+v (%v), want it done", sum, sum.Failures)
			}
		})
	}
}

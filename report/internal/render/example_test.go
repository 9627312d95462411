package render_test

import (
	"fmt"
	"log"
	"os"

	"github.com/nagc-harness/nagc/report/internal/render"
	"github.com/nagc-harness/nagc/results"
)

// Records of a small sweep (one row, two values of λ, two restarts each) aggregated per
// grid point: the point each rule selects, and grid.csv.
func ExampleNewResults() {
	var recs []results.Record
	for _, run := range []struct {
		lambda     float64
		restart    int
		ari, modul float64
	}{
		{1e-4, 0, 0.90, 0.70}, {1e-4, 1, 1.00, 0.72},
		{1e-2, 0, 0.80, 0.74}, {1e-2, 1, 0.80, 0.74},
	} {
		recs = append(recs, results.Record{
			RunID:   fmt.Sprintf("webkb|NAGC|%g|%d", run.lambda, run.restart),
			Dataset: "webkb", Methods: []string{"NAGC"}, Algorithm: "nagc",
			Params: map[string]any{"lambda": run.lambda}, K1: 4, Restart: run.restart,
			Status: results.StatusDone, FitSeconds: 1,
			Metrics: map[string]float64{"ari": run.ari, "modularity": run.modul},
		})
	}
	r, err := render.NewResults(recs, nil, nil, results.SelectModularity)
	if err != nil {
		log.Fatal(err)
	}
	for _, rule := range r.Rules("webkb") {
		p := r.Selected(rule, "webkb", "NAGC")
		fmt.Printf("%s: %s (ARI %.2f)\n", rule, render.ParamString(p.Params), p.Mean["ari"])
	}
	if err := render.WriteGridCSV(os.Stdout, r); err != nil {
		log.Fatal(err)
	}
	// Output:
	// ari: lambda=1e-4 (ARI 0.95)
	// modularity: lambda=0.01 (ARI 0.80)
	// dataset,method,lambda,params,metric,mean,std,n,failed
	// webkb,NAGC,0.0001,lambda=1e-4,ari,0.95,0.04999999999999999,2,0
	// webkb,NAGC,0.0001,lambda=1e-4,modularity,0.71,0.010000000000000009,2,0
	// webkb,NAGC,0.0001,lambda=1e-4,fit_seconds,1,0,2,0
	// webkb,NAGC,0.01,lambda=0.01,ari,0.8,0,2,0
	// webkb,NAGC,0.01,lambda=0.01,modularity,0.74,0,2,0
	// webkb,NAGC,0.01,lambda=0.01,fit_seconds,1,0,2,0
}

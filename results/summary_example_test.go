package results_test

import (
	"fmt"
	"os"

	"github.com/nagc-harness/nagc/results"
)

// Two grid points of one method, two restarts each: the paper's rule (best mean ARI,
// reading the labels) and the label-free modularity rule choose different points, and
// the summary says which reads the labels and how many vertices the label-reading
// metrics score.
func ExampleWriteSummaryCSV() {
	rec := func(id string, lambda float64, restart int, ari, q float64) results.Record {
		return results.Record{RunID: id, Dataset: "mine", Methods: []string{"Prop."}, Algorithm: "nagc",
			Params: map[string]any{"lambda": lambda}, Restart: restart, Status: results.StatusDone,
			Metrics: map[string]float64{"ari": ari, "modularity": q}}
	}
	recs := []results.Record{
		rec("a0", 0.01, 0, 0.50, 0.60), rec("a1", 0.01, 1, 0.70, 0.62),
		rec("b0", 1, 0, 0.40, 0.70), rec("b1", 1, 1, 0.40, 0.72),
	}
	points := results.Aggregate(recs)
	sel, err := results.Summarize(points, []string{results.SelectARI, results.SelectModularity})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The dataset labels 140 of its 2708 vertices (as recorded in sweeps.jsonl): ARI is
	// over those 140.
	results.SetCoverage(sel, map[string]results.Coverage{"mine": {Labeled: 140, N: 2708}})
	if err := results.WriteSummaryCSV(os.Stdout, sel); err != nil {
		fmt.Println(err)
	}
	// Output:
	// dataset,method,rule,reads_labels,params,metric,mean,std,n,failed,scored,vertices
	// mine,Prop.,ari,true,lambda=0.01,ari,0.6,0.09999999999999998,2,0,140,2708
	// mine,Prop.,ari,true,lambda=0.01,modularity,0.61,0.010000000000000009,2,0,140,2708
	// mine,Prop.,modularity,false,lambda=1,ari,0.4,0,2,0,140,2708
	// mine,Prop.,modularity,false,lambda=1,modularity,0.71,0.010000000000000009,2,0,140,2708
}

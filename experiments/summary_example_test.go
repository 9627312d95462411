package experiments_test

import (
	"fmt"
	"os"

	"github.com/nagc-harness/nagc/experiments"
)

// Two grid points of one method, two restarts each: the paper's rule (best mean ARI,
// reading the labels) and the label-free modularity rule choose different points, and
// the summary says which reads the labels.
func ExampleWriteSummaryCSV() {
	rec := func(id string, lambda float64, restart int, ari, q float64) experiments.Record {
		return experiments.Record{RunID: id, Dataset: "mine", Methods: []string{"Prop."}, Algorithm: "nagc",
			Params: map[string]any{"lambda": lambda}, Restart: restart, Status: experiments.StatusDone,
			Metrics: map[string]float64{"ari": ari, "modularity": q}}
	}
	recs := []experiments.Record{
		rec("a0", 0.01, 0, 0.50, 0.60), rec("a1", 0.01, 1, 0.70, 0.62),
		rec("b0", 1, 0, 0.40, 0.70), rec("b1", 1, 1, 0.40, 0.72),
	}
	points := experiments.Aggregate(recs)
	sel, err := experiments.Summarize(points, []string{experiments.SelectARI, experiments.SelectModularity})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := experiments.WriteSummaryCSV(os.Stdout, sel); err != nil {
		fmt.Println(err)
	}
	// Output:
	// dataset,method,rule,reads_labels,params,metric,mean,std,n,failed
	// mine,Prop.,ari,true,lambda=0.01,ari,0.6,0.09999999999999998,2,0
	// mine,Prop.,ari,true,lambda=0.01,modularity,0.61,0.010000000000000009,2,0
	// mine,Prop.,modularity,false,lambda=1,ari,0.4,0,2,0
	// mine,Prop.,modularity,false,lambda=1,modularity,0.71,0.010000000000000009,2,0
}

package algorithms_test

import (
	"context"
	"fmt"
	"os"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// Quick is a method of the user's own: nagc's k-means of the attributes, with Starts
// random starts and at most 20 iterations each.
type Quick struct {
	Starts int `yaml:"starts"`
}

func (Quick) Name() string { return "quick-kmeans" }

func (q Quick) Fit(ctx context.Context, in algorithms.Input, k int, seed uint64) (*algorithms.Result, error) {
	return algorithms.KMeans{NInit: q.Starts, MaxIter: 20}.Fit(ctx, in, k, seed)
}

// A Go method registered from the user's own main package is swept like a built-in one.
func ExampleRegister() {
	if err := algorithms.Register("quick-kmeans", func() any { return &Quick{Starts: 1} }); err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := experiments.ParseConfig("mine.yaml", []byte(`seed: 1
datasets: [synthetic]
methods:
  - {name: Quick, algorithm: quick-kmeans, grid: {starts: [1, 5]}}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, _ := os.MkdirTemp("", "quick-*")
	defer os.RemoveAll(dir)
	sum, err := experiments.Execute(context.Background(), cfg, experiments.Options{ResultsDir: dir, Workers: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	recs, _ := results.Load(dir)
	for _, r := range recs {
		fmt.Printf("%s %v: ARI %.2f\n", r.Methods[0], r.Params, r.Metrics["ari"])
	}
	fmt.Printf("%d runs done, %d failed\n", sum.Done, sum.Failed)
	// Output:
	// Quick map[starts:1]: ARI 0.92
	// Quick map[starts:5]: ARI 0.92
	// 2 runs done, 0 failed
}

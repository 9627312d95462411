package experiments_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// A config is parsed and checked before anything runs; Plan lists its runs: every row on
// every dataset, at every grid point ("k1" is the dataset's number of classes), restarts
// times.
func ExampleParseConfig() {
	cfg, err := experiments.ParseConfig("mine.yaml", []byte(`
name: mine
seed: 1
restarts: 2
datasets: [synthetic]
methods:
  - name: Prop.
    algorithm: nagc
    grid: {lambda: [0.01, 1], k2: [k1, 8]}
  - {name: METIS, algorithm: metis}
`))
	if err != nil {
		log.Fatal(err)
	}
	runs, err := experiments.Plan(cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(runs), "runs; the first:", runs[0].Dataset, runs[0].Algorithm, results.FormatParams(runs[0].Params), "restart", runs[0].Restart)

	_, err = experiments.ParseConfig("bad.yaml", []byte("name: bad\ndatasets: [synthetic]\nmethods:\n  - {name: P, algoritm: nagc}\n"))
	fmt.Println(err)
	// Output:
	// 10 runs; the first: synthetic nagc k2=4 lambda=0.01 restart 0
	// bad.yaml:4: unknown key 'algoritm' (did you mean 'algorithm'?) (keys here: name, algorithm, options, grid, datasets, command, timeout, reads_labels, space, search)
}

// Cluster fits one method once and scores the clustering as a sweep's runner would.
func ExampleCluster() {
	g, err := datasets.Synthetic(datasets.DefaultSynthetic())
	if err != nil {
		log.Fatal(err)
	}
	m, err := algorithms.New("nagc", map[string]any{"lambda": 0.01, "rho": 0.75})
	if err != nil {
		log.Fatal(err)
	}
	c, err := experiments.Cluster(context.Background(), g, m, g.K(), 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s on %s (n=%d, k1=%d): ARI %.3f, modularity %.3f, %d iterations\n",
		c.Method.Name(), g.Name, g.N(), c.K1, c.Scores.ARI, c.Scores.Modularity, c.Result.Iterations)
	// Output:
	// nagc on synthetic (n=600, k1=4): ARI 0.982, modularity 0.634, 100 iterations
}

// Execute records every run of a config into a results folder; run again, it finds them
// recorded and runs nothing (a sweep stopped half-way resumes the same way).
func ExampleExecute() {
	dir, err := os.MkdirTemp("", "results")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cfg, err := experiments.ParseConfig("tiny.yaml", []byte(`
name: tiny
restarts: 3
datasets: [synthetic]
methods:
  - {name: k-means, algorithm: kmeans}
  - {name: SNMF, algorithm: snmf}
`))
	if err != nil {
		log.Fatal(err)
	}
	for range 2 {
		sum, err := experiments.Execute(context.Background(), cfg, experiments.Options{ResultsDir: dir, Workers: 2})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d runs: %d already recorded, %d done, %d failed\n", sum.Total, sum.Skipped, sum.Done, sum.Failed)
	}
	recs, err := results.Load(dir)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(recs), "records in", filepath.Base(filepath.Join(dir, results.RunsFile)))
	// Output:
	// 6 runs: 0 already recorded, 6 done, 0 failed
	// 6 runs: 6 already recorded, 0 done, 0 failed
	// 6 records in runs.jsonl
}

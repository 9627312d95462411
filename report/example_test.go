package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/nagc-harness/nagc/report"
	"github.com/nagc-harness/nagc/results"
)

// The report of a small sweep of one's own graph (one row, two values of λ, two restarts
// each, no labels): its tables as Markdown, without figures.
func ExampleGenerate() {
	dir, err := os.MkdirTemp("", "results")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var runs bytes.Buffer // runs.jsonl, as nagc run writes it
	enc := json.NewEncoder(&runs)
	for i, modularity := range []float64{0.70, 0.72, 0.74, 0.74} {
		lambda := []float64{1e-4, 1e-2}[i/2]
		if err := enc.Encode(results.Record{
			RunID:   fmt.Sprintf("mygraph|NAGC|%g|%d", lambda, i%2),
			Dataset: "mygraph", Methods: []string{"NAGC"}, Algorithm: "nagc",
			Params: map[string]any{"lambda": lambda}, K1: 4, Restart: i % 2,
			Status: results.StatusDone, FitSeconds: 1,
			Metrics: map[string]float64{"modularity": modularity},
		}); err != nil {
			log.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, results.RunsFile), runs.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	rep, err := report.Generate(report.Options{
		ResultsDir: dir,
		OutDir:     filepath.Join(dir, "report"),
		Formats:    []string{"md"},
		NoFigures:  true,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range rep.Files {
		fmt.Println(f)
	}
	md, _ := os.ReadFile(filepath.Join(rep.Dir, "rows_mygraph.md"))
	fmt.Print(string(md))
	// Output:
	// datasets.md
	// rows_mygraph.md
	// grid.csv
	// sweep_mygraph.md
	// REPORT.md
	// ## mygraph: every row at its selected grid point
	//
	// *Mean ± population std over the restarts of the grid point each rule selects per row; parameters: every option of the chosen point (swept and fixed). Rules: best mean modularity over restarts (label-free: reads no labels).*
	//
	// | Row | Selection | Parameters | modularity | fit (s) | restarts |
	// |---|---|---|---:|---:|---:|
	// | NAGC | best modularity (label-free) | lambda=0.01 | 0.740 ± 0.000 | 1.00 | 2 |
	//
	// No run on mygraph recorded ARI (no labels): only the label-free rule selects.
}

package bench

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/nagc-harness/nagc/internal/paperplot/plottest"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata from the rendered ones")

// TestPlotGrowthGolden draws the growth figure of two methods (a synthetic series each,
// nagc's with two of the paper's graphs beside it, and a failed fit left out) and
// compares it with testdata/growth_golden.png within plottest's colour distance.
func TestPlotGrowthGolden(t *testing.T) {
	var results []Result
	for i, w := range []int{10_000, 100_000, 1_000_000} {
		f := float64(i)
		results = append(results,
			Result{Case: "synthetic", Method: "nagc", Work: w, Median: 0.002 * (1 + 9*f + 90*f*f/2), Synthetic: true},
			Result{Case: "synthetic", Method: "snmf", Work: w, Median: 0.004 * (1 + 14*f + 190*f*f/2), Synthetic: true})
	}
	results = append(results,
		Result{Case: "cora", Method: "nagc", Work: 54_000, Median: 0.03},
		Result{Case: "pubmed", Method: "nagc", Work: 1_050_000, Median: 0.5},
		Result{Case: "cora", Method: "snmf", Work: 54_000, Err: "diverged"})
	path := filepath.Join(t.TempDir(), "growth.png")
	if err := PlotGrowth(path, results); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	plottest.CheckPNG(t, filepath.Join("testdata", "growth_golden.png"), got, *update)
}

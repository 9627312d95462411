package bench

import (
	"bytes"
	"context"
	"encoding/csv"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestGrowthExponent(t *testing.T) {
	// time = 2e-6 · work^1.5 exactly: the fitted slope is 1.5.
	var rs []Result
	for _, w := range []int{1000, 10000, 100000} {
		rs = append(rs, Result{Method: "m", Work: w, Median: 2e-6 * math.Pow(float64(w), 1.5), Synthetic: true})
	}
	rs = append(rs, Result{Method: "m", Work: 50, Median: 100}) // a paper graph: not fitted
	b, err := GrowthExponent(rs, "m", 0)
	if err != nil || math.Abs(b-1.5) > 1e-12 {
		t.Errorf("exponent %v, %v; want 1.5", b, err)
	}
	if _, err := GrowthExponent(rs[:1], "m", 0); err == nil {
		t.Error("one size fitted")
	}
}

func TestRunWritesCSVAndPlot(t *testing.T) {
	cases, err := SyntheticSeries([]int{200, 400}, 1)
	if err != nil {
		t.Fatal(err)
	}
	methods := []Method{
		{Name: "nagc", Algo: "nagc", Params: map[string]any{"init": "random", "rho": 0.9, "lambda": 0.01, "iterations": 5}},
		{Name: "bad", Algo: "nagc", Params: map[string]any{"k2": 100000}},
	}
	var seen int
	results, err := Run(context.Background(), cases, methods, Options{Repeats: 2, Progress: func(Result) { seen++ }})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 4 || seen != 4 {
		t.Fatalf("%d results, %d progress calls", len(results), seen)
	}
	for _, r := range results {
		switch r.Method {
		case "nagc":
			if r.Err != "" || len(r.Seconds) != 2 || r.Iterations != 5 || !(r.PerIteration > 0) || r.PeakHeapBytes == 0 {
				t.Errorf("nagc result %+v", r)
			}
			if r.Work != r.Edges+r.NNZX || r.N != map[string]int{"synthetic-200": 200, "synthetic-400": 400}[r.Case] {
				t.Errorf("sizes %+v", r)
			}
		case "bad":
			if r.Err == "" {
				t.Error("failing method reported no error")
			}
		}
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, results); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 5 || len(rows[0]) != len(CSVHeader) {
		t.Fatalf("csv: %d rows, %v", len(rows), err)
	}
	path := filepath.Join(t.TempDir(), "growth.png")
	if err := PlotGrowth(path, results); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 500 || b.Dy() < 300 {
		t.Errorf("plot is %v", b)
	}
}

// TestPlotGrowthOnePoint plots a single fit under a second (nagc bench --sizes none
// --methods metis on one graph): the log axes span one value, which used to panic.
func TestPlotGrowthOnePoint(t *testing.T) {
	results := []Result{{Case: "cora", Method: "metis", Work: 54_000, Median: 0.05, Seconds: []float64{0.05}}}
	path := filepath.Join(t.TempDir(), "growth.pdf")
	if err := PlotGrowth(path, results); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Fatalf("no figure written: %v", err)
	}
}

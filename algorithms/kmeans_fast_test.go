package algorithms

import (
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/sparse"
)

// TestKMeansFastARIOnPaperGraphs bounds the fast k-means' ARI on the paper's four graphs
// by the default's restarts over three seeds, give or take 0.02 (float32 distances may
// settle a tie the other way). Citeseer's and Cora's attributes, below
// FastRowsDensity, stay sparse float64 there.
func TestKMeansFastARIOnPaperGraphs(t *testing.T) { fastARIWithinRestarts(t, "kmeans", 3, 0.02) }

// TestSGCKMeansFastARIOnPaperGraphs is TestKMeansFastARIOnPaperGraphs for sgc-kmeans at
// its defaults (p = 16, rank 32), its filter in float32 too.
func TestSGCKMeansFastARIOnPaperGraphs(t *testing.T) {
	fastARIWithinRestarts(t, "sgc-kmeans", 3, 0.02)
}

// TestFastKMeansMethods checks that precision fast reaches the k-means of the kmeans and
// sgc-kmeans methods and NAGC's k-means start: their info records it, the default's
// records nothing of it, and on planted classes both precisions recover the classes.
func TestFastKMeansMethods(t *testing.T) {
	adj, x, truth := shapeGraph(3_000, 10, 40, 6, 0.8, 11)
	for _, layout := range []string{"sparse", "dense float64"} {
		in := Input{Adj: adj, X: x, Truth: truth, Cache: NewCache()}
		if layout != "sparse" {
			in = withDenseX(in, false)
		}
		for _, method := range []string{"kmeans", "sgc-kmeans", "nagc"} {
			for _, p := range []string{"", PrecisionFast} {
				res := fitAtPrecision(t, method, p, in, 6, 3)
				info, ok := res.Info["precision"]
				switch {
				case p == "" && ok:
					t.Errorf("%s %s default: info precision %q, want none", layout, method, info)
				case p != "" && !strings.HasPrefix(info, "fast: float32 k-means") && method != "nagc":
					t.Errorf("%s %s fast: info precision %q", layout, method, info)
				case p != "" && method == "nagc" && !strings.Contains(info, "k-means start in float32"):
					t.Errorf("%s nagc fast: info precision %q, want the start's precision", layout, info)
				}
				ari, _ := metrics.ARI(truth, res.Labels)
				if ari < 0.7 {
					t.Errorf("%s %s %q: ARI %.3f on planted classes", layout, method, p, ari)
				}
			}
		}
	}
}

// TestFastRows checks the rows the fast k-means clusters: float32 copies of dense float64
// rows and of a dense enough CSR, the values rounded; a sparse CSR as it is.
func TestFastRows(t *testing.T) {
	_, x, _ := shapeGraph(500, 5, 30, 4, 0.8, 2)
	p, rows := fastRows(points{csr: x}, 4)
	if n, m := x.Dims(); float64(x.NNZ()) < FastRowsDensity*float64(n*m) {
		t.Fatalf("the test's CSR holds %d of %d×%d entries, below FastRowsDensity", x.NNZ(), n, m)
	}
	if p.dense == nil || !p.dense.Is32() || !strings.HasPrefix(rows, "dense float32") {
		t.Fatalf("dense enough CSR: %q, want dense float32 rows", rows)
	}
	n, m := x.Dims()
	for i := range n {
		got := p.dense.RowTo(make([]float64, m), i)
		cols, vals := x.Row(i)
		dense := make([]float64, m)
		for q, j := range cols {
			dense[j] = float64(float32(vals[q]))
		}
		for j := range m {
			if got[j] != dense[j] {
				t.Fatalf("row %d column %d: %v, want %v", i, j, got[j], dense[j])
			}
		}
	}
	ptr, ind, val := make([]int, 101), make([]int, 100), make([]float64, 100)
	for i := range 100 {
		ptr[i+1], ind[i], val[i] = i+1, (7*i)%1000, 1
	}
	sp, err := sparse.NewCSR(100, 1000, ptr, ind, val)
	if err != nil {
		t.Fatal(err)
	}
	if p, rows := fastRows(points{csr: sp}, 3); p.csr != sp || !strings.HasPrefix(rows, "sparse float64") {
		t.Errorf("sparse CSR: %q, want it as it is", rows)
	}
	d := dense.NewMatrix64(2, 2, []float64{0.1, 0.2, 0.3, 0.4})
	if p, rows := fastRows(points{dense: d}, 2); p.dense == nil || !p.dense.Is32() || p.dense.At(1, 0) != float64(float32(0.3)) {
		t.Errorf("dense float64 rows: %q, want a rounded float32 copy", rows)
	}
}

package experiments

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/results"
)

// Cluster gives the clustering a sweep's run of the same method, k1 and seed records,
// scored alike, and writes its labels and factors.
func TestCluster(t *testing.T) {
	g, err := datasets.Synthetic(datasets.DefaultSynthetic())
	if err != nil {
		t.Fatal(err)
	}
	m, err := algorithms.New("nagc", map[string]any{"iterations": 20})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Cluster(context.Background(), g, m, g.K(), 3)
	if err != nil {
		t.Fatal(err)
	}
	rec := execute(context.Background(), Run{Algorithm: "nagc", Params: map[string]any{"iterations": 20}, K1: g.K(), Seed: 3},
		algorithms.Input{Adj: g.Adj, X: g.X, Truth: g.Labels}, results.AllMetrics)
	if rec.Status != results.StatusDone {
		t.Fatal(rec.Error)
	}
	if results.EncodeLabels(c.Result.Labels) != rec.Labels {
		t.Error("Cluster's labels differ from the runner's for the same method, k1 and seed")
	}
	named := c.Scores.Named()
	for k, v := range rec.Metrics {
		if named[k] != v {
			t.Errorf("%s: Cluster %v, runner %v", k, named[k], v)
		}
	}
	if want, _ := metrics.Evaluate(g.Labels, c.Result.Labels, g.Adj, g.X); want != c.Scores {
		t.Errorf("scores %+v, want %+v", c.Scores, want)
	}
	if len(c.Settings) == 0 {
		t.Error("no settings")
	}
	dir := t.TempDir()
	if err := c.WriteLabels(filepath.Join(dir, "labels.tsv")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "labels.tsv"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != g.N() || lines[0] != g.IDs[0]+"\t"+strconv.Itoa(c.Result.Labels[0]) {
		t.Errorf("labels file: %d lines (want %d), first %q", len(lines), g.N(), lines[0])
	}
	if err := c.WriteFactors(filepath.Join(dir, "f")); err != nil {
		t.Fatal(err)
	}
	for name, f := range c.Result.Factors {
		got, err := algorithms.ReadDenseCSV(filepath.Join(dir, "f", name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if r, k := got.Dims(); r != f.RawMatrix().Rows || k != f.RawMatrix().Cols || got.At(0, 0) != f.At(0, 0) {
			t.Errorf("%s.csv: %d×%d, first %v; want %d×%d, %v", name, r, k, got.At(0, 0), f.RawMatrix().Rows, f.RawMatrix().Cols, f.At(0, 0))
		}
	}
	if len(c.Result.Factors) < 3 {
		t.Errorf("nagc learnt %d factors, want U, V, H", len(c.Result.Factors))
	}
}

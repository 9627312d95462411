package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/results"
)

// writeLINQS writes g as a LINQS folder dir/x.content, dir/x.cites.
func writeLINQS(t *testing.T, dir string, g *datasets.Graph) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var content, cites bytes.Buffer
	m := g.M()
	for i, id := range g.IDs {
		row := make([]float64, m)
		cols, vals := attrtest.Sparse(g.X).Row(i)
		for k, j := range cols {
			row[j] = vals[k]
		}
		content.WriteString(id)
		for _, v := range row {
			fmt.Fprintf(&content, "\t%g", v)
		}
		fmt.Fprintf(&content, "\t%s\n", g.ClassNames[g.Labels[i]])
		nbrs, _ := g.Adj.Row(i)
		for _, j := range nbrs {
			if j >= i {
				fmt.Fprintf(&cites, "%s %s\n", id, g.IDs[j])
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "x.content"), content.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x.cites"), cites.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestExtremeGridRecordsOnlyFiniteNumbers runs the corners of the paper's grid (λ from
// 1e-10 to 100, ρ from 0.5 to 0.995, k2 from k1 to 20) with both initialisations, and
// every baseline, through the runner on a small graph with self-loops and isolated
// vertices: every record is either done with finite metrics and objective, or failed
// with its reason.
func TestExtremeGridRecordsOnlyFiniteNumbers(t *testing.T) {
	g, err := datasets.Synthetic(datasets.SyntheticConfig{N: 60, M: 40, K1: 3, K2: 3,
		AvgDegree: 2, PIn: 0.8, AttrPerVertex: 4, AttrSignal: 0.7, SelfLoops: true, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if g.SelfLoops() == 0 {
		t.Fatal("no self-loop in the test graph")
	}
	tmp := t.TempDir()
	writeLINQS(t, filepath.Join(tmp, "loops"), g)
	// Three isolated vertices: two without any attribute, one with one.
	f, err := os.OpenFile(filepath.Join(tmp, "loops", "x.content"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	zeros := strings.Repeat("\t0", g.M())
	fmt.Fprintf(f, "iso1%s\t%s\niso2%s\t%s\niso3\t1%s\t%s\n", zeros, g.ClassNames[0], zeros,
		g.ClassNames[1], zeros[2:], g.ClassNames[2])
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	n := g.N() + 3
	cfgText := `name: extremes
seed: 5
iterations: 60
datasets: [./loops]
methods:
  - name: "Prop."
    algorithm: nagc
    options: {init: kmeans}
    grid: &g
      lambda: [1.0e-10, 100]
      rho: [0.5, 0.995]
      k2: [k1, 20]
  - name: "Prop.*"
    algorithm: nagc
    options: {init: random}
    grid: *g
  - name: JWNMF
    algorithm: jwnmf
    grid: {lambda: [1.0e-10, 100], init: [kmeans, random]}
  - {name: NMF, algorithm: nmf}
  - {name: SNMF, algorithm: snmf}
  - {name: BAGC, algorithm: bagc}
  - {name: k-means, algorithm: kmeans}
`
	path := filepath.Join(tmp, "extremes.yaml")
	if err := os.WriteFile(path, []byte(cfgText), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	resDir := filepath.Join(tmp, "results")
	sum, err := Execute(context.Background(), cfg, Options{ResultsDir: resDir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total != 24 || sum.Done+sum.Failed != 24 {
		t.Fatalf("summary %+v, want 24 runs", sum)
	}
	raw, err := os.ReadFile(filepath.Join(resDir, results.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"NaN", "Inf"} {
		if bytes.Contains(raw, []byte(bad)) {
			t.Errorf("runs.jsonl mentions %s", bad)
		}
	}
	recs, err := results.Load(resDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Status == results.StatusFailed {
			if r.Error == "" || r.Metrics != nil {
				t.Errorf("run %s failed without a reason or with metrics: %+v", r.RunID, r)
			}
			t.Logf("%s %v failed: %s", r.Algorithm, r.Params, r.Error)
			continue
		}
		if len(r.Metrics) != len(results.AllMetrics) {
			t.Errorf("run %s: metrics %v", r.RunID, r.Metrics)
		}
		for k, v := range r.Metrics {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("run %s: %s = %v", r.RunID, k, v)
			}
		}
		labels, err := results.DecodeLabels(r.Labels)
		if err != nil || len(labels) != n {
			t.Errorf("run %s: labels %q: %v", r.RunID, r.Labels, err)
		}
		for _, l := range labels {
			if l < 0 || l >= r.K1 {
				t.Errorf("run %s: label %d of %d clusters", r.RunID, l, r.K1)
				break
			}
		}
	}
}

// TestDivergedRunRecordedAsFailed feeds a run attributes whose products overflow (values
// far beyond what the loader accepts): the record says failed and why, and holds no
// number that JSON cannot carry.
func TestDivergedRunRecordedAsFailed(t *testing.T) {
	g, err := datasets.Synthetic(datasets.SyntheticConfig{N: 40, M: 20, K1: 2, K2: 2,
		AvgDegree: 4, PIn: 0.9, AttrPerVertex: 4, AttrSignal: 0.8, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	in := algorithms.Input{Adj: g.Adj, X: attrtest.Sparse(g.X).Scaled(1e150), Truth: g.Labels}
	run := Run{ID: "diverge", Dataset: "huge", Algorithm: "nagc", K1: 2, Seed: 1,
		Params: map[string]any{"init": "random", "lambda": 1.0, "rho": 0.9, "iterations": 5}}
	rec := execute(context.Background(), run, in, results.AllMetrics)
	if rec == nil {
		t.Fatal("no record")
	}
	if rec.Status != results.StatusFailed || !strings.Contains(rec.Error, "diverged") {
		t.Fatalf("record %+v: want failed with a divergence reason", rec)
	}
	if rec.Metrics != nil || rec.FinalObjective != nil || rec.Objective != nil {
		t.Errorf("failed record keeps numbers: %+v", rec)
	}
	if _, err := json.Marshal(rec); err != nil {
		t.Errorf("record does not encode: %v", err)
	}
}

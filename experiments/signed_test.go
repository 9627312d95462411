package experiments

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// signedGraph is a small planted graph whose dense attributes are signed, as embeddings.
const signedGraph = `"synthetic:custom,n=400,degree=8,m=6,k=3,homophily=0.8,attributes=signed,seed=3"`

// TestSignedRowRefusedAtPlanTime checks that a sweep with a NAGC or NMF row without a
// non-negative transform on a graph with signed attributes is refused before anything
// runs, naming the row's line, the dataset and the transforms, every such row at once.
func TestSignedRowRefusedAtPlanTime(t *testing.T) {
	cfg := mustLoad(t, `datasets: [`+signedGraph+`]
methods:
  - name: kmeans
    algorithm: kmeans
  - name: Prop.
    algorithm: nagc
    grid: {transform: [split, none]}
  - name: NMF
    algorithm: nmf
    options: {transform: l2}
`)
	dir := filepath.Join(t.TempDir(), "out")
	_, err := Execute(context.Background(), cfg, Options{ResultsDir: dir, Workers: 1})
	if err == nil {
		t.Fatal("a NAGC row without a transform on signed attributes was not refused")
	}
	for _, want := range []string{
		`config.yaml:5: name: row "Prop." cannot run on dataset synthetic:custom`,
		`config.yaml:8: name: row "NMF" cannot run on dataset`,
		"with transform none: its attributes", "with transform l2: its attributes",
		"which nagc refuses", "which nmf refuses",
		"its attributes have negative values (the first at vertex",
		"give the row the option transform: split, shift or minmax",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "with transform split") || strings.Contains(err.Error(), "none, split") {
		t.Errorf("refusal names the row's split runs, which take signed attributes:\n%v", err)
	}
	if strings.Contains(err.Error(), `"kmeans"`) {
		t.Errorf("refusal names the k-means row, which takes signed attributes:\n%v", err)
	}
	if _, statErr := os.Stat(dir); !os.IsNotExist(statErr) {
		t.Errorf("the refused sweep wrote its results folder (%v)", statErr)
	}
}

// TestTransformSweep checks that transform is an option like any other: swept in a
// grid, recorded in the records' params, and the NAGC runs on signed attributes done;
// a row without the key records no transform.
func TestTransformSweep(t *testing.T) {
	cfg := mustLoad(t, `datasets: [`+signedGraph+`]
iterations: 20
methods:
  - name: kmeans
    algorithm: kmeans
  - name: Prop.
    algorithm: nagc
    grid: {transform: [split, minmax], lambda: [0.01, 1]}
`)
	dir := t.TempDir()
	sum, err := Execute(context.Background(), cfg, Options{ResultsDir: dir, Workers: 2})
	if err != nil || sum.Failed != 0 || sum.Done != 5 {
		t.Fatalf("%+v %v", sum, err)
	}
	recs, err := results.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range recs {
		tr, has := r.Params["transform"]
		switch r.Algorithm {
		case "kmeans":
			if has {
				t.Errorf("k-means record has transform %v", tr)
			}
		case "nagc":
			seen[tr.(string)]++
			if r.Metrics["ari"] <= 0.2 {
				t.Errorf("nagc %v: ARI %v on a planted graph", r.Params, r.Metrics["ari"])
			}
		}
	}
	if seen["split"] != 2 || seen["minmax"] != 2 {
		t.Errorf("records by transform: %v, want 2 split and 2 minmax", seen)
	}
}

// TestTransformConfigErrors checks that a transform a method does not have, or a value
// that is no transform, is an error naming the file, line and key when the config is
// loaded.
func TestTransformConfigErrors(t *testing.T) {
	for _, tc := range []struct{ row, want string }{
		{"algorithm: metis\n    options: {transform: split}", "config.yaml:5: transform: metis has no option transform"},
		{"algorithm: nagc\n    grid: {transform: [split, splt]}", `config.yaml:5: transform: nagc: transform "splt" is not one of none, split, shift, minmax, l2 (did you mean 'split'?)`},
		{"algorithm: kmeans\n    options: {transform: 1}", "config.yaml:5: transform: kmeans: transform must be a word (got 1)"},
	} {
		_, err := LoadConfig(writeConfig(t, "datasets: [synthetic]\nmethods:\n  - name: row\n    "+tc.row+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n%v\nwant %q", tc.row, err, tc.want)
		}
	}
}

// TestSignedSearchRowRefusedAtPlanTime: a search row whose method refuses signed
// attributes is refused before any trial, for each transform its space can take that
// fails; one whose space holds only non-negative transforms plans.
func TestSignedSearchRowRefusedAtPlanTime(t *testing.T) {
	for _, tc := range []struct {
		space, want string
	}{
		{"{lambda: {log: [0.01, 1]}}", "with transform none"},
		{"{transform: [split, none]}", "with transform none"},
		{"{transform: [split, shift]}", ""},
	} {
		cfg := mustLoad(t, `datasets: [`+signedGraph+`]
iterations: 10
search: {sampler: random, trials: 2}
methods:
  - name: Prop.
    algorithm: nagc
    space: `+tc.space+`
`)
		dir := filepath.Join(t.TempDir(), "out")
		_, err := Execute(context.Background(), cfg, Options{ResultsDir: dir, Workers: 1})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("space %s: %v", tc.space, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("space %s: got %v, want a refusal %q", tc.space, err, tc.want)
		}
	}
}

package experiments

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/results"
)

// TestFlagsRecordedAndScoredTwice: a method that flags vertices (paican) gets its flags
// recorded and its ARI a second time over the unflagged vertices, with their share; a
// method that flags nothing gets neither; rescore recomputes both from the records.
func TestFlagsRecordedAndScoredTwice(t *testing.T) {
	cfg := mustLoad(t, `datasets: [synthetic]
restarts: 1
methods:
  - name: km
    algorithm: kmeans
  - name: pa
    algorithm: paican
    options: {anomaly_prior: 50}
`)
	dir := t.TempDir()
	if _, err := Execute(context.Background(), cfg, Options{ResultsDir: dir}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, results.RunsFile)
	recs, _, err := results.ReadRecords(path)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	g, err := datasets.Synthetic(datasets.DefaultSynthetic())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		_, hasShare := r.Metrics[results.MetricUnflaggedShare]
		_, hasARI := r.Metrics[results.MetricARIUnflagged]
		if r.Algorithm != "paican" {
			if hasShare || hasARI || r.Flags != nil {
				t.Errorf("%s: flags %v and metrics %v for a method that flags nothing", r.Algorithm, r.Flags, r.Metrics)
			}
			continue
		}
		if r.Status != results.StatusDone || len(r.Flags) != 2 || !hasShare || !hasARI {
			t.Fatalf("paican record: status %s, flags %v, metrics %v", r.Status, r.Flags, r.Metrics)
		}
		if r.Metrics[results.MetricUnflaggedShare] == 1 {
			t.Errorf("paican with anomaly_prior 50 flagged no vertex of synthetic (it flags 2 at seed 1): the test no longer scores a subset")
		}
		masks := map[string][]bool{}
		for name, enc := range r.Flags {
			if masks[name], err = results.DecodeFlags(enc); err != nil {
				t.Fatal(err)
			}
		}
		labels, _ := results.DecodeLabels(r.Labels)
		keep, share, err := metrics.Unflagged(len(labels), masks)
		if err != nil {
			t.Fatal(err)
		}
		ari, err := metrics.ARIKept(g.Labels, labels, keep)
		if err != nil {
			t.Fatal(err)
		}
		if share != r.Metrics[results.MetricUnflaggedShare] || ari != r.Metrics[results.MetricARIUnflagged] {
			t.Errorf("recorded share %v and ARI %v, from the recorded flags %v and %v",
				r.Metrics[results.MetricUnflaggedShare], r.Metrics[results.MetricARIUnflagged], share, ari)
		}
		// nagc cluster's fit-and-score gives the same two metrics.
		m, err := algorithms.New(r.Algorithm, r.Params)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Cluster(context.Background(), g, m, r.K1, r.Seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{results.MetricUnflaggedShare, results.MetricARIUnflagged} {
			if got := c.Metrics()[k]; got != r.Metrics[k] {
				t.Errorf("Cluster: %s %v, the run recorded %v", k, got, r.Metrics[k])
			}
		}
	}
	// Records without the two metrics gain them back from their flags.
	old := make([]results.Record, len(recs))
	for i, r := range recs {
		old[i] = r
		old[i].Metrics = map[string]float64{}
		for k, v := range r.Metrics {
			if k != results.MetricUnflaggedShare && k != results.MetricARIUnflagged {
				old[i].Metrics[k] = v
			}
		}
	}
	if err := results.RewriteRecords(path, old); err != nil {
		t.Fatal(err)
	}
	if _, err := Rescore(dir, nil); err != nil {
		t.Fatal(err)
	}
	got, _, _ := results.ReadRecords(path)
	for i := range got {
		if !reflect.DeepEqual(got[i].Metrics, recs[i].Metrics) {
			t.Errorf("%s: rescored %v, recorded %v", got[i].Algorithm, got[i].Metrics, recs[i].Metrics)
		}
	}
}

func TestFlagsRoundTrip(t *testing.T) {
	for _, m := range [][]bool{{}, {true}, {false, true, true, false}} {
		got, err := results.DecodeFlags(results.EncodeFlags(m))
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("%v → %q → %v, %v", m, results.EncodeFlags(m), got, err)
		}
	}
	if _, err := results.DecodeFlags("01x"); err == nil {
		t.Error(`"01x" decoded`)
	}
}

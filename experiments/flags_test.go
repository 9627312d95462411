package experiments

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/metrics"
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
	path := filepath.Join(dir, RunsFile)
	recs, _, err := ReadRecords(path)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	g, err := datasets.Synthetic(datasets.DefaultSynthetic())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		_, hasShare := r.Metrics[MetricUnflaggedShare]
		_, hasARI := r.Metrics[MetricARIUnflagged]
		if r.Algorithm != "paican" {
			if hasShare || hasARI || r.Flags != nil {
				t.Errorf("%s: flags %v and metrics %v for a method that flags nothing", r.Algorithm, r.Flags, r.Metrics)
			}
			continue
		}
		if r.Status != StatusDone || len(r.Flags) != 2 || !hasShare || !hasARI {
			t.Fatalf("paican record: status %s, flags %v, metrics %v", r.Status, r.Flags, r.Metrics)
		}
		if r.Metrics[MetricUnflaggedShare] == 1 {
			t.Errorf("paican with anomaly_prior 50 flagged no vertex of synthetic (it flags 2 at seed 1): the test no longer scores a subset")
		}
		masks := map[string][]bool{}
		for name, enc := range r.Flags {
			if masks[name], err = DecodeFlags(enc); err != nil {
				t.Fatal(err)
			}
		}
		labels, _ := DecodeLabels(r.Labels)
		keep, share, err := metrics.Unflagged(len(labels), masks)
		if err != nil {
			t.Fatal(err)
		}
		ari, err := metrics.ARIKept(g.Labels, labels, keep)
		if err != nil {
			t.Fatal(err)
		}
		if share != r.Metrics[MetricUnflaggedShare] || ari != r.Metrics[MetricARIUnflagged] {
			t.Errorf("recorded share %v and ARI %v, from the recorded flags %v and %v",
				r.Metrics[MetricUnflaggedShare], r.Metrics[MetricARIUnflagged], share, ari)
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
		for _, k := range []string{MetricUnflaggedShare, MetricARIUnflagged} {
			if got := c.Metrics()[k]; got != r.Metrics[k] {
				t.Errorf("Cluster: %s %v, the run recorded %v", k, got, r.Metrics[k])
			}
		}
	}
	// Records without the two metrics gain them back from their flags.
	old := make([]Record, len(recs))
	for i, r := range recs {
		old[i] = r
		old[i].Metrics = map[string]float64{}
		for k, v := range r.Metrics {
			if k != MetricUnflaggedShare && k != MetricARIUnflagged {
				old[i].Metrics[k] = v
			}
		}
	}
	if err := writeLines(path, old); err != nil {
		t.Fatal(err)
	}
	if _, err := Rescore(dir, nil); err != nil {
		t.Fatal(err)
	}
	got, _, _ := ReadRecords(path)
	for i := range got {
		if !reflect.DeepEqual(got[i].Metrics, recs[i].Metrics) {
			t.Errorf("%s: rescored %v, recorded %v", got[i].Algorithm, got[i].Metrics, recs[i].Metrics)
		}
	}
}

func TestFlagsRoundTrip(t *testing.T) {
	for _, m := range [][]bool{{}, {true}, {false, true, true, false}} {
		got, err := DecodeFlags(EncodeFlags(m))
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("%v → %q → %v, %v", m, EncodeFlags(m), got, err)
		}
	}
	if _, err := DecodeFlags("01x"); err == nil {
		t.Error(`"01x" decoded`)
	}
}

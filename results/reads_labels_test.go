package results_test

import (
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/results"
)

// TestPointReadsLabelsAsTheMethods checks that a point's recorded parameters mark it as
// reading the labels exactly where the methods say a fit with those options reads them.
func TestPointReadsLabelsAsTheMethods(t *testing.T) {
	for _, params := range []map[string]any{
		nil,
		{"lambda": 0.5},
		{"init": "kmeans-median-ari"},
		{"init": "kmeans-median-ari", "lambda": 0.5},
		{"init": "kmeans"},
		{"init": "random"},
		{"reads_labels": true},
		{"reads_labels": false},
		{"reads_labels": "true"},
		{"init": []string{"kmeans-median-ari"}},
	} {
		p := &results.PointStats{Params: params}
		if got, want := p.ReadsLabels(), algorithms.ReadsLabels(params); got != want {
			t.Errorf("%v: reads labels %v, the methods say %v", params, got, want)
		}
	}
}

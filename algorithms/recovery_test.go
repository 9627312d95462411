package algorithms

import (
	"context"
	"testing"

	"github.com/nagc-harness/nagc/metrics"
)

// TestEachMethodRecoversWhatItSees checks, on planted graphs, that topology-only methods
// recover a strong-topology graph with uninformative attributes, attribute-only methods
// the reverse, and the methods that use both a graph where both carry the signal.
func TestEachMethodRecoversWhatItSees(t *testing.T) {
	const n, m, k = 150, 30, 3
	topology, _ := plantedGraph(21, n, m, k, 0.3, 0.01, 0.1, 0.1)     // attributes: noise
	attributes, _ := plantedGraph(22, n, m, k, 0.02, 0.02, 0.6, 0.05) // edges: noise
	both, _ := plantedGraph(23, n, m, k, 0.2, 0.02, 0.5, 0.05)
	cases := []struct {
		graph  string
		in     Input
		method Method
	}{
		{"topology", topology, SNMF{}},
		{"topology", topology, METIS{}},
		{"attributes", attributes, KMeans{}},
		{"attributes", attributes, NMF{}},
		{"both", both, NAGC{K2: 3, Lambda: 0.01, Rho: 0.75}},
		{"both", both, NAGC{K2: 3, Lambda: 0.01, Rho: 0.5}},
		{"both", both, JWNMF{Init: InitKMeans, Damped: true}},
		{"both", both, BAGC{}},
	}
	for _, tc := range cases {
		if _, ok := tc.method.(METIS); ok {
			if _, err := GPMetisPath(); err != nil {
				requireGPMetis(t)
			}
		}
		var sum float64
		const seeds = 3
		for seed := uint64(1); seed <= seeds; seed++ {
			res, err := tc.method.Fit(context.Background(), tc.in, k, seed)
			if err != nil {
				t.Fatalf("%s on %s: %v", tc.method.Name(), tc.graph, err)
			}
			ari, err := metrics.ARI(tc.in.Truth, res.Labels)
			if err != nil {
				t.Fatal(err)
			}
			sum += ari
		}
		if mean := sum / seeds; mean < 0.9 {
			t.Errorf("%s (%+v) on the %s graph: mean ARI %.3f < 0.9", tc.method.Name(), tc.method, tc.graph, mean)
		}
	}
}

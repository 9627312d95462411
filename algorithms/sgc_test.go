package algorithms

import (
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/metrics"
)

func TestFilteredAttributesZeroIsX(t *testing.T) {
	in, _ := plantedGraph(31, 60, 12, 3, 0.2, 0.02, 0.3, 0.1)
	z, err := FilteredAttributes(in, GraphFilterOptions{})
	if err != nil || z != in.X {
		t.Fatalf("p = 0 changed X (%v)", err)
	}
	if _, err := FilteredAttributes(in, GraphFilterOptions{P: 1, Norm: "l1"}); err == nil {
		t.Error("unknown norm accepted")
	}
}

func TestSGCKMeansSmoothsNoisyAttributes(t *testing.T) {
	// Weak attributes, clear topology: filtering pools neighbours' attributes, so k-means
	// on filtered attributes beats k-means on raw attributes.
	in, truth := plantedGraph(32, 180, 60, 3, 0.15, 0.005, 0.12, 0.05)
	ari := func(m Method) float64 {
		var s float64
		for seed := uint64(1); seed <= 3; seed++ {
			res, err := m.Fit(context.Background(), in, 3, seed)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := metrics.ARI(truth, res.Labels)
			s += a
		}
		return s / 3
	}
	raw := ari(KMeans{})
	cache := NewCache()
	in.Cache = cache
	filtered := ari(SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: 4}})
	if filtered < 0.9 || filtered <= raw {
		t.Errorf("ARI raw %.3f, filtered %.3f: want filtered ≥ 0.9 and above raw", raw, filtered)
	}
	if cache.Len() != 1 {
		t.Errorf("filtered matrix computed %d times for one setting", cache.Len())
	}
}

func ExampleSGCKMeans() {
	in, truth := plantedGraph(33, 90, 30, 3, 0.2, 0.01, 0.2, 0.05)
	res, _ := SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: 2}}.Fit(context.Background(), in, 3, 1)
	ari, _ := metrics.ARI(truth, res.Labels)
	fmt.Printf("ARI %.2f\n", ari)
	// Output: ARI 0.81
}

func TestNAGCFilterZeroIsPlainNAGC(t *testing.T) {
	in, _ := plantedGraph(34, 60, 15, 3, 0.2, 0.02, 0.3, 0.1)
	plain, err := NAGC{K2: 4, Lambda: 0.1, Rho: 0.9, Iterations: 20}.Fit(context.Background(), in, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	zero, err := NAGC{K2: 4, Lambda: 0.1, Rho: 0.9, Iterations: 20, Filter: GraphFilterOptions{P: 0, Norm: NormL2, SelfLoop: 2}}.Fit(context.Background(), in, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"U", "V", "H"} {
		if !mat.Equal(plain.Factors[f], zero.Factors[f]) {
			t.Errorf("p = 0: %s differs from plain NAGC", f)
		}
	}
}

func TestNAGCFilteredFactorisesFilteredX(t *testing.T) {
	in, _ := plantedGraph(35, 60, 15, 3, 0.2, 0.02, 0.3, 0.1)
	in.Cache = NewCache()
	o := GraphFilterOptions{P: 3}
	got, err := NAGC{K2: 4, Lambda: 0.1, Rho: 0.9, Iterations: 20, Filter: o}.Fit(context.Background(), in, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	z, err := FilteredAttributes(in, o)
	if err != nil {
		t.Fatal(err)
	}
	// The same fit on an input whose X is the filtered matrix, with no cache.
	want, err := NAGC{K2: 4, Lambda: 0.1, Rho: 0.9, Iterations: 20}.Fit(context.Background(), Input{Adj: in.Adj, X: z}, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got.Factors["U"], want.Factors["U"]) {
		t.Error("NAGC with a filter differs from NAGC on the filtered attributes")
	}
	if _, m := got.Factors["V"].Dims(); m != 4 {
		t.Errorf("V has %d columns", m)
	}
}

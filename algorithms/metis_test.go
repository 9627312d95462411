package algorithms

import (
	"context"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/sparse"
)

// plantedGraph returns a graph with k planted clusters of size n/k: edges inside a cluster
// with probability pIn, across with pOut; attribute j of vertex i is 1 with probability
// aIn where j ≡ cluster (mod k), else aOut.
func plantedGraph(seed uint64, n, m, k int, pIn, pOut, aIn, aOut float64) (Input, []int) {
	rng := rand.New(rand.NewPCG(seed, 3))
	b := sparse.NewBuilder(n, n)
	xb := sparse.NewBuilder(n, m)
	truth := make([]int, n)
	for i := 0; i < n; i++ {
		truth[i] = i % k
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			p := pOut
			if truth[i] == truth[j] {
				p = pIn
			}
			if rng.Float64() < p {
				_ = b.Add(i, j, 1)
				_ = b.Add(j, i, 1)
			}
		}
		for j := 0; j < m; j++ {
			p := aOut
			if j%k == truth[i] {
				p = aIn
			}
			if rng.Float64() < p {
				_ = xb.Add(i, j, 1)
			}
		}
	}
	return Input{Adj: b.CSR(sparse.MaxDuplicates), X: xb.CSR(sparse.SumDuplicates), Truth: truth}, truth
}

func requireGPMetis(t *testing.T) {
	t.Helper()
	if _, err := GPMetisPath(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have gpmetis: %v", err)
		}
		t.Skip(err)
	}
}

func TestMETISRecoversStrongTopology(t *testing.T) {
	requireGPMetis(t)
	in, truth := plantedGraph(1, 150, 30, 3, 0.3, 0.01, 0.1, 0.1)
	for _, opt := range []METIS{{}, {PType: "rb"}, {ObjType: "vol"}} {
		for seed := uint64(1); seed <= 3; seed++ {
			res, err := opt.Fit(context.Background(), in, 3, seed)
			if err != nil {
				t.Fatal(err)
			}
			ari, _ := metrics.ARI(truth, res.Labels)
			if ari < 0.9 {
				t.Errorf("%+v seed %d: ARI %.3f < 0.9", opt, seed, ari)
			}
		}
	}
}

func TestMETISErrors(t *testing.T) {
	in, _ := plantedGraph(1, 30, 5, 3, 0.3, 0.01, 0.1, 0.1)
	for _, opt := range []METIS{{PType: "x"}, {ObjType: "y"}, {PType: "rb", ObjType: "vol"}} {
		if _, err := opt.Fit(context.Background(), in, 3, 1); err == nil {
			t.Errorf("%+v accepted", opt)
		}
	}
	t.Setenv("NAGC_GPMETIS", "/nonexistent/gpmetis")
	_, err := METIS{}.Fit(context.Background(), in, 3, 1)
	if err == nil || !strings.Contains(err.Error(), "NAGC_GPMETIS") {
		t.Errorf("missing binary: %v", err)
	}
	t.Setenv("NAGC_GPMETIS", "")
	t.Setenv("PATH", t.TempDir())
	_, err = METIS{}.Fit(context.Background(), in, 3, 1)
	if err == nil || !strings.Contains(err.Error(), "apt-get install metis") {
		t.Errorf("no gpmetis on PATH should say how to install it, got %v", err)
	}
}

func TestKMeansMethodRecoversStrongAttributes(t *testing.T) {
	in, truth := plantedGraph(2, 150, 30, 3, 0.02, 0.02, 0.6, 0.05)
	for _, opt := range []KMeans{{}, {ScaleColumns: true}} {
		res, err := opt.Fit(context.Background(), in, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		if ari, _ := metrics.ARI(truth, res.Labels); ari < 0.9 {
			t.Errorf("%+v: ARI %.3f < 0.9", opt, ari)
		}
	}
}

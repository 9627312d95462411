package algorithms

import (
	"context"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/testenv"

	"github.com/nagc-harness/nagc/metrics"
)

func requireGPMetis(t *testing.T) {
	t.Helper()
	if _, err := GPMetisPath(); err != nil {
		testenv.Missing(t, "METIS's gpmetis", "./scripts/install-deps.sh installs it (Debian/Ubuntu package metis), or set NAGC_GPMETIS")
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

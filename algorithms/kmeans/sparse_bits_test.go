package kmeans

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/internal/testenv"
	"github.com/nagc-harness/nagc/sparse"
)

// sameAsBefore fails t unless Fit on x gives, for each thread count, bit for bit the
// labels, centres, inertia and iterations of the reference (the formulation before
// threads).
func sameAsBefore(t *testing.T, name string, x *sparse.CSR, cfg Config, seed uint64, threads ...int) {
	t.Helper()
	defer parallel.SetThreads(parallel.SetThreads(1))
	want, err := oldFitContext(context.Background(), x, cfg, rand.New(rand.NewPCG(seed, 3)))
	if err != nil {
		t.Fatal(err)
	}
	for _, th := range threads {
		parallel.SetThreads(th)
		got, err := Fit(x, cfg, rand.New(rand.NewPCG(seed, 3)))
		if err != nil {
			t.Fatal(err)
		}
		if err := sameBits(got, want); err != nil {
			t.Errorf("%s, %d threads: %v", name, th, err)
		}
	}
}

// TestSparseSameBitsAsBefore holds the threaded sparse path to the one it replaced, bit
// for bit, on dense-enough and sparse data (both kinds of products), with empty clusters.
func TestSparseSameBitsAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for _, c := range []struct {
		n, m, k int
		density float64
	}{
		{3000, 20, 6, 1},    // dense copy, several label blocks
		{2500, 60, 9, 0.05}, // sparse rows
		{400, 30, 12, 0.3},
	} {
		d := mat.NewDense(c.n, c.m, nil)
		for i := 0; i < c.n; i++ {
			for j := 0; j < c.m; j++ {
				if rng.Float64() < c.density {
					d.Set(i, j, rng.Float64()+float64((i%c.k+j)%c.k))
				}
			}
		}
		sameAsBefore(t, fmt.Sprintf("n=%d m=%d density %v", c.n, c.m, c.density), sparse.FromDense(d), Config{K: c.k, NInit: 3}, 5, 1, 2, 3, 4)
	}
	dup := sparse.FromDense(mat.NewDense(6, 2, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9, 9}))
	sameAsBefore(t, "duplicates", dup, Config{K: 3}, 2, 1, 2, 3)
}

// TestSparseSameBitsPaperGraphs holds the threaded sparse path to the one before it on the
// paper's attribute matrices, as NAGC's k-means start uses them (columns divided by their
// maxima; k1 and k2 of the paper's settings).
func TestSparseSameBitsPaperGraphs(t *testing.T) {
	if testing.Short() {
		t.Skip("k-means on the paper's graphs (a few seconds)")
	}
	for _, c := range []struct {
		name   string
		k1, k2 int
	}{{"cora", 7, 10}, {"citeseer", 6, 6}} {
		dir, err := datasets.Locate(c.name)
		if err != nil {
			testenv.Missing(t, "the "+c.name+" dataset", testenv.FetchHint)
		}
		g, err := datasets.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		x := attrtest.Sparse(g.X).ColumnMaxNormalised()
		sameAsBefore(t, c.name+" k1", x, Config{K: c.k1}, 1, 2)
		sameAsBefore(t, c.name+" k2", x, Config{K: c.k2}, 2, 2)
	}
}

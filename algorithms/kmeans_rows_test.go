package algorithms

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
	"github.com/nagc-harness/nagc/sparse"
)

// fullCSR returns n×m attributes with every entry stored (values in (0, 1]) and, with
// holes, a share of them left out.
func fullCSR(n, m int, holes float64, seed uint64) *sparse.CSR {
	rng := rand.New(rand.NewPCG(seed, 1))
	d := mat.NewDense(n, m, nil)
	for i := range n {
		for j := range m {
			if rng.Float64() >= holes {
				d.Set(i, j, float64(i%3+1)/3+0.1*rng.Float64())
			}
		}
	}
	return sparse.FromDense(d)
}

// The kmeans method clusters a CSR holding at least DenseRowsDensity of its entries as
// dense float64 rows, exactly as the same values stored dense, and says so in its info;
// a sparser one is clustered by package kmeans' sparse Fit, as before.
func TestKMeansDenseEnoughCSRAsDenseRows(t *testing.T) {
	for _, tc := range []struct {
		holes float64
		rows  string
	}{{0, "dense"}, {0.3, "dense"}, {0.8, "sparse"}} {
		in := Input{X: fullCSR(150, 12, tc.holes, 3)}
		res, err := KMeans{}.Fit(context.Background(), in, 3, 7)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(res.Info["rows"], tc.rows) {
			t.Errorf("holes %v: info rows %q, want %s", tc.holes, res.Info["rows"], tc.rows)
		}
		want, err := KMeans{}.Fit(context.Background(), withDenseX(in, false), 3, 7)
		if tc.rows == "sparse" {
			want, err = KMeans{}.Fit(context.Background(), Input{X: in.X}, 3, 7)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Labels, want.Labels) || res.Objective[0] != want.Objective[0] {
			t.Errorf("holes %v: inertia %v, want %v (or labels differ)", tc.holes, res.Objective[0], want.Objective[0])
		}
	}
}

// NAGC's k-means start on a dense-enough CSR is the start on the same values stored
// dense; with k1 = k2 it solves one k-means, whose centroids give V.
func TestKMeansFactorsDenseEnoughCSR(t *testing.T) {
	x := fullCSR(120, 10, 0.1, 4)
	in := withDenseX(Input{X: x}, false)
	for _, k2 := range []int{3, 4} {
		us, vs, ls, err := kmeansFactorsSparse(context.Background(), x, 3, k2, 0, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		ud, vd, ld, err := kmeansFactorsDense(context.Background(), in.DenseAttributes(), 3, k2, 0, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(us, ud) || !mat.Equal(vs, vd) || !slices.Equal(ls, ld) {
			t.Errorf("k2=%d: the start on the CSR differs from the start on dense rows", k2)
		}
		if k2 != 3 {
			continue
		}
		xn, err := columnMaxNormalisedDense(in.DenseAttributes())
		if err != nil {
			t.Fatal(err)
		}
		r, err := fitDense(context.Background(), xn, kmeans.Config{K: 3}, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(vd, r.Centers.T()) || !slices.Equal(ld, r.Labels) {
			t.Errorf("k1 = k2: V is not the one k-means' centroids transposed")
		}
	}
}

package algorithms

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
)

// TestFilteredDenseOfCSRMatchesFilteredCSR checks that the stored filtered attributes of
// a sparse X (filteredDense: a dense.Matrix in CSR order) give, bit for bit, the
// entries, the products with and without transpose, the sums and the row norms of the
// CSR of FilteredMatrix (F·X by sparse products) that they stand for, for every
// normalisation, on 1 and 3 threads.
func TestFilteredDenseOfCSRMatchesFilteredCSR(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(5, 6))
	n, m := 900, 40
	adj, x := randomGraph(rng, n, m, 0.004, 0.05)
	f, err := sparse.NewLowPassFilter(adj, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, c := uniformDense(m, 7, rng), uniformDense(n, 13, rng)
	for _, d := range []*mat.Dense{b, c} { // signs, as the randomised SVD's products have
		for i, raw := 0, d.RawMatrix().Data; i < len(raw); i++ {
			raw[i] = 2*raw[i] - 1
		}
	}
	for _, normBefore := range []bool{false, true} {
		for _, unitRows := range []bool{false, true} {
			xs := x
			var scale []float64
			if normBefore {
				xs, scale = x.RowNormalized(), unitRowScales(x)
			}
			want := sparse.NewFilteredMatrix(f, xs, unitRows).CSR()
			wb, wc := mat.NewDense(n, 7, nil), mat.NewDense(m, 13, nil)
			want.MulDense(wb, b)
			want.TMulDense(wc, c)
			for _, th := range []int{1, 3} {
				t.Run(fmt.Sprintf("norm%v/unit%v/threads%d", normBefore, unitRows, th), func(t *testing.T) {
					parallel.SetThreads(th)
					defer parallel.SetThreads(1)
					got, err := filteredDense(context.Background(), f, x, nil, scale, unitRows)
					if err != nil {
						t.Fatal(err)
					}
					if !got.CSROrder() {
						t.Error("the stored filtered attributes of a CSR are not in CSR order")
					}
					gotCSR, err := nonZeros(got)
					if err != nil {
						t.Fatal(err)
					}
					if gotCSR.NNZ() != want.NNZ() || !mat.Equal(gotCSR.Dense(), want.Dense()) {
						t.Error("entries differ from the CSR of FilteredMatrix")
					}
					gb, gc := mat.NewDense(n, 7, nil), mat.NewDense(m, 13, nil)
					got.MulDense(gb, b)
					got.TMulDense(gc, c)
					if !mat.Equal(gb, wb) || !mat.Equal(gc, wc) {
						t.Error("products differ from the CSR's")
					}
					if got.Sum() != want.Sum() || got.SumSq() != want.SumSq() {
						t.Errorf("sums %v, %v, want the CSR's %v, %v", got.Sum(), got.SumSq(), want.Sum(), want.SumSq())
					}
					for i, v := range got.RowNormsSq() {
						if w := want.RowNormsSq()[i]; v != w {
							t.Fatalf("row %d: squared norm %v, want %v", i, v, w)
						}
					}
				})
			}
		}
	}
}

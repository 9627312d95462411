package algorithms

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/dense/f32"
	"github.com/nagc-harness/nagc/sparse"
)

// TestFilteredDense32 holds the fast filter, at every level of package dense/f32, to the
// default's float64 filter within float32 accuracy, for sparse and dense (float32 and
// float64) attributes, with and without the L2 row scales and unit rows, on column
// counts that cut into ragged blocks (5: one block; 70: two of 35; 130: three of 44, 44
// and 42) and rows of every degree.
func TestFilteredDense32(t *testing.T) {
	for _, m := range []int{5, 70, 130} {
		in, _ := plantedGraph(7, 150, m, 3, 0.2, 0.05, 0.6, 0.1)
		f, err := sparse.NewLowPassFilter(in.Adj, 6, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, layout := range []string{"sparse", "float32", "float64"} {
			var x attr.Matrix = in.X
			sx, dx := in.X.(*sparse.CSR), (*dense.Matrix)(nil)
			if layout != "sparse" {
				dx = withDenseX(in, layout == "float32").DenseAttributes()
				x, sx = dx, nil
			}
			for _, unit := range []bool{false, true} {
				scale := unitRowScales(x)
				want, err := filteredDense(context.Background(), f, sx, dx, scale, unit)
				if err != nil {
					t.Fatal(err)
				}
				for l := f32.LevelGo; l <= f32.BestLevel(); l++ {
					old := f32.SetLevel(l)
					got, err := filteredDense32(context.Background(), f, x, scale, unit)
					f32.SetLevel(old)
					if err != nil {
						t.Fatal(err)
					}
					name := fmt.Sprintf("m=%d %s unit=%v %v", m, layout, unit, l)
					if !got.Is32() {
						t.Fatalf("%s: Z is not float32", name)
					}
					n, _ := x.Dims()
					for i := range n {
						for j := range m {
							g, w := got.At(i, j), want.At(i, j)
							if math.Abs(g-w) > 1e-5*(math.Abs(w)+1e-3) {
								t.Fatalf("%s: (%d, %d) = %v, float64 filter %v", name, i, j, g, w)
							}
						}
					}
				}
			}
		}
	}
}

// TestFilteredDense32Cancel checks that a cancelled context stops the fast filter with
// its error.
func TestFilteredDense32Cancel(t *testing.T) {
	in, _ := plantedGraph(7, 50, 10, 3, 0.2, 0.05, 0.6, 0.1)
	f, err := sparse.NewLowPassFilter(in.Adj, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := filteredDense32(ctx, f, in.X, nil, false); err != context.Canceled {
		t.Fatalf("cancelled: %v, want context.Canceled", err)
	}
}

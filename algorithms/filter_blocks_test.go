package algorithms

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/sparse"
)

// TestFilteredDenseBlockWidthChangesNoBit checks that the stored filtered attributes are
// the same bits whatever the width of the column blocks the filter smooths at a time
// (one column, ragged blocks, the old 16, the default, all columns), for dense float32
// and float64 attributes and a sparse X, with and without unit rows, on 1 and 2 threads.
func TestFilteredDenseBlockWidthChangesNoBit(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	defer parallel.SetSplitAlways(parallel.SetSplitAlways(true))
	rng := rand.New(rand.NewPCG(8, 9))
	n, m := 700, 61
	adj, sx := randomGraph(rng, n, m, 0.01, 0.3)
	f, err := sparse.NewLowPassFilter(adj, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	d64, d32 := make([]float64, n*m), make([]float32, n*m)
	for i := range d64 {
		d64[i] = rng.NormFloat64()
		d32[i] = float32(rng.Float64())
	}
	inputs := []struct {
		name string
		sx   *sparse.CSR
		dx   *dense.Matrix
	}{{"sparse", sx, nil}, {"dense64", nil, dense.NewMatrix64(n, m, d64)}, {"dense32", nil, dense.NewMatrix32(n, m, d32)}}
	for _, in := range inputs {
		var x attr.Matrix = in.sx
		if in.dx != nil {
			x = in.dx
		}
		scale := unitRowScales(x)
		for _, unitRows := range []bool{false, true} {
			want, err := filteredDenseBlocks(context.Background(), f, in.sx, in.dx, scale, unitRows, 16)
			if err != nil {
				t.Fatal(err)
			}
			for _, th := range []int{1, 2} {
				for _, width := range []int{1, 7, filterDenseBlock, m} {
					t.Run(fmt.Sprintf("%s/unit%v/threads%d/width%d", in.name, unitRows, th, width), func(t *testing.T) {
						parallel.SetThreads(th)
						defer parallel.SetThreads(1)
						got, err := filteredDenseBlocks(context.Background(), f, in.sx, in.dx, scale, unitRows, width)
						if err != nil {
							t.Fatal(err)
						}
						if msg := sameBits(got, want); msg != "" {
							t.Error(msg)
						}
					})
				}
			}
		}
	}
}

// sameBits returns "" where a and b hold the same storage type and the same bits, else
// what differs first.
func sameBits(a, b *dense.Matrix) string {
	if a.Is32() != b.Is32() {
		return "storage types differ"
	}
	if a.Is32() {
		for i, v := range a.Float32() {
			if math.Float32bits(v) != math.Float32bits(b.Float32()[i]) {
				return fmt.Sprintf("entry %d: %v, want %v", i, v, b.Float32()[i])
			}
		}
		return ""
	}
	for i, v := range a.Float64() {
		if math.Float64bits(v) != math.Float64bits(b.Float64()[i]) {
			return fmt.Sprintf("entry %d: %v, want %v", i, v, b.Float64()[i])
		}
	}
	return ""
}

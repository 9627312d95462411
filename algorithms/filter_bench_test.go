package algorithms

import (
	"context"
	"fmt"
	"testing"

	"github.com/nagc-harness/nagc/sparse"
)

// BenchmarkFilteredDenseWidth times the stored filtered attributes (p = 16, the default
// of sgc-kmeans) of a quarter of the ogbn-products shape (612,257 vertices, degree 50, 100
// attributes) smoothed in column blocks of 16 (the width before) and of filterDenseBlock
// columns: the same bits, a different number of passes over Â.
func BenchmarkFilteredDenseWidth(b *testing.B) {
	adj, x, _ := shapeGraph(2_449_029/4, 50, 100, 47, 0.81, 1)
	f, err := sparse.NewLowPassFilter(adj, DefaultSGCOrder, 1)
	if err != nil {
		b.Fatal(err)
	}
	scale := unitRowScales(x)
	for _, width := range []int{16, filterDenseBlock} {
		b.Run(fmt.Sprintf("width=%d", width), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := filteredDenseBlocks(context.Background(), f, x, nil, scale, false, width); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package algorithms

import (
	"context"
	"fmt"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// TestNAGCFitSameForAnyThreads checks that an NAGC fit at defaults (the k-means start
// included) gives the same bits, labels, objectives and factors, on 1, 2 and 3 threads,
// both with every kernel split as its measured grain decides and with every kernel split
// however small its work (so that each parallel path is taken at this size).
func TestNAGCFitSameForAnyThreads(t *testing.T) {
	adj, x := randomGraph(newRand(41), 1500, 60, 0.01, 0.2)
	a := NAGC{Iterations: 20}
	fit := func() (*Result, error) {
		return a.Fit(context.Background(), Input{Adj: adj, X: x, Cache: NewCache()}, 4, 3)
	}
	defer parallel.SetThreads(parallel.SetThreads(1))
	want, wantErr := fit()
	if wantErr != nil {
		t.Fatal(wantErr)
	}
	for _, always := range []bool{false, true} {
		for _, threads := range []int{2, 3} {
			t.Run(fmt.Sprintf("threads=%d/split-always=%v", threads, always), func(t *testing.T) {
				defer parallel.SetSplitAlways(parallel.SetSplitAlways(always))
				parallel.SetThreads(threads)
				got, err := fit()
				if err := sameFit(want, got, wantErr, err); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

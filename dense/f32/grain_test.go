package f32

import (
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// TestRowsCoverEveryRowOnce checks that Rows calls fn once per block of BlockRows rows,
// covering [0, n), whether the grain keeps the work on one goroutine or it is split.
func TestRowsCoverEveryRowOnce(t *testing.T) {
	const n = 3*BlockRows + 5
	for _, tc := range []struct {
		threads int
		always  bool
	}{{1, false}, {2, false}, {2, true}} {
		func() {
			defer parallel.SetThreads(parallel.SetThreads(tc.threads))
			defer parallel.SetSplitAlways(parallel.SetSplitAlways(tc.always))
			seen := make([]int32, n)
			blocks := make(chan [2]int, n)
			Rows(n, n, func(lo, hi int) {
				blocks <- [2]int{lo, hi}
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			close(blocks)
			for b := range blocks {
				if b[0]%BlockRows != 0 || b[1] != min(b[0]+BlockRows, n) {
					t.Errorf("%+v: block [%d, %d) is not a block of BlockRows rows", tc, b[0], b[1])
				}
			}
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("%+v: row %d done %d times", tc, i, c)
				}
			}
		}()
	}
	if g := grain.Min(); g <= 0 {
		t.Errorf("grain %d", g)
	}
}

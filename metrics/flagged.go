package metrics

import (
	"errors"
	"fmt"
	"sort"
)

// Unflagged returns keep, true for each of the n vertices that no mask of masks flags,
// and the share of the n vertices it keeps (1 for no masks; 0 for n = 0). Every mask
// must have n entries. Cost O(n·len(masks)).
func Unflagged(n int, masks map[string][]bool) (keep []bool, share float64, err error) {
	names := make([]string, 0, len(masks))
	for name := range masks {
		names = append(names, name)
	}
	sort.Strings(names)
	keep = make([]bool, n)
	for i := range keep {
		keep[i] = true
	}
	for _, name := range names {
		m := masks[name]
		if len(m) != n {
			return nil, 0, fmt.Errorf("metrics: Unflagged: mask %s has %d entries for %d vertices: %w", name, len(m), n, errLength)
		}
		for i, f := range m {
			if f {
				keep[i] = false
			}
		}
	}
	kept := 0
	for _, k := range keep {
		if k {
			kept++
		}
	}
	if n > 0 {
		share = float64(kept) / float64(n)
	}
	return keep, share, nil
}

// ErrNoneKept is returned by ARIKept when no vertex is kept: the ARI of an empty
// clustering is 1 by convention, which would read as a perfect score.
var ErrNoneKept = errors.New("metrics: ARIKept: no vertex kept")

// ARIKept returns the ARI (see ARI) of pred against truth over the vertices i with
// keep[i] only: PAICAN's protocol, which scores the vertices a method does not flag as
// anomalous (keep from Unflagged). It returns ErrNoneKept when keep holds no vertex, and
// an error when the lengths differ. Cost O(n + #non-zero contingency cells).
func ARIKept(truth, pred []int, keep []bool) (float64, error) {
	if len(truth) != len(pred) || len(keep) != len(truth) {
		return 0, fmt.Errorf("metrics: ARIKept: %d true labels, %d predicted, %d keep flags: %w", len(truth), len(pred), len(keep), errLength)
	}
	var t, p []int
	for i, k := range keep {
		if k {
			t = append(t, truth[i])
			p = append(p, pred[i])
		}
	}
	if len(t) == 0 {
		return 0, ErrNoneKept
	}
	return ARI(t, p)
}

package experiments

import (
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/results"
)

// flagMetrics returns results.MetricUnflaggedShare of the masks flags and, when truth is given
// and withARI, results.MetricARIUnflagged of pred against truth over the vertices kept (absent
// when every vertex is flagged). It returns nil for no masks.
func flagMetrics(truth, pred []int, flags map[string][]bool, withARI bool) (map[string]float64, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	keep, share, err := metrics.Unflagged(len(pred), flags)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{results.MetricUnflaggedShare: share}
	if truth == nil || !withARI || share == 0 {
		return out, nil
	}
	if out[results.MetricARIUnflagged], err = metrics.ARIKept(truth, pred, keep); err != nil {
		return nil, err
	}
	return out, nil
}

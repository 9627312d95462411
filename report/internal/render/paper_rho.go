package render

import (
	"math"
	"sort"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/report/paper"
)

// rhoValues returns the ρ values of the ρ table: those of the paper's table and those of
// the recorded Prop. grid points, ascending.
func (r results) rhoValues() []float64 {
	vals := r.Paper.Rhos()
	for _, p := range r.Points {
		if p.Method != r.Spec.Proposed {
			continue
		}
		if v := paramFloat(p.Params, "rho"); !math.IsNaN(v) && !containsFloat(vals, v) {
			vals = append(vals, v)
		}
	}
	sort.Float64s(vals)
	return vals
}

// bestAtRho returns the Prop. grid point on a dataset with ρ = rho chosen by rule over the
// other parameters (λ, k2), or nil if no such point has a finished run.
func (r results) bestAtRho(rule, dataset string, rho float64) *experiments.PointStats {
	var pts []*experiments.PointStats
	for _, p := range r.PointsOf(dataset, r.Spec.Proposed) {
		if p.Runs > 0 && paper.SameFloat(paramFloat(p.Params, "rho"), rho) {
			pts = append(pts, p)
		}
	}
	if len(pts) == 0 {
		return nil
	}
	best, err := experiments.Best(pts, rule)
	if err != nil || len(best) == 0 {
		return nil
	}
	return best[0]
}

func containsFloat(s []float64, v float64) bool {
	for _, x := range s {
		if paper.SameFloat(x, v) {
			return true
		}
	}
	return false
}

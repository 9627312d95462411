package render

import (
	"reflect"
	"testing"
)

// The axes of parallel coordinates: a parameter of numbers spanning two decades on a
// log axis, one of narrower numbers linear, one of words categorical in sorted order,
// and one that never varies left out.
func TestParallelAxes(t *testing.T) {
	v := &searchView{}
	for i, p := range []map[string]any{
		{"lambda": 1e-6, "rho": 0.5, "init": "random", "k2": 5},
		{"lambda": 1e-2, "rho": 0.95, "init": "kmeans", "k2": 5},
		{"lambda": 1e-4, "rho": 0.75, "init": "random", "k2": 5},
	} {
		v.Trials = append(v.Trials, &searchTrialView{Trial: i, Params: p})
	}
	for _, c := range []struct {
		key            string
		varies, log    bool
		labels         []string
		lo, hi, second float64
	}{
		{key: "lambda", varies: true, log: true, lo: 1e-6, hi: 1e-2, second: 1e-2},
		{key: "rho", varies: true, lo: 0.5, hi: 0.95, second: 0.95},
		{key: "init", varies: true, labels: []string{"kmeans", "random"}, second: 0},
		{key: "k2", varies: false},
	} {
		a, varies := parallelAxis(v, c.key)
		if varies != c.varies {
			t.Errorf("%s: varies %v", c.key, varies)
			continue
		}
		if !varies {
			continue
		}
		if a.Log != c.log || !reflect.DeepEqual(a.Labels, c.labels) || c.labels == nil && (a.Lo != c.lo || a.Hi != c.hi) {
			t.Errorf("%s: axis %+v", c.key, a.ParallelAxis)
		}
		if got := a.coordinate(v.Trials[1].Params, c.key); got != c.second {
			t.Errorf("%s: the second trial at %v, want %v", c.key, got, c.second)
		}
	}
}

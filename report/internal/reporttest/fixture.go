package reporttest

import (
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// Run describes one synthetic record of the tests' fixture (see Record).
type Run struct {
	Dataset, Method string
	Params          map[string]any
	Restart         int
	ARI, Mod, Ent   float64
	Fit             float64
	Err             string // non-empty: a failed run
}

// FixtureRuns is a small results set with known means and stds on WebKB, shared by the
// renderer's and the comparison's tests:
//
//	Prop. λ=1e-4 ρ=0.5 : ARI 0.950 ± 0.050, modularity 0.710 ± 0.010 (best ARI)
//	Prop. λ=1e-2 ρ=0.5 : ARI 0.800 ± 0.000, modularity 0.740 (best modularity)
//	Prop. λ=1e-4 ρ=0.95: ARI 0.550 ± 0.050
//	METIS              : ARI 0.850 ± 0.000
//	JWNMF              : both runs failed
//	Foo (not in paper) : ARI 0.100, one restart
func FixtureRuns() []Run {
	a := map[string]any{"lambda": 1e-4, "rho": 0.5, "k2": 4.0, "init": "kmeans"}
	b := map[string]any{"lambda": 1e-2, "rho": 0.5, "k2": 4.0, "init": "kmeans"}
	c := map[string]any{"lambda": 1e-4, "rho": 0.95, "k2": 4.0, "init": "kmeans"}
	return []Run{
		{"webkb", "Prop.", a, 0, 0.9, 0.70, 0.15, 1, ""},
		{"webkb", "Prop.", a, 1, 1.0, 0.72, 0.15, 3, ""},
		{"webkb", "Prop.", b, 0, 0.8, 0.74, 0.16, 1, ""},
		{"webkb", "Prop.", b, 1, 0.8, 0.74, 0.16, 1, ""},
		{"webkb", "Prop.", c, 0, 0.5, 0.60, 0.20, 0.5, ""},
		{"webkb", "Prop.", c, 1, 0.6, 0.60, 0.20, 0.5, ""},
		{"webkb", "METIS", map[string]any{}, 0, 0.85, 0.73, 0.153, 0.1, ""},
		{"webkb", "METIS", map[string]any{}, 1, 0.85, 0.73, 0.153, 0.1, ""},
		{"webkb", "JWNMF", map[string]any{"lambda": 1e-2}, 0, 0, 0, 0, 0, "boom: diverged"},
		{"webkb", "JWNMF", map[string]any{"lambda": 1e-2}, 1, 0, 0, 0, 0, "boom: diverged"},
		{"webkb", "Foo", map[string]any{}, 0, 0.1, 0.1, 0.3, 0.2, ""},
	}
}

// Record returns r's record, as the package's Record makes it.
func (r Run) Record(t *testing.T) results.Record {
	t.Helper()
	return Record(t, r.Dataset, r.Method, r.Params, r.Restart, r.ARI, r.Mod, r.Ent, r.Fit, r.Err)
}

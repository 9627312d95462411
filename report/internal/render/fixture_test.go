package render

import (
	"testing"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/report/internal/reporttest"
	"github.com/nagc-harness/nagc/report/paper"
)

// run describes one synthetic record of the test fixture.
type run struct {
	dataset, method string
	params          map[string]any
	restart         int
	ari, mod, ent   float64
	fit             float64
	err             string // non-empty: a failed run
}

// fixtureRuns is a small results set with known means and stds on WebKB (the same as
// package compare's tests):
//
//	Prop. λ=1e-4 ρ=0.5 : ARI 0.950 ± 0.050, modularity 0.710 ± 0.010 (best ARI)
//	Prop. λ=1e-2 ρ=0.5 : ARI 0.800 ± 0.000, modularity 0.740 (best modularity)
//	Prop. λ=1e-4 ρ=0.95: ARI 0.550 ± 0.050
//	METIS              : ARI 0.850 ± 0.000
//	JWNMF              : both runs failed
//	Foo (not in paper) : ARI 0.100, one restart
func fixtureRuns() []run {
	a := map[string]any{"lambda": 1e-4, "rho": 0.5, "k2": 4.0, "init": "kmeans"}
	b := map[string]any{"lambda": 1e-2, "rho": 0.5, "k2": 4.0, "init": "kmeans"}
	c := map[string]any{"lambda": 1e-4, "rho": 0.95, "k2": 4.0, "init": "kmeans"}
	return []run{
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

// fixtureRecords returns the records of runs (JSON round-tripped, as a report reads them).
func fixtureRecords(t *testing.T, runs []run) []experiments.Record {
	t.Helper()
	var out []experiments.Record
	for _, r := range runs {
		out = append(out, reporttest.Record(t, r.dataset, r.method, r.params, r.restart, r.ari, r.mod, r.ent, r.fit, r.err))
	}
	return out
}

// fixtureResults aggregates the fixture with the embedded paper values.
func fixtureResults(t *testing.T, runs []run) *Results {
	t.Helper()
	paper, err := paper.DefaultPublished()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewResults(fixtureRecords(t, runs), reporttest.Provenance(), paper, experiments.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkTable compares a table's Markdown and LaTeX with the golden files
// testdata/<golden>.{md,tex}.golden and checks that its Markdown has the given lines.
func checkTable(t *testing.T, golden string, tb *Table, lines []string) {
	t.Helper()
	reporttest.CheckTable(t, golden, tb.Markdown(), tb.LaTeX(), lines)
}

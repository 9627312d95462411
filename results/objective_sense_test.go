package results_test

import (
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/results"
)

// TestObjectiveMaximised checks that the report's question is answered by the sweeps'
// provenance where it records the senses, and as the methods answered it for results
// recorded before it did.
func TestObjectiveMaximised(t *testing.T) {
	recorded := []results.Provenance{{Maximises: []string{"bagc"}}}
	for _, c := range []struct {
		prov []results.Provenance
		alg  string
		want bool
	}{
		{recorded, "bagc", true},
		{recorded, "nagc", false},
		{recorded, "paican", false}, // the provenance says: no run of it maximises
		{[]results.Provenance{{}}, "bagc", true},
		{[]results.Provenance{{}}, "paican", true},
		{[]results.Provenance{{}}, "nagc", false},
		{nil, "no-such-method", false},
	} {
		if got := results.ObjectiveMaximised(c.prov, c.alg); got != c.want {
			t.Errorf("ObjectiveMaximised(%v, %q) = %v, want %v", c.prov, c.alg, got, c.want)
		}
	}
}

// TestObjectiveMaximisedBeforeProvenance checks the senses results without recorded
// ones are read with against the registered methods: every method the fallback calls a
// maximiser is one.
func TestObjectiveMaximisedBeforeProvenance(t *testing.T) {
	for _, name := range algorithms.Names() {
		if results.ObjectiveMaximised(nil, name) && !algorithms.ObjectiveMaximised(name) {
			t.Errorf("%s: read as maximising its objective, but the method minimises it", name)
		}
	}
	for _, name := range []string{"bagc", "inc-cluster", "paican", "sa-cluster"} {
		if !algorithms.ObjectiveMaximised(name) || !results.ObjectiveMaximised(nil, name) {
			t.Errorf("%s: registered %v, read %v; want both true", name,
				algorithms.ObjectiveMaximised(name), results.ObjectiveMaximised(nil, name))
		}
	}
}

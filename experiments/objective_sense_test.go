package experiments

import "testing"

// TestObjectiveMaximised checks that the report's question is answered by the sweeps'
// provenance where it records the senses, and by the registered methods for results
// recorded before it did.
func TestObjectiveMaximised(t *testing.T) {
	recorded := []Provenance{{Maximises: []string{"bagc"}}}
	for _, c := range []struct {
		prov []Provenance
		alg  string
		want bool
	}{
		{recorded, "bagc", true},
		{recorded, "nagc", false},
		{recorded, "paican", false}, // the provenance says: no run of it maximises
		{[]Provenance{{}}, "bagc", true},
		{[]Provenance{{}}, "paican", true},
		{[]Provenance{{}}, "nagc", false},
		{nil, "no-such-method", false},
	} {
		if got := ObjectiveMaximised(c.prov, c.alg); got != c.want {
			t.Errorf("ObjectiveMaximised(%v, %q) = %v, want %v", c.prov, c.alg, got, c.want)
		}
	}
	cfg := &Config{Methods: []MethodSpec{{Algorithm: posString{Value: "nagc"}}, {Algorithm: posString{Value: "bagc"}},
		{Algorithm: posString{Value: "sa-cluster"}}, {Algorithm: posString{Value: "bagc"}}}}
	if got := maximisers(cfg); len(got) != 2 || got[0] != "bagc" || got[1] != "sa-cluster" {
		t.Errorf("maximisers = %v, want [bagc sa-cluster]", got)
	}
}

package algorithms

import "testing"

// TestObjectiveMaximised checks which registered methods maximise the objective they
// record: the variational ones (an ELBO) and SA-Cluster's family (a similarity); the
// factorisations and k-means minimise a loss.
func TestObjectiveMaximised(t *testing.T) {
	want := map[string]bool{"bagc": true, "paican": true, "sa-cluster": true, "inc-cluster": true}
	for _, name := range Names() {
		if got := ObjectiveMaximised(name); got != want[name] {
			t.Errorf("ObjectiveMaximised(%q) = %v, want %v", name, got, want[name])
		}
	}
	if ObjectiveMaximised("no-such-method") {
		t.Error("an unknown method is said to maximise its objective")
	}
}

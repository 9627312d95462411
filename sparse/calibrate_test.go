package sparse

import "testing"

// TestProductGrainMeasured checks that the sparse products' grain is measured once.
func TestProductGrainMeasured(t *testing.T) {
	w := productGrain.Min()
	if w <= 0 {
		t.Fatalf("grain %d", w)
	}
	if again := productGrain.Min(); again != w {
		t.Fatalf("measured twice: %d then %d", w, again)
	}
	t.Logf("grain of the sparse products on this machine: %d multiply-adds", w)
}

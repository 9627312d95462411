package dense

import "testing"

// TestGrainMeasured checks that the dense kernels' grain is measured once.
func TestGrainMeasured(t *testing.T) {
	w := Grain().Min()
	if w <= 0 {
		t.Fatalf("grain %d", w)
	}
	if again := Grain().Min(); again != w {
		t.Fatalf("measured twice: %d then %d", w, again)
	}
	t.Logf("grain of the dense kernels on this machine (%v): %d multiply-adds", KernelLevel(), w)
}

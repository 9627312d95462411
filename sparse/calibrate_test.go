package sparse

import "testing"

// TestMinWorkPerTaskMeasured checks that the measured split threshold lies within its
// bounds and is measured once.
func TestMinWorkPerTaskMeasured(t *testing.T) {
	w := minWorkPerTask()
	if w < minWorkFloor || w > minWorkCeiling {
		t.Fatalf("minimum work per task %d, outside [%d, %d]", w, minWorkFloor, minWorkCeiling)
	}
	if again := minWorkPerTask(); again != w {
		t.Fatalf("measured twice: %d then %d", w, again)
	}
	t.Logf("minimum work per task on this machine: %d multiply-adds", w)
}

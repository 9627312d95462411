package metrics

import (
	"errors"
	"math"
	"testing"
)

func TestUnflagged(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		masks map[string][]bool
		keep  []bool
		share float64
	}{
		{"no masks", 3, nil, []bool{true, true, true}, 1},
		{"one mask", 4, map[string][]bool{"a": {true, false, false, false}}, []bool{false, true, true, true}, 0.75},
		{"union of two", 4, map[string][]bool{"a": {true, false, false, false}, "b": {true, true, false, false}}, []bool{false, false, true, true}, 0.5},
		{"all flagged", 2, map[string][]bool{"a": {true, true}}, []bool{false, false}, 0},
		{"empty graph", 0, map[string][]bool{"a": {}}, []bool{}, 0},
	} {
		keep, share, err := Unflagged(tc.n, tc.masks)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if share != tc.share || len(keep) != len(tc.keep) {
			t.Errorf("%s: share %v, %d kept flags; want %v, %d", tc.name, share, len(keep), tc.share, len(tc.keep))
			continue
		}
		for i := range keep {
			if keep[i] != tc.keep[i] {
				t.Errorf("%s: keep %v, want %v", tc.name, keep, tc.keep)
				break
			}
		}
	}
	if _, _, err := Unflagged(3, map[string][]bool{"short": {true}}); err == nil {
		t.Error("a mask of 1 entry for 3 vertices: no error")
	}
}

func TestARIKept(t *testing.T) {
	// Kept {0, 1, 2}: truth (0 0 1), pred (0 1 1): ARI −0.5 by hand (see
	// TestARIConnected); the dropped vertices 3, 4 disagree with everything.
	truth, pred := []int{0, 0, 1, 0, 1}, []int{0, 1, 1, 1, 0}
	got, err := ARIKept(truth, pred, []bool{true, true, true, false, false})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-(-0.5)) > tol {
		t.Errorf("ARIKept = %v, want -0.5", got)
	}
	all, _ := ARI(truth, pred)
	if got, _ := ARIKept(truth, pred, []bool{true, true, true, true, true}); got != all {
		t.Errorf("ARIKept keeping every vertex = %v, ARI = %v", got, all)
	}
	if _, err := ARIKept(truth, pred, make([]bool, 5)); !errors.Is(err, ErrNoneKept) {
		t.Errorf("nothing kept: error %v, want ErrNoneKept", err)
	}
	if _, err := ARIKept(truth, pred, make([]bool, 4)); err == nil {
		t.Error("4 keep flags for 5 vertices: no error")
	}
}

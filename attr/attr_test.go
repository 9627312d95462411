package attr_test

import (
	"testing"

	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// Every attribute form is a Matrix.
var (
	_ attr.Matrix = (*sparse.CSR)(nil)
	_ attr.Matrix = (*dense.Matrix)(nil)
	_ attr.Matrix = (*sparse.FilteredMatrix)(nil)
)

func TestDensity(t *testing.T) {
	x, err := sparse.NewCSR(2, 4, []int{0, 1, 3}, []int{2, 0, 3}, []float64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		x    attr.Matrix
		want float64
	}{
		{"csr", x, 3.0 / 8},
		{"dense", dense.NewMatrix64(2, 2, []float64{0, 1, 2, 3}), 0.75},
		{"empty", dense.NewMatrix64(0, 3, nil), 0},
	} {
		if got := attr.Density(tc.x); got != tc.want {
			t.Errorf("%s: Density = %v, want %v", tc.name, got, tc.want)
		}
	}
}

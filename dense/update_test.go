package dense

import (
	"fmt"
	"math"
	"testing"
)

// TestUpdatesByHand checks the three multiplicative updates against values worked out by
// hand, NaN cases (0/0, ∞/∞) included, on lengths that leave a tail after groups of 4.
func TestUpdatesByHand(t *testing.T) {
	const nan = 1e-300
	inf := math.Inf(1)
	c := UpdateCoefficients{Graph: 2, Lambda: 0.5, Edge: 1, NonEdge: 3, NaN: nan}
	for _, tc := range []struct {
		name string
		run  func() []float64
		want []float64
	}{
		{"ratio", func() []float64 {
			x := []float64{2, 0, 1, 3, 5, 1}
			RatioUpdate(x, []float64{3, 0, inf, 1, 2, 0}, []float64{4, 0, inf, 3, 5, 2}, nan)
			return x
		}, []float64{1.5, nan, nan, 1, 2, 0}},
		{"pu", func() []float64 {
			// num = 2·su + 0.5·an, den = g + 3·(uutu − g) + 0.5·ad.
			u := []float64{1, 2, 0, 4, 1}
			su := []float64{1, 1, 0, 2, 0}
			g := []float64{1, 2, 0, 1, 1}
			uutu := []float64{2, 2, 0, 1, 1}
			an := []float64{2, 0, 0, 4, 0}
			ad := []float64{2, 4, 0, 2, 2}
			PUUpdate(u, su, g, uutu, an, ad, c)
			return u
		}, []float64{1 * 3.0 / 5, 2 * 2.0 / 4, nan, 4 * 6.0 / 2, 0}},
		{"sym", func() []float64 {
			// num = 2·su + 0.5·an, den = uutu + 0.5·ad.
			u := []float64{1, 2, 0, 4, 3}
			su := []float64{1, 1, 0, 2, 1}
			uutu := []float64{2, 2, 0, 1, 4}
			an := []float64{2, 0, 0, 4, 0}
			ad := []float64{2, 4, 0, 2, 0}
			SymUpdate(u, su, uutu, an, ad, c)
			return u
		}, []float64{1 * 3.0 / 3, 2 * 2.0 / 4, nan, 4 * 6.0 / 2, 3 * 2.0 / 4}},
	} {
		got := tc.run()
		for i := range tc.want {
			if got[i] != tc.want[i] {
				t.Errorf("%s: entry %d is %v, want %v", tc.name, i, got[i], tc.want[i])
			}
		}
	}
}

// ExampleRatioUpdate shows the multiplicative update of NMF on three entries, the last
// a 0/0 replaced by the given value.
func ExampleRatioUpdate() {
	x := []float64{1, 2, 0}
	RatioUpdate(x, []float64{3, 1, 0}, []float64{2, 4, 0}, 1e-16)
	fmt.Println(x)
	// Output: [1.5 0.5 1e-16]
}

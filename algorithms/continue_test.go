package algorithms

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// A fit continued from the factors of a shorter one is, bit for bit, the fit run
// straight for the sum of their iterations: labels, objective curve and factors, for
// both update rules, a graph filter and kmeans and random starts.
func TestContinueEqualsStraightFit(t *testing.T) {
	in, _ := plantedGraph(5, 90, 40, 3, 0.2, 0.03, 0.5, 0.05)
	in.Cache = NewCache()
	ctx := context.Background()
	for _, c := range []struct {
		name string
		a    NAGC
	}{
		{"PU rule", NAGC{Lambda: 0.3, Rho: 0.9, K2: 4}},
		{"w/o PU rule", NAGC{Lambda: 1e-4, Rho: 0.5}},
		{"random start", NAGC{Lambda: 2, Rho: 0.75, Init: InitRandom}},
		{"graph filter", NAGC{Lambda: 0.5, Rho: 0.95, Filter: GraphFilterOptions{P: 2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			straight := c.a
			straight.Iterations = 30
			want, err := straight.Fit(ctx, in, 3, 11)
			if err != nil {
				t.Fatal(err)
			}
			first := c.a
			first.Iterations = 10
			got, err := first.Fit(ctx, in, 3, 11)
			if err != nil {
				t.Fatal(err)
			}
			obj := slices.Clone(got.Objective)
			for _, more := range []int{5, 15} { // two continuations: 10 + 5 + 15
				m, err := first.Continue(got.Factors, more)
				if err != nil {
					t.Fatal(err)
				}
				if got, err = m.Fit(ctx, in, 3, 11); err != nil {
					t.Fatal(err)
				}
				obj = append(obj, got.Objective...)
			}
			if !slices.Equal(got.Labels, want.Labels) {
				t.Error("labels differ")
			}
			if len(obj) != len(want.Objective) {
				t.Fatalf("%d objective values, want %d", len(obj), len(want.Objective))
			}
			for i := range obj {
				if math.Float64bits(obj[i]) != math.Float64bits(want.Objective[i]) {
					t.Fatalf("objective after iteration %d: %v, want %v", i+1, obj[i], want.Objective[i])
				}
			}
			for _, f := range []string{"U", "V", "H"} {
				if !mat.Equal(got.Factors[f], want.Factors[f]) {
					t.Errorf("factor %s differs", f)
				}
			}
		})
	}
}

func TestContinueRefusesBadInput(t *testing.T) {
	if _, err := (NAGC{}).Continue(map[string]*mat.Dense{"U": mat.NewDense(1, 1, nil)}, 5); err == nil {
		t.Error("continued without V and H")
	}
	f := map[string]*mat.Dense{"U": mat.NewDense(1, 1, nil), "V": mat.NewDense(1, 1, nil), "H": mat.NewDense(1, 1, nil)}
	if _, err := (NAGC{}).Continue(f, 0); err == nil {
		t.Error("continued for 0 iterations")
	}
}

package sparse

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFilterContext checks that the Context variants of the graph filter return
// context.Canceled for a cancelled context, and for a live one the bits of the plain
// functions.
func TestFilterContext(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	const n, m = 60, 9
	ab, xb := NewBuilder(n, n), NewBuilder(n, m)
	for i := 0; i < n; i++ {
		for range 3 {
			if j := rng.IntN(n); j != i {
				_ = ab.Add(i, j, 1)
				_ = ab.Add(j, i, 1)
			}
		}
		_ = xb.Add(i, rng.IntN(m), rng.Float64()+0.1)
	}
	adj, x := ab.CSR(MaxDuplicates), xb.CSR(SumDuplicates)
	f, err := NewLowPassFilter(adj, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		plain func() any
		ctx   func(context.Context) (any, error)
	}{
		{"ApplyDense", func() any {
			d := x.Dense()
			f.ApplyDense(d, d)
			return d
		}, func(ctx context.Context) (any, error) {
			d := x.Dense()
			return d, f.ApplyDenseContext(ctx, d, d)
		}},
		{"ApplyCSR", func() any { return f.ApplyCSR(x) },
			func(ctx context.Context) (any, error) { return f.ApplyCSRContext(ctx, x) }},
		{"NewFilteredMatrix+CSR", func() any { return NewFilteredMatrix(f, x, true).CSR() },
			func(ctx context.Context) (any, error) {
				z, err := NewFilteredMatrixContext(ctx, f, x, true)
				if err != nil {
					return nil, err
				}
				return z.CSRContext(ctx)
			}},
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range cases {
		if _, err := c.ctx(cancelled); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: error %v, want context.Canceled", c.name, err)
		}
		got, err := c.ctx(context.Background())
		if err != nil {
			t.Fatalf("%s with a live context: %v", c.name, err)
		}
		switch want := c.plain().(type) {
		case *CSR:
			sameCSR(t, c.name, got.(*CSR), want)
		case *mat.Dense:
			if !mat.Equal(got.(*mat.Dense), want) {
				t.Errorf("%s: a live context changed the result", c.name)
			}
		}
	}
}

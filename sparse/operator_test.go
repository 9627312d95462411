package sparse

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randomNonNegative(rng *rand.Rand, r, c int, density float64) *CSR {
	b := NewBuilder(r, c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if rng.Float64() < density {
				_ = b.Add(i, j, rng.Float64())
			}
		}
	}
	return b.CSR(SumDuplicates)
}

// TestFilteredMatrixMatchesDense checks every product of the implicit Z = R·F·X against
// Z formed with n×n dense matrices, on graphs with isolated vertices and empty attribute
// rows (whose filtered rows may stay zero), for several orders, self-loop weights, and
// with and without unit rows; m = 130 spans more than two column blocks.
func TestFilteredMatrixMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 5))
	for _, c := range []struct {
		n, m, p int
		w       float64
		unit    bool
	}{
		{25, 130, 0, 1, false}, {25, 130, 3, 1, true}, {40, 7, 2, 0.5, false},
		{40, 70, 8, 1, true}, {12, 3, 1, 0, true},
	} {
		t.Run(fmt.Sprintf("n%d_m%d_p%d_w%g_unit%v", c.n, c.m, c.p, c.w, c.unit), func(t *testing.T) {
			adj := randomSymmetric(rng, c.n, 0.1)
			x := randomNonNegative(rng, c.n, c.m, 0.15)
			f, err := NewLowPassFilter(adj, c.p, c.w)
			if err != nil {
				t.Fatal(err)
			}
			z := NewFilteredMatrix(f, x, c.unit)
			var want mat.Dense
			want.Mul(denseFilter(adj, c.p, c.w), x.Dense())
			if c.unit {
				for i := 0; i < c.n; i++ {
					if nrm := mat.Norm(want.RowView(i), 2); nrm > 0 {
						row := want.RawRowView(i)
						for j := range row {
							row[j] /= nrm
						}
					}
				}
			}
			const tol = 1e-12
			if got := z.CSR().Dense(); !mat.EqualApprox(got, &want, tol) {
				t.Error("CSR() differs from the dense Z")
			}
			if got, w := z.Sum(), mat.Sum(&want); math.Abs(got-w) > tol*math.Max(1, w) {
				t.Errorf("Sum %v, want %v", got, w)
			}
			fro := mat.Norm(&want, 2)
			if got := z.SumSq(); math.Abs(got-fro*fro) > tol*math.Max(1, fro*fro) {
				t.Errorf("SumSq %v, want %v", got, fro*fro)
			}
			for i, s := range z.RowNormsSq() {
				w := mat.Norm(want.RowView(i), 2)
				if math.Abs(s-w*w) > tol {
					t.Fatalf("row %d: squared norm %v, want %v", i, s, w*w)
				}
			}
			b := randomDense(rng, c.m, 4)
			got := mat.NewDense(c.n, 4, nil)
			z.MulDense(got, b)
			var wantZB mat.Dense
			wantZB.Mul(&want, b)
			if !mat.EqualApprox(got, &wantZB, tol) {
				t.Error("Z·B differs from the dense product")
			}
			bt := randomDense(rng, c.n, 3)
			gotT := mat.NewDense(c.m, 3, nil)
			z.TMulDense(gotT, bt)
			var wantZtB mat.Dense
			wantZtB.Mul(want.T(), bt)
			if !mat.EqualApprox(gotT, &wantZtB, tol) {
				t.Error("Zᵀ·B differs from the dense product")
			}
		})
	}
}

func TestCSROperatorIsMulDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 5))
	x := randomNonNegative(rng, 30, 17, 0.2)
	o := NewCSROperator(x)
	b := randomDense(rng, 17, 5)
	got, want := mat.NewDense(30, 5, nil), mat.NewDense(30, 5, nil)
	o.MulDense(got, b)
	MulDense(want, x, b)
	if !mat.Equal(got, want) {
		t.Error("CSROperator.MulDense differs from MulDense")
	}
	bt := randomDense(rng, 30, 2)
	gotT, wantT := mat.NewDense(17, 2, nil), mat.NewDense(17, 2, nil)
	o.TMulDense(gotT, bt)
	MulDense(wantT, x.T(), bt)
	if !mat.Equal(gotT, wantT) {
		t.Error("CSROperator.TMulDense differs from MulDense with the transpose")
	}
	if o.Sum() != x.Sum() || o.SumSq() != x.SumSq() {
		t.Error("Sum or SumSq differs from the CSR's")
	}
}

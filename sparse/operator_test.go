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
			nnz := 0
			for _, v := range want.RawMatrix().Data {
				if v != 0 {
					nnz++
				}
			}
			if z.NNZ() != nnz {
				t.Errorf("NNZ %d, want %d", z.NNZ(), nnz)
			}
			if i, j, ok := z.FirstNegative(); ok {
				t.Errorf("FirstNegative (%d, %d) of a non-negative Z", i, j)
			}
			for i := 0; i < c.n; i++ {
				row := z.RowTo(make([]float64, c.m+1), i)
				if !floatsNear(row, want.RawRowView(i), tol) {
					t.Fatalf("RowTo(%d) = %v, want %v", i, row, want.RawRowView(i))
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

func floatsNear(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// TestFilteredMatrixFirstNegative checks that a negative attribute value is found in Z
// at the first row-major place where F·X is negative.
func TestFilteredMatrixFirstNegative(t *testing.T) {
	adj, _ := NewCSR(3, 3, []int{0, 1, 2, 2}, []int{1, 0}, []float64{1, 1}) // 0–1, 2 isolated
	x, _ := NewCSR(3, 2, []int{0, 1, 1, 2}, []int{0, 1}, []float64{1, -1})
	f, err := NewLowPassFilter(adj, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	z := NewFilteredMatrix(f, x, false)
	want := denseFilter(adj, 1, 1)
	var fx mat.Dense
	fx.Mul(want, x.Dense())
	wi, wj := -1, -1
	for i := 0; i < 3 && wi < 0; i++ {
		for j := 0; j < 2; j++ {
			if fx.At(i, j) < 0 {
				wi, wj = i, j
				break
			}
		}
	}
	if i, j, ok := z.FirstNegative(); !ok || i != wi || j != wj {
		t.Errorf("FirstNegative = (%d, %d, %v), want (%d, %d, true)", i, j, ok, wi, wj)
	}
}

// TestCSRAttributeMethods checks RowTo, FirstNegative and the products' methods of a CSR
// against its dense form.
func TestCSRAttributeMethods(t *testing.T) {
	x, _ := NewCSR(3, 3, []int{0, 2, 2, 4}, []int{0, 2, 1, 2}, []float64{1, 2, 3, math.NaN()})
	for i, want := range [][]float64{{1, 0, 2}, {0, 0, 0}} {
		if got := x.RowTo([]float64{9, 9, 9, 9}, i); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("RowTo(%d) = %v, want %v", i, got, want)
		}
	}
	if i, j, ok := x.FirstNegative(); !ok || i != 2 || j != 2 {
		t.Errorf("FirstNegative = (%d, %d, %v), want (2, 2, true)", i, j, ok)
	}
	y, _ := NewCSR(2, 2, []int{0, 1, 2}, []int{1, 0}, []float64{0.5, -1})
	if i, j, ok := y.FirstNegative(); !ok || i != 1 || j != 0 {
		t.Errorf("FirstNegative = (%d, %d, %v), want (1, 0, true)", i, j, ok)
	}
	b := mat.NewDense(2, 1, []float64{2, 3})
	got := mat.NewDense(2, 1, nil)
	y.TMulDense(got, b)
	if !mat.Equal(got, mat.NewDense(2, 1, []float64{-3, 1})) {
		t.Errorf("TMulDense = %v", mat.Formatted(got))
	}
	y.MulDense(got, b)
	if !mat.Equal(got, mat.NewDense(2, 1, []float64{1.5, -2})) {
		t.Errorf("MulDense = %v", mat.Formatted(got))
	}
}

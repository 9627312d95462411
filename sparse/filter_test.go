package sparse

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// denseFilter is F = ((I + Â)/2)^p with Â = D^-½(A − diag(A) + wI)D^-½, written with
// n×n matrices.
func denseFilter(adj *CSR, p int, w float64) *mat.Dense {
	a := adj.Dense()
	n, _ := a.Dims()
	for i := 0; i < n; i++ {
		a.Set(i, i, w)
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = mat.Sum(a.RowView(i))
	}
	norm := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if d[i] > 0 && d[j] > 0 {
				norm.Set(i, j, a.At(i, j)/math.Sqrt(d[i]*d[j]))
			}
		}
	}
	step := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := 0.5 * norm.At(i, j)
			if i == j {
				v += 0.5
			}
			step.Set(i, j, v)
		}
	}
	f := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		f.Set(i, i, 1)
	}
	for s := 0; s < p; s++ {
		var next mat.Dense
		next.Mul(step, f)
		f.Copy(&next)
	}
	return f
}

func randomSymmetric(rng *rand.Rand, n int, density float64) *CSR {
	b := NewBuilder(n, n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if rng.Float64() < density {
				_ = b.Add(i, j, 1)
				_ = b.Add(j, i, 1)
			}
		}
	}
	return b.CSR(MaxDuplicates)
}

func TestLowPassFilterMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := 0; trial < 4; trial++ {
		n, m := 25+trial*10, 12
		adj := randomSymmetric(rng, n, 0.1) // includes some self-loops and isolated vertices
		x, xd := randomSparse(rng, n, m, 0.2)
		for _, p := range []int{0, 1, 2, 5} {
			for _, w := range []float64{1, 0.5} {
				f, err := NewLowPassFilter(adj, p, w)
				if err != nil {
					t.Fatal(err)
				}
				var want mat.Dense
				want.Mul(denseFilter(adj, p, w), xd)
				got := mat.DenseCopyOf(xd)
				f.ApplyDense(got, got)
				assertClose(t, "ApplyDense", got, &want, 1e-12)
				explicit := f.ApplyCSR(x)
				assertClose(t, "ApplyCSR", explicit.Dense(), &want, 1e-12)
				if explicit.NNZ() > 0 {
					for _, v := range explicit.val {
						if v < 0 {
							t.Fatal("filtered matrix has a negative entry")
						}
					}
				}
			}
		}
	}
}

func TestFilterZeroIsIdentity(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	adj := randomSymmetric(rng, 30, 0.1)
	x, _ := randomSparse(rng, 30, 8, 0.3)
	f, _ := NewLowPassFilter(adj, 0, 1)
	if got := f.ApplyCSR(x); got != x {
		t.Error("p = 0 did not return x itself")
	}
}

func TestFilterErrors(t *testing.T) {
	adj := randomSymmetric(rand.New(rand.NewPCG(1, 1)), 5, 0.3)
	if _, err := NewLowPassFilter(adj, -1, 1); err == nil {
		t.Error("negative order accepted")
	}
	if _, err := NewLowPassFilter(adj, 1, math.NaN()); err == nil {
		t.Error("NaN self-loop weight accepted")
	}
	rect, _ := randomSparse(rand.New(rand.NewPCG(1, 1)), 3, 4, 0.5)
	if _, err := NewLowPassFilter(rect, 1, 1); err == nil {
		t.Error("rectangular adjacency accepted")
	}
}

func TestMulCSRAndRowNormalized(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	a, ad := randomSparse(rng, 9, 7, 0.3)
	b, bd := randomSparse(rng, 7, 40, 0.4)
	var want mat.Dense
	want.Mul(ad, bd)
	assertClose(t, "MulCSR", MulCSR(a, b).Dense(), &want, 1e-12)
	rn := b.RowNormalized()
	for i := 0; i < 7; i++ {
		if s := rn.RowNormsSq()[i]; b.RowNNZ(i) > 0 && math.Abs(s-1) > 1e-12 {
			t.Errorf("row %d has squared norm %v", i, s)
		}
	}
}

package sparse

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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

// halfSum returns ½(a + b) for two matrices of the same shape.
func halfSum(a, b *CSR) *CSR {
	ptr := make([]int, a.r+1)
	ind := make([]int, 0, max(a.NNZ(), b.NNZ()))
	val := make([]float64, 0, cap(ind))
	for i := 0; i < a.r; i++ {
		p, q := a.ptr[i], b.ptr[i]
		for p < a.ptr[i+1] || q < b.ptr[i+1] {
			switch {
			case q >= b.ptr[i+1] || (p < a.ptr[i+1] && a.ind[p] < b.ind[q]):
				ind, val = append(ind, a.ind[p]), append(val, 0.5*a.val[p])
				p++
			case p >= a.ptr[i+1] || b.ind[q] < a.ind[p]:
				ind, val = append(ind, b.ind[q]), append(val, 0.5*b.val[q])
				q++
			default:
				ind, val = append(ind, a.ind[p]), append(val, 0.5*(a.val[p]+b.val[q]))
				p++
				q++
			}
		}
		ptr[i+1] = len(ind)
	}
	return &CSR{r: a.r, c: a.c, ptr: ptr, ind: ind, val: val}
}

// mulCSRSorted is MulCSR as first written, the reference: every row's columns sorted.
func mulCSRSorted(a, b *CSR) *CSR {
	acc := make([]float64, b.c)
	mark := make([]int, b.c)
	for j := range mark {
		mark[j] = -1
	}
	ptr := make([]int, a.r+1)
	var ind []int
	var val []float64
	for i := 0; i < a.r; i++ {
		var cols []int
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			k, v := a.ind[p], a.val[p]
			for q := b.ptr[k]; q < b.ptr[k+1]; q++ {
				j := b.ind[q]
				if mark[j] != i {
					mark[j] = i
					acc[j] = 0
					cols = append(cols, j)
				}
				acc[j] += v * b.val[q]
			}
		}
		slices.Sort(cols)
		for _, j := range cols {
			if acc[j] != 0 {
				ind = append(ind, j)
				val = append(val, acc[j])
			}
		}
		ptr[i+1] = len(ind)
	}
	return &CSR{r: a.r, c: b.c, ptr: ptr, ind: ind, val: val}
}

// sameCSR fails unless got and want have the same pattern and bits.
func sameCSR(t *testing.T, what string, got, want *CSR) {
	t.Helper()
	if !slices.Equal(got.ptr, want.ptr) || !slices.Equal(got.ind, want.ind) {
		t.Fatalf("%s: pattern differs", what)
	}
	for p, v := range want.val {
		if math.Float64bits(got.val[p]) != math.Float64bits(v) {
			t.Fatalf("%s: entry %d is %v, want %v", what, p, got.val[p], v)
		}
	}
}

// TestLowPassStepMatchesProductAndHalfSum holds the fused filter step to its definition,
// halfSum(z, a·z), and MulCSR to the product with every row sorted, entry for entry and
// bit for bit: rows of a·z with few columns
// (sorted) and with many (scanned), entries of z alone, of a·z alone and of both, and
// entries of a·z that cancel to an exact zero (dropped).
func TestLowPassStepMatchesProductAndHalfSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, c := range []struct {
		r, c     int
		pa, pz   float64
		integers bool // small integer values, so that sums cancel exactly
	}{{30, 50, 0.05, 0.05, false}, {40, 20, 0.2, 0.5, false}, {25, 9, 0.3, 0.4, true}, {60, 200, 0.1, 0.02, true}} {
		random := func(r, cc int, p float64) *CSR {
			b := NewBuilder(r, cc)
			for i := 0; i < r; i++ {
				for j := 0; j < cc; j++ {
					if rng.Float64() < p {
						v := rng.NormFloat64()
						if c.integers {
							v = float64(rng.IntN(5) - 2)
						}
						if v != 0 {
							_ = b.Add(i, j, v)
						}
					}
				}
			}
			return b.CSR(SumDuplicates)
		}
		a, z := random(c.r, c.r, c.pa), random(c.r, c.c, c.pz)
		az := mulCSRSorted(a, z)
		sameCSR(t, fmt.Sprintf("%+v MulCSR", c), MulCSR(a, z), az)
		sameCSR(t, fmt.Sprintf("%+v filter step", c), lowPassStepLive(a, z), halfSum(z, az))
	}
}

// lowPassStepLive is lowPassStep under a context that is never cancelled.
func lowPassStepLive(a, z *CSR) *CSR {
	s, err := lowPassStep(context.Background(), a, z)
	if err != nil {
		panic(err)
	}
	return s
}

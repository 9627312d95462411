package f32

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
)

// randMat returns an r×c matrix of entries in [0, 1).
func randMat(rng *rand.Rand, r, c int) *Mat {
	m := NewMat(r, c)
	for i := range m.Data {
		m.Data[i] = float32(rng.Float64())
	}
	return m
}

// near checks got against the float64 product want entry by entry, relative to the
// largest entry of want: float32 sums of up to a few thousand terms.
func near(t *testing.T, what string, got *Mat, want *mat.Dense) {
	t.Helper()
	r, c := want.Dims()
	scale := mat.Max(want)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if d := math.Abs(float64(got.Data[i*c+j]) - want.At(i, j)); d > 1e-5*scale {
				t.Fatalf("%s: (%d, %d) = %v, float64 %v", what, i, j, got.Data[i*c+j], want.At(i, j))
			}
		}
	}
}

// TestProducts holds each matrix kernel to the float64 product of the same float32
// values (gonum), on sizes that leave ragged blocks and ragged groups of four rows, on
// one and two threads and at every level.
func TestProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n, k, c := 2*BlockRows+7, 13, 21
	a, x, y := randMat(rng, n, k), randMat(rng, n, c), randMat(rng, n, c)
	b, h := randMat(rng, k, c), randMat(rng, c, k)
	A, X, Y, B, H := a.Dense(), x.Dense(), y.Dense(), b.Dense(), h.Dense()
	var xy mat.Dense
	xy.MulElem(X, Y)
	for _, threads := range []int{1, 2} {
		for _, l := range levels() {
			func() {
				defer parallel.SetThreads(parallel.SetThreads(threads))
				defer parallel.SetSplitAlways(parallel.SetSplitAlways(threads > 1)) // split however small
				withLevel(t, l)
				var want mat.Dense
				got := NewMat(n, c)
				Mul(got, a, b)
				want.Mul(A, B)
				near(t, "Mul", got, &want)

				gotH := NewMat(n, k)
				MulHadamard(gotH, x, y, h)
				want.Reset()
				want.Mul(&xy, H)
				near(t, "MulHadamard", gotH, &want)

				gotT := NewMat(k, c)
				TMul(gotT, a, x, y)
				want.Reset()
				want.Mul(A.T(), &xy)
				near(t, "TMul", gotT, &want)

				for _, kk := range []int{1, 2, 3, 6, 13} { // every remainder of k mod 4
					sub := NewMat(n, kk)
					for i := 0; i < n; i++ {
						copy(sub.Row(i), a.Row(i)[:kk])
					}
					gotG := NewMat(kk, kk)
					Gram(gotG, sub)
					S := sub.Dense()
					want.Reset()
					want.Mul(S.T(), S)
					near(t, "Gram", gotG, &want)
				}

				f, fp := NewMat(n, c), NewMat(n, c)
				SigmoidMul(f, fp, a, b)
				want.Reset()
				want.Mul(A, B)
				want.Apply(func(_, _ int, v float64) float64 { return 1 / (1 + math.Exp(-v)) }, &want)
				near(t, "SigmoidMul", f, &want)
				for i, s := range f.Data {
					if fp.Data[i] != s*(1-s) {
						t.Fatalf("SigmoidMul: f' = %v at %d, want f(1−f) = %v", fp.Data[i], i, s*(1-s))
					}
				}

				if d, w := DotAll(x, y), mat.Sum(&xy); math.Abs(d-w) > 1e-5*w {
					t.Fatalf("DotAll = %v, float64 %v", d, w)
				}
			}()
		}
	}
}

// TestEdgeTerms holds EdgeTerms and CSR.MulDense to their float64 definitions on a
// random pattern with empty rows and a self-loop.
func TestEdgeTerms(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	n, k := BlockRows+300, 9
	bld := sparse.NewBuilder(n, n)
	for i := 0; i < n; i++ {
		if i%17 == 0 {
			continue // an empty row
		}
		for d := 0; d < 5; d++ {
			_ = bld.Add(i, rng.IntN(n), 1+rng.Float64())
		}
	}
	_ = bld.Add(3, 3, 1)
	w64 := bld.CSR(sparse.MaxDuplicates)
	w, err := FromCSR(w64)
	if err != nil {
		t.Fatal(err)
	}
	u := randMat(rng, n, k)
	U := u.Dense()
	for _, l := range levels() {
		withLevel(t, l)
		su, g := NewMat(n, k), NewMat(n, k)
		sum, sumSq := EdgeTerms(su, g, w, u)
		wantSU, wantG := mat.NewDense(n, k, nil), mat.NewDense(n, k, nil)
		var wantSum, wantSq float64
		for i := 0; i < n; i++ {
			cols, _ := w64.Row(i)
			for _, j := range cols {
				z := mat.Dot(U.RowView(i), U.RowView(j))
				wantSum += z
				wantSq += z * z
				for p := 0; p < k; p++ {
					wantSU.Set(i, p, wantSU.At(i, p)+U.At(j, p))
					wantG.Set(i, p, wantG.At(i, p)+z*U.At(j, p))
				}
			}
		}
		near(t, "EdgeTerms su", su, wantSU)
		near(t, "EdgeTerms g", g, wantG)
		if math.Abs(sum-wantSum) > 1e-5*wantSum || math.Abs(sumSq-wantSq) > 1e-5*wantSq {
			t.Errorf("%v: sums %v, %v; float64 %v, %v", l, sum, sumSq, wantSum, wantSq)
		}
		got := NewMat(n, k)
		w.MulDense(got, u)
		var want mat.Dense
		want.Mul(w64.Dense(), U)
		near(t, "CSR.MulDense", got, &want)
	}
}

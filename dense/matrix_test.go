package dense

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/sparse"
)

// testMatrix returns an r×c non-negative matrix with about a third of its entries zero,
// as a Matrix of the given width and as the CSR of the same (widened) values.
func testMatrix(rng *rand.Rand, r, c int, f32 bool) (*Matrix, *sparse.CSR) {
	d64 := make([]float64, r*c)
	d32 := make([]float32, r*c)
	for k := range d64 {
		if rng.IntN(3) == 0 {
			continue
		}
		v := rng.Float64()
		d32[k] = float32(v)
		if f32 {
			v = float64(d32[k])
		}
		d64[k] = v
	}
	csr := sparse.FromDense(mat.NewDense(r, c, d64))
	if f32 {
		return NewMatrix32(r, c, d32), csr
	}
	return NewMatrix64(r, c, d64), csr
}

func TestMatrixMatchesCSROperator(t *testing.T) {
	for _, tc := range []struct {
		r, c, k int
		f32     bool
	}{
		{1, 1, 1, false}, {7, 3, 2, true}, {300, 128, 40, true}, {300, 128, 40, false},
		{1000, 100, 13, true}, {129, 5, 47, false},
	} {
		t.Run(fmt.Sprintf("%dx%d,k=%d,f32=%v", tc.r, tc.c, tc.k, tc.f32), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.r), uint64(tc.c)))
			x, csr := testMatrix(rng, tc.r, tc.c, tc.f32)
			op := sparse.NewCSROperator(csr)
			var _ sparse.Operator = x
			b := randDense(rng, tc.c, tc.k, 0)
			got, want := mat.NewDense(tc.r, tc.k, nil), mat.NewDense(tc.r, tc.k, nil)
			x.MulDense(got, b)
			op.MulDense(want, b)
			checkClose(t, "MulDense", got, want, 1e-13)
			bt := randDense(rng, tc.r, tc.k, 0)
			got, want = mat.NewDense(tc.c, tc.k, nil), mat.NewDense(tc.c, tc.k, nil)
			x.TMulDense(got, bt)
			op.TMulDense(want, bt)
			checkClose(t, "TMulDense", got, want, 1e-13)
			if s, w := x.Sum(), op.Sum(); math.Abs(s-w) > 1e-12*math.Max(1, w) {
				t.Errorf("Sum = %v, want %v", s, w)
			}
			if s, w := x.SumSq(), op.SumSq(); math.Abs(s-w) > 1e-12*math.Max(1, w) {
				t.Errorf("SumSq = %v, want %v", s, w)
			}
			if x.NNZ() != csr.NNZ() {
				t.Errorf("NNZ = %d, want %d", x.NNZ(), csr.NNZ())
			}
			norms, want2 := x.RowNormsSq(), csr.RowNormsSq()
			for i := range norms {
				if math.Abs(norms[i]-want2[i]) > 1e-12 {
					t.Fatalf("RowNormsSq[%d] = %v, want %v", i, norms[i], want2[i])
				}
			}
		})
	}
}

func TestMatrixThreadsBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f32 := range []bool{false, true} {
		x, _ := testMatrix(rng, 1000, 37, f32)
		b := randDense(rng, 37, 11, 0)
		bt := randDense(rng, 1000, 11, 0)
		type out struct {
			mul, tmul *mat.Dense
			sum, sq   float64
		}
		run := func(threads int) out {
			prev := parallel.SetThreads(threads)
			defer parallel.SetThreads(prev)
			o := out{mul: mat.NewDense(1000, 11, nil), tmul: mat.NewDense(37, 11, nil)}
			x.MulDense(o.mul, b)
			x.TMulDense(o.tmul, bt)
			o.sum, o.sq = x.Sum(), x.SumSq()
			return o
		}
		one := run(1)
		for _, th := range []int{2, 3, 8} {
			o := run(th)
			if !mat.Equal(o.mul, one.mul) || !mat.Equal(o.tmul, one.tmul) || o.sum != one.sum || o.sq != one.sq {
				t.Errorf("f32=%v: %d threads differ from 1 thread", f32, th)
			}
		}
	}
}

func TestMatrixEmpty(t *testing.T) {
	for _, x := range []*Matrix{NewMatrix64(0, 4, nil), NewMatrix32(5, 0, nil)} {
		if x.Sum() != 0 || x.SumSq() != 0 || x.NNZ() != 0 {
			t.Errorf("%v: an empty matrix has a non-zero sum", x)
		}
	}
}

func TestMatrixScaledAndNegative(t *testing.T) {
	x := NewMatrix32(2, 2, []float32{3, 4, 0, 0})
	n := x.RowNormalized()
	if !n.Is32() || n.At(0, 0) != float64(float32(0.6)) || n.At(0, 1) != float64(float32(0.8)) || n.At(1, 0) != 0 {
		t.Errorf("RowNormalized = %v", n.Float32())
	}
	if cm := x.ColMax(); cm[0] != 3 || cm[1] != 4 {
		t.Errorf("ColMax = %v", cm)
	}
	if _, _, bad := x.FirstNegative(); bad {
		t.Error("FirstNegative found a negative in a non-negative matrix")
	}
	y := NewMatrix64(2, 2, []float64{1, 2, math.NaN(), 4})
	if i, j, bad := y.FirstNegative(); !bad || i != 1 || j != 0 {
		t.Errorf("FirstNegative = %d, %d, %v; want 1, 0, true", i, j, bad)
	}
	row := x.RowTo(make([]float64, 2), 0)
	if row[0] != 3 || row[1] != 4 {
		t.Errorf("Row(0) = %v", row)
	}
}

func BenchmarkMatrixMulDense(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, f32 := range []bool{false, true} {
		x, _ := testMatrix(rng, 20000, 128, f32)
		v := randDense(rng, 128, 40, 0)
		dst := mat.NewDense(20000, 40, nil)
		b.Run(fmt.Sprintf("f32=%v", f32), func(b *testing.B) {
			for b.Loop() {
				x.MulDense(dst, v)
			}
		})
	}
}

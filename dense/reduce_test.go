package dense

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// refTMulHadamard is aᵀ·(b⊙c) written out entry by entry, the formulation every kernel
// of TMul, TMulHadamard, Gram and Matrix.TMulDense must reproduce bit for bit: for each
// block of BlockRows rows, sₚⱼ = Σ_t aₜₚ·(bₜⱼ·cₜⱼ) from +0 in order of t, each product
// rounded before it is added; dₚⱼ is the first block's sum plus the next ones', in block
// order. With c nil it is aᵀ·b.
func refTMulHadamard(a, b, c *mat.Dense) *mat.Dense {
	n, k := a.Dims()
	_, l := b.Dims()
	d := mat.NewDense(k, l, nil)
	for p := 0; p < k; p++ {
		for j := 0; j < l; j++ {
			var total float64
			for lo := 0; lo < n; lo += BlockRows {
				var s float64
				for t := lo; t < min(lo+BlockRows, n); t++ {
					v := b.At(t, j)
					if c != nil {
						v = float64(v * c.At(t, j))
					}
					s += float64(a.At(t, p) * v)
				}
				if lo == 0 {
					total = s
				} else {
					total += s
				}
			}
			d.Set(p, j, total)
		}
	}
	return d
}

// refGram is aᵀ·a by refTMulHadamard, its upper triangle copied to the lower one.
func refGram(a *mat.Dense) *mat.Dense {
	d := refTMulHadamard(a, a, nil)
	k, _ := d.Dims()
	for p := 0; p < k; p++ {
		for j := 0; j < p; j++ {
			d.Set(p, j, d.At(j, p))
		}
	}
	return d
}

// reductionShapes are the sizes the reduction tests cover: every inner width k = 1…64
// and output widths l up to 64, every other one drawn at random and the others cycling
// through widths whose column chunks take each form of kernel (3, 7, 11 and 47 = 12 + 12
// + 12 + 11: the masked last register; 22, 35, 59: chunks of 11 and 12; 1, 2, 5, 6, 13,
// 64), with row counts across and inside the blocks of BlockRows rows and the pieces of
// colRows rows (one row, a piece and a bit, a block and a bit, several blocks with a
// ragged last piece).
func reductionShapes(rng *rand.Rand) []struct{ n, k, l int } {
	rows := []int{1, colRows + 3, BlockRows + 1, 2*BlockRows + colRows + 7, 3*BlockRows - 1}
	widths := []int{3, 7, 11, 47, 22, 35, 59, 1, 2, 5, 6, 13, 64}
	var s []struct{ n, k, l int }
	for k := 1; k <= 64; k++ {
		l := 1 + rng.IntN(64)
		if k%2 == 0 {
			l = widths[(k/2)%len(widths)]
		}
		s = append(s, struct{ n, k, l int }{rows[k%len(rows)], k, l})
	}
	return s
}

// checkReductions holds TMul, TMulHadamard, Gram and Matrix.TMulDense (float32 and
// float64 storage) to the entry-by-entry references bit for bit over reductionShapes,
// strided operands, on 1 and 2 threads, with reduceBlocks' waves as large as its scratch
// allows and one block per thread (so that several waves add up one sum).
func checkReductions(t *testing.T) {
	for _, wave := range []int{reduceWaveBytes, 0} {
		t.Run(fmt.Sprintf("wave=%dB", wave), func(t *testing.T) {
			defer func(old int) { reduceWaveBytes = old }(reduceWaveBytes)
			reduceWaveBytes = wave
			checkReductionsOnce(t)
		})
	}
}

func checkReductionsOnce(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(26, 47))
	for _, s := range reductionShapes(rng) {
		a, b, c := signed(rng, s.n, s.k), signed(rng, s.n, s.l), signed(rng, s.n, s.l)
		x32, _ := testMatrix(rng, s.n, s.k, true)
		x64, _ := testMatrix(rng, s.n, s.k, false)
		wantT, wantH, wantG := refTMulHadamard(a, b, nil), refTMulHadamard(a, b, c), refGram(b)
		want32 := refTMulHadamard(denseOf(x32), b, nil)
		want64 := refTMulHadamard(denseOf(x64), b, nil)
		for _, th := range []int{1, 2} {
			parallel.SetThreads(th)
			name := fmt.Sprintf("n=%d k=%d l=%d threads=%d", s.n, s.k, s.l, th)
			got := signed(rng, s.k, s.l) // stale values: the kernels must overwrite them
			TMul(got, a, b)
			checkSameBits(t, name+" TMul", got, wantT)
			TMulHadamard(got, a, b, c)
			checkSameBits(t, name+" TMulHadamard", got, wantH)
			x32.TMulDense(got, b)
			checkSameBits(t, name+" Matrix(float32).TMulDense", got, want32)
			x64.TMulDense(got, b)
			checkSameBits(t, name+" Matrix(float64).TMulDense", got, want64)
			gram := signed(rng, s.l, s.l)
			Gram(gram, b)
			checkSameBits(t, name+" Gram", gram, wantG)
		}
	}
}

// checkRowProducts holds Mul, MulHadamard, SigmoidMul's product and Matrix.MulDense
// (float32 and float64 storage) to refMulHadamard bit for bit over the same shapes (k the
// inner dimension, l the output width), strided operands, on 1 and 2 threads.
func checkRowProducts(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(26, 100))
	for _, s := range reductionShapes(rng) {
		a, a2, b := signed(rng, s.n, s.k), signed(rng, s.n, s.k), signed(rng, s.k, s.l)
		x32, _ := testMatrix(rng, s.n, s.k, true)
		x64, _ := testMatrix(rng, s.n, s.k, false)
		want, wantH := refMulHadamard(a, nil, b), refMulHadamard(a, a2, b)
		want32, want64 := refMulHadamard(denseOf(x32), nil, b), refMulHadamard(denseOf(x64), nil, b)
		for _, th := range []int{1, 2} {
			parallel.SetThreads(th)
			name := fmt.Sprintf("n=%d k=%d l=%d threads=%d", s.n, s.k, s.l, th)
			got := signed(rng, s.n, s.l)
			Mul(got, a, b)
			checkSameBits(t, name+" Mul", got, want)
			MulHadamard(got, a, a2, b)
			checkSameBits(t, name+" MulHadamard", got, wantH)
			x32.MulDense(got, b)
			checkSameBits(t, name+" Matrix(float32).MulDense", got, want32)
			x64.MulDense(got, b)
			checkSameBits(t, name+" Matrix(float64).MulDense", got, want64)
		}
	}
}

// denseOf returns x's entries as a float64 mat.Dense.
func denseOf(x *Matrix) *mat.Dense {
	r, c := x.Dims()
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d.Set(i, j, x.At(i, j))
		}
	}
	return d
}

// TestReductionsMatchReference: see checkReductions (the AVX2 kernels where the machine
// has them; TestReductionsMatchReferenceGo in simd_amd64_test.go runs the Go kernels).
func TestReductionsMatchReference(t *testing.T) { checkReductions(t) }

// TestRowProductsMatchReference: see checkRowProducts.
func TestRowProductsMatchReference(t *testing.T) { checkRowProducts(t) }

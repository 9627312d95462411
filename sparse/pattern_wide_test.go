package sparse

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// refPatternPass is the edge pass written out edge by edge, the formulation the kernels
// must reproduce bit for bit: for every row i, gramᵢ = Σ_j zᵢⱼ·uⱼ over the stored j of
// row i of w in order, each zᵢⱼ = Σ_c uᵢ[c]·uⱼ[c] from +0 in order of c, each product
// rounded before it is added; the sums Σz and Σz² are taken per block of minRowsPerTask
// rows, the block sums added in block order, and within a block edge by edge (k >
// maxPattern) or row by row from the row's own sums (k ≤ maxPattern, the unrolled
// kernels' order).
func refPatternPass(w *CSR, u *mat.Dense) (gram *mat.Dense, s, q float64) {
	n, k := u.Dims()
	gram = mat.NewDense(n, k, nil)
	for lo := 0; lo < n; lo += minRowsPerTask {
		var bs, bq float64
		for i := lo; i < min(lo+minRowsPerTask, n); i++ {
			var rs, rq float64
			for p := w.ptr[i]; p < w.ptr[i+1]; p++ {
				j := w.ind[p]
				var z float64
				for c := 0; c < k; c++ {
					z += float64(u.At(i, c) * u.At(j, c))
				}
				for c := 0; c < k; c++ {
					gram.Set(i, c, gram.At(i, c)+float64(z*u.At(j, c)))
				}
				if k > maxPattern {
					bs += z
					bq += float64(z * z)
				} else {
					rs += z
					rq += float64(z * z)
				}
			}
			if k <= maxPattern {
				bs += rs
				bq += rq
			}
		}
		s += bs
		q += bq
	}
	return gram, s, q
}

// refUnitGather is AU written out edge by edge: row i is Σ_j uⱼ over the stored j of row
// i of w in order, each entry summed from +0.
func refUnitGather(w *CSR, u *mat.Dense) *mat.Dense {
	n, k := u.Dims()
	sum := mat.NewDense(n, k, nil)
	for i := 0; i < n; i++ {
		for c := 0; c < k; c++ {
			var v float64
			for p := w.ptr[i]; p < w.ptr[i+1]; p++ {
				v += u.At(w.ind[p], c)
			}
			sum.Set(i, c, v)
		}
	}
	return sum
}

// signedPadded returns an r×c view into a wider matrix (row stride c+3) whose entries have
// both signs, magnitudes from 1e-3 to 1e3 and zeros of both signs, so that a change in the
// order of an addition or the sign of a zero shows.
func signedPadded(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c+3, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c+3; j++ {
			switch rng.IntN(12) {
			case 0:
				m.Set(i, j, 0)
			case 1:
				m.Set(i, j, math.Copysign(0, -1))
			default:
				m.Set(i, j, (2*rng.Float64()-1)*math.Pow(10, float64(rng.IntN(7)-3)))
			}
		}
	}
	return m.Slice(0, r, 0, c).(*mat.Dense)
}

// TestPatternWideRowMatchesReference holds the edge pass (PatternSumGramDots with and
// without the sum, PatternSumGramMul, PatternDots) to refPatternPass and refUnitGather
// bit for bit, for k = 1…64 (the unrolled kernels, and past them the row-by-row pass: AU
// by the AVX2 unit gather, the zᵢⱼ eight edges at a time in AVX2 lanes or in Go, the
// AVX2 weighted gather or the Go loop), on a ragged graph (degrees 0 to about 40, so every
// remainder of eight and four edges occurs, a hub of degree n past maxWideDegree, and more
// than one block of rows), a strided U, and 1 and 2 threads. Run it with -tags purego too.
func TestPatternWideRowMatchesReference(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(26, 40))
	n := 2*minRowsPerTask + 53
	b := NewBuilder(n, n)
	for i := 0; i < n; i++ {
		deg := rng.IntN(20)
		if i%17 == 0 {
			deg = 0
		}
		for d := 0; d < deg; d++ {
			j := rng.IntN(n)
			_ = b.Add(i, j, 1)
			_ = b.Add(j, i, 1)
		}
	}
	for j := 0; j < n; j++ { // a hub past maxWideDegree: the AVX2 path grows its scratch for it
		_ = b.Add(3, j, 1)
		_ = b.Add(j, 3, 1)
	}
	w := b.CSR(MaxDuplicates)
	if d := w.ptr[4] - w.ptr[3]; d <= maxWideDegree {
		t.Fatalf("the hub has %d edges, want more than %d", d, maxWideDegree)
	}
	for k := 1; k <= 64; k++ {
		u := signedPadded(rng, n, k)
		want, ws, wq := refPatternPass(w, u)
		wantSum := refUnitGather(w, u)
		for _, th := range []int{1, 2} {
			parallel.SetThreads(th)
			name := fmt.Sprintf("k=%d threads=%d", k, th)
			for _, withSum := range []bool{false, true} {
				var sum *mat.Dense
				if withSum {
					sum = mat.NewDense(n, k, nil)
				}
				gram := signedPadded(rng, n, k) // stale values: the kernel must overwrite them
				s, q := PatternSumGramDots(sum, gram, w, u)
				checkBits(t, name+" PatternSumGramDots gram", gram, want)
				if withSum {
					checkBits(t, name+" PatternSumGramDots sum", sum, wantSum)
				}
				if !sameFloat(s, ws) || !sameFloat(q, wq) {
					t.Fatalf("%s: PatternSumGramDots sums (%v, %v), the reference (%v, %v)", name, s, q, ws, wq)
				}
			}
			gram := signedPadded(rng, n, k)
			PatternSumGramMul(nil, gram, w, u)
			checkBits(t, name+" PatternSumGramMul", gram, want)
			if s, q := PatternDots(w, u); !sameFloat(s, ws) || !sameFloat(q, wq) {
				t.Fatalf("%s: PatternDots (%v, %v), the reference (%v, %v)", name, s, q, ws, wq)
			}
		}
	}
}

func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// checkBits fails unless got and want hold the same bits entry by entry.
func checkBits(t *testing.T, what string, got, want *mat.Dense) {
	t.Helper()
	r, c := want.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if g, w := got.At(i, j), want.At(i, j); !sameFloat(g, w) {
				t.Fatalf("%s: entry (%d, %d) is %v (%#x), the reference %v (%#x)", what, i, j, g, math.Float64bits(g), w, math.Float64bits(w))
			}
		}
	}
}

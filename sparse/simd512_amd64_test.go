//go:build amd64 && !purego

package sparse

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/internal/simd"
)

// withLevel runs f with the kernels of level l (at most what the processor has).
func withLevel(l simd.Level, f func()) {
	defer func(u2, u512 bool) { useAVX2, useAVX512 = u2, u512 }(useAVX2, useAVX512)
	useAVX2 = useAVX2 && l >= simd.AVX2
	useAVX512 = useAVX512 && l >= simd.AVX512
	f()
}

// simdLevels returns the assembly levels this processor has (AVX-512, AVX2), the best
// first.
func simdLevels() []simd.Level {
	var ls []simd.Level
	if useAVX512 {
		ls = append(ls, simd.AVX512)
	}
	if useAVX2 {
		ls = append(ls, simd.AVX2)
	}
	return ls
}

// BenchmarkUnitGatherLevels times the unit gather A·U (MulDense of a 0/1 pattern), one
// thread, at every assembly level this processor has: A of n rows of degree deg at random
// columns, U n×k: the ogbn-arxiv shape (169,343 rows, degree 14, k = 40) and a denser one
// (10⁵ rows, degree 50, k = 47).
func BenchmarkUnitGatherLevels(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	for _, sh := range []struct{ n, deg, k int }{{169_343, 14, 40}, {100_000, 50, 47}} {
		var a *CSR
		var u, dst *mat.Dense
		for _, l := range simdLevels() {
			b.Run(fmt.Sprintf("n=%d_deg=%d_k=%d/%v", sh.n, sh.deg, sh.k, l), func(b *testing.B) {
				if a == nil {
					rng := rand.New(rand.NewPCG(uint64(sh.n), uint64(sh.k)))
					bld := NewBuilder(sh.n, sh.n)
					for i := 0; i < sh.n; i++ {
						for range sh.deg {
							if err := bld.Add(i, rng.IntN(sh.n), 1); err != nil {
								b.Fatal(err)
							}
						}
					}
					a = bld.CSR(MaxDuplicates)
					u, dst = signedDense(rng, sh.n, sh.k), mat.NewDense(sh.n, sh.k, nil)
				}
				withLevel(l, func() {
					for b.Loop() {
						MulDense(dst, a, u)
					}
				})
			})
		}
	}
}

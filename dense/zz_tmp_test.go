package dense

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkTmpSigmoid(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	z := make([]float64, 20000)
	for i := range z {
		z[i] = 20*rng.Float64() - 10
	}
	f, fp := make([]float64, len(z)), make([]float64, len(z))
	for i := 0; i < b.N; i++ {
		copy(f, z)
		sigmoid(f, fp)
	}
}

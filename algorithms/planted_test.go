package algorithms

import (
	"math/rand/v2"

	"github.com/nagc-harness/nagc/sparse"
)

// plantedGraph returns a graph with k planted clusters (vertex i in class i mod k): edges
// inside a cluster with probability pIn, across with pOut; attribute j of vertex i is 1
// with probability aIn where j ≡ class (mod k), else aOut.
func plantedGraph(seed uint64, n, m, k int, pIn, pOut, aIn, aOut float64) (Input, []int) {
	in := plantedFrom(rand.New(rand.NewPCG(seed, 3)), n, m, k, pIn, pOut, aIn, aOut, 0)
	return in, in.Truth
}

// plantedFrom builds plantedGraph's model from rng, giving each vertex a self-loop with
// probability pSelf (no draw at all when pSelf is 0).
func plantedFrom(rng *rand.Rand, n, m, k int, pIn, pOut, aIn, aOut, pSelf float64) Input {
	b := sparse.NewBuilder(n, n)
	xb := sparse.NewBuilder(n, m)
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % k
	}
	for i := 0; i < n; i++ {
		if pSelf > 0 && rng.Float64() < pSelf {
			_ = b.Add(i, i, 1)
		}
		for j := i + 1; j < n; j++ {
			p := pOut
			if truth[i] == truth[j] {
				p = pIn
			}
			if rng.Float64() < p {
				_ = b.Add(i, j, 1)
				_ = b.Add(j, i, 1)
			}
		}
		for j := 0; j < m; j++ {
			p := aOut
			if j%k == truth[i] {
				p = aIn
			}
			if rng.Float64() < p {
				_ = xb.Add(i, j, 1)
			}
		}
	}
	return Input{Adj: b.CSR(sparse.MaxDuplicates), X: xb.CSR(sparse.SumDuplicates), Truth: truth}
}

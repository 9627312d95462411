package datasets

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/nagc-harness/nagc/sparse"
)

// HoldOutEdges splits the undirected edges of the symmetric adjacency adj into a training
// graph and a held-out graph, for choosing hyperparameters without labels: fit on train,
// score the clustering on heldOut (edge cross-validation). Exactly round(frac·E) of the E
// undirected edges between distinct vertices are held out, chosen uniformly by a
// Fisher–Yates shuffle driven by seed; self-loops stay in train. Both results are n×n,
// symmetric, keep adj's stored values and together hold every entry of adj once. The
// same adj, frac and seed give the same split.
//
// It returns an error when adj is nil, not square or not symmetric in its pattern, when
// frac is not in (0, 1), or when the split would leave either part without an edge.
// Cost O(nnz(adj)·log(max degree) + n) time, O(nnz(adj) + n) memory.
func HoldOutEdges(adj *sparse.CSR, frac float64, seed uint64) (train, heldOut *sparse.CSR, err error) {
	if adj == nil {
		return nil, nil, errors.New("datasets: HoldOutEdges: nil adjacency")
	}
	n, c := adj.Dims()
	if n != c {
		return nil, nil, fmt.Errorf("datasets: HoldOutEdges: adjacency is %d×%d, want square", n, c)
	}
	if !(frac > 0 && frac < 1) {
		return nil, nil, fmt.Errorf("datasets: HoldOutEdges: fraction %v, want 0 < fraction < 1", frac)
	}
	type edge struct {
		i, j int
		v    float64
	}
	var edges []edge
	lower := 0
	tb, hb := sparse.NewBuilder(n, n), sparse.NewBuilder(n, n)
	for i := 0; i < n; i++ {
		cols, vals := adj.Row(i)
		for t, j := range cols {
			switch {
			case j > i:
				edges = append(edges, edge{i, j, vals[t]})
			case j < i:
				lower++
			default: // self-loops stay in training
				if err := tb.Add(i, i, vals[t]); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	if lower != len(edges) {
		return nil, nil, fmt.Errorf("datasets: HoldOutEdges: adjacency is not symmetric (%d entries above the diagonal, %d below)", len(edges), lower)
	}
	for _, e := range edges {
		if v := adj.At(e.j, e.i); v != e.v {
			return nil, nil, fmt.Errorf("datasets: HoldOutEdges: adjacency is not symmetric: entry (%d, %d) is %v, entry (%d, %d) is %v", e.i, e.j, e.v, e.j, e.i, v)
		}
	}
	h := int(math.Round(frac * float64(len(edges))))
	if h == 0 || h == len(edges) {
		return nil, nil, fmt.Errorf("datasets: HoldOutEdges: holding out %v of %d edges leaves %d in training and %d held out; need at least one in each",
			frac, len(edges), len(edges)-h, h)
	}
	rng := rand.New(rand.NewPCG(seed, 0x686f6c646f7574)) // "holdout"
	for t := 0; t < h; t++ {                             // partial Fisher–Yates: edges[:h] are held out
		s := t + rng.IntN(len(edges)-t)
		edges[t], edges[s] = edges[s], edges[t]
	}
	for t, e := range edges {
		b := tb
		if t < h {
			b = hb
		}
		if err := b.Add(e.i, e.j, e.v); err != nil {
			return nil, nil, err
		}
		if err := b.Add(e.j, e.i, e.v); err != nil {
			return nil, nil, err
		}
	}
	return tb.CSR(sparse.SumDuplicates), hb.CSR(sparse.SumDuplicates), nil
}

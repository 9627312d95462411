package algorithms

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// Constants of SA-Cluster's public MATLAB code.
const (
	saRefWeight    = 1 / 2.4 // initial weight of every attribute
	saRefPrune     = 0.001   // pruning size; the walk matrix itself is pruned at 0.001/0.15
	saRefIncrement = 1.75    // the pruning size is divided by it after every step
	saRefSigma     = 0.005   // stop when fewer than this share of vertices move
	saRefGamma     = 0.005   // stop when the weights move less than this on average
)

// fitReference runs SA-Cluster as its public MATLAB code does (protocol reference),
// generalised from its hard-coded two attributes to every column with the same
// per-attribute formulas (specs/bagc-reference.md): attribute vertices for every value a
// column holds, 0 included (see categorical); weights start at 1/2.4; the walk matrix
// F = 0.85·P has its entries ≤ 0.001/0.15 set to 0 (judged at the initial weights: later
// weight changes rescale the entries kept); the walk runs 10 steps with restart 0.15,
// pruning entries ≤ 0.001/1.75^{s−1} after step s ≥ 2. The k vertices of largest degree
// are the centres (ties to the larger index). Each iteration assigns each vertex to the
// centre of largest walk value (first maximum; an all-zero row gives cluster 0; centres
// keep theirs) and stops when fewer than 0.5 % of the vertices moved; moves each centre
// to the member of largest Σ_{b in its cluster} R(a, b)²; counts per column the members
// that hold their centre's value; sets w_t ← (w_t + W·count_t/Σcount)/2 with W = Σw at
// the start, and stops when the weights moved less than 0.005 on average, else
// recomputes the walk. MaxIter caps the iterations (the code has no cap).
//
// Why the pruning makes the walk ignore the edges on a bag of words: see
// docs/methods-discussed.md ("SA-Cluster's public code"). Cost O(n·(n + nnz(X) + T)) per
// walk.
func (a SACluster) fitReference(ctx context.Context, in Input, x *sparse.CSR, k int) (*Result, error) {
	start := time.Now()
	adj, err := bagcRefPattern(in.Adj)
	if err != nil {
		return nil, fmt.Errorf("sa-cluster: %w", err)
	}
	n := in.N()
	cat := newCategorical(x)
	m := cat.categories()
	if err := memory.Check(fmt.Sprintf("sa-cluster (protocol reference) on %d vertices, %d attribute values", n, m),
		memory.Add(memory.Bytes(int64(n+m), 8*3), memory.Bytes(int64(x.NNZ()), 8*4))); err != nil {
		return nil, err
	}
	T := cat.cols
	w := make([]float64, T)
	for t := range w {
		w[t] = saRefWeight
	}
	initial := append([]float64(nil), w...)
	wsum := float64(T) * saRefWeight
	walk := newAugWalk(adj, cat, w)
	walk.fprune, walk.pruneW = saRefPrune/bagcRefRestart, initial
	thr := func(s int) float64 { return saRefPrune / math.Pow(saRefIncrement, float64(s-1)) }
	// rows[i] holds R(i, j) for structure vertices j, sparse.
	type entry struct {
		j int
		v float64
	}
	rows := make([][]entry, n)
	acc := make([]float64, n)
	computeWalk := func() {
		for i := 0; i < n; i++ {
			var touched []int
			walk.row(i, saLength, thr, func(j int, v float64) {
				if j < n {
					if acc[j] == 0 {
						touched = append(touched, j)
					}
					acc[j] += v
				}
			})
			rows[i] = rows[i][:0]
			slices.Sort(touched)
			for _, j := range touched {
				if acc[j] != 0 {
					rows[i] = append(rows[i], entry{j, acc[j]})
				}
				acc[j] = 0
			}
		}
	}
	computeWalk()
	centres := bagcRefCentres(adj, k)
	labels := make([]int, n)
	last := make([]int, n)
	for i := range last {
		last[i] = -1
	}
	rowAt := func(i, j int) float64 {
		for _, e := range rows[i] {
			if e.j == j {
				return e.v
			}
		}
		return 0
	}
	it := 0
	stop := "max_iter"
	maxIter := a.MaxIter
	for it < maxIter {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		it++
		centreOf := make(map[int]int, k)
		for r, c := range centres {
			centreOf[c] = r
		}
		for i := 0; i < n; i++ {
			best, bestV := 0, rowAt(i, centres[0])
			for r := 1; r < k; r++ {
				if v := rowAt(i, centres[r]); v > bestV {
					best, bestV = r, v
				}
			}
			labels[i] = best
		}
		for r, c := range centres {
			labels[c] = r
		}
		moved := 0
		for i := range labels {
			if labels[i] != last[i] {
				moved++
			}
		}
		if float64(moved)/float64(n) < saRefSigma {
			stop = "assignments"
			break
		}
		copy(last, labels)
		// Centres: the member of largest Σ_{b in cluster} R(a, b)².
		contrib := make([]float64, T)
		for r := 0; r < k; r++ {
			best, bestS := -1, math.Inf(-1)
			size := 0
			for i, l := range labels {
				if l != r {
					continue
				}
				size++
				s := 0.0
				for _, e := range rows[i] {
					if labels[e.j] == r {
						s += e.v * e.v
					}
				}
				if s > bestS {
					best, bestS = i, s
				}
			}
			centres[r] = best
			// Members holding the centre's value of each column.
			for t := 0; t < T; t++ {
				if cat.category(best, t) == cat.zero[t] {
					contrib[t] += float64(size)
				}
			}
			for i, l := range labels {
				if l != r {
					continue
				}
				cols, cats := cat.row(i)
				for q, t := range cols {
					cg := cat.category(best, t)
					switch {
					case cg == cats[q]:
						contrib[t]++
					case cg == cat.zero[t]:
						contrib[t]--
					}
				}
			}
		}
		total := 0.0
		for _, c := range contrib {
			total += c
		}
		change := 0.0
		for t := range w {
			nw := (w[t] + wsum*contrib[t]/total) / 2
			change += math.Abs(nw - w[t])
			w[t] = nw
		}
		if change/float64(T) < saRefGamma {
			stop = "weights"
			break
		}
		computeWalk()
	}
	used := map[int]bool{}
	for _, l := range labels {
		used[l] = true
	}
	return &Result{
		Labels:     labels,
		Iterations: it,
		FitTime:    time.Since(start),
		Info: map[string]string{
			"protocol":      SAProtocolReference,
			"walk":          "restart 0.15, 10 steps, walk matrix pruned at 0.001/0.15, steps at 0.001/1.75^(s−1)",
			"stopped_by":    stop,
			"clusters_used": strconv.Itoa(len(used)),
			"centres":       fmt.Sprint(centres),
		},
	}, nil
}

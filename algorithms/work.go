package algorithms

import (
	"math"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
)

// WorkEstimator is a method that can tell, from the shape of its input alone, how much
// work a fit takes: an estimate of its multiply-adds, from its settings (start,
// iterations, filter order, rank, k-means starts) and the sizes of its input. It orders
// a sweep's runs longest first and is what `nagc bench` divides by; it is monotone in
// every size, iteration and start and ranks the methods as they measure on the
// ogbn-arxiv shape (NAGC with the k-means start ≫ NAGC from SGC labels ≫ SGC k-means
// ≫ METIS), but it is no time prediction.
type WorkEstimator interface {
	// EstimateWork returns the multiply-adds of a fit of an input of shape s. Cost O(1).
	EstimateWork(s Shape) float64
}

// IterationWorkEstimator is an iterative method that can tell the multiply-adds of one
// of its iterations on an input of a shape (what `nagc bench` reports per iteration).
type IterationWorkEstimator interface {
	// EstimateIterationWork returns the multiply-adds of one iteration on an input of
	// shape s. Cost O(1).
	EstimateIterationWork(s Shape) float64
}

// Assumed constants of the work estimates.
const (
	// workLloydIters is the Lloyd iterations assumed of one k-means start.
	workLloydIters = 10
	// workRandomizedPasses is the passes over the filtered attributes a rank-r spectral
	// embedding (randomized range finder and SVD) is assumed to take.
	workRandomizedPasses = 4
	// workDefaultIters is the iterations assumed of a method that does not estimate its
	// work (the paper's baselines, which iterate over the adjacency and the attributes).
	workDefaultIters = 100
)

// sgcStartKMeansStarts is the k-means starts of each k-means run of NAGC's SGC start:
// package kmeans' default number of starts (n_init), which that start takes.
var sgcStartKMeansStarts = kmeans.Config{}.WithDefaults().NInit

// EstimateWork returns the multiply-adds of a fit of m on an input of shape s (see
// WorkEstimator), read on the attributes the fit reads (TransformedShape). A method
// that does not estimate its work is taken to iterate workDefaultIters times over the
// adjacency, the attributes and an n×k factor, each pass times k. Cost O(1).
func EstimateWork(m Method, s Shape) float64 {
	s, _ = TransformedShape(s, m)
	if e, ok := m.(WorkEstimator); ok {
		return e.EstimateWork(s)
	}
	k := float64(max(s.K, 1))
	return workDefaultIters * (float64(s.NNZA) + float64(s.NNZX) + float64(s.N)*k) * k
}

// EstimateIterationWork returns the multiply-adds of one iteration of m on an input of
// shape s (see IterationWorkEstimator), read on the attributes the fit reads, and false
// for a method that does not count them.
func EstimateIterationWork(m Method, s Shape) (float64, bool) {
	e, ok := m.(IterationWorkEstimator)
	if !ok {
		return math.NaN(), false
	}
	s, _ = TransformedShape(s, m)
	return e.EstimateIterationWork(s), true
}

// EstimateIterationWork returns the multiply-adds of one NAGC iteration (NAGCSolver.Step
// and the objective after it) on an input of shape s into s.K vertex clusters and K2
// attribute clusters (k1 where 0). It counts the matrix products as the update formulas
// need them — a symmetric Gram matrix once, an addition of a stored 0/1 entry as one —
// and leaves out the entry-wise work (the quotients of the multiplicative rules, NaN
// checks, the sigmoid's exponentials), which is O((n + m)·k); the ρ = ½ rule skips
// (UUᵀ⊙W)U:
//
//	U:  A·U                          nnzA·k1
//	    (UUᵀ⊙W)U (ρ ≠ ½)             2·nnzA·k1   one dot and one axpy per stored entry
//	    U(UᵀU), UᵀU                  n·k1² + n·k1(k1+1)/2
//	    f(UH), f'(UH)                n·k1·k2
//	V:  Xᵀf, fᵀf, V(fᵀf), VᵀV        nnzX·k2 + n·k2(k2+1)/2 + m·k2² + m·k2(k2+1)/2
//	H:  X·V                          nnzX·k2
//	    Uᵀ(f'⊙XV), Uᵀ(f'⊙f), ·VᵀV    2·n·k1·k2 + k1·k2²
//	    next U's terms: f(UH), f'(UH), ((XV)⊙f')Hᵀ, f·VᵀV, ((fVᵀV)⊙f')Hᵀ, ⟨XV, f⟩, ⟨fVᵀV, f⟩
//	                                 3·n·k1·k2 + n·k2² + 2·n·k2
//	objective: Σ_E uᵢ·uⱼ and its squares, ‖UᵀU‖²   nnzA·k1 + k1²
//
// On Citeseer at k1 = k2 = 6 (ρ ≠ ½) that is about 2.8 million.
func (a NAGC) EstimateIterationWork(s Shape) float64 {
	k2 := a.K2
	if k2 <= 0 {
		k2 = s.K
	}
	N, M, EA, EX, K1, K2 := float64(s.N), float64(s.M), float64(s.NNZA), float64(s.NNZX), float64(s.K), float64(k2)
	gram := func(r, k float64) float64 { return r * k * (k + 1) / 2 }
	edges := 2.0 // A·U and the objective's pass
	if a.Rho != 0.5 {
		edges += 2
	}
	return EA*K1*edges + 2*EX*K2 +
		N*K1*K1 + gram(N, K1) + gram(N, K2) + gram(M, K2) + M*K2*K2 +
		6*N*K1*K2 + N*K2*K2 + 2*N*K2 + K1*K2*K2 + K1*K1
}

// EstimateWork returns the multiply-adds of a NAGC fit (see WorkEstimator): its
// iterations (EstimateIterationWork) and its start: random, k-means on the attributes
// for k1 and for k2 (five times over for the median-ARI start), or k-means on the SGC
// embedding of the filtered attributes.
func (a NAGC) EstimateWork(s Shape) float64 {
	a = a.resolved(s.K, s.N).(NAGC)
	n, nnzX := float64(s.N), float64(s.NNZX)
	k1, k2 := max(s.K, 1), max(a.K2, 1)
	work := float64(a.Iterations) * a.EstimateIterationWork(s)
	switch a.Init {
	case InitRandom:
		work += n * float64(k1+k2)
	case InitSGC:
		rank := a.InitRank
		if rank == 0 || rank > s.M {
			rank = s.M
		}
		work += filterWork(a.Filter.P, s) + embedWork(rank, s) +
			kmeansWork(sgcStartKMeansStarts, n*float64(rank), s.N, k1) + kmeansWork(sgcStartKMeansStarts, n*float64(rank), s.N, k2)
	default: // the k-means start (and its median-ARI variant, which repeats it)
		starts := a.InitNInit
		if a.Init == InitKMeansMedianARI {
			starts *= 5
		}
		work += kmeansWork(starts, nnzX, s.N, k1) + kmeansWork(starts, nnzX, s.N, k2)
	}
	return work
}

// EstimateWork returns the multiply-adds of an SGC k-means fit (see WorkEstimator): the
// filter, the rank-r embedding (none at rank 0 or r ≥ m: the filtered attributes
// themselves) and k-means on the n×r result.
func (a SGCKMeans) EstimateWork(s Shape) float64 {
	a = a.resolved(s.K, s.N).(SGCKMeans)
	rank := min(a.Rank, s.M)
	if a.Rank == 0 {
		rank = s.M
	}
	return filterWork(a.P, s) + embedWork(rank, s) + kmeansWork(a.NInit, float64(s.N)*float64(rank), s.N, s.K)
}

// EstimateWork returns the multiply-adds of a k-means fit on the attributes (see
// WorkEstimator).
func (a KMeans) EstimateWork(s Shape) float64 {
	a = a.resolved(s.K, s.N).(KMeans)
	return kmeansWork(a.NInit, float64(s.NNZX), s.N, s.K)
}

// EstimateWork returns the work of a METIS fit (see WorkEstimator): a pass over the
// adjacency for each of its log₂ n coarsening levels.
func (METIS) EstimateWork(s Shape) float64 {
	return float64(s.NNZA) * math.Log2(float64(s.N)+2)
}

// kmeansWork is the multiply-adds of k-means with the given starts on points of nnz
// stored entries (n·d for dense ones) into k clusters: workLloydIters distance passes
// per start, each also n·k comparisons.
func kmeansWork(starts int, nnz float64, n, k int) float64 {
	return float64(starts) * workLloydIters * (nnz + float64(n)) * float64(max(k, 1))
}

// filterWork is the multiply-adds of p steps of the graph filter on the attributes:
// each a product of the adjacency with the n×m attributes.
func filterWork(p int, s Shape) float64 {
	return float64(p) * (float64(s.NNZA)*float64(s.M) + float64(s.NNZX))
}

// embedWork is the multiply-adds of a rank-r spectral embedding of the n×m (filtered)
// attributes: none where r ≥ m (the attributes themselves).
func embedWork(rank int, s Shape) float64 {
	if rank >= s.M {
		return 0
	}
	return workRandomizedPasses * float64(s.N) * float64(s.M) * float64(rank)
}

package algorithms

import (
	"fmt"
	"math/bits"

	"github.com/nagc-harness/nagc/memory"
)

// MemoryEstimator is a method that can tell, from the shape of its input alone, how much
// memory a fit takes at its peak beyond the input itself, so that a fit that would not
// fit is refused before it allocates (CheckMemory). The estimates are upper bounds of the
// live heap of a fit in a sweep (whose caches keep the parts fits share), meant to be
// within a factor of 5 of the measured peak (TestMemoryEstimatesBoundMeasuredPeaks).
type MemoryEstimator interface {
	// EstimateMemory returns the peak bytes of a fit into k clusters of a graph of n
	// vertices, m attributes, nnzA stored adjacency entries and nnzX stored attribute
	// entries (n·m for dense attributes). Cost O(1).
	EstimateMemory(n, m, nnzA, nnzX, k int) uint64
}

// InputShape returns the sizes EstimateMemory reads: n, m, the stored entries of the
// adjacency and of the attributes (n·m for attributes known only through products).
func InputShape(in Input) (n, m, nnzA, nnzX int) {
	n = in.N()
	if in.Adj != nil {
		nnzA = in.Adj.NNZ()
	}
	switch {
	case in.X != nil:
		_, m = in.X.Dims()
		nnzX = in.X.NNZ()
	case in.XDense != nil:
		_, m = in.XDense.Dims()
		nnzX = n * m
	case in.attr != nil:
		_, m = in.attr.Dims()
		nnzX = n * m
	}
	return n, m, nnzA, nnzX
}

// EstimateMemory returns m's estimate of a fit of in into k clusters (see
// MemoryEstimator), and false for a method without one.
func EstimateMemory(m Method, in Input, k int) (uint64, bool) {
	e, ok := m.(MemoryEstimator)
	if !ok {
		return 0, false
	}
	n, cols, nnzA, nnzX := InputShape(in)
	return e.EstimateMemory(n, cols, nnzA, nnzX, k), true
}

// CheckMemory returns a *memory.TooLargeError when concurrent fits of m on in into k
// clusters, run at once (the workers of a sweep), would together exceed the memory budget
// (memory.Limit, set by --max-memory), and nil otherwise or for a method without an
// estimate. It allocates nothing.
func CheckMemory(m Method, in Input, k, concurrent int) error {
	est, ok := EstimateMemory(m, in, k)
	if !ok {
		return nil
	}
	n, cols, nnzA, _ := InputShape(in)
	what := fmt.Sprintf("a %s fit into %d clusters of a graph of %d vertices, %d attributes and %d stored adjacency entries",
		m.Name(), k, n, cols, nnzA)
	if concurrent > 1 {
		est = mulSat(est, uint64(concurrent))
		what = fmt.Sprintf("%d concurrent %s fits into %d clusters of a graph of %d vertices, %d attributes and %d stored adjacency entries (fewer --workers take less)",
			concurrent, m.Name(), k, n, cols, nnzA)
	}
	return memory.Check(what, est)
}

// mulSat returns a·b, saturating at the largest uint64.
func mulSat(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return ^uint64(0)
	}
	return lo
}

// Sizes of the parts of a fit, in bytes, saturating (memory.Bytes).

// denseBytes is an r×c float64 matrix.
func denseBytes(r, c int) uint64 { return memory.Bytes(int64(r)*int64(c), 8) }

// csrBytes is an r-row sparse.CSR with nnz stored entries (an int index and a float64
// value each, and r+1 row pointers).
func csrBytes(r, nnz int) uint64 {
	return memory.Add(memory.Bytes(int64(nnz), 16), memory.Bytes(int64(r)+1, 8))
}

// kmeansBytes is package kmeans on n points of m coordinates with nnz stored entries into
// k clusters: the n×k products and the seeding's n×(2 + ln k) candidates, centres and
// norms, and the dense copy of the points it keeps where they are dense (up to 2²⁶
// entries).
func kmeansBytes(n, m, nnz, k int) uint64 {
	trials := 2 + bits.Len(uint(k))
	full := 0
	if 4*nnz >= n*m {
		full = min(n*m, 1<<26)
	}
	return memory.Add(denseBytes(n, 2*k+trials+8), denseBytes(4*k, m), denseBytes(full, 1))
}

// slack adds what the parts above leave out (results, labels, small temporaries): an
// eighth and 1 MB.
func slack(b uint64) uint64 { return memory.Add(b, b/8, 1<<20) }

// filterBytes is FilteredOperator of o on an n×m X with nnzX stored entries and nnzA
// adjacency entries: Â; then, where Z is stored (n·m ≤ the implicit cost), Z densely
// (sparse.FilterDense) and the filter's n×32 temporary; else the
// row-normalised X and its transpose and the n×64 blocks of the row norms.
func filterBytes(o GraphFilterOptions, n, m, nnzA, nnzX int) uint64 {
	if o.P == 0 {
		return 0
	}
	a := csrBytes(n, nnzA+n)
	if n*m <= nnzX+o.P*(nnzA+2*n) {
		return memory.Add(a, denseBytes(n, m+32+2))
	}
	x := memory.Add(csrBytes(n, nnzX), csrBytes(m, nnzX))
	return memory.Add(a, x, denseBytes(n, 2*min(64, m)))
}

// EstimateMemory returns the peak bytes of a NAGC fit (see MemoryEstimator): the
// solver's n×(4k2 + 6k1) and m×3k2 work matrices, the transpose of X that the products
// Xᵀ·f(UH) read, the graph-filtered attributes where Filter asks for them, and the
// initialisation (two k-means runs on a normalised copy of X, or the SGC start's).
func (a NAGC) EstimateMemory(n, m, nnzA, nnzX, k int) uint64 {
	a = a.withDefaults(k)
	k1, k2 := k, a.K2
	solver := memory.Add(denseBytes(n, 4*k2+6*k1), denseBytes(m, 3*k2), denseBytes(k1+k2, 4*(k1+k2)))
	x := csrBytes(m, nnzX) // CSROperator's transpose
	var init uint64
	switch {
	case a.InitU != nil:
	case a.Init == InitRandom:
	case a.Init == InitSGC:
		init = SGCKMeans{GraphFilterOptions: a.Filter, Rank: a.InitRank}.EstimateMemory(n, m, nnzA, nnzX, k1)
	default: // k-means starts: the column-normalised copy, k-means, U's distances
		xn := nnzX
		if a.Filter.P > 0 {
			xn = n * m
		}
		init = memory.Add(csrBytes(n, xn), kmeansBytes(n, m, xn, max(k1, k2)), denseBytes(n, k1))
	}
	return slack(memory.Add(solver, x, filterBytes(a.Filter, n, m, nnzA, nnzX), init))
}

// EstimateMemory returns the peak bytes of an SGC k-means fit (see MemoryEstimator): the
// filtered attributes (FilteredOperator, kept by a sweep's cache), then for rank r > 0
// the larger of the randomised SVD's n×(r + 10) matrices and the n×r embedding with the
// k-means run on it, or for rank 0 the stored filtered matrix and the k-means run on it.
func (a SGCKMeans) EstimateMemory(n, m, nnzA, nnzX, k int) uint64 {
	o := a.GraphFilterOptions
	f := filterBytes(o, n, m, nnzA, nnzX)
	if a.Rank > 0 {
		r := min(a.Rank, n, m)
		l := min(r+10, n, m)
		// The randomised SVD's n×l matrices, then the embedding and k-means on it.
		svd := memory.Add(denseBytes(n, 2*l+r), denseBytes(m, 4*l))
		emb := memory.Add(csrBytes(n, n*r), denseBytes(n, r), kmeansBytes(n, r, n*r, k))
		return slack(memory.Add(f, max(svd, emb)))
	}
	pts := nnzX
	if o.P > 0 {
		pts = n * m
		f = memory.Add(f, csrBytes(n, pts))
	}
	return slack(memory.Add(f, kmeansBytes(n, m, pts, k)))
}

// EstimateMemory returns the peak bytes of a k-means fit on the attributes (see
// MemoryEstimator), with the scaled copy of X under scale_columns.
func (a KMeans) EstimateMemory(n, m, nnzA, nnzX, k int) uint64 {
	b := kmeansBytes(n, m, nnzX, k)
	if a.ScaleColumns {
		b = memory.Add(b, csrBytes(n, nnzX))
	}
	return slack(b)
}

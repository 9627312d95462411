package algorithms

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/memory"
)

// MemoryEstimator is a method that can tell, from the shape of its input alone, how much
// memory a fit takes at its peak beyond the input itself, so that a fit that would not
// fit is refused before it allocates (CheckMemory). The estimates are upper bounds of the
// live heap of a fit in a sweep (whose caches keep the parts fits share), meant to be
// within a factor of 5 of the measured peak (TestMemoryEstimatesBoundMeasuredPeaks).
type MemoryEstimator interface {
	// EstimateMemory returns the peak bytes of a fit of an input of shape s. Cost O(1).
	EstimateMemory(s Shape) uint64
}

// Shape is what a memory estimate reads of a fit: the sizes of its input and its number
// of clusters.
type Shape struct {
	N, M int // vertices and attributes
	NNZA int // stored entries of the adjacency
	NNZX int // stored entries of the attributes (n·m for dense attributes)
	// DenseX is the bytes of one entry of dense attributes (4 for float32, 8 for float64),
	// 0 for sparse ones (a CSR: 16 bytes an entry).
	DenseX int
	K      int // clusters (k1)
}

// InputShape returns the shape EstimateMemory reads of a fit of in into k clusters: n, m,
// the stored entries of the adjacency and of the attributes (n·m for attributes known
// only through products), and the entry size of dense attributes.
func InputShape(in Input, k int) Shape {
	s := Shape{N: in.N(), K: k}
	if in.Adj != nil {
		s.NNZA = in.Adj.NNZ()
	}
	_, s.M = in.attrDims()
	s.NNZX = s.N * s.M
	switch x, d := in.rows(); {
	case x != nil:
		s.NNZX = x.NNZ()
	case d != nil:
		s.DenseX = d.ElemSize()
	}
	return s
}

// EstimateMemory returns m's estimate of a fit of in into k clusters (see
// MemoryEstimator), and false for a method without one. For a method with an attribute
// transform it is the estimate of the fit of the transformed attributes plus their copy
// (TransformedShape).
func EstimateMemory(m Method, in Input, k int) (uint64, bool) {
	e, ok := m.(MemoryEstimator)
	if !ok {
		return 0, false
	}
	s, cp := TransformedShape(InputShape(in, k), m)
	return memory.Add(e.EstimateMemory(s), cp), true
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
	sh := InputShape(in, k)
	n, cols, nnzA := sh.N, sh.M, sh.NNZA
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
// k clusters: the n×k products, the seeding's n×(2 + ln k) candidate distances and as
// many nearest distances, the row offsets of the centroid sums' column blocks (3 a row),
// centres and norms, and the dense copy of the points it keeps where they are dense (up
// to 2²⁶ entries).
func kmeansBytes(n, m, nnz, k int) uint64 {
	trials := 2 + bits.Len(uint(k))
	full := 0
	if 4*nnz >= n*m {
		full = min(n*m, 1<<26)
	}
	return memory.Add(denseBytes(n, 2*k+2*trials+11), denseBytes(4*k, m), denseBytes(full, 1))
}

// kmeansDenseBytes is package kmeans' FitDense on n dense rows of m coordinates into k
// clusters (its own estimate, kmeans.denseBytes): per row the norms, bounds, labels and
// the seeding's 2 + ⌊ln k⌋ candidate distances; the centres; each thread's block of
// products; and the result's labels.
func kmeansDenseBytes(n, m, k int) uint64 {
	trials := 2 + int(math.Log(float64(k)))
	scratch := memory.Bytes(int64(parallel.Threads())*dense.BlockRows*int64(m+k+trials), 8)
	return memory.Add(denseBytes(n, 10+trials), denseBytes(6*k, m), scratch)
}

// pointsBytes is k-means on n points of m coordinates into k clusters: dense rows of
// elem bytes an entry when elem > 0 (kmeansDenseBytes), else a CSR of nnz entries
// (kmeansBytes).
func pointsBytes(n, m, nnz, elem, k int) uint64 {
	if elem > 0 {
		return kmeansDenseBytes(n, m, k)
	}
	return kmeansBytes(n, m, nnz, k)
}

// slack adds what the parts above leave out (results, labels, small temporaries): an
// eighth and 1 MB.
func slack(b uint64) uint64 { return memory.Add(b, b/8, 1<<20) }

// filterBytes is FilteredOperator of o on the attributes of s: at its peak (while Z is
// formed) and what stays once it is (kept, in a sweep's cache). Dense attributes: Â, Z
// (n×m in X's entry size; twice with NormAfter, whose unit rows are a copy), the row
// norms and the filter's two n×w blocks (w = blockWidth(m, filterDenseBlock)); Z stays,
// and the pooled block for a while. Sparse ones: Â, then where Z is stored (n·m ≤ the
// implicit cost) Z densely (a dense.Matrix in CSR order) and the filter's two n×w
// blocks, else the row-normalised X and its transpose and the n×64 blocks of the row
// norms; all of it stays (the implicit operator keeps Â and X).
func filterBytes(o GraphFilterOptions, s Shape) (peak, kept uint64) {
	if o.P == 0 {
		return 0, 0
	}
	n, m, nnzA, nnzX := s.N, s.M, s.NNZA, s.NNZX
	a, w := csrBytes(n, nnzA+n), blockWidth(m, filterDenseBlock)
	if s.DenseX > 0 {
		z := memory.Bytes(int64(n)*int64(m), s.DenseX)
		if o.NormAfter {
			z = memory.Add(z, z)
		}
		// The filter's pooled n×w temporary outlives it until a collection or two.
		return memory.Add(a, z, denseBytes(n, 2*w+1)), memory.Add(z, denseBytes(n, w))
	}
	if n*m <= nnzX+o.P*(nnzA+2*n) {
		b := memory.Add(a, denseBytes(n, m+2*w+2))
		return b, b
	}
	x := memory.Add(csrBytes(n, nnzX), csrBytes(m, nnzX))
	b := memory.Add(a, x, denseBytes(n, 2*min(64, m)))
	return b, b
}

// filtered returns the shape of the attributes a fit reads after filter o: all n·m
// entries stored where p > 0 (dense in X's entry size for dense X; for sparse X a CSR
// where a method needs rows), s itself otherwise.
func (s Shape) filtered(o GraphFilterOptions) Shape {
	if o.P > 0 {
		s.NNZX = s.N * s.M
	}
	return s
}

// EstimateMemory returns the peak bytes of a NAGC fit (see MemoryEstimator): the
// graph-filtered attributes where Filter asks for them; then the larger of the
// initialisation (two k-means runs on a column-normalised copy of the attributes, or the
// SGC start's) and the solver's n×(3k2 + 3k1) and m×3k2 work matrices, per-thread
// blocks and partial sums (and the line-aligned copy of U that a large U with k1 not a multiple of 8 is
// given, beside the U it was made from), since the start's
// temporaries are gone before the solver allocates; and, for sparse X, the transpose
// that the products Xᵀ·f(UH) read.
func (a NAGC) EstimateMemory(s Shape) uint64 {
	a = a.withDefaults(s.K)
	n, m, k1, k2 := s.N, s.M, s.K, a.K2
	t := parallel.Threads()
	solver := memory.Add(denseBytes(n, 3*k2+3*k1), denseBytes(m, 3*k2), denseBytes(k1+k2, 4*(k1+k2)),
		denseBytes(t*dense.BlockRows, 3*k1+k2), denseBytes(n/dense.BlockRows+1, 2),
		memory.Bytes(int64(max(passWaveBytes, 8*t*(k1*k1+k2*k2))), 1))
	if k1%8 != 0 && n*k1*8 >= alignedMinBytes {
		solver = memory.Add(solver, denseBytes(n, (k1+7)&^7))
	}
	var x uint64
	if s.DenseX == 0 {
		x = csrBytes(m, s.NNZX) // CSROperator's transpose
	}
	fpeak, fkept := filterBytes(a.Filter, s)
	z := s.filtered(a.Filter)
	if a.fast() {
		solver = fastSolverBytes(z, k1, k2)
	}
	var init uint64
	switch {
	case a.InitU != nil:
	case a.Init == InitRandom:
	case a.Init == InitSGC:
		init = SGCKMeans{GraphFilterOptions: a.Filter, Rank: a.InitRank}.EstimateMemory(s)
	default: // k-means starts: the column-normalised copy, k-means, U's distances
		cp := csrBytes(n, z.NNZX)
		if z.DenseX > 0 {
			cp = memory.Bytes(int64(n)*int64(m), z.DenseX)
		}
		rows := rowsBytes(n, m, z.NNZX, z.DenseX, max(k1, k2))
		if a.fast() && a.Init == InitKMeans {
			rows = fastPointsBytes(n, m, z.NNZX, z.DenseX, max(k1, k2))
		}
		init = memory.Add(cp, rows, denseBytes(n, k1))
	}
	return slack(memory.Add(max(fpeak, memory.Add(fkept, max(init, solver))), x))
}

// EstimateMemory returns the peak bytes of an SGC k-means fit (see MemoryEstimator): the
// filtered attributes (FilteredOperator) while they are formed, then, beside them (a
// sweep's cache keeps them), for rank r > 0 the larger of the randomised SVD's n×(r + 10)
// matrices and the n×r embedding with the k-means run on it, or for rank 0 the stored
// filtered matrix (a CSR for sparse X) and the k-means run on it.
func (a SGCKMeans) EstimateMemory(s Shape) uint64 {
	o := a.GraphFilterOptions
	n, m, k := s.N, s.M, s.K
	fast := a.Precision == PrecisionFast
	fpeak, fkept := filterBytes(o, s)
	z := s.filtered(o)
	if fast {
		fpeak, fkept = fastFilterBytes(o, s)
		if o.P > 0 && s.storesFiltered(o) {
			z.DenseX = 4 // Z stored in float32
		}
	}
	var fit uint64
	if a.Rank > 0 {
		r := min(a.Rank, n, m)
		l := min(r+10, n, m)
		// The randomised SVD's n×l matrices (Q, its orthonormalisation's copy, Q·V_b and
		// the n×r result), then the embedding and k-means on its dense rows.
		svd := memory.Add(denseBytes(n, 3*l+r), denseBytes(m, 4*l))
		emb := memory.Add(denseBytes(n, r), kmeansDenseBytes(n, r, k))
		if z.DenseX == 0 { // a CSR embedding and sparse k-means
			emb = memory.Add(csrBytes(n, n*r), denseBytes(n, r), kmeansBytes(n, r, n*r, k))
		}
		if fast {
			emb = memory.Add(emb, f32Bytes(n, r)) // the float32 copy of the embedding
		}
		fit = max(svd, emb)
	} else {
		if o.P > 0 && s.DenseX == 0 {
			fkept = memory.Add(fkept, csrBytes(n, z.NNZX)) // the CSR of Z k-means reads
		}
		fit = pointsBytes(n, m, z.NNZX, z.DenseX, k)
		if fast {
			fit = fastPointsBytes(n, m, z.NNZX, z.DenseX, k)
		}
	}
	return slack(max(fpeak, memory.Add(fkept, fit)))
}

// EstimateMemory returns the peak bytes of a k-means fit on the attributes (see
// MemoryEstimator), with the scaled copy of X under scale_columns.
func (a KMeans) EstimateMemory(s Shape) uint64 {
	b := rowsBytes(s.N, s.M, s.NNZX, s.DenseX, s.K)
	if a.Precision == PrecisionFast {
		b = fastPointsBytes(s.N, s.M, s.NNZX, s.DenseX, s.K)
	}
	if a.ScaleColumns {
		cp := csrBytes(s.N, s.NNZX)
		if s.DenseX > 0 {
			cp = memory.Bytes(int64(s.N)*int64(s.M), s.DenseX)
		}
		b = memory.Add(b, cp)
	}
	return slack(b)
}

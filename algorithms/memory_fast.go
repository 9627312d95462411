package algorithms

import "github.com/nagc-harness/nagc/memory"

// The memory of the fast precision's paths (PrecisionFast): their float32 copies beside
// (or instead of) the default's float64 parts.

// f32Bytes is an r×c float32 matrix.
func f32Bytes(r, c int) uint64 { return memory.Bytes(int64(r)*int64(c), 4) }

// f32CSRBytes is an r-row f32.CSR with nnz stored entries (an int32 index and a float32
// value each, and r+1 row pointers).
func f32CSRBytes(r, nnz int) uint64 {
	return memory.Add(memory.Bytes(int64(nnz), 8), memory.Bytes(int64(r)+1, 8))
}

// fastRowsBytes is fastRows and FitDense on n points of m coordinates into k clusters,
// the points stored as elem-byte dense entries (0: a CSR): the float32 copy unless they
// are float32 already, and FitDense's buffers.
func fastRowsBytes(n, m, elem, k int) uint64 {
	b := kmeansDenseBytes(n, m, k)
	if elem != 4 {
		b = memory.Add(b, f32Bytes(n, m))
	}
	return b
}

// fastPointsBytes is the fast k-means of n points (pointsBytes at PrecisionFast): the
// larger of the float32 rows and the default's k-means, which fastRows falls back to.
func fastPointsBytes(n, m, nnz, elem, k int) uint64 {
	return max(pointsBytes(n, m, nnz, elem, k), fastRowsBytes(n, m, elem, k))
}

// fastFilterBytes is withFilteredAttributesFast of o on the attributes of s, at its peak
// and what stays: where Z is stored, Â as the default builds it and in float32, and
// filteredDense32's Z and blocks, of which Z stays; elsewhere the default's filter.
func fastFilterBytes(o GraphFilterOptions, s Shape) (peak, kept uint64) {
	n, m := s.N, s.M
	if o.P == 0 || !s.storesFiltered(o) {
		return filterBytes(o, s)
	}
	nnzA := s.NNZA + n
	peak = memory.Add(csrBytes(n, nnzA), f32CSRBytes(n, nnzA), filter32Bytes(n, m, nnzA, o.NormAfter))
	return peak, f32Bytes(n, m)
}

// storesFiltered reports whether FilteredOperator stores Z densely for attributes of
// shape s and filter o (p > 0): for dense attributes always, for sparse ones where n·m
// is at most the implicit products' cost nnz(X) + p·(nnz(Â) + n), Â holding A's entries
// and at most n loops.
func (s Shape) storesFiltered(o GraphFilterOptions) bool {
	return s.DenseX > 0 || s.N*s.M <= s.NNZX+o.P*(s.NNZA+2*s.N)
}

// fastSolverBytes is NAGCSolver32 beside the start's float64 factors it is made from
// (and, for a cached start, the cache's copy of U),
// for the attributes of shape z (after the filter): its n×(6k1 + 4k2) and m×3k2 float32
// matrices, the adjacency's pattern in float32 and the attributes in float32 (a copy of
// dense float64 ones; sparse ones, formed explicitly, and their transpose).
func fastSolverBytes(z Shape, k1, k2 int) uint64 {
	n, m := z.N, z.M
	b := memory.Add(denseBytes(n, 2*k1), denseBytes(m, k2), denseBytes(k1, k2),
		f32Bytes(n, 6*k1+4*k2), f32Bytes(m, 3*k2), f32CSRBytes(n, z.NNZA))
	switch z.DenseX {
	case 8:
		b = memory.Add(b, f32Bytes(n, m))
	case 0:
		b = memory.Add(b, f32CSRBytes(n, z.NNZX), f32CSRBytes(m, z.NNZX))
	}
	return b
}

package algorithms

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/dense/f32"
	"github.com/nagc-harness/nagc/memory"
)

// The fast precision's k-means (the kmeans and sgc-kmeans methods and NAGC's k-means
// start at PrecisionFast) clusters dense float32 rows with fused distance products
// (kmeans.Config.FMA); centroid sums, norms and the inertia stay float64.
const (
	// FastRowsDensity is the share of stored entries from which the fast precision's
	// k-means clusters a sparse X as dense float32 rows: a dense row's products take
	// m fused multiply-adds, up to 16 a vector instruction (fewer at small k), against
	// a sparse row's nnz gathered ones, so below about 1/32 of the entries the sparse
	// rows stay cheaper (Citeseer's 0.9 %: dense float32 rows took 14 times the CPU).
	FastRowsDensity = 1.0 / 32
)

// fastRows returns the points of a fast k-means into k clusters: p itself where it is
// dense float32 rows; else a float32 copy of p's dense rows, or of its CSR where at least
// FastRowsDensity of the entries are stored, the copy and FitDense's buffers within the
// memory budget; else p as it is (float64
// k-means, sparse). The string says which, for the run's info. Cost O(n·m).
func fastRows(p points, k int) (points, string) {
	if p.dense != nil && p.dense.Is32() {
		return p, "dense float32"
	}
	var n, m int
	if p.dense != nil {
		n, m = p.dense.Dims()
	} else {
		n, m = p.csr.Dims()
	}
	if n == 0 || m == 0 {
		return p, "as stored (empty)"
	}
	if p.csr != nil {
		density := float64(p.csr.NNZ()) / (float64(n) * float64(m))
		if density < FastRowsDensity {
			return p, fmt.Sprintf("sparse float64 (density %.3f < 1/32)", density)
		}
	}
	need := memory.Add(memory.Bytes(int64(n), 4*m), kmeansDenseBytes(n, m, k))
	if memory.Check("fast k-means rows", need) != nil {
		if p.dense != nil {
			return p, "dense float64 (float32 rows over the memory budget)"
		}
		return p, "sparse float64 (float32 rows over the memory budget)"
	}
	data := make([]float32, n*m)
	if p.dense != nil {
		for i, v := range p.dense.Float64() {
			data[i] = float32(v)
		}
		return points{dense: dense.NewMatrix32(n, m, data)}, "dense float32 (a rounded copy)"
	}
	for i := range n {
		cols, vals := p.csr.Row(i)
		row := data[i*m : (i+1)*m]
		for q, j := range cols {
			row[j] += float32(vals[q])
		}
	}
	return points{dense: dense.NewMatrix32(n, m, data)}, "dense float32 (a rounded copy of the sparse rows)"
}

// fastKMeansInfo is what a fast k-means of the points p (fastRows') records of its
// precision.
func fastKMeansInfo(p points) string {
	if p.dense != nil && p.dense.Is32() {
		return fmt.Sprintf("fast: float32 k-means with FMA (%v kernels)", f32.KernelLevel())
	}
	return "fast: k-means in float64 (the rows stay as stored, see rows)"
}

// cachedKMeansFactorsFast is cachedKMeansFactors at PrecisionFast: the same construction
// (columns divided by their maxima, k-means with k1 and k2 clusters, U from the distances
// to the k1 centroids, V the k2 centroids), its k-means on fastRows with fused products,
// run once where k1 = k2 (the same problem), computed once per in.Cache under a key of
// its own.
func cachedKMeansFactorsFast(ctx context.Context, in Input, k1, k2, nInit int, seed uint64) (u, v *mat.Dense, err error) {
	key := fmt.Sprintf("kmeans-factors-fast/%s/%d/%d/%d/%d", in.xKey, k1, k2, seed, nInit)
	val, err := in.Cache.Do(key, func() (any, error) {
		var p points
		if d := in.DenseAttributes(); d != nil {
			xn, err := columnMaxNormalisedDense(d)
			if err != nil {
				return nil, err
			}
			p = points{dense: xn}
		} else {
			x, err := in.ExplicitAttributesContext(ctx)
			if err != nil {
				return nil, err
			}
			p = points{csr: x.ColumnMaxNormalised()}
		}
		p, _ = fastRows(p, max(k1, k2))
		rng := rand.New(rand.NewPCG(seed, streamKMeansInit))
		r1, err := fitPoints(ctx, p, kmeans.Config{K: k1, NInit: nInit, FMA: true}, rng)
		if err != nil {
			return nil, err
		}
		r2 := r1
		if k2 != k1 {
			if r2, err = fitPoints(ctx, p, kmeans.Config{K: k2, NInit: nInit, FMA: true}, rng); err != nil {
				return nil, err
			}
		}
		return kmeansFactors{u: startU(p, r1.Centers), v: mat.DenseCopyOf(r2.Centers.T()), labels: r1.Labels}, nil
	})
	if err != nil {
		return nil, nil, err
	}
	f := val.(kmeansFactors)
	return mat.DenseCopyOf(f.u), mat.DenseCopyOf(f.v), nil
}

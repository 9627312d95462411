package algorithms

import (
	"context"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
	"github.com/nagc-harness/nagc/sparse"
)

// The authors' k-means start (KMeansFactors) in two halves: the k1 half (k-means with k1
// clusters, U from the distances to its centroids) and the k2 half (k-means with k2
// clusters drawn next from the same stream, V its centroids). The k1 half does not depend
// on k2, so a sweep over k2 caches it once per seed (cachedKMeansStart) and runs each k2
// half from a copy of the stream's state after it: the same bits as the two runs in a row.

// kmeansStart is the k1 half of a k-means start.
type kmeansStart struct {
	u       *mat.Dense // n×k1: the authors' U (kmeansMembership)
	labels  []int      // the k1 run's labels
	centers *mat.Dense // k1×m: the k1 run's centroids
	after   rand.PCG   // the k-means stream after the k1 run (cached starts only)
}

// form names the form of p's rows in cache keys: the k-means of a CSR and of its dense
// rows are not the same computation.
func (p points) form() string {
	if p.dense != nil {
		return "dense"
	}
	return "sparse"
}

// kmeansStartPoints returns the rows NAGC's k-means start clusters with at most k
// clusters: in's attributes (ExplicitAttributes; DenseAttributes for dense ones) divided
// by their columns' maxima, dense for dense attributes and for a CSR dense enough
// (csrStartPoints). Cost O(n·m) for dense rows, O(nnz) otherwise; memory one copy.
func kmeansStartPoints(ctx context.Context, in Input, k int) (points, error) {
	if d := in.DenseAttributes(); d != nil {
		xn, err := columnMaxNormalisedDense(d)
		return points{dense: xn}, err
	}
	x, err := in.ExplicitAttributesContext(ctx)
	if err != nil {
		return points{}, err
	}
	return csrStartPoints(x, k), nil
}

// csrStartPoints returns x divided by its columns' maxima: as dense rows where denseRows
// gives them for k clusters, else as a CSR.
func csrStartPoints(x *sparse.CSR, k int) points {
	xn := x.ColumnMaxNormalised()
	if d, _ := denseRows(xn, k); d != nil {
		return points{dense: d}
	}
	return points{csr: xn}
}

// kmeansFactorsOn is KMeansFactors on rows p already divided by their columns' maxima:
// the k1 half, then the k2 half drawn from rng after it.
func kmeansFactorsOn(ctx context.Context, p points, k1, k2, nInit int, rng *rand.Rand) (u, v *mat.Dense, labels []int, err error) {
	s, err := kmeansFirstHalf(ctx, p, k1, nInit, rng)
	if err != nil {
		return nil, nil, nil, err
	}
	if v, err = s.v(ctx, p, k2, nInit, rng); err != nil {
		return nil, nil, nil, err
	}
	return s.u, v, s.labels, nil
}

// kmeansFirstHalf runs k-means (nInit starts; 0: 10) with k1 clusters on p, drawn from
// rng, and computes U from the distances of every row to its centroids
// (kmeansMembership). Cost one k-means fit and one product with the k1 centroids.
func kmeansFirstHalf(ctx context.Context, p points, k1, nInit int, rng *rand.Rand) (*kmeansStart, error) {
	r1, err := fitPoints(ctx, p, kmeans.Config{K: k1, NInit: nInit}, rng)
	if err != nil {
		return nil, err
	}
	return &kmeansStart{u: startU(p, r1.Centers), labels: r1.Labels, centers: r1.Centers}, nil
}

// startU returns the start's U (n×k1) from the k1 centroids (k1×m) of k-means on p: the
// distances of every row to them, turned into memberships (kmeansMembership). Cost one
// product with the centroids.
func startU(p points, centers *mat.Dense) *mat.Dense {
	var n int
	if p.dense != nil {
		n, _ = p.dense.Dims()
	} else {
		n, _ = p.csr.Dims()
	}
	k1, _ := centers.Dims()
	u := mat.NewDense(n, k1, nil)
	if p.dense != nil {
		denseDistances(u, p.dense, centers)
	} else {
		kmeans.Distances(u, p.csr, centers)
	}
	kmeansMembership(u, k1)
	return u
}

// v returns the k2 half, V (m×k2): the centroids, transposed, of k-means with k2
// clusters on p drawn from rng. On dense rows with k2 = k1 the two runs are the same
// problem (the same rows, clusters and protocol): it is solved once, and V is the k1
// run's centroids, rng untouched. Cost one k-means fit (none for that case).
func (s *kmeansStart) v(ctx context.Context, p points, k2, nInit int, rng *rand.Rand) (*mat.Dense, error) {
	if k1, _ := s.centers.Dims(); p.dense != nil && k2 == k1 {
		return mat.DenseCopyOf(s.centers.T()), nil
	}
	r2, err := fitPoints(ctx, p, kmeans.Config{K: k2, NInit: nInit}, rng)
	if err != nil {
		return nil, err
	}
	return mat.DenseCopyOf(r2.Centers.T()), nil
}

// cachedKMeansStart returns the k1 half of the start on rows p for seed's k-means stream,
// computed once per c under key (which names the rows, k1, nInit and seed), with the
// stream's state after the k1 run.
func cachedKMeansStart(ctx context.Context, c *Cache, p points, key string, k1, nInit int, seed uint64) (*kmeansStart, error) {
	val, err := c.Do(key, func() (any, error) {
		src := rand.NewPCG(seed, streamKMeansInit)
		s, err := kmeansFirstHalf(ctx, p, k1, nInit, rand.New(src))
		if err != nil {
			return nil, err
		}
		s.after = *src
		return s, nil
	})
	if err != nil {
		return nil, err
	}
	return val.(*kmeansStart), nil
}

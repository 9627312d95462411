package algorithms

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/sparse"
)

// Random streams drawn from one seed: k-means initialisations use their own stream, so
// that they can be cached (Cache) without changing any later draw.
const streamKMeansInit = 0x6b6d65616e73 // "kmeans"

// initialise returns NAGC's initial U, V, H and a description of how they were made.
// Random U, V, H come from newRand(seed); k-means factors from their own stream; H of a
// k-means initialisation from newRand(seed).
func (a NAGC) initialise(ctx context.Context, in Input, k1 int, seed uint64) (u, v, h *mat.Dense, info string, err error) {
	n := in.N()
	_, m := in.Attributes().Dims()
	if a.InitU != nil {
		return mat.DenseCopyOf(a.InitU), mat.DenseCopyOf(a.InitV), mat.DenseCopyOf(a.InitH), "given", nil
	}
	rng := newRand(seed)
	switch a.Init {
	case InitRandom:
		u = uniformDense(n, k1, rng)
		v = uniformDense(m, a.K2, rng)
		h = uniformDense(k1, a.K2, rng)
		return u, v, h, InitRandom, nil
	case InitKMeans:
		if a.fast() {
			u, v, err = cachedKMeansFactorsFast(ctx, in, k1, a.K2, a.initNInit(n), seed)
			break
		}
		u, v, _, err = cachedKMeansFactors(ctx, in, k1, a.K2, a.initNInit(n), seed)
	case InitKMeansMedianARI:
		u, v, err = cachedMedianARIFactors(ctx, in, k1, a.K2, a.initNInit(n), seed)
	case InitSGC:
		u, v, err = SGCFactorsContext(ctx, in, k1, a.K2, a.InitRank, seed)
	}
	if err != nil {
		return nil, nil, nil, "", fmt.Errorf("nagc: k-means initialisation: %w", err)
	}
	h = uniformDense(k1, a.K2, rng)
	return u, v, h, a.Init, nil
}

// initNInit returns the k-means starts of each k-means run of NAGC's k-means start
// (inits kmeans and kmeans-median-ari) on n vertices: InitNInit where given, else one
// from SGCLargeN vertices (as sgc-kmeans) and 10, the authors' protocol, below.
func (a NAGC) initNInit(n int) int { return largeNInit(a.InitNInit, n) }

// initNInitInfo is what a fit on n vertices records of its start's k-means starts: the
// reason where the large-n default chose one start, else "" (the settings say it).
func (a NAGC) initNInitInfo(n int) string {
	if a.InitU != nil || (a.Init != InitKMeans && a.Init != InitKMeansMedianARI) {
		return ""
	}
	return largeNInitNote(a.InitNInit, n)
}

// Random stream of the k-means runs of the SGC initialisation.
const streamSGCInit = 0x736763 // "sgc"

// sgcInitFloor is the value SGCFactors gives U outside a vertex's own cluster (1 inside):
// small enough that argmax U starts at the clustering, non-zero so that multiplicative
// updates can still move a vertex.
const sgcInitFloor = 0.1

// SGCFactors builds NAGC's "sgc" initial U (n×k1) and V (m×k2) from the attributes NAGC
// factorises, Z = in.Attributes() (graph-filtered ones when its filter is on): k-means
// (k-means++, 10 starts) with k1 and with k2 clusters on the rank-r spectral embedding of
// Z (SpectralEmbedding; Z's rows themselves for rank 0), both drawn from seed's SGC
// stream. U[i,c] = 1 for the k1-cluster c of vertex i and sgcInitFloor elsewhere; column c
// of V is the mean of Z's rows in k2-cluster c. Label-free. The labels are computed once
// per in.Cache. Cost: two k-means fits (plus the embedding once per graph) and one
// product Zᵀ·M.
func SGCFactors(in Input, k1, k2, rank int, seed uint64) (u, v *mat.Dense, err error) {
	return SGCFactorsContext(context.Background(), in, k1, k2, rank, seed)
}

// SGCFactorsContext is SGCFactors that returns ctx's error, checked before every filter
// power, SVD product and k-means iteration, when ctx is cancelled.
func SGCFactorsContext(ctx context.Context, in Input, k1, k2, rank int, seed uint64) (u, v *mat.Dense, err error) {
	pts, err := embeddingPoints(ctx, in, rank)
	if err != nil {
		return nil, nil, err
	}
	key := fmt.Sprintf("sgc-labels/%s/%d/%d/%d/%d", in.xKey, rank, k1, k2, seed)
	val, err := in.Cache.Do(key, func() (any, error) {
		rng := rand.New(rand.NewPCG(seed, streamSGCInit))
		r1, err := fitPoints(ctx, pts, kmeans.Config{K: k1}, rng)
		if err != nil {
			return nil, err
		}
		r2, err := fitPoints(ctx, pts, kmeans.Config{K: k2}, rng)
		if err != nil {
			return nil, err
		}
		return [2][]int{r1.Labels, r2.Labels}, nil
	})
	if err != nil {
		return nil, nil, err
	}
	labels := val.([2][]int)
	x := in.Attributes()
	n, m := x.Dims()
	u = mat.NewDense(n, k1, nil)
	for i, c := range labels[0] {
		row := u.RawRowView(i)
		for j := range row {
			row[j] = sgcInitFloor
		}
		row[c] = 1
	}
	// V = Xᵀ·M with M[i,c] = 1/|cluster c| for vertex i in k2-cluster c.
	size := make([]float64, k2)
	for _, c := range labels[1] {
		size[c]++
	}
	mean := mat.NewDense(n, k2, nil)
	for i, c := range labels[1] {
		mean.Set(i, c, 1/size[c])
	}
	v = mat.NewDense(m, k2, nil)
	x.TMulDense(v, mean)
	return u, v, nil
}

// kmeansFactors is a cached KMeansFactors result.
type kmeansFactors struct {
	u, v   *mat.Dense
	labels []int
}

// CachedKMeansFactors returns copies of KMeansFactors(X, k1, k2, rng), X the attributes
// in factorises (ExplicitAttributes; KMeansFactorsDense for dense ones), for the k-means
// stream of seed, computed once per in.Cache.
func CachedKMeansFactors(in Input, k1, k2 int, seed uint64) (u, v *mat.Dense, labels []int, err error) {
	return CachedKMeansFactorsContext(context.Background(), in, k1, k2, seed)
}

// CachedKMeansFactorsContext is CachedKMeansFactors that returns ctx's error, checked
// before every filter power and k-means iteration, when ctx is cancelled (nothing is then
// cached).
func CachedKMeansFactorsContext(ctx context.Context, in Input, k1, k2 int, seed uint64) (u, v *mat.Dense, labels []int, err error) {
	return cachedKMeansFactors(ctx, in, k1, k2, kmeans.Config{}.WithDefaults().NInit, seed)
}

// cachedKMeansFactors is CachedKMeansFactorsContext with nInit k-means starts per
// k-means run instead of 10. Runs with 10 starts share their cache entry with
// CachedKMeansFactors (JWNMF's start). The k1 half of the start (U, the k1 run's labels
// and the stream's state after it) is cached apart, without k2 (cachedKMeansStart), so
// that the starts of one seed with different k2 run k-means with k1 clusters once. Both
// read only the attributes: an input sharing them (Cache.SharingAttributes) finds them.
func cachedKMeansFactors(ctx context.Context, in Input, k1, k2, nInit int, seed uint64) (u, v *mat.Dense, labels []int, err error) {
	c := in.attributeCache()
	nInitKey := ""
	if defaults := (kmeans.Config{}).WithDefaults(); nInit != defaults.NInit {
		nInitKey = fmt.Sprintf("/n_init=%d", nInit)
	}
	key := fmt.Sprintf("kmeans-factors/%s/%d/%d/%d", in.xKey, k1, k2, seed) + nInitKey
	val, err := c.Do(key, func() (any, error) {
		p, err := kmeansStartPoints(ctx, in, max(k1, k2))
		if err != nil {
			return nil, err
		}
		s, err := cachedKMeansStart(ctx, c, p, fmt.Sprintf("kmeans-start/%s/%d/%d/%s", in.xKey, k1, seed, p.form())+nInitKey, k1, nInit, seed)
		if err != nil {
			return nil, err
		}
		after := s.after
		v, err := s.v(ctx, p, k2, nInit, rand.New(&after))
		return kmeansFactors{s.u, v, s.labels}, err
	})
	if err != nil {
		return nil, nil, nil, err
	}
	f := val.(kmeansFactors)
	return mat.DenseCopyOf(f.u), mat.DenseCopyOf(f.v), f.labels, nil
}

// KMeansFactors builds the authors' k-means initial U (n×k1) and V (m×k2): the attribute
// columns are divided by their maxima; k-means (k-means++, 10 starts, best inertia) is run
// with k1 and with k2 clusters; U[i,j] = (Σ_l dᵢₗ − dᵢⱼ)/Σ_l dᵢₗ with dᵢⱼ the distance of
// vertex i to centroid j of the k1 run, each row then divided by its sum; V is the k2 run's
// centroids transposed. It also returns the k1 run's labels. Cost: two k-means fits.
func KMeansFactors(x *sparse.CSR, k1, k2 int, rng *rand.Rand) (u, v *mat.Dense, labels []int, err error) {
	return KMeansFactorsContext(context.Background(), x, k1, k2, rng)
}

// KMeansFactorsContext is KMeansFactors that returns ctx's error, checked before every
// k-means restart and iteration, when ctx is cancelled.
func KMeansFactorsContext(ctx context.Context, x *sparse.CSR, k1, k2 int, rng *rand.Rand) (u, v *mat.Dense, labels []int, err error) {
	return kmeansFactorsSparse(ctx, x, k1, k2, 0, rng)
}

// kmeansFactorsSparse is KMeansFactorsContext with nInit starts per k-means run (0: the
// default, 10).
func kmeansFactorsSparse(ctx context.Context, x *sparse.CSR, k1, k2, nInit int, rng *rand.Rand) (u, v *mat.Dense, labels []int, err error) {
	return kmeansFactorsOn(ctx, csrStartPoints(x, max(k1, k2)), k1, k2, nInit, rng)
}

// kmeansMembership turns the distances u (n×k1) of every vertex to the k1 centroids into
// the authors' initial U in place: U[i,j] = (Σ_l dᵢₗ − dᵢⱼ)/Σ_l dᵢₗ, each row then divided
// by its sum (1/k1 where that is undefined). Cost O(n·k1).
func kmeansMembership(u *mat.Dense, k1 int) {
	n, _ := u.Dims()
	for i := 0; i < n; i++ {
		row := u.RawRowView(i)
		var total float64
		for _, d := range row {
			total += d
		}
		var rowSum float64
		for j, d := range row {
			row[j] = (total - d) / total
			rowSum += row[j]
		}
		for j := range row {
			row[j] /= rowSum
			if row[j] != row[j] { // a vertex on every centroid, or k1 = 1
				row[j] = 1 / float64(k1)
			}
		}
	}
}

// cachedMedianARIFactors runs the k-means construction five times and keeps the run
// whose k1 labels have the median ARI against in.Truth (the authors' protocol). The five
// runs use the k-means streams of seeds seed·5+r, r = 0…4, each cached.
func cachedMedianARIFactors(ctx context.Context, in Input, k1, k2, nInit int, seed uint64) (u, v *mat.Dense, err error) {
	type run struct {
		u, v *mat.Dense
		ari  float64
	}
	runs := make([]run, 5)
	for r := range runs {
		u, v, labels, err := cachedKMeansFactors(ctx, in, k1, k2, nInit, seed*5+uint64(r))
		if err != nil {
			return nil, nil, err
		}
		ari, err := metrics.ARI(in.Truth, labels)
		if err != nil {
			return nil, nil, err
		}
		runs[r] = run{u, v, ari}
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].ari < runs[j].ari })
	return runs[2].u, runs[2].v, nil
}

// isCancel reports whether err is (or wraps) a context's cancellation or deadline.
func isCancel(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

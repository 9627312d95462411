package algorithms

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/sparse"
)

// Attribute normalisations applied before graph filtering.
const (
	NormL2   = "l2"   // each vertex's attribute row scaled to unit Euclidean norm (default)
	NormNone = "none" // attributes as read
)

// GraphFilterOptions select the graph filter applied to the attributes: p steps of
// Z ← ½(Z + Â Z) with Â = D^-½(A + wI)D^-½ (sparse.LowPassFilter), after the row
// normalisation Norm and optionally followed by another (NormAfter). P = 0 leaves the
// attributes exactly as they are (no normalisation either), so that p = 0 is plain X.
type GraphFilterOptions struct {
	P         int     `yaml:"p"`          // filter order
	SelfLoop  float64 `yaml:"self_loop"`  // w; 0 means 1
	Norm      string  `yaml:"norm"`       // "l2" (default) or "none", before filtering
	NormAfter bool    `yaml:"norm_after"` // L2-normalise rows after filtering
}

func (o GraphFilterOptions) validate() error {
	switch {
	case o.P < 0:
		return fmt.Errorf("filter order p = %d < 0", o.P)
	case o.SelfLoop < 0:
		return fmt.Errorf("self-loop weight %v < 0", o.SelfLoop)
	case o.Norm != "" && o.Norm != NormL2 && o.Norm != NormNone:
		return fmt.Errorf("unknown norm %q (want l2 or none)", o.Norm)
	}
	return nil
}

// key identifies the filtered matrix in a Cache.
func (o GraphFilterOptions) key() string {
	return fmt.Sprintf("filtered/%d/%g/%s/%v", o.P, o.selfLoop(), o.norm(), o.NormAfter)
}

func (o GraphFilterOptions) selfLoop() float64 {
	if o.SelfLoop == 0 {
		return 1
	}
	return o.SelfLoop
}

func (o GraphFilterOptions) norm() string {
	if o.Norm == "" {
		return NormL2
	}
	return o.Norm
}

// FilteredOperator returns the graph-filtered attribute matrix of in, Z = F·Xn, or R·F·Xn
// with NormAfter, where Xn is X L2-row-normalised (Norm "l2") or as read, computed once
// per in.Cache. It is the implicit sparse.FilteredMatrix, whose products cost
// O((nnz(X) + p·(|E| + n))·k) — unless Z has so few columns that storing it is cheaper
// (n·m ≤ that cost, as on polblog's 7 attributes and on dense attributes of a few hundred
// columns), when it is Z formed once, densely (a dense.Matrix in CSR order: 8 bytes an
// entry, the products' bits those of Z's CSR). Dense attributes give a dense Z of their
// storage type. Building it costs
// O(p·(|E| + n)·m). For P = 0 it is X itself.
func FilteredOperator(in Input, o GraphFilterOptions) (attr.Matrix, error) {
	return FilteredOperatorContext(context.Background(), in, o)
}

// FilteredOperatorContext is FilteredOperator that returns ctx's error, checked before
// every filter power, when ctx is cancelled (nothing is then cached).
func FilteredOperatorContext(ctx context.Context, in Input, o GraphFilterOptions) (attr.Matrix, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	if o.P == 0 {
		return in.X, nil
	}
	v, err := in.Cache.Do("op/"+in.xKey+o.key(), func() (any, error) {
		f, err := sparse.NewLowPassFilter(in.Adj, o.P, o.selfLoop())
		if err != nil {
			return nil, err
		}
		x, d := in.rows()
		if d != nil {
			return filteredDenseWith(ctx, f, in, o)
		}
		n, m := x.Dims()
		if n*m <= x.NNZ()+o.P*(f.Normalized().NNZ()+n) {
			// Stored is cheaper than the implicit products: Z formed once, densely.
			return filteredDenseWith(ctx, f, in, o)
		}
		if o.norm() == NormL2 {
			x = x.RowNormalized()
		}
		return sparse.NewFilteredMatrixContext(ctx, f, x, o.NormAfter)
	})
	if err != nil {
		return nil, err
	}
	return v.(attr.Matrix), nil
}

// FilteredAttributes returns the graph-filtered attribute matrix of in (FilteredOperator)
// as a stored sparse matrix, computed once per in.Cache. With P = 0 it returns in.X
// unchanged. Cost O(p·flops) of sparse–sparse products; the result fills in with p-hop
// neighbourhoods' attributes, so use it only where rows are needed (k-means). Dense
// attributes have no sparse form: their filtered matrix is FilteredOperator's dense one.
func FilteredAttributes(in Input, o GraphFilterOptions) (*sparse.CSR, error) {
	return FilteredAttributesContext(context.Background(), in, o)
}

// FilteredAttributesContext is FilteredAttributes that returns ctx's error, checked before
// every filter power (and every few thousand rows of one), when ctx is cancelled.
func FilteredAttributesContext(ctx context.Context, in Input, o GraphFilterOptions) (*sparse.CSR, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	x, d := in.rows()
	if d != nil {
		return nil, errDenseRows
	}
	if o.P == 0 {
		return x, nil
	}
	z, err := FilteredOperatorContext(ctx, in, o)
	if err != nil {
		return nil, err
	}
	v, err := in.Cache.Do(in.xKey+o.key(), func() (any, error) {
		switch z := z.(type) {
		case *sparse.FilteredMatrix:
			return z.CSRContext(ctx)
		case *dense.Matrix:
			return nonZeros(z)
		}
		return nil, fmt.Errorf("filtered attributes of unexpected type %T", z)
	})
	if err != nil {
		return nil, err
	}
	return v.(*sparse.CSR), nil
}

// SGCKMeans is k-means on graph-filtered attributes, the graph-filter family of
// attributed graph clustering (AGC, Zhang et al., IJCAI 2019; SGC/SSGC): the attributes
// are row-normalised, smoothed over the graph p times by Z ← ½(Z + D^-½(A+I)D^-½ Z), and
// clustered by k-means (k-means++, 10 starts, best inertia; one start from SGCLargeN
// vertices unless NInit is given, recorded in Result.Info["n_init"]). Not in the NAGC
// paper.
//
// With Rank r > 0 the rows of Z are first projected on Z's r leading right singular
// vectors (an uncentred PCA: the rows of U_r·Σ_r; r capped at min(n, m)) and scaled to
// unit length, and k-means runs on that n×r embedding (SpectralEmbedding): the low-rank,
// cosine-geometry step that spectral variants of the family (AGC's spectral clustering of
// ZZᵀ) take. Rank 0 clusters Z itself.
//
// Defaults: self-loop weight 1, L2 row normalisation before filtering, rank 0. Set p: p = 0
// (the zero value) is k-means on the attributes as read. New (and so configs and the
// command line) sets p = DefaultSGCOrder and rank = DefaultSGCRank where not given.
// Cost, once per graph: the embedding, 10 products of the implicit Z (FilteredOperator)
// with r + 10 columns (rank > 0), or Z formed by sparse–sparse products (rank 0); then
// O(n·r·k) (rank > 0) or O(nnz(Z)·k) (rank 0) per Lloyd iteration.
type SGCKMeans struct {
	GraphFilterOptions `yaml:",inline"`
	NInit              int `yaml:"n_init"`
	Rank               int `yaml:"rank"` // r > 0: k-means on the rank-r spectral embedding of Z
	// Precision is PrecisionDefault ("" too: float64) or PrecisionFast: the filter in
	// float32 with fused products where Z is stored (withFilteredAttributesFast), and
	// k-means on float32 rows with fused products (fastRows).
	Precision string `yaml:"precision"`
	// AttributeTransform is the option transform: what is done to the attributes before
	// the fit (see Transforms); none, the default, reads them as they are.
	AttributeTransform `yaml:",inline"`
}

// Name returns "sgc-kmeans".
func (SGCKMeans) Name() string { return "sgc-kmeans" }

// Fit filters the attributes and clusters them into k clusters.
func (a SGCKMeans) Fit(ctx context.Context, in Input, k int, seed uint64) (*Result, error) {
	start := time.Now()
	in, err := a.transformed(ctx, "sgc-kmeans", in)
	if err != nil {
		return nil, err
	}
	if err := in.validate(true, true, k); err != nil {
		return nil, fmt.Errorf("sgc-kmeans: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o := a.GraphFilterOptions
	fast := a.Precision == PrecisionFast
	e, err := sgcPoints(ctx, in, o, a.Rank, fast)
	if err != nil {
		return nil, fmt.Errorf("sgc-kmeans: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var rows string
	if fast {
		e, rows = fastRows(e, k)
	}
	nInit := a.nInit(in.N())
	res, err := fitPoints(ctx, e, kmeans.Config{K: k, NInit: nInit, FMA: fast}, newRand(seed))
	if err != nil {
		return nil, fmt.Errorf("sgc-kmeans: %w", err)
	}
	info := map[string]string{"p": fmt.Sprint(o.P), "norm": o.norm(), "norm_after": fmt.Sprint(o.NormAfter),
		"self_loop": fmt.Sprint(o.selfLoop()), "rank": fmt.Sprint(a.Rank)}
	if fast {
		info["precision"] = fastKMeansInfo(e) + "; the filter in float32 with FMA where Z is stored"
		info["rows"] = rows
	}
	if why := largeNInitNote(a.NInit, in.N()); why != "" { // below it, the settings' n_init holds
		info["n_init"] = why
	}
	return &Result{
		Labels:     res.Labels,
		Iterations: res.Iterations,
		Objective:  []float64{res.Inertia},
		FitTime:    time.Since(start),
		Info:       info,
	}, nil
}

// SGCLargeN is the number of vertices from which sgc-kmeans, and NAGC's k-means start,
// when their starts (n_init, init_n_init) are not given, run one k-means start
// (scikit-learn's n_init="auto" for k-means++) instead of 10: at a sixteenth of the
// ogbn-products shape the ten starts took a quarter of SGC k-means' CPU time, all of them
// clustering the same embedding, and NAGC's start at the whole shape is 2 × 10 k-means
// runs on 2.4 M × 100 rows (docs/performance.md).
const SGCLargeN = 1_000_000

// nInit returns the k-means starts of a fit of n vertices: NInit where given, else 1 from
// SGCLargeN vertices and package kmeans' default (10) below.
func (a SGCKMeans) nInit(n int) int { return largeNInit(a.NInit, n) }

// largeNInit returns the k-means starts of a run on n points: given where not 0, else 1
// from SGCLargeN points and package kmeans' default (10) below.
func largeNInit(given, n int) int {
	if given == 0 && n >= SGCLargeN {
		return 1
	}
	return kmeans.Config{NInit: given}.WithDefaults().NInit
}

// largeNInitNote is what a run on n points records of its k-means starts where the
// large-n default chose one (nInitInfo's words), else "".
func largeNInitNote(given, n int) string {
	if used := largeNInit(given, n); given == 0 && used == 1 {
		return nInitInfo(given, used)
	}
	return ""
}

// nInitInfo is the n_init a run records: the count, and why where the large-n default
// chose it.
func nInitInfo(given, used int) string {
	if given == 0 && used == 1 {
		return fmt.Sprintf("1 (not given, n ≥ %d: one k-means++ start, as scikit-learn's n_init=\"auto\")", SGCLargeN)
	}
	return fmt.Sprint(used)
}

// sgcPoints returns the points SGC k-means clusters: the filtered attributes of o for
// rank 0, else their rank-r spectral embedding; with fast, the filter in float32
// (withFilteredAttributesFast).
func sgcPoints(ctx context.Context, in Input, o GraphFilterOptions, rank int, fast bool) (points, error) {
	filter := in.WithFilteredAttributesContext
	if fast {
		filter = func(ctx context.Context, o GraphFilterOptions) (Input, error) {
			return withFilteredAttributesFast(ctx, in, o)
		}
	}
	fin, err := filter(ctx, o)
	if err != nil {
		return points{}, err
	}
	return embeddingPoints(ctx, fin, rank)
}

// embeddingPoints returns the attributes in factorises for rank 0 (ExplicitAttributes,
// or DenseAttributes when they are dense), else their SpectralEmbedding of rank
// min(rank, n, m) (dense for dense attributes), computed once per in.Cache from products
// only.
func embeddingPoints(ctx context.Context, in Input, rank int) (points, error) {
	d := in.DenseAttributes()
	if rank == 0 {
		if d != nil {
			return points{dense: d}, nil
		}
		x, err := in.ExplicitAttributesContext(ctx)
		return points{csr: x}, err
	}
	x := in.Attributes()
	n, m := x.Dims()
	if rank < 0 {
		return points{}, fmt.Errorf("rank %d < 0", rank)
	}
	rank = min(rank, n, m)
	key := fmt.Sprintf("spectral/%s/%d", in.xKey, rank)
	if d != nil {
		key += "/dense"
	}
	v, err := in.Cache.Do(key, func() (any, error) {
		rng := rand.New(rand.NewPCG(0, streamSpectral))
		if d != nil {
			e, err := spectralEmbeddingDense(ctx, x, rank, rng)
			return points{dense: e}, err
		}
		e, err := SpectralEmbeddingContext(ctx, x, rank, rng)
		return points{csr: e}, err
	})
	if err != nil {
		return points{}, err
	}
	return v.(points), nil
}

// streamSpectral is the random stream of the randomised SVD behind SpectralEmbedding: a
// fixed stream, so that every restart of a sweep shares one embedding per graph.
const streamSpectral = 0x73706563 // "spec"

// SpectralEmbedding returns the rows of U_r·Σ_r, the projections of z's rows on its r
// leading right singular vectors (an uncentred PCA, by randomised subspace iteration:
// oversampling 10, 4 power iterations), each scaled to unit Euclidean length (rows of
// zeros stay zero), as an n×r matrix stored densely in CSR form for package kmeans.
// Cost: 10 products of z with (r + 10) columns, plus O((n + m)·(r + 10)²).
func SpectralEmbedding(z sparse.Operator, r int, rng *rand.Rand) *sparse.CSR {
	e, _ := SpectralEmbeddingContext(context.Background(), z, r, rng) // live: no error
	return e
}

// SpectralEmbeddingContext is SpectralEmbedding that returns ctx's error, checked before
// every product with z, when ctx is cancelled.
func SpectralEmbeddingContext(ctx context.Context, z sparse.Operator, r int, rng *rand.Rand) (*sparse.CSR, error) {
	u, _, sigma, err := truncatedSVDContext(ctx, z, r, rng)
	if err != nil {
		return nil, err
	}
	n, _ := z.Dims()
	// Each row in place in an n×r array, by blocks of rows on the kernel threads; then the
	// rows that are not zero packed to its start (a zero row is not stored).
	val := make([]float64, n*r)
	nonZero := make([]bool, n)
	embeddingRows(n, func(i int) { nonZero[i] = embeddingRow(val[i*r:(i+1)*r], u, sigma, i) })
	ptr := make([]int, n+1)
	for i, nz := range nonZero {
		ptr[i+1] = ptr[i]
		if nz {
			ptr[i+1] += r
		}
	}
	if ptr[n] < n*r { // rows move towards the start, in order: none is overwritten unread
		for i, nz := range nonZero {
			if nz {
				copy(val[ptr[i]:ptr[i]+r], val[i*r:(i+1)*r])
			}
		}
		val = val[:ptr[n]]
	}
	ind := make([]int, ptr[n])
	for p := range ind {
		ind[p] = p % r
	}
	e, err := sparse.NewCSR(n, r, ptr, ind, val)
	if err != nil {
		panic(err) // rows of 0…r−1 in order: cannot happen
	}
	return e, nil
}

// embeddingRowBlock is the number of rows of one task of embeddingRows.
const embeddingRowBlock = 4096

// embeddingRows calls row(i) for every i in [0, n), by blocks of embeddingRowBlock rows on
// up to parallel.Threads goroutines; each row is computed by one call, so the result does
// not depend on the thread count.
func embeddingRows(n int, row func(i int)) {
	parallel.Run((n+embeddingRowBlock-1)/embeddingRowBlock, func(b int) {
		for i := b * embeddingRowBlock; i < min((b+1)*embeddingRowBlock, n); i++ {
			row(i)
		}
	})
}

// embeddingRow sets dst (length r) to row i of U_r·Σ_r scaled to unit Euclidean length
// and reports whether it is non-zero (a zero row is left zero).
func embeddingRow(dst []float64, u *mat.Dense, sigma []float64, i int) bool {
	ui := u.RawRowView(i)
	var norm float64
	for j := range dst {
		dst[j] = ui[j] * sigma[j]
		norm += dst[j] * dst[j]
	}
	if norm == 0 {
		return false
	}
	norm = math.Sqrt(norm)
	for j := range dst {
		dst[j] /= norm
	}
	return true
}

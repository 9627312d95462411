package algorithms

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// This file holds what the methods do differently when the attributes are dense
// (Input.XDense): the dense filtered attributes, k-means on dense rows, and NAGC's k-means
// start from dense rows. Nothing here forms a CSR copy of a dense matrix.

// points are the rows that k-means clusters: sparse, or dense (exactly one is set).
type points struct {
	csr   *sparse.CSR
	dense *dense.Matrix
}

// fitPoints runs k-means on p's rows.
func fitPoints(ctx context.Context, p points, cfg kmeans.Config, rng *rand.Rand) (*kmeans.Result, error) {
	if p.dense != nil {
		return fitDense(ctx, p.dense, cfg, rng)
	}
	return kmeans.FitContext(ctx, p.csr, cfg, rng)
}

// fitDense runs k-means on the rows of a dense matrix, in its storage type.
func fitDense(ctx context.Context, x *dense.Matrix, cfg kmeans.Config, rng *rand.Rand) (*kmeans.Result, error) {
	n, m := x.Dims()
	if x.Is32() {
		return kmeansFitDense(ctx, x.Float32(), n, m, cfg, rng)
	}
	return kmeansFitDense(ctx, x.Float64(), n, m, cfg, rng)
}

// kmeansFitDense is k-means on the row-major n×m rows x: kmeans.FitDense, without any
// copy of x.
func kmeansFitDense[T float32 | float64](ctx context.Context, x []T, n, m int, cfg kmeans.Config, rng *rand.Rand) (*kmeans.Result, error) {
	return kmeans.FitDense(ctx, x, n, m, cfg, rng)
}

// filterDenseBlock is the number of columns of a dense X filtered at a time: the filter
// then holds two n×16 float64 buffers (627 MB at ogbn-products' 2.4 M vertices).
const filterDenseBlock = 16

// filteredDense returns Z = F·Xs, or R·F·Xs with unitRows (every non-zero row of F·Xs
// scaled to unit length), as a dense matrix of x's storage type, where Xs is x with row i
// scaled by rowScale[i] (x itself for a nil rowScale), each entry rounded to x's storage
// type as dense.Matrix.Scaled rounds it, so that Xs is never stored: the filtered
// attributes of a dense X are dense, so they are formed once. Cost O(p·(nnz(Â) + n)·m);
// memory n·m entries plus two n×16 float64 buffers.
func filteredDense(ctx context.Context, f *sparse.LowPassFilter, x *dense.Matrix, rowScale []float64, unitRows bool) (*dense.Matrix, error) {
	n, m := x.Dims()
	need := memory.Add(memory.Bytes(int64(n), m*x.ElemSize()), memory.Bytes(int64(n), 2*8*filterDenseBlock))
	if unitRows {
		need = memory.Add(need, memory.Bytes(int64(n), m*x.ElemSize()))
	}
	if err := memory.Check(fmt.Sprintf("the graph-filtered attributes (%d×%d, dense)", n, m), need); err != nil {
		return nil, err
	}
	var z *dense.Matrix
	if x.Is32() {
		z = dense.NewMatrix32(n, m, make([]float32, n*m))
	} else {
		z = dense.NewMatrix64(n, m, make([]float64, n*m))
	}
	if n == 0 || m == 0 {
		return z, nil
	}
	w0 := min(filterDenseBlock, m)
	block := mat.NewDense(n, w0, nil)
	row := make([]float64, m)
	for j0 := 0; j0 < m; j0 += filterDenseBlock {
		w := min(filterDenseBlock, m-j0)
		b := block.Slice(0, n, 0, w).(*mat.Dense)
		for i := 0; i < n; i++ {
			copy(b.RawRowView(i)[:w], scaledRow(row, x, i, rowScale)[j0:j0+w])
		}
		if err := f.ApplyDenseContext(ctx, b, b); err != nil {
			return nil, err
		}
		for i := 0; i < n; i++ {
			out := b.RawRowView(i)[:w]
			if z.Is32() {
				dst := z.Float32()[i*m+j0 : i*m+j0+w]
				for j, v := range out {
					dst[j] = float32(v)
				}
			} else {
				copy(z.Float64()[i*m+j0:i*m+j0+w], out)
			}
		}
	}
	if unitRows {
		return z.RowNormalized(), nil
	}
	return z, nil
}

// unitRowScales returns the factors that scale x's rows to unit Euclidean length, as
// dense.Matrix.RowNormalized does: 1/‖xᵢ‖, or 0 for a row of zeros. Cost O(n·m).
func unitRowScales(x *dense.Matrix) []float64 {
	s := x.RowNormsSq()
	for i, v := range s {
		if v > 0 {
			s[i] = 1 / math.Sqrt(v)
		}
	}
	return s
}

// scaledRow returns row i of x times scale[i] (x's row for a nil scale) in dst (length at
// least m), each product rounded to x's storage type as dense.Matrix.Scaled rounds it.
func scaledRow(dst []float64, x *dense.Matrix, i int, scale []float64) []float64 {
	if scale == nil {
		return x.RowTo(dst, i)
	}
	_, m := x.Dims()
	dst, s := dst[:m], scale[i]
	if x.Is32() {
		for j, v := range x.Float32()[i*m : (i+1)*m] {
			dst[j] = float64(float32(float64(v) * s))
		}
		return dst
	}
	for j, v := range x.Float64()[i*m : (i+1)*m] {
		dst[j] = v * s
	}
	return dst
}

// filteredDenseOperator is FilteredOperator for a dense X: Z formed once per in.Cache.
func filteredDenseOperator(ctx context.Context, in Input, o GraphFilterOptions) (*dense.Matrix, error) {
	v, err := in.Cache.Do("op/"+in.xKey+o.key(), func() (any, error) {
		f, err := sparse.NewLowPassFilter(in.Adj, o.P, o.selfLoop())
		if err != nil {
			return nil, err
		}
		var scale []float64 // the L2 row normalisation, applied as the rows are read
		if o.norm() == NormL2 {
			scale = unitRowScales(in.XDense)
		}
		return filteredDense(ctx, f, in.XDense, scale, o.NormAfter)
	})
	if err != nil {
		return nil, err
	}
	return v.(*dense.Matrix), nil
}

// spectralEmbeddingDense is SpectralEmbedding as a dense n×r float64 matrix, for dense
// attributes (whose k-means runs on dense rows).
func spectralEmbeddingDense(ctx context.Context, z sparse.Operator, r int, rng *rand.Rand) (*dense.Matrix, error) {
	u, _, sigma, err := truncatedSVDContext(ctx, z, r, rng)
	if err != nil {
		return nil, err
	}
	n, _ := z.Dims()
	out := make([]float64, n*r)
	embeddingRows(n, func(i int) { embeddingRow(out[i*r:(i+1)*r], u, sigma, i) })
	return dense.NewMatrix64(n, r, out), nil
}

// KMeansFactorsDense is KMeansFactors on dense attribute rows: the columns divided by
// their maxima (a copy in x's storage type), k-means with k1 and with k2 clusters, U from
// the distances to the k1 centroids, V the k2 centroids transposed. Cost: two k-means fits
// and one product with the k1 centroids; memory one copy of x.
func KMeansFactorsDense(ctx context.Context, x *dense.Matrix, k1, k2 int, rng *rand.Rand) (u, v *mat.Dense, labels []int, err error) {
	return kmeansFactorsDense(ctx, x, k1, k2, 0, rng)
}

// kmeansFactorsDense is KMeansFactorsDense with nInit starts per k-means run (0: the
// default, 10).
func kmeansFactorsDense(ctx context.Context, x *dense.Matrix, k1, k2, nInit int, rng *rand.Rand) (u, v *mat.Dense, labels []int, err error) {
	xn, err := columnMaxNormalisedDense(x)
	if err != nil {
		return nil, nil, nil, err
	}
	return kmeansFactorsOnDense(ctx, xn, k1, k2, nInit, rng)
}

// kmeansFactorsOnDense is kmeansFactorsDense on rows xn already divided by their
// columns' maxima. With k1 = k2 the two k-means are the same problem (the same rows,
// clusters and protocol): it is solved once, and V is the k1 run's centroids transposed.
func kmeansFactorsOnDense(ctx context.Context, xn *dense.Matrix, k1, k2, nInit int, rng *rand.Rand) (u, v *mat.Dense, labels []int, err error) {
	r1, err := fitDense(ctx, xn, kmeans.Config{K: k1, NInit: nInit}, rng)
	if err != nil {
		return nil, nil, nil, err
	}
	r2 := r1
	if k2 != k1 {
		if r2, err = fitDense(ctx, xn, kmeans.Config{K: k2, NInit: nInit}, rng); err != nil {
			return nil, nil, nil, err
		}
	}
	n, _ := xn.Dims()
	u = mat.NewDense(n, k1, nil)
	denseDistances(u, xn, r1.Centers)
	kmeansMembership(u, k1)
	return u, mat.DenseCopyOf(r2.Centers.T()), r1.Labels, nil
}

// columnMaxNormalisedDense is sparse.CSR.ColumnMaxNormalised for a dense matrix: a copy in x's
// storage type. Cost O(n·m).
func columnMaxNormalisedDense(x *dense.Matrix) (*dense.Matrix, error) {
	if err := checkDenseCopy("the column-scaled attributes", x); err != nil {
		return nil, err
	}
	cm := x.ColMax()
	for j, c := range cm {
		if c > 0 {
			cm[j] = 1 / c
		} else {
			cm[j] = 1
		}
	}
	return x.Scaled(nil, cm), nil
}

// checkDenseCopy checks a copy of x against the memory budget.
func checkDenseCopy(what string, x *dense.Matrix) error {
	n, m := x.Dims()
	return memory.Check(fmt.Sprintf("%s (%d×%d, dense)", what, n, m), memory.Bytes(int64(n), m*x.ElemSize()))
}

// denseDistances sets dst[i][j] to the Euclidean distance between row i of x and row j
// of centers, by ‖x‖² − 2x·c + ‖c‖² as kmeans.Distances. Cost O(n·m·k).
func denseDistances(dst *mat.Dense, x *dense.Matrix, centers *mat.Dense) {
	n, _ := x.Dims()
	k, _ := centers.Dims()
	x.MulDense(dst, mat.DenseCopyOf(centers.T()))
	norms := x.RowNormsSq()
	cnorm := make([]float64, k)
	for c := 0; c < k; c++ {
		r := centers.RawRowView(c)
		for _, v := range r {
			cnorm[c] += v * v
		}
	}
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for c := range row {
			row[c] = math.Sqrt(max(0, norms[i]-2*row[c]+cnorm[c]))
		}
	}
}

// denseNonNegative checks that a dense attribute matrix is finite, non-negative and not
// all zero, as nmfCheckNonNegative does for a sparse one.
func denseNonNegative(what string, x *dense.Matrix) error {
	if i, j, bad := x.FirstNegative(); bad {
		hint := ""
		if x.At(i, j) < 0 {
			hint = SignedAttributesHint
		}
		return fmt.Errorf("%s has entry %v in row %d (column %d); need finite, non-negative values%s", what, x.At(i, j), i, j, hint)
	}
	if s := x.Sum(); math.IsInf(s, 0) {
		return fmt.Errorf("%s has an infinite entry; need finite, non-negative values", what)
	} else if s == 0 {
		return fmt.Errorf("%s is all zero", what)
	}
	return nil
}

// NeedsNonNegativeAttributes reports whether m refuses attributes holding a negative
// value: NAGC and NMF factorise them (checkAttributesNonNegative), unless their option
// transform is one of NonNegativeTransforms; k-means, SGC k-means, METIS and SNMF take
// any values, and JWNMF, BAGC and the other baselines read sparse attributes, which the
// readers keep ≥ 0.
func NeedsNonNegativeAttributes(m Method) bool {
	switch m.(type) {
	case NAGC, *NAGC, NMF, *NMF:
		return !slices.Contains(NonNegativeTransforms, TransformOf(m))
	}
	return false
}

// csrHasNegative reports whether x stores a negative value. Cost O(nnz(x)).
func csrHasNegative(x *sparse.CSR) bool {
	r, _ := x.Dims()
	for i := 0; i < r; i++ {
		_, vals := x.Row(i)
		for _, v := range vals {
			if v < 0 {
				return true
			}
		}
	}
	return false
}

// SignedAttributesHint ends the refusal of signed attributes by NAGC and NMF: the
// transforms that make them non-negative, and the methods that take them as they are.
var SignedAttributesHint = " (signed attributes, such as embeddings: give the option transform: " +
	strings.Join(NonNegativeTransforms[:len(NonNegativeTransforms)-1], ", ") + " or " + NonNegativeTransforms[len(NonNegativeTransforms)-1] +
	" (split keeps both signs, in 2m columns); or cluster them with kmeans or sgc-kmeans)"

// checkAttributesNonNegative is nmfCheckNonNegative for in's attributes, sparse or dense.
func checkAttributesNonNegative(in Input) error {
	if in.XDense != nil {
		return denseNonNegative("attribute matrix", in.XDense)
	}
	if err := nmfCheckNonNegative("attribute matrix", in.X); err != nil {
		if csrHasNegative(in.X) {
			return fmt.Errorf("%w%s", err, SignedAttributesHint)
		}
		return err
	}
	return nil
}

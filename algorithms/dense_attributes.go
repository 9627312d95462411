package algorithms

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// This file holds what the methods do differently when the attributes are dense
// (Input.DenseAttributes): the dense filtered attributes (also the stored form of
// filtered sparse attributes), k-means on dense rows, and NAGC's k-means
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

// filterDenseBlock is the most columns of X the filter smooths at a time: the columns
// are cut into ⌈m/50⌉ blocks as equal as possible (blockWidth), so that each pass over Â
// gathers as many columns of each neighbour's row as two n×50 float64 buffers hold
// (1.96 GB at ogbn-products' 2.4 M vertices). Each entry of Z is summed over Â's rows in
// the same order whatever the width, so the width changes no bit.
const filterDenseBlock = 50

// blockWidth returns the width of the widest of the fewest column blocks of at most
// width columns, as equal as possible, that m columns are cut into (0 for m = 0).
func blockWidth(m, width int) int {
	if m == 0 {
		return 0
	}
	nb := (m + width - 1) / width
	return (m + nb - 1) / nb
}

// filteredDense returns Z = F·Xs, or R·F·Xs with unitRows (every non-zero row of F·Xs
// scaled to unit length), stored densely, where X is sx or dx (the one that is not nil)
// and Xs is X with row i scaled by rowScale[i]
// (X itself for a nil rowScale), each entry rounded to X's storage type as
// dense.Matrix.Scaled rounds it, so that Xs is never stored. For a dense X, Z has X's
// storage type: the filtered attributes of a dense X are dense, so they are formed once.
// For a sparse X, Z is a float64 matrix in CSR order (dense.NewMatrix64CSROrder) whose
// products are those of Z's CSR, and its rows are scaled in place. Cost
// O(p·(nnz(Â) + n)·m); memory n·m entries (twice for a dense X with unitRows) plus two
// n×w float64 buffers, w = blockWidth(m, filterDenseBlock).
func filteredDense(ctx context.Context, f *sparse.LowPassFilter, sx *sparse.CSR, dx *dense.Matrix, rowScale []float64, unitRows bool) (*dense.Matrix, error) {
	return filteredDenseBlocks(ctx, f, sx, dx, rowScale, unitRows, filterDenseBlock)
}

// filteredDenseBlocks is filteredDense on column blocks of at most width columns, as
// equal as possible; width ≥ 1 changes no bit of the result.
func filteredDenseBlocks(ctx context.Context, f *sparse.LowPassFilter, sx *sparse.CSR, dx *dense.Matrix, rowScale []float64, unitRows bool, width int) (*dense.Matrix, error) {
	var x attr.Matrix = sx
	isDense, elem := dx != nil, 8
	if isDense {
		x, elem = dx, dx.ElemSize()
	}
	n, m := x.Dims()
	nb, w0 := max(1, (m+width-1)/width), blockWidth(m, width)
	need := memory.Add(memory.Bytes(int64(n), m*elem), memory.Bytes(int64(n), 2*8*w0))
	if unitRows && isDense {
		need = memory.Add(need, memory.Bytes(int64(n), m*elem))
	}
	if err := memory.Check(fmt.Sprintf("the graph-filtered attributes (%d×%d, dense)", n, m), need); err != nil {
		return nil, err
	}
	var z *dense.Matrix
	switch {
	case !isDense:
		z = dense.NewMatrix64CSROrder(n, m, make([]float64, n*m))
	case dx.Is32():
		z = dense.NewMatrix32(n, m, make([]float32, n*m))
	default:
		z = dense.NewMatrix64(n, m, make([]float64, n*m))
	}
	if n == 0 || m == 0 {
		return z, nil
	}
	block := mat.NewDense(n, w0, nil)
	row := make([]float64, m)
	for q, j0 := 0, 0; q < nb; q++ {
		w := m / nb
		if q < m%nb {
			w++
		}
		b := block.Slice(0, n, 0, w).(*mat.Dense)
		for i := 0; i < n; i++ {
			copy(b.RawRowView(i)[:w], scaledRow(row, x, z.Is32(), i, rowScale)[j0:j0+w])
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
		j0 += w
	}
	switch {
	case unitRows && isDense:
		return z.RowNormalized(), nil
	case unitRows:
		scaleRowsInPlace(z.Float64(), m, unitRowScales(z))
	}
	return z, nil
}

// scaleRowsInPlace multiplies row i of the row-major data (m columns) by s[i].
func scaleRowsInPlace(data []float64, m int, s []float64) {
	for i, f := range s {
		for j := range data[i*m : (i+1)*m] {
			data[i*m+j] *= f
		}
	}
}

// unitRowScales returns the factors that scale x's rows to unit Euclidean length, as
// dense.Matrix.RowNormalized and sparse.CSR.RowNormalized do: 1/‖xᵢ‖, or 0 for a row of
// zeros. Cost that of x.RowNormsSq.
func unitRowScales(x attr.Matrix) []float64 {
	s := x.RowNormsSq()
	for i, v := range s {
		if v > 0 {
			s[i] = 1 / math.Sqrt(v)
		}
	}
	return s
}

// scaledRow returns row i of x times scale[i] (x's row for a nil scale) in dst (length at
// least m), each product rounded to float32 when is32 (x's storage type) as
// dense.Matrix.Scaled rounds it.
func scaledRow(dst []float64, x attr.Matrix, is32 bool, i int, scale []float64) []float64 {
	dst = x.RowTo(dst, i)
	if scale == nil {
		return dst
	}
	s := scale[i]
	if is32 {
		for j, v := range dst {
			dst[j] = float64(float32(v * s))
		}
		return dst
	}
	for j := range dst {
		dst[j] *= s
	}
	return dst
}

// filteredDenseWith returns filteredDense of in.X with o's L2 row normalisation, applied
// as the rows are read, and o's unit rows.
func filteredDenseWith(ctx context.Context, f *sparse.LowPassFilter, in Input, o GraphFilterOptions) (*dense.Matrix, error) {
	var scale []float64
	if o.norm() == NormL2 {
		scale = unitRowScales(in.X)
	}
	sx, dx := in.rows()
	return filteredDense(ctx, f, sx, dx, scale, o.NormAfter)
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
	return kmeansFactorsOn(ctx, points{dense: xn}, k1, k2, nInit, rng)
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
	x, d := in.rows()
	if d != nil {
		return denseNonNegative("attribute matrix", d)
	}
	if err := nmfCheckNonNegative("attribute matrix", x); err != nil {
		if csrHasNegative(x) {
			return fmt.Errorf("%w%s", err, SignedAttributesHint)
		}
		return err
	}
	return nil
}

// nonZeros returns the non-zero entries of x as a CSR, with x's values. Cost O(n·m);
// memory 16 bytes a non-zero entry, checked against the budget first.
func nonZeros(x *dense.Matrix) (*sparse.CSR, error) {
	n, m := x.Dims()
	nnz := x.NNZ()
	if err := memory.Check(fmt.Sprintf("the attributes' non-zero entries (%d×%d, %d entries)", n, m, nnz),
		memory.Add(memory.Bytes(int64(nnz), 16), memory.Bytes(int64(n+1), 8))); err != nil {
		return nil, err
	}
	ptr, ind, val := make([]int, n+1), make([]int, 0, nnz), make([]float64, 0, nnz)
	row := make([]float64, m)
	for i := 0; i < n; i++ {
		for j, v := range x.RowTo(row, i) {
			if v != 0 {
				ind, val = append(ind, j), append(val, v)
			}
		}
		ptr[i+1] = len(ind)
	}
	return sparse.NewCSR(n, m, ptr, ind, val)
}

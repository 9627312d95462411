package algorithms

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// Attribute transforms: the option transform of the methods that read attributes, applied
// to the attribute matrix before the method sees it (before any graph filter). Their
// names follow the normalisation option norm (l2, none).
const (
	TransformNone = "none" // the attributes as read (the default)
	// TransformSplit replaces X by [max(X, 0), max(−X, 0)]: its positive and negative
	// parts side by side, 2m non-negative columns (column j holds the positive part of
	// attribute j, column m + j its negative part).
	TransformSplit = "split"
	// TransformShift subtracts from every column its minimum, so that the column's
	// smallest entry is 0 (a column with a negative entry fills in: its zeros become
	// −min).
	TransformShift = "shift"
	// TransformMinMax maps every column to [0, 1] by (x − min)/(max − min); a constant
	// column maps to 0.
	TransformMinMax = "minmax"
	// TransformL2 scales every vertex's attribute row to unit Euclidean length (rows of
	// zeros stay zero), as norm l2 does before a graph filter; signs are kept.
	TransformL2 = NormL2
)

// Transforms lists the values of the option transform.
var Transforms = []string{TransformNone, TransformSplit, TransformShift, TransformMinMax, TransformL2}

// NonNegativeTransforms lists the transforms whose result is non-negative whatever the
// attributes: those that let NAGC and NMF cluster signed attributes.
var NonNegativeTransforms = []string{TransformSplit, TransformShift, TransformMinMax}

// AttributeTransform is the option transform of a method that reads attributes: the
// transform (one of Transforms; "" is TransformNone) applied to the attributes before the
// fit. The transformed matrix is formed once per Input.Cache: a sweep's fits of one graph
// share it. A dense n×m matrix costs O(n·m) and one copy (n×2m for split) in its storage
// type; a sparse one O(nnz) and a copy of its entries (none for shift of non-negative
// attributes, which it leaves as they are).
type AttributeTransform struct {
	Transform string `yaml:"transform,omitempty"`
}

// attributeTransform returns the transform a fit applies: "" for none.
func (t AttributeTransform) attributeTransform() string {
	if t.Transform == TransformNone {
		return ""
	}
	return t.Transform
}

// transformer is a method with the option transform.
type transformer interface{ attributeTransform() string }

// TransformOf returns the attribute transform m applies before its fit ("" for none or
// for a method without the option).
func TransformOf(m Method) string {
	if t, ok := m.(transformer); ok {
		return t.attributeTransform()
	}
	return ""
}

// checkTransform returns an *OptionError for a value that is not one of Transforms.
func (t AttributeTransform) checkTransform(method string) error {
	return oneOf(method, "transform", t.Transform, Transforms...)
}

// transformed returns in with the transform of t applied to its attributes
// (WithTransformedAttributes), with the method's name on an error.
func (t AttributeTransform) transformed(ctx context.Context, method string, in Input) (Input, error) {
	out, err := in.WithTransformedAttributesContext(ctx, t.attributeTransform())
	if err != nil {
		return in, fmt.Errorf("%s: %w", method, err)
	}
	return out, nil
}

// WithTransformedAttributes returns a copy of in whose attributes (X, sparse or dense as
// in's) are transform t of in's, formed once per in.Cache; in itself for "" or
// TransformNone. Cached values of the transformed attributes (initialisations, filtered
// matrices) are kept apart from those of the original ones. Forming the copy is checked
// against the memory budget first.
func (in Input) WithTransformedAttributes(t string) (Input, error) {
	return in.WithTransformedAttributesContext(context.Background(), t)
}

// WithTransformedAttributesContext is WithTransformedAttributes that returns ctx's error
// when ctx is cancelled before the transform.
func (in Input) WithTransformedAttributesContext(ctx context.Context, t string) (Input, error) {
	if t == "" || t == TransformNone {
		return in, nil
	}
	if err := (AttributeTransform{t}).checkTransform("transform"); err != nil {
		return in, err
	}
	if in.filtered {
		return in, fmt.Errorf("transform %s: the attributes are already graph-filtered; transform them before the filter", t)
	}
	if in.X == nil {
		return in, nil // validate reports the missing attributes
	}
	if err := ctx.Err(); err != nil {
		return in, err
	}
	key := "transform/" + in.xKey + "/" + t
	v, err := in.attributeCache().Do(key, func() (any, error) {
		x, d := in.rows()
		if d != nil {
			return TransformDense(d, t)
		}
		return TransformCSR(x, t)
	})
	if err != nil {
		return in, err
	}
	in.X = v.(attr.Matrix)
	in.xKey = key + "/"
	return in, nil
}

// TransformDense returns transform t (one of Transforms) of x as a new matrix of x's
// storage type: n×2m for split, n×m otherwise (x itself for none). Each entry is computed
// in float64 and rounded to the storage type once. The copy is checked against the memory
// budget before it is allocated. Cost O(n·m), by blocks of rows on as many goroutines as
// the work pays for (dense.Grain; each entry is computed alone: the result does not
// depend on the count).
func TransformDense(x *dense.Matrix, t string) (*dense.Matrix, error) {
	n, m := x.Dims()
	cols := m
	if t == TransformSplit {
		cols = 2 * m
	}
	switch t {
	case "", TransformNone:
		return x, nil
	case TransformL2:
		if err := checkDenseCopy("the l2-transformed attributes", x); err != nil {
			return nil, err
		}
		return x.RowNormalized(), nil
	case TransformSplit, TransformShift, TransformMinMax:
	default:
		return nil, unknownTransform(t)
	}
	what := fmt.Sprintf("the %s-transformed attributes (%d×%d, dense)", t, n, cols)
	if err := memory.Check(what, memory.Bytes(int64(n), cols*x.ElemSize())); err != nil {
		return nil, err
	}
	if x.Is32() {
		out := make([]float32, n*cols)
		transformDenseRows(out, x.Float32(), n, m, t)
		return dense.NewMatrix32(n, cols, out), nil
	}
	out := make([]float64, n*cols)
	transformDenseRows(out, x.Float64(), n, m, t)
	return dense.NewMatrix64(n, cols, out), nil
}

// transformRowBlock is the number of rows of one task of a dense transform.
const transformRowBlock = 1024

// transformDenseRows sets dst to transform t (split, shift or minmax) of the row-major
// n×m matrix x: dst is n×2m for split, n×m otherwise.
func transformDenseRows[T float32 | float64](dst, x []T, n, m int, t string) {
	var lo, scale []float64
	if t != TransformSplit {
		l, h := denseColumnRange(x, n, m)
		lo, scale = columnAffine(l, h, t)
	}
	dense.Grain().Run((n+transformRowBlock-1)/transformRowBlock, n*m, func(b int) {
		for i := b * transformRowBlock; i < min((b+1)*transformRowBlock, n); i++ {
			row := x[i*m : (i+1)*m]
			if t == TransformSplit {
				pos, neg := dst[i*2*m:i*2*m+m], dst[i*2*m+m:(i+1)*2*m]
				for j, v := range row {
					f := float64(v)
					pos[j], neg[j] = T(max(f, 0)), T(max(-f, 0))
				}
				continue
			}
			out := dst[i*m : (i+1)*m]
			for j, v := range row {
				out[j] = T(affine(float64(v), lo[j], scale[j]))
			}
		}
	})
}

// denseColumnRange returns the minimum and maximum of every column of the row-major n×m
// matrix x, by blocks of rows whose ranges are merged (min and max are exact, so the
// result does not depend on the blocks). Cost O(n·m).
func denseColumnRange[T float32 | float64](x []T, n, m int) (lo, hi []float64) {
	nb := (n + transformRowBlock - 1) / transformRowBlock
	blo, bhi := make([][]float64, nb), make([][]float64, nb)
	dense.Grain().Run(nb, n*m, func(b int) {
		l, h := make([]float64, m), make([]float64, m)
		for i := b * transformRowBlock; i < min((b+1)*transformRowBlock, n); i++ {
			for j, v := range x[i*m : (i+1)*m] {
				f := float64(v)
				if i == b*transformRowBlock || f < l[j] {
					l[j] = f
				}
				if i == b*transformRowBlock || f > h[j] {
					h[j] = f
				}
			}
		}
		blo[b], bhi[b] = l, h
	})
	lo, hi = make([]float64, m), make([]float64, m)
	for b := range nb {
		for j := range lo {
			if b == 0 || blo[b][j] < lo[j] {
				lo[j] = blo[b][j]
			}
			if b == 0 || bhi[b][j] > hi[j] {
				hi[j] = bhi[b][j]
			}
		}
	}
	return lo, hi
}

// affine returns entry v of a column with minimum lo as shift and minmax map it: v − lo
// for scale 0 (shift), (v − lo)/scale for scale = max − min > 0 (minmax), and 0 for a
// constant column under minmax (scale < 0).
func affine(v, lo, scale float64) float64 {
	switch {
	case scale == 0:
		return v - lo
	case scale < 0:
		return 0
	}
	return (v - lo) / scale
}

// columnAffine turns the column minima and maxima into affine's parameters for t: the
// minima, and 0 (shift) or max − min (minmax; −1 for a constant column) per column.
func columnAffine(lo, hi []float64, t string) (minima, scale []float64) {
	scale = make([]float64, len(lo))
	if t == TransformMinMax {
		for j := range scale {
			if scale[j] = hi[j] - lo[j]; !(scale[j] > 0) {
				scale[j] = -1
			}
		}
	}
	return lo, scale
}

// TransformCSR returns transform t (one of Transforms) of x as a new sparse matrix, or x
// itself where t changes nothing (none; shift of attributes whose every column has a
// minimum of 0, as non-negative sparse attributes with a zero in every column do).
// Entries that become 0 are not stored. The columns of split are those of
// TransformDense. A column's minimum and maximum count its unstored zeros where it has
// any; shift and minmax of a column with a negative minimum fill it in. The result is
// checked against the memory budget before it is allocated. Cost O(nnz(x) + n + m),
// plus n per column that fills in.
func TransformCSR(x *sparse.CSR, t string) (*sparse.CSR, error) {
	n, m := x.Dims()
	switch t {
	case "", TransformNone:
		return x, nil
	case TransformL2:
		if err := memory.Check(fmt.Sprintf("the l2-transformed attributes (%d×%d, %d entries)", n, m, x.NNZ()), csrBytes(n, x.NNZ())); err != nil {
			return nil, err
		}
		return x.RowNormalized(), nil
	case TransformSplit:
		return splitCSR(x)
	case TransformShift, TransformMinMax:
	default:
		return nil, unknownTransform(t)
	}
	lo, hi, gaps := csrColumnRange(x)
	lo, scale := columnAffine(lo, hi, t)
	var fill []int // the columns whose unstored zeros become non-zero, ascending
	for j := range lo {
		if gaps[j] && affine(0, lo[j], scale[j]) != 0 {
			fill = append(fill, j)
		}
	}
	if t == TransformShift && len(fill) == 0 && allZero(lo) {
		return x, nil
	}
	bound := x.NNZ() + min(n*len(fill), n*m)
	ptr, ind, val, err := newCSRArrays(fmt.Sprintf("the %s-transformed attributes (%d×%d, up to %d entries)", t, n, m, bound), n, bound)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		cols, vals := x.Row(i)
		// Merge the row's stored columns with the filled ones, in column order.
		for p, q := 0, 0; p < len(cols) || q < len(fill); {
			var j int
			v := 0.0
			if q == len(fill) || (p < len(cols) && cols[p] <= fill[q]) {
				j, v = cols[p], vals[p]
				if q < len(fill) && fill[q] == j {
					q++
				}
				p++
			} else {
				j = fill[q]
				q++
			}
			if w := affine(v, lo[j], scale[j]); w != 0 {
				ind, val = append(ind, j), append(val, w)
			}
		}
		ptr[i+1] = len(ind)
	}
	return sparse.NewCSR(n, m, ptr, ind, val)
}

// splitCSR is TransformCSR's split: row i holds the positive entries of x's row in
// columns j and the magnitudes of its negative ones in columns m + j. Cost O(nnz(x) + n).
func splitCSR(x *sparse.CSR) (*sparse.CSR, error) {
	n, m := x.Dims()
	nnz := x.NNZ()
	ptr, ind, val, err := newCSRArrays(fmt.Sprintf("the split attributes (%d×%d, %d entries)", n, 2*m, nnz), n, nnz)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		cols, vals := x.Row(i)
		for p, j := range cols {
			if vals[p] > 0 {
				ind, val = append(ind, j), append(val, vals[p])
			}
		}
		for p, j := range cols {
			if vals[p] < 0 {
				ind, val = append(ind, m+j), append(val, -vals[p])
			}
		}
		ptr[i+1] = len(ind)
	}
	return sparse.NewCSR(n, 2*m, ptr, ind, val)
}

// newCSRArrays returns the row pointers of an n-row CSR and its index and value arrays
// with room for nnz entries, after checking them (what) against the memory budget.
func newCSRArrays(what string, n, nnz int) (ptr, ind []int, val []float64, err error) {
	if err := memory.Check(what, csrBytes(n, nnz)); err != nil {
		return nil, nil, nil, err
	}
	return make([]int, n+1), make([]int, 0, nnz), make([]float64, 0, nnz), nil
}

// csrColumnRange returns the minimum and maximum of every column of x, counting the
// unstored zeros of a column with fewer than n stored entries, and which columns have
// such zeros. Cost O(nnz(x) + m).
func csrColumnRange(x *sparse.CSR) (lo, hi []float64, gaps []bool) {
	n, m := x.Dims()
	lo, hi = make([]float64, m), make([]float64, m)
	stored := make([]int, m)
	for i := 0; i < n; i++ {
		cols, vals := x.Row(i)
		for p, j := range cols {
			v := vals[p]
			if stored[j] == 0 || v < lo[j] {
				lo[j] = v
			}
			if stored[j] == 0 || v > hi[j] {
				hi[j] = v
			}
			stored[j]++
		}
	}
	gaps = make([]bool, m)
	for j, s := range stored {
		if gaps[j] = s < n; gaps[j] {
			lo[j], hi[j] = math.Min(lo[j], 0), math.Max(hi[j], 0)
		}
	}
	return lo, hi, gaps
}

func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

func unknownTransform(t string) error {
	return fmt.Errorf("unknown transform %q (want %s)", t, strings.Join(Transforms, ", "))
}

// TransformedShape returns the shape of the attributes a fit of m reads of an input of
// shape s (TransformOf: split doubles the columns), and the bytes of the transformed copy
// that a fit with a transform forms (and a sweep's cache keeps beside the input): n·m′
// entries of X's size for dense attributes, a CSR of at most nnz(X) entries for sparse
// ones; s and 0 for a method without a transform.
func TransformedShape(s Shape, m Method) (Shape, uint64) {
	t := TransformOf(m)
	if t == "" {
		return s, 0
	}
	if t == TransformSplit {
		s.M *= 2
		if s.DenseX > 0 {
			s.NNZX *= 2
		}
	}
	if s.DenseX > 0 {
		return s, memory.Bytes(int64(s.N)*int64(s.M), s.DenseX)
	}
	return s, csrBytes(s.N, s.NNZX)
}

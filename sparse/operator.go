package sparse

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/attr"
)

// Operator is an r×c matrix known through its products with dense matrices (Dims,
// MulDense, TMulDense, Sum, SumSq), so that a method can factorise a matrix that is never
// formed (FilteredMatrix) as well as a stored one (CSR, CSROperator): attr.Operator.
type Operator = attr.Operator

// CSROperator is a stored sparse matrix as an Operator; it keeps the transpose so that
// TMulDense costs what MulDense does.
type CSROperator struct {
	a, at *CSR
}

// NewCSROperator returns a as an Operator. Cost O(r + c + nnz) for the transpose.
func NewCSROperator(a *CSR) *CSROperator { return &CSROperator{a: a, at: a.T()} }

// CSR returns the stored matrix.
func (o *CSROperator) CSR() *CSR { return o.a }

// Dims returns a's dimensions.
func (o *CSROperator) Dims() (r, c int) { return o.a.Dims() }

// MulDense sets dst = a·b (package function MulDense). Cost O(nnz·k).
func (o *CSROperator) MulDense(dst, b *mat.Dense) { MulDense(dst, o.a, b) }

// TMulDense sets dst = aᵀ·b. Cost O(nnz·k).
func (o *CSROperator) TMulDense(dst, b *mat.Dense) { MulDense(dst, o.at, b) }

// Sum returns the sum of a's stored values. Cost O(nnz).
func (o *CSROperator) Sum() float64 { return o.a.Sum() }

// SumSq returns the sum of squares of a's stored values. Cost O(nnz).
func (o *CSROperator) SumSq() float64 { return o.a.SumSq() }

// FilteredMatrix is Z = R·F·X for a LowPassFilter F (n×n), a sparse X (n×m) and a
// diagonal row scaling R, known only through its products: Z·B = R(F(X·B)) and
// Zᵀ·B = Xᵀ(F(R·B)) (F is symmetric). F·X fills in with p-hop neighbourhoods' attributes
// (on Cora at p = 8, 90 % of its n×m entries are non-zero); a product with Z costs
// O((nnz(X) + p·(nnz(Â) + n))·k) instead of O(n·m·k), and nothing n×m is stored.
type FilteredMatrix struct {
	f      *LowPassFilter
	x, xt  *CSR
	scale  []float64 // diagonal of R; nil for the identity
	normSq []float64 // squared row norms of Z
	sum    float64
	nnz    int    // non-zero entries of F·X
	neg    [2]int // row and column of the first negative or NaN entry of F·X, or −1
}

// filterBlock is the number of columns of X filtered at a time when computing row norms.
const filterBlock = 64

// NewFilteredMatrix returns Z = F·X, or, with unitRows, Z = R·F·X with R scaling every
// non-zero row of F·X to unit Euclidean length (zero rows stay zero). It computes the row
// norms of F·X by filtering X's columns in blocks of 64: cost O(p·(nnz(Â) + n)·m +
// nnz(X)), memory O(n·64).
func NewFilteredMatrix(f *LowPassFilter, x *CSR, unitRows bool) *FilteredMatrix {
	z, _ := NewFilteredMatrixContext(context.Background(), f, x, unitRows) // live: no error
	return z
}

// NewFilteredMatrixContext is NewFilteredMatrix that returns ctx's error, checked before
// every filter power of every block of columns, when ctx is cancelled.
func NewFilteredMatrixContext(ctx context.Context, f *LowPassFilter, x *CSR, unitRows bool) (*FilteredMatrix, error) {
	n, m := x.Dims()
	mustDims("x", n, m, f.norm.r, m)
	z := &FilteredMatrix{f: f, x: x, xt: x.T(), normSq: make([]float64, n), neg: [2]int{-1, -1}}
	block := mat.NewDense(n, min(filterBlock, max(m, 1)), nil)
	for j0 := 0; j0 < m; j0 += filterBlock {
		w := min(filterBlock, m-j0)
		b := block.Slice(0, n, 0, w).(*mat.Dense)
		b.Zero()
		for j := j0; j < j0+w; j++ {
			rows, vals := z.xt.Row(j)
			for k, i := range rows {
				b.Set(i, j-j0, vals[k])
			}
		}
		if err := f.ApplyDenseContext(ctx, b, b); err != nil {
			return nil, err
		}
		for i := 0; i < n; i++ {
			for j, v := range b.RawRowView(i)[:w] {
				z.normSq[i] += v * v
				if v != 0 {
					z.nnz++
				}
				if !(v >= 0) && (z.neg[0] < 0 || i < z.neg[0]) {
					z.neg = [2]int{i, j0 + j}
				}
			}
		}
	}
	if unitRows {
		z.scale = make([]float64, n)
		for i, s := range z.normSq {
			if s > 0 {
				z.scale[i] = 1 / math.Sqrt(s)
				z.normSq[i] = 1
			}
		}
	}
	// Sum(Z) = 1ᵀR·F·X·1 = (F·R·1)ᵀ(X·1).
	ones := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		ones.Set(i, 0, 1)
		if z.scale != nil {
			ones.Set(i, 0, z.scale[i])
		}
	}
	if err := f.ApplyDenseContext(ctx, ones, ones); err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		_, vals := x.Row(i)
		var rs float64
		for _, v := range vals {
			rs += v
		}
		z.sum += ones.At(i, 0) * rs
	}
	return z, nil
}

// ImplicitCost returns the cost, in multiply-adds per column of B, of one product Z·B by
// the implicit form: nnz(X) + p·(nnz(Â) + n). A stored Z costs at most n·m.
func (z *FilteredMatrix) ImplicitCost() int {
	n, _ := z.x.Dims()
	return z.x.NNZ() + z.f.p*(z.f.norm.NNZ()+n)
}

// Dims returns n, m.
func (z *FilteredMatrix) Dims() (r, c int) { return z.x.Dims() }

// MulDense sets dst = R·F·(X·b). Cost O((nnz(X) + p·(nnz(Â) + n))·k) and an n×k
// temporary (the filter's). A FilteredMatrix holds no buffers, so that goroutines can
// share it.
func (z *FilteredMatrix) MulDense(dst, b *mat.Dense) {
	MulDense(dst, z.x, b)
	z.f.ApplyDense(dst, dst)
	if z.scale != nil {
		scaleRows(dst, z.scale)
	}
}

// TMulDense sets dst = Xᵀ·(F·(R·b)). Cost O((nnz(X) + p·(nnz(Â) + n))·k) and two n×k
// temporaries, from a pool.
func (z *FilteredMatrix) TMulDense(dst, b *mat.Dense) {
	r, c := b.Dims()
	if r == 0 || c == 0 {
		return
	}
	buf := getScratch(r * c)
	defer putScratch(buf)
	t := mat.NewDense(r, c, (*buf)[:r*c])
	t.Copy(b)
	if z.scale != nil {
		scaleRows(t, z.scale)
	}
	z.f.ApplyDense(t, t)
	MulDense(dst, z.xt, t)
}

// Sum returns the sum of Z's entries (computed once).
func (z *FilteredMatrix) Sum() float64 { return z.sum }

// SumSq returns ‖Z‖²_F (computed once).
func (z *FilteredMatrix) SumSq() float64 {
	var s float64
	for _, v := range z.normSq {
		s += v
	}
	return s
}

// NNZ returns the number of non-zero entries of F·X, counted once as the row norms were
// computed (R scales a row by a positive factor). Cost O(1).
func (z *FilteredMatrix) NNZ() int { return z.nnz }

// FirstNegative returns the row and column of the first negative or NaN entry of Z in
// row-major order, found once as the row norms were computed. Cost O(1).
func (z *FilteredMatrix) FirstNegative() (i, j int, ok bool) {
	if z.neg[0] < 0 {
		return 0, 0, false
	}
	return z.neg[0], z.neg[1], true
}

// RowTo sets dst (length at least m) to row i of Z, R·Xᵀ·(F·eᵢ) (F is symmetric), and
// returns dst[:m]. Cost O(p·(nnz(Â) + n) + nnz(X)) and two n-vectors; the entries equal
// those of MulDense's products up to rounding.
func (z *FilteredMatrix) RowTo(dst []float64, i int) []float64 {
	n, m := z.x.Dims()
	dst = dst[:m]
	if m == 0 {
		return dst
	}
	e := mat.NewDense(n, 1, nil)
	e.Set(i, 0, 1)
	z.f.ApplyDense(e, e)
	MulDense(mat.NewDense(m, 1, dst), z.xt, e)
	if z.scale != nil {
		for j := range dst {
			dst[j] *= z.scale[i]
		}
	}
	return dst
}

// RowNormsSq returns the squared Euclidean norms of Z's rows (a new slice).
func (z *FilteredMatrix) RowNormsSq() []float64 { return append([]float64(nil), z.normSq...) }

// CSR returns Z as a stored sparse matrix (F·X by sparse–sparse products, then R). It
// fills in: use it only where the rows themselves are needed (k-means on Z). Cost
// O(p·flops) and memory O(nnz(Z)).
func (z *FilteredMatrix) CSR() *CSR {
	c, _ := z.CSRContext(context.Background()) // a live context: no error
	return c
}

// CSRContext is CSR that returns ctx's error, checked as in LowPassFilter.ApplyCSRContext,
// when ctx is cancelled.
func (z *FilteredMatrix) CSRContext(ctx context.Context) (*CSR, error) {
	fx, err := z.f.ApplyCSRContext(ctx, z.x)
	if err != nil || z.scale == nil {
		return fx, err
	}
	return fx.ScaleRows(z.scale), nil
}

func scaleRows(d *mat.Dense, s []float64) {
	r, c := d.Dims()
	raw := d.RawMatrix()
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		for j := range row {
			row[j] *= s[i]
		}
	}
}

// Package algorithms holds the clustering methods of the NAGC paper, its baselines and
// the methods it discusses, behind one interface.
//
// A method takes the graph's matrices, the number of clusters, its own options and a
// seed, and returns labels plus what it recorded. Methods know nothing of sweeps, flags
// or plots.
//
// Every method works on sparse matrices (package sparse) and forms no n×n dense matrix,
// except SA-Cluster and Inc-Cluster, whose random-walk distance is one (checked against
// the memory budget before it is allocated); each method's doc comment states its
// objective, update rule, cost per iteration and every default it assumes.
package algorithms

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// Input is what a method sees of an attributed graph.
type Input struct {
	// Adj is the n×n symmetric 0/1 adjacency (self-loops on the diagonal where the data
	// has them).
	Adj *sparse.CSR
	// X is the n×m non-negative attribute matrix: a sparse.CSR or a dense.Matrix as
	// read, or, for an input made by WithFilteredAttributes, the filtered matrix. Methods
	// that factorise attributes read it through its products (Attributes); those that
	// need rows read them through ExplicitAttributes (a CSR) or DenseAttributes.
	X attr.Matrix
	// Truth holds the true class of each vertex. Methods ignore it, except options that
	// are documented as reading the labels (NAGC's kmeans-median-ari initialisation).
	Truth []int
	// Cache, when set, memoises label-free initialisations across fits of this graph
	// (see Cache). Results are identical with and without it.
	Cache *Cache
	// NoObjective tells iterative methods that the caller reads the labels only: NAGC then
	// skips evaluating its objective after each iteration (Result.Objective stays empty).
	// The factors and labels are the same either way. The runner sets it for held-out fits.
	NoObjective bool

	// xKey names the attribute matrix in cache keys when X is not the graph's own (for
	// example graph-filtered attributes); empty for the original X.
	xKey string
	// filtered tells that X is graph-filtered (WithFilteredAttributes); explicit then
	// forms the filtered matrix of sparse attributes as a CSR, when rows are needed.
	filtered bool
	explicit func(context.Context) (*sparse.CSR, error)
}

// rows returns X in the form whose rows a method reads: a CSR, or a dense matrix
// read as dense rows (a dense.Matrix in CSR order stands for sparse attributes, whose
// rows are its CSR's: ExplicitAttributes), or neither. It is the one place that asks X
// for its type.
func (in Input) rows() (*sparse.CSR, *dense.Matrix) {
	switch x := in.X.(type) {
	case *sparse.CSR:
		return x, nil
	case *dense.Matrix:
		if !x.CSROrder() {
			return nil, x
		}
	}
	return nil, nil
}

// Attributes returns the attribute matrix to factorise as an Operator: X.
func (in Input) Attributes() sparse.Operator { return in.X }

// DenseAttributes returns the attribute matrix to factorise when it is dense: X as read,
// or for an input made by WithFilteredAttributes from a dense X, the dense filtered
// matrix. It returns nil when the attributes are sparse.
func (in Input) DenseAttributes() *dense.Matrix {
	_, d := in.rows()
	return d
}

// errDenseRows is ExplicitAttributes' refusal of dense attributes.
var errDenseRows = errors.New("the attributes are dense and this method works on sparse attribute rows only; " +
	"use kmeans, sgc-kmeans, nagc, nmf, metis or snmf, or give the attributes as a sparse matrix (attr_data/attr_indices/attr_indptr in .npz, a sparse feature file)")

// attrDims returns the dimensions of the attribute matrix (0, 0 when there is none).
func (in Input) attrDims() (n, m int) {
	if in.X == nil {
		return 0, 0
	}
	return in.X.Dims()
}

// ExplicitAttributes returns the attribute matrix to factorise as a stored matrix: X, or
// for an input made by WithFilteredAttributes the filtered matrix formed once per
// in.Cache (it fills in; see sparse.FilteredMatrix.CSR).
// Dense attributes have no stored sparse form: it returns an error naming the methods
// that read dense ones (see DenseAttributes).
func (in Input) ExplicitAttributes() (*sparse.CSR, error) {
	return in.ExplicitAttributesContext(context.Background())
}

// ExplicitAttributesContext is ExplicitAttributes that returns ctx's error when ctx is
// cancelled while the filtered matrix is formed.
func (in Input) ExplicitAttributesContext(ctx context.Context) (*sparse.CSR, error) {
	if in.explicit != nil {
		return in.explicit(ctx)
	}
	x, d := in.rows()
	if d != nil {
		return nil, errDenseRows
	}
	return x, nil
}

// WithFilteredAttributes returns a copy of in whose attributes are the graph-filtered
// attributes of o, so that a method factorises them instead of X: X becomes the filtered
// matrix (FilteredOperator) and ExplicitAttributes returns its stored form
// (FilteredAttributes). For o.P = 0 it returns in unchanged. Cached initialisations are
// kept apart from those of the original X.
func (in Input) WithFilteredAttributes(o GraphFilterOptions) (Input, error) {
	return in.WithFilteredAttributesContext(context.Background(), o)
}

// WithFilteredAttributesContext is WithFilteredAttributes that returns ctx's error when
// ctx is cancelled while the filtered operator is built.
func (in Input) WithFilteredAttributesContext(ctx context.Context, o GraphFilterOptions) (Input, error) {
	if o.P == 0 {
		return in, nil
	}
	z, err := FilteredOperatorContext(ctx, in, o)
	if err != nil {
		return in, err
	}
	orig := in
	in.X, in.xKey, in.filtered = z, in.xKey+o.key(), true
	if in.DenseAttributes() == nil {
		in.explicit = func(ctx context.Context) (*sparse.CSR, error) { return FilteredAttributesContext(ctx, orig, o) }
	}
	return in, nil
}

// attributeCache returns the cache of the values that read in's attributes alone: the
// shared one of a cache made by Cache.SharingAttributes, unless X is graph-filtered (X
// then reads the adjacency, which the inputs sharing the attributes do not share).
func (in Input) attributeCache() *Cache {
	if in.filtered {
		return in.Cache
	}
	return in.Cache.attributes()
}

// N returns the number of vertices.
func (in Input) N() int {
	if in.Adj != nil {
		r, _ := in.Adj.Dims()
		return r
	}
	r, _ := in.attrDims()
	return r
}

// validate checks the shapes that every method relies on.
func (in Input) validate(needAdj, needX bool, k int) error {
	if needAdj && in.Adj == nil {
		return errors.New("input has no adjacency matrix")
	}
	if needX && in.X == nil {
		return errors.New("input has no attribute matrix")
	}
	n := in.N()
	if in.Adj != nil {
		if r, c := in.Adj.Dims(); r != c {
			return fmt.Errorf("adjacency is %d×%d, not square", r, c)
		}
	}
	if in.X != nil && in.Adj != nil {
		if r, _ := in.attrDims(); r != n {
			return fmt.Errorf("attributes have %d rows for %d vertices", r, n)
		}
	}
	if needX {
		if _, m := in.attrDims(); m == 0 {
			return errors.New("the graph has no attributes")
		}
	}
	if k < 1 || k > n {
		return fmt.Errorf("k = %d clusters for %d vertices: the number of clusters must be from 1 to the number of vertices", k, n)
	}
	return nil
}

// Result is what a fit returns.
type Result struct {
	Labels     []int     // cluster of each vertex, in [0, k)
	Iterations int       // iterations (or sweeps) run
	Objective  []float64 // objective after each iteration, where the method has one
	// FitTime is the wall time of the fit. Methods that set InitTime (NAGC) count the
	// iterations alone here, and the initialisation in InitTime; the others include
	// their initialisation in FitTime and leave InitTime 0.
	FitTime time.Duration
	// InitTime is the wall time spent before the first iteration (validation, initial
	// factors, solver set-up), where the method times it apart from FitTime.
	InitTime time.Duration
	// InitCached reports that the initial factors came from Input.Cache, computed by an
	// earlier fit (whose InitTime paid for them).
	InitCached bool
	// BatchSize is the number of fits advanced together in lockstep with this one (see
	// BatchFitter); 0 or 1 for a fit on its own. FitTime of a batched fit is the batch's
	// iteration time divided by BatchSize.
	BatchSize int
	// PrefixOf, when not 0, is the iteration count of the longer fit this result was read
	// off after its Iterations: a fit of the same options and input that differed only in
	// its number of iterations (see NAGC.FitBatch). FitTime is then the time up to this
	// result's last iteration; everything else is what a fit of Iterations gives.
	PrefixOf int
	// Factors holds the learnt matrices by name (NAGC: "U", "V", "H"), where the method
	// has them.
	Factors map[string]*mat.Dense
	// Flags holds per-vertex masks a method reports beside its clusters, by name (PAICAN:
	// FlagEdgeAnomalous, FlagAttributeAnomalous), each of length n; nil for methods that
	// flag nothing. The runner records them and scores the clustering a second time over
	// the vertices that no mask flags.
	Flags map[string][]bool
	// Info describes the variant that ran (solver, initialisation, …) for the record.
	Info map[string]string
}

// Method is a clustering method with its options fixed.
type Method interface {
	// Name returns the method's registry name, such as "nagc".
	Name() string
	// Fit clusters the graph into k clusters. Every random draw comes from seed, so the
	// same input, options and seed give the same result. Fit stops early with ctx's error
	// when ctx is cancelled.
	Fit(ctx context.Context, in Input, k int, seed uint64) (*Result, error)
}

// newRand returns the generator a method draws from for seed.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// uniformDense returns an r×c matrix of uniform [0, 1) draws, row by row.
func uniformDense(r, c int, rng *rand.Rand) *mat.Dense {
	d := mat.NewDense(r, c, nil)
	raw := d.RawMatrix().Data
	for i := range raw {
		raw[i] = rng.Float64()
	}
	return d
}

// ArgmaxRows returns, for each row of u, the index of its largest entry (the first one on
// ties, as numpy's argmax). Cost O(n·k).
func ArgmaxRows(u *mat.Dense) []int {
	n, _ := u.Dims()
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		row := u.RawRowView(i)
		best := 0
		for j, v := range row {
			if v > row[best] {
				best = j
			}
		}
		labels[i] = best
	}
	return labels
}

// eps is float64 machine epsilon (numpy's np.finfo(float).eps).
const eps = 2.220446049250313e-16

// allFinite reports whether d has no NaN or Inf entry.
func allFinite(d *mat.Dense) bool {
	for _, v := range d.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// multiplicativeStep sets x ← x ⊙ num ⊘ den entry-wise, then NaN → ε.
func multiplicativeStep(x, num, den *mat.Dense) {
	xr, nr, dr := x.RawMatrix(), num.RawMatrix(), den.RawMatrix()
	r, c := x.Dims()
	if xr.Stride == c && nr.Stride == c && dr.Stride == c {
		r, c = 1, r*c // contiguous: one pass
	}
	for i := 0; i < r; i++ {
		dense.RatioUpdate(xr.Data[i*xr.Stride:i*xr.Stride+c], nr.Data[i*nr.Stride:i*nr.Stride+c], dr.Data[i*dr.Stride:i*dr.Stride+c], eps)
	}
}

// maxPrealloc caps the capacity preallocated for per-iteration records, so that an absurd
// iteration count fails by running long (and can be cancelled), not by allocating.
const maxPrealloc = 1 << 12

// iterate runs step then objective t times, checking ctx before each step, and returns
// the objective after every iteration: the loop every fixed-iteration method shares.
func iterate(ctx context.Context, t int, step func(), objective func() float64) ([]float64, error) {
	obj := make([]float64, 0, min(t, maxPrealloc))
	for it := 0; it < t; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		step()
		obj = append(obj, objective())
	}
	return obj, nil
}

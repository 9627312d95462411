package algorithms

import (
	"context"
	"fmt"
	"time"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
	"github.com/nagc-harness/nagc/dense"
)

// KMeans clusters vertices by their attributes alone with k-means (package kmeans):
// minimise Σᵢ ‖xᵢ − c_{z(i)}‖² by Lloyd's iterations from greedy k-means++ seeds, keeping
// the best of NInit starts by inertia. Defaults, as scikit-learn's KMeans of the paper's
// time: NInit 10, MaxIter 300, Tol 1e-4 (relative to the mean column variance), no
// scaling. ScaleColumns divides every attribute column by its maximum first, as the
// authors' NAGC initialisation does. Sparse attributes holding at least DenseRowsDensity
// of their entries are clustered as dense float64 rows (kmeans.FitDense), memory
// permitting; Result.Info's "rows" says which. Precision fast clusters float32 rows with
// fused products (fastRows; Result.Info's "precision"). Cost per Lloyd iteration
// O(nnz(X)·k + m·k). Result.Objective holds the kept start's final inertia.
type KMeans struct {
	NInit        int     `yaml:"n_init"`
	MaxIter      int     `yaml:"max_iter"`
	Tol          float64 `yaml:"tol"`
	ScaleColumns bool    `yaml:"scale_columns"`
	// Precision is PrecisionDefault ("" too: float64) or PrecisionFast (float32 rows,
	// fused distance products: fastRows).
	Precision string `yaml:"precision"`
	// AttributeTransform is the option transform: what is done to the attributes before
	// the fit (see Transforms); none, the default, reads them as they are.
	AttributeTransform `yaml:",inline"`
}

// Name returns "kmeans".
func (KMeans) Name() string { return "kmeans" }

// Fit clusters the rows of in.X, sparse or dense, into k clusters.
func (a KMeans) Fit(ctx context.Context, in Input, k int, seed uint64) (*Result, error) {
	start := time.Now()
	in, err := a.transformed(ctx, "kmeans", in)
	if err != nil {
		return nil, err
	}
	if err := in.validate(false, true, k); err != nil {
		return nil, fmt.Errorf("kmeans: %w", err)
	}
	x, d := in.rows()
	p := points{csr: x, dense: d}
	if a.ScaleColumns {
		if p.dense != nil {
			if p.dense, err = columnMaxNormalisedDense(p.dense); err != nil {
				return nil, fmt.Errorf("kmeans: %w", err)
			}
		} else {
			p.csr = p.csr.ColumnMaxNormalised()
		}
	}
	rows := "dense"
	fast := a.Precision == PrecisionFast
	switch {
	case fast:
		p, rows = fastRows(p, k)
	case p.csr != nil:
		var d *dense.Matrix
		if d, rows = denseRows(p.csr, k); d != nil {
			p = points{dense: d}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res, err := fitPoints(ctx, p, kmeans.Config{K: k, NInit: a.NInit, MaxIter: a.MaxIter, Tol: a.Tol, FMA: fast}, newRand(seed))
	if err != nil {
		return nil, err
	}
	info := map[string]string{"scale_columns": fmt.Sprint(a.ScaleColumns), "rows": rows}
	if fast {
		info["precision"] = fastKMeansInfo(p)
	}
	return &Result{
		Labels:     res.Labels,
		Iterations: res.Iterations,
		Objective:  []float64{res.Inertia},
		FitTime:    time.Since(start),
		Info:       info,
	}, nil
}

package algorithms

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/sparse"
)

// withDenseX returns in with its sparse X replaced by the same values stored dense.
func withDenseX(in Input, f32 bool) Input {
	n, m := in.X.Dims()
	d64 := make([]float64, n*m)
	d32 := make([]float32, n*m)
	for i := 0; i < n; i++ {
		cols, vals := attrtest.Sparse(in.X).Row(i)
		for k, j := range cols {
			d64[i*m+j], d32[i*m+j] = vals[k], float32(vals[k])
		}
	}
	in.X = nil
	if f32 {
		in.X = dense.NewMatrix32(n, m, d32)
	} else {
		in.X = dense.NewMatrix64(n, m, d64)
	}
	return in
}

func TestMethodsRunOnDenseAttributes(t *testing.T) {
	sparseIn, truth := plantedGraph(7, 120, 24, 3, 0.15, 0.01, 0.6, 0.05)
	for _, f32 := range []bool{false, true} {
		in := withDenseX(sparseIn, f32)
		for _, tc := range []struct {
			method string
			params map[string]any
			minARI float64
		}{
			{"kmeans", nil, 0.5},
			{"kmeans", map[string]any{"scale_columns": true}, 0.5},
			{"sgc-kmeans", nil, 0.8},
			{"sgc-kmeans", map[string]any{"rank": 0}, 0.8},
			{"nagc", map[string]any{"k2": 3, "iterations": 20}, 0.5},
			{"nagc", map[string]any{"k2": 3, "iterations": 20, "init": "sgc"}, 0.5},
			{"nmf", nil, 0.3},
			{"nmf", map[string]any{"p": 2}, 0.3},
			{"metis", nil, 0.5},
			{"snmf", nil, 0.3},
		} {
			t.Run(fmt.Sprintf("%s%v/f32=%v", tc.method, tc.params, f32), func(t *testing.T) {
				if tc.method == "metis" {
					requireGPMetis(t)
				}
				m, err := New(tc.method, tc.params)
				if err != nil {
					t.Fatal(err)
				}
				in.Cache = NewCache()
				res, err := m.Fit(context.Background(), in, 3, 1)
				if err != nil {
					t.Fatal(err)
				}
				ari, err := metrics.ARI(truth, res.Labels)
				if err != nil {
					t.Fatal(err)
				}
				if ari < tc.minARI {
					t.Errorf("ARI %.3f < %.2f", ari, tc.minARI)
				}
			})
		}
		for _, name := range []string{"jwnmf", "bagc"} {
			m, err := New(name, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Fit(context.Background(), in, 3, 1); !errors.Is(err, errDenseRows) {
				t.Errorf("%s on dense attributes: error %v, want the dense-rows refusal", name, err)
			}
		}
	}
}

// A dense X in float64 gives the products of the same X stored sparse, to rounding: the
// filtered attributes, NMF's objective and NAGC's random-start objective.
func TestDenseAttributesMatchSparse(t *testing.T) {
	sparseIn, _ := plantedGraph(11, 90, 18, 3, 0.2, 0.02, 0.6, 0.05)
	denseIn := withDenseX(sparseIn, false)
	for _, o := range []GraphFilterOptions{{P: 2}, {P: 3, NormAfter: true}, {P: 1, Norm: NormNone}} {
		zs, err := FilteredAttributes(sparseIn, o)
		if err != nil {
			t.Fatal(err)
		}
		zd, err := FilteredOperator(denseIn, o)
		if err != nil {
			t.Fatal(err)
		}
		d := zd.(*dense.Matrix)
		n, m := d.Dims()
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				if diff := math.Abs(d.At(i, j) - zs.At(i, j)); diff > 1e-12 {
					t.Fatalf("%+v: filtered (%d, %d) = %v dense, %v sparse", o, i, j, d.At(i, j), zs.At(i, j))
				}
			}
		}
	}
	for _, tc := range []struct {
		method string
		params map[string]any
	}{
		{"nmf", nil},
		{"nagc", map[string]any{"k2": 3, "iterations": 10, "init": "random"}},
	} {
		rs, rd := fitBoth(t, tc.method, tc.params, sparseIn, denseIn)
		if len(rs.Objective) == 0 || len(rs.Objective) != len(rd.Objective) {
			t.Fatalf("%s: %d objective values sparse, %d dense", tc.method, len(rs.Objective), len(rd.Objective))
		}
		for i := range rs.Objective {
			if d := math.Abs(rs.Objective[i] - rd.Objective[i]); d > 1e-9*math.Max(1, math.Abs(rs.Objective[i])) {
				t.Errorf("%s: objective %d = %v dense, %v sparse", tc.method, i, rd.Objective[i], rs.Objective[i])
			}
		}
	}
}

func TestDenseAttributesNegativeRefused(t *testing.T) {
	in, _ := plantedGraph(3, 30, 6, 2, 0.3, 0.05, 0.6, 0.1)
	in = withDenseX(in, true)
	in.DenseAttributes().Float32()[7] = -1
	for _, name := range []string{"nmf", "nagc"} {
		m, _ := New(name, nil)
		_, err := m.Fit(context.Background(), in, 2, 1)
		if err == nil || !strings.Contains(err.Error(), "row 1 (column 1); need finite, non-negative values (signed attributes, such as embeddings: give the option transform: split, shift or minmax (split keeps both signs, in 2m columns); or cluster them with kmeans or sgc-kmeans)") {
			t.Errorf("%s with a negative dense attribute: %v, want a refusal naming the entry and the methods that take it", name, err)
		}
	}
}

// TestFilteredDenseScalesRowsAsRowNormalized checks that filtering a dense X with its
// rows scaled as they are read gives the bits of filtering its row-normalised copy (the
// copy the filter no longer stores), for float32 and float64 storage, a zero row
// included.
func TestFilteredDenseScalesRowsAsRowNormalized(t *testing.T) {
	in, _ := plantedGraph(12, 120, 20, 3, 0.2, 0.02, 0.6, 0.05)
	for _, f32 := range []bool{true, false} {
		x := withDenseX(in, f32).DenseAttributes()
		if x.Is32() {
			clear(x.Float32()[:20])
		} else {
			clear(x.Float64()[:20])
		}
		f, err := sparse.NewLowPassFilter(in.Adj, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		want, err := filteredDense(context.Background(), f, nil, x.RowNormalized(), nil, false)
		if err != nil {
			t.Fatal(err)
		}
		got, err := filteredDense(context.Background(), f, nil, x, unitRowScales(x), false)
		if err != nil {
			t.Fatal(err)
		}
		n, m := x.Dims()
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
					t.Fatalf("float32 %v: (%d, %d) = %v, want %v (same bits)", f32, i, j, got.At(i, j), want.At(i, j))
				}
			}
		}
	}
}

// TestNeedsNonNegativeAttributes checks the predicate against the fits themselves: a
// method it names refuses a dense attribute matrix holding a negative value, and every
// other method that reads dense attributes clusters it.
func TestNeedsNonNegativeAttributes(t *testing.T) {
	in, _ := plantedGraph(3, 30, 6, 2, 0.3, 0.05, 0.6, 0.1)
	in = withDenseX(in, true)
	in.DenseAttributes().Float32()[7] = -1
	for _, name := range []string{"nagc", "nmf", "kmeans", "sgc-kmeans", "snmf"} {
		m, err := New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.Fit(context.Background(), in, 2, 1)
		if refused := err != nil && strings.Contains(err.Error(), "need finite, non-negative values"); refused != NeedsNonNegativeAttributes(m) {
			t.Errorf("%s: NeedsNonNegativeAttributes %v, but its fit gives %v", name, NeedsNonNegativeAttributes(m), err)
		}
	}
}

// TestDenseAndCSRCopiesSameLabels checks that the same values stored dense (float64) and
// as a CSR give the same labels for the methods and settings where they did before one
// attribute type held both: k-means on rows dense enough to be clustered as dense rows,
// and the fits that read the attributes through products only.
func TestDenseAndCSRCopiesSameLabels(t *testing.T) {
	sparseIn, _ := plantedGraph(13, 120, 12, 3, 0.15, 0.01, 0.9, 0.45)
	if d := float64(attrtest.Sparse(sparseIn.X).NNZ()) / (120 * 12); d < DenseRowsDensity {
		t.Fatalf("planted attributes of density %.2f: need ≥ %.1f for k-means on dense rows", d, DenseRowsDensity)
	}
	denseIn := withDenseX(sparseIn, false)
	for _, tc := range []struct {
		method string
		params map[string]any
	}{
		{"kmeans", nil},
		{"nagc", map[string]any{"k2": 3, "iterations": 15, "init": "random"}},
		{"nmf", map[string]any{"init": "random"}},
		{"snmf", nil},
	} {
		t.Run(tc.method, func(t *testing.T) {
			rs, rd := fitBoth(t, tc.method, tc.params, sparseIn, denseIn)
			if !slices.Equal(rs.Labels, rd.Labels) {
				t.Errorf("labels differ: CSR %v, dense %v", rs.Labels, rd.Labels)
			}
		})
	}
}

// fitBoth fits method with params into 3 clusters with seed 5 on a and on b.
func fitBoth(t *testing.T, method string, params map[string]any, a, b Input) (ra, rb *Result) {
	t.Helper()
	m, err := New(method, params)
	if err != nil {
		t.Fatal(err)
	}
	if ra, err = m.Fit(context.Background(), a, 3, 5); err != nil {
		t.Fatal(err)
	}
	if rb, err = m.Fit(context.Background(), b, 3, 5); err != nil {
		t.Fatal(err)
	}
	return ra, rb
}

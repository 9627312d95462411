package algorithms

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// signedSmall is a 3×4 signed matrix with a column holding an unstored zero and a
// negative minimum (1), one with a zero minimum (2) and a constant one (3).
var signedSmall = [][]float64{
	{1, -2, 0, 5},
	{-1, 0, 3, 5},
	{2, 4, 3, 5},
}

// denseOf returns rows as a float64 (or float32) dense matrix.
func denseOf(rows [][]float64, f32 bool) *dense.Matrix {
	n, m := len(rows), len(rows[0])
	d64, d32 := make([]float64, 0, n*m), make([]float32, 0, n*m)
	for _, r := range rows {
		d64 = append(d64, r...)
		for _, v := range r {
			d32 = append(d32, float32(v))
		}
	}
	if f32 {
		return dense.NewMatrix32(n, m, d32)
	}
	return dense.NewMatrix64(n, m, d64)
}

// csrOf returns rows as a CSR storing their non-zero entries.
func csrOf(t *testing.T, rows [][]float64) *sparse.CSR {
	t.Helper()
	b := sparse.NewBuilder(len(rows), len(rows[0]))
	for i, r := range rows {
		for j, v := range r {
			if v != 0 {
				if err := b.Add(i, j, v); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return b.CSR(sparse.SumDuplicates)
}

// entries returns every entry of a dense matrix or CSR, row by row.
func entries(x interface {
	Dims() (int, int)
	At(i, j int) float64
}) [][]float64 {
	n, m := x.Dims()
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, m)
		for j := range out[i] {
			out[i][j] = x.At(i, j)
		}
	}
	return out
}

func TestTransformsHandComputed(t *testing.T) {
	s1, s2, s3 := math.Sqrt(30), math.Sqrt(35), math.Sqrt(54) // the rows' norms
	for _, tc := range []struct {
		transform string
		want      [][]float64
	}{
		{TransformNone, signedSmall},
		{TransformSplit, [][]float64{
			{1, 0, 0, 5, 0, 2, 0, 0},
			{0, 0, 3, 5, 1, 0, 0, 0},
			{2, 4, 3, 5, 0, 0, 0, 0},
		}},
		// Column minima −1, −2, 0, 5.
		{TransformShift, [][]float64{
			{2, 0, 0, 0},
			{0, 2, 3, 0},
			{3, 6, 3, 0},
		}},
		// Ranges 3, 6, 3 and a constant column.
		{TransformMinMax, [][]float64{
			{2.0 / 3, 0, 0, 0},
			{0, 2.0 / 6, 1, 0},
			{1, 1, 1, 0},
		}},
		{TransformL2, [][]float64{
			{1 / s1, -2 / s1, 0, 5 / s1},
			{-1 / s2, 0, 3 / s2, 5 / s2},
			{2 / s3, 4 / s3, 3 / s3, 5 / s3},
		}},
	} {
		sp, err := TransformCSR(csrOf(t, signedSmall), tc.transform)
		if err != nil {
			t.Fatalf("%s sparse: %v", tc.transform, err)
		}
		d, err := TransformDense(denseOf(signedSmall, false), tc.transform)
		if err != nil {
			t.Fatalf("%s dense: %v", tc.transform, err)
		}
		got, gotDense := entries(sp), entries(d)
		if !reflect.DeepEqual(got, gotDense) {
			t.Errorf("%s: sparse %v, dense %v: want the same bits", tc.transform, got, gotDense)
		}
		for i := range tc.want {
			for j, w := range tc.want[i] {
				if math.Abs(got[i][j]-w) > 1e-15 {
					t.Errorf("%s: entry (%d, %d) = %v, want %v", tc.transform, i, j, got[i][j], w)
				}
			}
		}
		// float32 storage: the float64 result rounded once.
		d32, err := TransformDense(denseOf(signedSmall, true), tc.transform)
		if err != nil {
			t.Fatal(err)
		}
		if !d32.Is32() {
			t.Errorf("%s of float32 attributes is not float32", tc.transform)
		}
		for i, row := range entries(d32) {
			for j, v := range row {
				if v != float64(float32(got[i][j])) {
					t.Errorf("%s float32: entry (%d, %d) = %v, want %v", tc.transform, i, j, v, float32(got[i][j]))
				}
			}
		}
		// No stored zeros in the sparse result.
		for i := 0; i < 3; i++ {
			if _, vals := sp.Row(i); slices.Contains(vals, 0) {
				t.Errorf("%s: row %d stores a zero", tc.transform, i)
			}
		}
	}
}

// TestSplitOfSignedIsNonNegative checks, on a random signed matrix, that split has 2m
// non-negative columns whose difference (positive part minus negative part) is X, in
// both storages, and that NAGC and NMF then accept it.
func TestSplitOfSignedIsNonNegative(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 0))
	n, m := 40, 7
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = make([]float64, m)
		for j := range rows[i] {
			if rng.Float64() < 0.8 {
				rows[i][j] = rng.NormFloat64()
			}
		}
	}
	sp, err := TransformCSR(csrOf(t, rows), TransformSplit)
	if err != nil {
		t.Fatal(err)
	}
	d, err := TransformDense(denseOf(rows, false), TransformSplit)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []interface {
		Dims() (int, int)
		At(i, j int) float64
	}{sp, d} {
		if r, c := x.Dims(); r != n || c != 2*m {
			t.Fatalf("split is %d×%d, want %d×%d", r, c, n, 2*m)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < 2*m; j++ {
				if x.At(i, j) < 0 {
					t.Fatalf("split entry (%d, %d) = %v < 0", i, j, x.At(i, j))
				}
			}
			for j := 0; j < m; j++ {
				if got := x.At(i, j) - x.At(i, m+j); got != rows[i][j] {
					t.Fatalf("split: positive − negative part (%d, %d) = %v, want %v", i, j, got, rows[i][j])
				}
			}
		}
	}
	if _, _, neg := d.FirstNegative(); neg {
		t.Error("dense split has a negative entry")
	}
}

// TestShiftLeavesNonNegativeSparseAsIs checks that shift of sparse non-negative
// attributes (a zero in every column) is X itself: no copy.
func TestShiftLeavesNonNegativeSparseAsIs(t *testing.T) {
	in, _ := plantedGraph(2, 60, 12, 3, 0.2, 0.02, 0.6, 0.05)
	got, err := TransformCSR(attrtest.Sparse(in.X), TransformShift)
	if err != nil {
		t.Fatal(err)
	}
	if got != in.X {
		t.Error("shift of non-negative sparse attributes copied them")
	}
}

// signedInput returns a planted graph with dense attributes whose values are shifted
// down by 0.5: signed, with the planted structure kept.
func signedInput(f32 bool) (Input, []int) {
	in, truth := plantedGraph(7, 120, 24, 3, 0.15, 0.01, 0.6, 0.05)
	in = withDenseX(in, f32)
	if f32 {
		for i := range in.DenseAttributes().Float32() {
			in.DenseAttributes().Float32()[i] -= 0.5
		}
	} else {
		for i := range in.DenseAttributes().Float64() {
			in.DenseAttributes().Float64()[i] -= 0.5
		}
	}
	return in, truth
}

// TestTransformFitsAsTransformedInput checks that a fit with a transform is the fit of
// the transformed attributes given as the input, bit for bit, for every method with the
// option, with and without a cache shared with fits of the untransformed attributes (no
// cached value of one is read for the other).
func TestTransformFitsAsTransformedInput(t *testing.T) {
	signed, _ := signedInput(false)
	for _, tc := range []struct {
		method string
		params map[string]any
	}{
		{"nagc", nil},
		{"nagc", map[string]any{"p": 2, "init": "sgc"}},
		{"nmf", map[string]any{"iterations": 30}},
		{"nmf", map[string]any{"iterations": 30, "p": 2}},
		{"kmeans", nil},
		{"sgc-kmeans", map[string]any{"p": 2}},
		{"jwnmf", nil},
	} {
		for _, tr := range []string{TransformSplit, TransformShift, TransformMinMax} {
			in := signed
			if tc.method == "jwnmf" { // sparse attributes only
				in.X = csrOf(t, entries(signed.DenseAttributes()))
			}
			params := map[string]any{"transform": tr}
			for k, v := range tc.params {
				params[k] = v
			}
			m, err := New(tc.method, params)
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := New(tc.method, tc.params)
			byHand := in
			if in.DenseAttributes() != nil {
				byHand.X, err = TransformDense(in.DenseAttributes(), tr)
			} else {
				byHand.X, err = TransformCSR(attrtest.Sparse(in.X), tr)
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := plain.Fit(context.Background(), byHand, 3, 9)
			if err != nil {
				t.Fatalf("%s %v on %s by hand: %v", tc.method, tc.params, tr, err)
			}
			shared := in
			shared.Cache = NewCache()
			// The untransformed fit of the same cache first (refused by the methods that
			// need non-negative attributes, after caching nothing).
			_, _ = plain.Fit(context.Background(), shared, 3, 9)
			for _, cin := range []Input{in, shared} {
				got, err := m.Fit(context.Background(), cin, 3, 9)
				if err != nil {
					t.Fatalf("%s %v transform %s: %v", tc.method, tc.params, tr, err)
				}
				if !slices.Equal(got.Labels, want.Labels) || !slices.Equal(got.Objective, want.Objective) {
					t.Errorf("%s %v transform %s (cache %v): labels or objective differ from the fit of the transformed input",
						tc.method, tc.params, tr, cin.Cache != nil)
				}
			}
		}
	}
}

func TestTransformCachedOnce(t *testing.T) {
	in, _ := signedInput(true)
	in.Cache = NewCache()
	a, err := in.WithTransformedAttributes(TransformSplit)
	if err != nil {
		t.Fatal(err)
	}
	b, err := in.WithTransformedAttributes(TransformSplit)
	if err != nil {
		t.Fatal(err)
	}
	if a.X != b.X || a.X == in.X {
		t.Error("two transforms of one cached input are not one matrix")
	}
	if _, m := a.DenseAttributes().Dims(); m != 48 || !a.DenseAttributes().Is32() {
		t.Errorf("split of 24 float32 columns: %d columns, float32 %v", m, a.DenseAttributes().Is32())
	}
}

func TestTransformOption(t *testing.T) {
	for _, name := range []string{"nagc", "nmf", "jwnmf", "kmeans", "sgc-kmeans"} {
		keys, _ := Params(name)
		if !slices.Contains(keys, "transform") {
			t.Errorf("%s has no option transform", name)
		}
		def, _ := New(name, nil)
		for _, s := range Settings(def) {
			if s.Key == "transform" {
				t.Errorf("%s: the default's settings list transform (%v): records of rows without it would change", name, s.Value)
			}
		}
		m, err := New(name, map[string]any{"transform": "split"})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(Settings(m), Setting{Key: "transform", Value: "split"}) {
			t.Errorf("%s: settings %v lack transform split", name, Settings(m))
		}
		_, err = New(name, map[string]any{"transform": "splt"})
		if err == nil || !strings.Contains(err.Error(), `transform "splt" is not one of none, split, shift, minmax, l2 (did you mean 'split'?)`) {
			t.Errorf("%s: transform splt: %v", name, err)
		}
	}
	for _, name := range []string{"metis", "snmf", "bagc", "sa-cluster", "paican"} {
		if _, err := New(name, map[string]any{"transform": "split"}); err == nil {
			t.Errorf("%s, which reads no attribute values, took a transform", name)
		}
	}
	for _, tc := range []struct {
		params map[string]any
		want   bool
	}{{nil, true}, {map[string]any{"transform": "none"}, true}, {map[string]any{"transform": "l2"}, true},
		{map[string]any{"transform": "split"}, false}, {map[string]any{"transform": "shift"}, false}, {map[string]any{"transform": "minmax"}, false}} {
		for _, name := range []string{"nagc", "nmf"} {
			m, _ := New(name, tc.params)
			if got := NeedsNonNegativeAttributes(m); got != tc.want {
				t.Errorf("%s %v: NeedsNonNegativeAttributes = %v, want %v", name, tc.params, got, tc.want)
			}
		}
	}
}

// TestTransformMemoryEstimate checks that a fit's estimate with a transform holds the
// transformed copy and the fit of the wider matrix.
func TestTransformMemoryEstimate(t *testing.T) {
	in, _ := signedInput(false)
	plain, _ := New("nagc", nil)
	split, _ := New("nagc", map[string]any{"transform": "split"})
	a, _ := EstimateMemory(plain, in, 3)
	b, _ := EstimateMemory(split, in, 3)
	n, m := in.DenseAttributes().Dims()
	if copyBytes := uint64(n * 2 * m * 8); b < a+copyBytes {
		t.Errorf("estimate with split %d, without %d: want at least the %d bytes of the copy more", b, a, copyBytes)
	}
}

// TestTransformRefusedOverBudget checks that a transform whose copy exceeds the memory
// budget is refused before it allocates, naming what it would form.
func TestTransformRefusedOverBudget(t *testing.T) {
	in, _ := signedInput(false)
	defer memory.SetLimit(0)
	memory.SetLimit(1000) // bytes: less than any copy of the 120×24 attributes
	if _, err := TransformDense(in.DenseAttributes(), TransformSplit); !errors.Is(err, memory.ErrTooLarge) || !strings.Contains(err.Error(), "split-transformed attributes (120×48, dense)") {
		t.Errorf("dense split over the budget: %v", err)
	}
	if _, err := TransformCSR(csrOf(t, entries(in.DenseAttributes())), TransformMinMax); !errors.Is(err, memory.ErrTooLarge) {
		t.Errorf("sparse minmax over the budget: %v", err)
	}
	m, _ := New("kmeans", map[string]any{"transform": "split"})
	if _, err := m.Fit(context.Background(), in, 3, 1); !errors.Is(err, memory.ErrTooLarge) || !strings.HasPrefix(err.Error(), "kmeans: ") {
		t.Errorf("kmeans with split over the budget: %v", err)
	}
}

// TestTransformBatches checks NAGC's batches of fits with transforms: BatchKey forms no
// transformed matrix and keys fits of different transforms apart, and FitBatch gives each
// fit of a mixed batch (two transforms, several λ and iteration counts) the result of its
// own Fit, bit for bit, with the transformed attributes formed once per transform.
func TestTransformBatches(t *testing.T) {
	in, _ := signedInput(false)
	in.Cache = NewCache()
	var fits []BatchFit
	keys := map[string]string{}
	for _, tr := range []string{TransformSplit, TransformMinMax} {
		for _, lambda := range []float64{0.01, 1} {
			for _, iters := range []int{5, 12} {
				m, err := New("nagc", map[string]any{"transform": tr, "lambda": lambda, "iterations": iters})
				if err != nil {
					t.Fatal(err)
				}
				key := m.(BatchFitter).BatchKey(in, 3)
				if other, seen := keys[key]; seen && other != tr {
					t.Errorf("transforms %s and %s share the batch key %q", tr, other, key)
				}
				keys[key] = tr
				fits = append(fits, BatchFit{Method: m, In: in})
			}
		}
	}
	if n := in.Cache.Len(); n != 0 {
		t.Fatalf("BatchKey formed %d cached values", n)
	}
	res, errs := FitBatch(context.Background(), 3, 4, fits)
	shared := 0
	for i := range res {
		if errs[i] == nil && (res[i].BatchSize > 1 || res[i].PrefixOf != 0) {
			shared++
		}
	}
	if shared != len(fits) {
		t.Errorf("%d of %d fits shared a lockstep batch or were read off a longer fit", shared, len(fits))
	}
	for i, f := range fits {
		alone, err := f.Method.Fit(context.Background(), Input{Adj: in.Adj, X: in.X}, 3, 4)
		if errs[i] != nil || err != nil {
			t.Fatalf("fit %d: batch %v, alone %v", i, errs[i], err)
		}
		if !slices.Equal(res[i].Labels, alone.Labels) || !slices.Equal(res[i].Objective, alone.Objective) {
			t.Errorf("fit %d (%v): the batch's result differs from its own fit", i, Settings(f.Method))
		}
	}
	if n := in.Cache.Len(); n < 2 {
		t.Errorf("%d cached values after the batch, want the two transformed matrices at least", n)
	}
}

// BenchmarkTransformDense times the transforms of dense attributes of ogbn-arxiv's shape
// (169,343 × 128 float32, signed).
func BenchmarkTransformDense(b *testing.B) {
	n, m := 169343, 128
	rng := rand.New(rand.NewPCG(1, 0))
	data := make([]float32, n*m)
	for i := range data {
		data[i] = float32(rng.NormFloat64())
	}
	x := dense.NewMatrix32(n, m, data)
	for _, tr := range []string{TransformSplit, TransformShift, TransformMinMax, TransformL2} {
		b.Run(tr, func(b *testing.B) {
			b.SetBytes(int64(4 * n * m))
			for range b.N {
				if _, err := TransformDense(x, tr); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package algorithms

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/sparse"
)

func TestFilteredAttributesZeroIsX(t *testing.T) {
	in, _ := plantedGraph(31, 60, 12, 3, 0.2, 0.02, 0.3, 0.1)
	z, err := FilteredAttributes(in, GraphFilterOptions{})
	if err != nil || z != in.X {
		t.Fatalf("p = 0 changed X (%v)", err)
	}
	if _, err := FilteredAttributes(in, GraphFilterOptions{P: 1, Norm: "l1"}); err == nil {
		t.Error("unknown norm accepted")
	}
}

func TestSGCKMeansSmoothsNoisyAttributes(t *testing.T) {
	// Weak attributes, clear topology: filtering pools neighbours' attributes, so k-means
	// on filtered attributes beats k-means on raw attributes.
	in, truth := plantedGraph(32, 180, 60, 3, 0.15, 0.005, 0.12, 0.05)
	ari := func(m Method) float64 {
		var s float64
		for seed := uint64(1); seed <= 3; seed++ {
			res, err := m.Fit(context.Background(), in, 3, seed)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := metrics.ARI(truth, res.Labels)
			s += a
		}
		return s / 3
	}
	raw := ari(KMeans{})
	cache := NewCache()
	in.Cache = cache
	filtered := ari(SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: 4}})
	if filtered < 0.9 || filtered <= raw {
		t.Errorf("ARI raw %.3f, filtered %.3f: want filtered ≥ 0.9 and above raw", raw, filtered)
	}
	if cache.Len() != 2 { // the implicit filtered matrix and its stored form, once each
		t.Errorf("%d cache entries for one filter setting, want 2", cache.Len())
	}
}

func ExampleSGCKMeans() {
	in, truth := plantedGraph(33, 90, 30, 3, 0.2, 0.01, 0.2, 0.05)
	res, _ := SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: 2}}.Fit(context.Background(), in, 3, 1)
	ari, _ := metrics.ARI(truth, res.Labels)
	fmt.Printf("ARI %.2f\n", ari)
	// Output: ARI 0.81
}

func TestNAGCFilterZeroIsPlainNAGC(t *testing.T) {
	in, _ := plantedGraph(34, 60, 15, 3, 0.2, 0.02, 0.3, 0.1)
	plain, err := NAGC{K2: 4, Lambda: 0.1, Rho: 0.9, Iterations: 20}.Fit(context.Background(), in, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	zero, err := NAGC{K2: 4, Lambda: 0.1, Rho: 0.9, Iterations: 20, Filter: GraphFilterOptions{P: 0, Norm: NormL2, SelfLoop: 2}}.Fit(context.Background(), in, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"U", "V", "H"} {
		if !mat.Equal(plain.Factors[f], zero.Factors[f]) {
			t.Errorf("p = 0: %s differs from plain NAGC", f)
		}
	}
}

func TestNAGCFilteredFactorisesFilteredX(t *testing.T) {
	// With 15 attributes the filtered matrix is cheaper stored; with 150 NAGC works on the
	// implicit one (products R·F·(X·B)). Either way the fit equals NAGC on an input whose X
	// is the stored filtered matrix, up to rounding.
	for _, c := range []struct {
		m        int
		implicit bool
	}{{15, false}, {150, true}} {
		in, _ := plantedGraph(35, 60, c.m, 3, 0.2, 0.02, 0.3, 0.1)
		in.Cache = NewCache()
		for _, o := range []GraphFilterOptions{{P: 3}, {P: 2, NormAfter: true, SelfLoop: 2}} {
			op, err := FilteredOperator(in, o)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := op.(*sparse.FilteredMatrix); ok != c.implicit {
				t.Errorf("m = %d: filtered matrix is %T, want implicit = %v", c.m, op, c.implicit)
			}
			a := NAGC{K2: 4, Lambda: 0.1, Rho: 0.9, Iterations: 20, Filter: o}
			for _, init := range []string{InitKMeans, InitSGC} {
				a.Init, a.InitRank = init, 5
				got, err := a.Fit(context.Background(), in, 3, 3)
				if err != nil {
					t.Fatal(err)
				}
				z, err := FilteredAttributes(in, o)
				if err != nil {
					t.Fatal(err)
				}
				plain := a
				plain.Filter = GraphFilterOptions{}
				want, err := plain.Fit(context.Background(), Input{Adj: in.Adj, X: z}, 3, 3)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range []string{"U", "V", "H"} {
					if !mat.EqualApprox(got.Factors[f], want.Factors[f], 1e-9) {
						t.Errorf("m = %d, %+v, init %s: %s differs from NAGC on the stored filtered attributes", c.m, o, init, f)
					}
				}
			}
		}
	}
}

func TestSpectralEmbeddingEqualsDenseSVD(t *testing.T) {
	// With m ≤ r + 10 the randomised range finder spans all of X's row space, so the
	// embedding must equal the one from a dense SVD up to column signs: compare the
	// sign-free Gram matrices E Eᵀ.
	rng := rand.New(rand.NewPCG(41, 1))
	const n, m, r = 30, 12, 4
	b := sparse.NewBuilder(n, m)
	xd := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			if rng.Float64() < 0.6 {
				v := rng.Float64()
				_ = b.Add(i, j, v)
				xd.Set(i, j, v)
			}
		}
	}
	e := SpectralEmbedding(sparse.NewCSROperator(b.CSR(sparse.SumDuplicates)), r, rand.New(rand.NewPCG(1, 2)))
	var svd mat.SVD
	if !svd.Factorize(xd, mat.SVDThin) {
		t.Fatal("dense SVD failed")
	}
	var u mat.Dense
	svd.UTo(&u)
	sigma := svd.Values(nil)
	want := mat.NewDense(n, r, nil)
	for i := 0; i < n; i++ {
		var norm float64
		for j := 0; j < r; j++ {
			want.Set(i, j, u.At(i, j)*sigma[j])
			norm += want.At(i, j) * want.At(i, j)
		}
		for j := 0; j < r; j++ {
			want.Set(i, j, want.At(i, j)/math.Sqrt(norm))
		}
	}
	got := mat.NewDense(n, r, nil)
	for i := 0; i < n; i++ {
		cols, vals := e.Row(i)
		var norm float64
		for k, j := range cols {
			got.Set(i, j, vals[k])
			norm += vals[k] * vals[k]
		}
		if math.Abs(norm-1) > 1e-12 {
			t.Fatalf("row %d has squared norm %v, want 1", i, norm)
		}
	}
	var gg, gw mat.Dense
	gg.Mul(got, got.T())
	gw.Mul(want, want.T())
	if !mat.EqualApprox(&gg, &gw, 1e-8) {
		t.Error("embedding differs from the dense SVD's (beyond column signs)")
	}
}

func TestSGCKMeansSpectralRank(t *testing.T) {
	in, truth := plantedGraph(32, 180, 60, 3, 0.15, 0.005, 0.12, 0.05)
	in.Cache = NewCache()
	for seed := uint64(1); seed <= 3; seed++ {
		res, err := SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: 4}, Rank: 6}.Fit(context.Background(), in, 3, seed)
		if err != nil {
			t.Fatal(err)
		}
		if a, _ := metrics.ARI(truth, res.Labels); a < 0.9 {
			t.Errorf("seed %d: ARI %.3f on the rank-6 embedding, want ≥ 0.9", seed, a)
		}
	}
	// A rank above min(n, m) = 60 is capped at it.
	capped, err := SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: 4}, Rank: 61}.Fit(context.Background(), in, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	full, _ := SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: 4}, Rank: 60}.Fit(context.Background(), in, 3, 1)
	if !slices.Equal(capped.Labels, full.Labels) {
		t.Error("rank 61 > min(n, m) = 60 not capped at 60")
	}
	if _, err := (SGCKMeans{GraphFilterOptions: GraphFilterOptions{P: 1}, Rank: -1}).Fit(context.Background(), in, 3, 1); err == nil {
		t.Error("negative rank accepted")
	}
}

func TestSGCFactors(t *testing.T) {
	in, _ := plantedGraph(36, 90, 30, 3, 0.2, 0.01, 0.3, 0.05)
	in.Cache = NewCache()
	u, v, err := SGCFactors(in, 3, 5, 0, 7)
	if err != nil {
		t.Fatal(err)
	}
	// Recompute the clusterings with the same stream: U one-hot with the floor, V the
	// k2 clusters' attribute means.
	rng := rand.New(rand.NewPCG(7, streamSGCInit))
	r1, _ := kmeans.Fit(attrtest.Sparse(in.X), kmeans.Config{K: 3}, rng)
	r2, _ := kmeans.Fit(attrtest.Sparse(in.X), kmeans.Config{K: 5}, rng)
	for i, c := range r1.Labels {
		for j := 0; j < 3; j++ {
			want := sgcInitFloor
			if j == c {
				want = 1
			}
			if u.At(i, j) != want {
				t.Fatalf("U[%d,%d] = %v, want %v", i, j, u.At(i, j), want)
			}
		}
	}
	_, m := in.X.Dims()
	for c := 0; c < 5; c++ {
		var size float64
		sum := make([]float64, m)
		for i, l := range r2.Labels {
			if l == c {
				size++
				for j := 0; j < m; j++ {
					sum[j] += attrtest.Sparse(in.X).At(i, j)
				}
			}
		}
		for j := 0; j < m; j++ {
			if math.Abs(v.At(j, c)-sum[j]/size) > 1e-12 {
				t.Fatalf("V[%d,%d] = %v, want the mean %v", j, c, v.At(j, c), sum[j]/size)
			}
		}
	}
	// NAGC with this initialisation on filtered attributes gives the same factors with and
	// without the cache.
	a := NAGC{K2: 5, Lambda: 1, Rho: 0.9, Iterations: 10, Init: InitSGC, InitRank: 6, Filter: GraphFilterOptions{P: 2}}
	r, err := a.Fit(context.Background(), in, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := a.Fit(context.Background(), Input{Adj: in.Adj, X: in.X}, 3, 2)
	if !mat.Equal(r.Factors["U"], again.Factors["U"]) {
		t.Error("the cached SGC initialisation changed the result")
	}
	a.InitRank = -1
	if _, err := a.Fit(context.Background(), in, 3, 2); err == nil {
		t.Error("negative init_rank accepted")
	}
}

// checkFilterOption checks a method's graph-filter option on in: with p = 0 (and other
// filter settings) fit must give the plain method's factors bit for bit, and with p > 0
// those of the plain method on the stored filtered attributes (to 1e-9: the implicit
// products differ by rounding only), which must differ from the plain ones.
func checkFilterOption(t *testing.T, name string, in Input, factors []string, fit func(GraphFilterOptions, Input) (*Result, error)) {
	t.Helper()
	plain, err := fit(GraphFilterOptions{}, in)
	if err != nil {
		t.Fatal(err)
	}
	zero, err := fit(GraphFilterOptions{Norm: NormNone, SelfLoop: 3}, in)
	if err != nil {
		t.Fatal(err)
	}
	o := GraphFilterOptions{P: 3, NormAfter: true}
	got, err := fit(o, in)
	if err != nil {
		t.Fatal(err)
	}
	z, err := FilteredAttributes(in, o)
	if err != nil {
		t.Fatal(err)
	}
	want, err := fit(GraphFilterOptions{}, Input{Adj: in.Adj, X: z})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range factors {
		if !mat.Equal(zero.Factors[f], plain.Factors[f]) {
			t.Errorf("%s: p = 0 differs from the plain method in %s", name, f)
		}
		if !mat.EqualApprox(got.Factors[f], want.Factors[f], 1e-9) {
			t.Errorf("%s: with a filter, %s differs from the plain method on the stored filtered attributes", name, f)
		}
	}
	if mat.EqualApprox(got.Factors[factors[0]], plain.Factors[factors[0]], 1e-6) {
		t.Errorf("%s: the filter changed nothing", name)
	}
}

func TestNMFFilter(t *testing.T) {
	in, _ := plantedGraph(37, 60, 150, 3, 0.2, 0.02, 0.3, 0.1)
	in.Cache = NewCache()
	for _, c := range []NMF{{}, {Init: NMFInitNNDSVDa, Solver: NMFSolverHALS}} {
		c.Iterations = 30
		checkFilterOption(t, fmt.Sprintf("nmf %+v", c), in, []string{"W", "H"}, func(f GraphFilterOptions, in Input) (*Result, error) {
			c.Filter = f
			return c.Fit(context.Background(), in, 3, 4)
		})
	}
	if _, err := (NMF{Filter: GraphFilterOptions{P: 2}}).Fit(context.Background(), Input{X: in.X}, 3, 1); err == nil {
		t.Error("a filter without an adjacency accepted")
	}
}

func TestJWNMFFilter(t *testing.T) {
	in, _ := plantedGraph(41, 60, 150, 3, 0.2, 0.02, 0.3, 0.1)
	in.Cache = NewCache()
	for _, c := range []JWNMF{{Init: InitKMeans}, {Init: InitRandom, Damped: true}} {
		c.Iterations = 30
		checkFilterOption(t, fmt.Sprintf("jwnmf %+v", c), in, []string{"U", "V", "w"}, func(f GraphFilterOptions, in Input) (*Result, error) {
			c.Filter = f
			return c.Fit(context.Background(), in, 3, 4)
		})
	}
	if _, err := (JWNMF{Filter: GraphFilterOptions{P: -1}}).Fit(context.Background(), in, 3, 1); err == nil {
		t.Error("a negative filter order accepted")
	}
}

// TestSGCKMeansStartsAtLargeN checks the k-means starts of sgc-kmeans: n_init where
// given, else 10 below SGCLargeN vertices and 1 from there, recorded with its reason.
func TestSGCKMeansStartsAtLargeN(t *testing.T) {
	for _, c := range []struct {
		given, n, want int
		info           string
	}{
		{0, 3312, 10, "10"},
		{0, SGCLargeN - 1, 10, "10"},
		{0, SGCLargeN, 1, "1 (not given, n ≥ 1000000"},
		{5, 2_449_029, 5, "5"},
		{1, 10, 1, "1"},
	} {
		got := SGCKMeans{NInit: c.given}.nInit(c.n)
		info := nInitInfo(c.given, got)
		if got != c.want || !strings.HasPrefix(info, c.info) {
			t.Errorf("n_init %d at n = %d: %d starts, recorded %q; want %d, %q…", c.given, c.n, got, info, c.want, c.info)
		}
	}
}

package algorithms

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestCacheGivesIdenticalFits(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	adj, x := randomGraph(rng, 60, 15, 0.1, 0.3)
	truth := make([]int, 60)
	for i := range truth {
		truth[i] = i % 3
	}
	cache := NewCache()
	for _, init := range []string{InitKMeans, InitKMeansMedianARI} {
		a := NAGC{K2: 4, Lambda: 0.1, Rho: 0.8, Init: init, Iterations: 20}
		plain, err := a.Fit(context.Background(), Input{Adj: adj, X: x, Truth: truth}, 3, 5)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		results := make([]*Result, 4)
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], _ = a.Fit(context.Background(), Input{Adj: adj, X: x, Truth: truth, Cache: cache}, 3, 5)
			}()
		}
		wg.Wait()
		for _, r := range results {
			if r == nil || !mat.Equal(r.Factors["U"], plain.Factors["U"]) {
				t.Fatalf("init %s: cached fit differs from uncached", init)
			}
		}
	}
	// kmeans: two entries (the start and its k1 half); median-ari: ten more, two of which
	// may coincide with the first.
	if n := cache.Len(); n < 10 || n > 12 {
		t.Errorf("cache holds %d entries", n)
	}
}

func TestCacheNilComputesEveryTime(t *testing.T) {
	var c *Cache
	calls := 0
	for i := 0; i < 2; i++ {
		if _, err := c.Do("k", func() (any, error) { calls++; return 1, nil }); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 2 || c.Len() != 0 {
		t.Errorf("nil cache: %d calls, len %d", calls, c.Len())
	}
}

// TestNAGCKMeansStartBelowLargeN checks that NAGC's k-means start on a graph below
// SGCLargeN vertices, its starts not given, is the authors' protocol as before: the bits of
// KMeansFactors (10 starts per k-means run) on the k-means stream of the seed, for sparse
// and dense attributes; that init_n_init = 10 is the same start and init_n_init = 1 is
// one start per run; and that nothing is recorded of it.
func TestNAGCKMeansStartBelowLargeN(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	adj, x := randomGraph(rng, 80, 12, 0.1, 0.3)
	const k1, k2, seed = 3, 4, 7
	stream := func() *rand.Rand { return rand.New(rand.NewPCG(seed, streamKMeansInit)) }
	wantU, wantV, _, err := KMeansFactors(x, k1, k2, stream())
	if err != nil {
		t.Fatal(err)
	}
	oneU, oneV, _, err := kmeansFactorsSparse(context.Background(), x, k1, k2, 1, stream())
	if err != nil {
		t.Fatal(err)
	}
	dIn := withDenseX(Input{Adj: adj, X: x}, true)
	xd := dIn.DenseAttributes()
	wantDU, wantDV, _, err := KMeansFactorsDense(context.Background(), xd, k1, k2, stream())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name         string
		in           Input
		nInit        int
		wantU, wantV *mat.Dense
	}{
		{"sparse, not given", Input{Adj: adj, X: x}, 0, wantU, wantV},
		{"sparse, 10", Input{Adj: adj, X: x}, 10, wantU, wantV},
		{"sparse, 1", Input{Adj: adj, X: x}, 1, oneU, oneV},
		{"dense float32, not given", dIn, 0, wantDU, wantDV},
	} {
		a := NAGC{K2: k2, Lambda: 0.1, Rho: 0.8, Init: InitKMeans, InitNInit: c.nInit}.withDefaults(k1)
		u, v, _, _, err := a.initialise(context.Background(), c.in, k1, seed)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !sameEntryBits(u, c.wantU) || !sameEntryBits(v, c.wantV) {
			t.Errorf("%s: the start's U, V differ from KMeansFactors' (same bits)", c.name)
		}
		if why := a.initNInitInfo(80); why != "" {
			t.Errorf("%s: recorded %q below SGCLargeN vertices", c.name, why)
		}
	}
	if mat.Equal(oneU, wantU) {
		t.Error("one start per run gave the start of ten: the test cannot tell them apart")
	}
}

// TestNAGCStartsAtLargeN checks the k-means starts of NAGC's k-means start: init_n_init
// where given, else 10 below SGCLargeN vertices and 1 from there, recorded with its reason
// for the kmeans inits only; and that a negative init_n_init is refused.
func TestNAGCStartsAtLargeN(t *testing.T) {
	for _, c := range []struct {
		init        string
		given, n    int
		want        int
		info        string
		givenFactor bool
	}{
		{InitKMeans, 0, 3312, 10, "", false},
		{InitKMeans, 0, SGCLargeN - 1, 10, "", false},
		{InitKMeans, 0, SGCLargeN, 1, "1 (not given, n ≥ 1000000", false},
		{InitKMeansMedianARI, 0, 2_449_029, 1, "1 (not given, n ≥ 1000000", false},
		{InitKMeans, 10, 2_449_029, 10, "", false},
		{InitKMeans, 3, 2_449_029, 3, "", false},
		{InitRandom, 0, 2_449_029, 1, "", false},
		{InitSGC, 0, 2_449_029, 1, "", false},
		{InitKMeans, 0, 2_449_029, 1, "", true},
	} {
		a := NAGC{Init: c.init, InitNInit: c.given}
		if c.givenFactor {
			a.InitU, a.InitV, a.InitH = mat.NewDense(1, 1, nil), mat.NewDense(1, 1, nil), mat.NewDense(1, 1, nil)
		}
		got, info := a.initNInit(c.n), a.initNInitInfo(c.n)
		if got != c.want || !strings.HasPrefix(info, c.info) || (c.info == "" && info != "") {
			t.Errorf("init %s, init_n_init %d at n = %d: %d starts, recorded %q; want %d, %q…", c.init, c.given, c.n, got, info, c.want, c.info)
		}
	}
	if err := (NAGC{Rho: 0.75, InitNInit: -1}).checkOptions(); err == nil {
		t.Error("init_n_init = -1 accepted")
	}
}

// sameEntryBits reports whether a and b have the same shape and bits.
func sameEntryBits(a, b *mat.Dense) bool {
	ar, ac := a.Dims()
	if br, bc := b.Dims(); ar != br || ac != bc {
		return false
	}
	for i := 0; i < ar; i++ {
		for j := 0; j < ac; j++ {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

package algorithms

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// countComputations has c count, by key prefix, the computations Do runs in its store.
func countComputations(c *Cache, prefixes ...string) map[string]*atomic.Int64 {
	n := map[string]*atomic.Int64{}
	for _, p := range prefixes {
		n[p] = &atomic.Int64{}
	}
	c.Observe(func(key string) {
		for _, p := range prefixes {
			if strings.HasPrefix(key, p) {
				n[p].Add(1)
			}
		}
	})
	return n
}

// TestCachedKMeansStartPerK2 checks that the cached k-means start of every k2 has the
// bits of the uncached start (the k1 and the k2 run drawn in a row from the seed's
// k-means stream), for sparse, dense-enough CSR and dense float64/float32 attributes and
// several k-means starts per run, when the starts of one seed are asked for k2 ≠ k1 and
// k2 = k1 (the single k-means of dense rows) in any order, one after another or at once;
// and that the k-means with k1 clusters runs once per seed.
func TestCachedKMeansStartPerK2(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 31))
	_, sx := randomGraph(rng, 90, 14, 0.1, 0.3)
	const k1 = 4
	inputs := []struct {
		name string
		in   Input
	}{
		{"sparse CSR", Input{X: sx}},
		{"dense-enough CSR", Input{X: fullCSR(90, 12, 0.1, 5)}},
		{"dense float64", withDenseX(Input{X: sx}, false)},
		{"dense float32", withDenseX(Input{X: sx}, true)},
	}
	for _, c := range inputs {
		for _, nInit := range []int{10, 1, 3} {
			in := c.in
			in.Cache = NewCache()
			n := countComputations(in.Cache, "kmeans-start/", "kmeans-factors/")
			k2s := []int{6, k1, 2, 9} // k2 = k1 after another: from the cached k1 half
			for _, seed := range []uint64{1, 2} {
				var wg sync.WaitGroup
				for _, k2 := range k2s {
					ask := func() {
						defer wg.Done()
						u, v, labels, err := cachedKMeansFactors(ctx, in, k1, k2, nInit, seed)
						if err != nil {
							t.Error(err)
							return
						}
						wu, wv, wl := uncachedKMeansStart(t, c.in, k1, k2, nInit, seed)
						if !sameEntryBits(u, wu) || !sameEntryBits(v, wv) || !slices.Equal(labels, wl) {
							t.Errorf("%s, n_init %d, seed %d, k2 = %d: cached start differs from the uncached one", c.name, nInit, seed, k2)
						}
					}
					wg.Add(1)
					if seed == 2 { // every k2 at once
						go ask()
					} else {
						ask()
					}
				}
				wg.Wait()
			}
			if a, b := n["kmeans-start/"].Load(), n["kmeans-factors/"].Load(); a != 2 || b != 2*int64(len(k2s)) {
				t.Errorf("%s, n_init %d: %d k-means runs with k1 clusters and %d starts for 2 seeds and %d k2; want 2 and %d",
					c.name, nInit, a, b, len(k2s), 2*len(k2s))
			}
		}
	}
}

// uncachedKMeansStart returns the start KMeansFactors (KMeansFactorsDense for dense
// attributes) gives on in's attributes from seed's k-means stream, with nInit starts.
func uncachedKMeansStart(t *testing.T, in Input, k1, k2, nInit int, seed uint64) (u, v *mat.Dense, labels []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, streamKMeansInit))
	var err error
	if d := in.DenseAttributes(); d != nil {
		u, v, labels, err = kmeansFactorsDense(context.Background(), d, k1, k2, nInit, rng)
	} else {
		x, _ := in.rows()
		u, v, labels, err = kmeansFactorsSparse(context.Background(), x, k1, k2, nInit, rng)
	}
	if err != nil {
		t.Fatal(err)
	}
	return u, v, labels
}

// TestMedianARIStartPerK2 checks that NAGC's kmeans-median-ari start, five k-means
// starts each split into its halves, is the uncached one for every k2, with five k-means
// runs with k1 clusters for all of them.
func TestMedianARIStartPerK2(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 32))
	adj, x := randomGraph(rng, 80, 12, 0.1, 0.3)
	truth := make([]int, 80)
	for i := range truth {
		truth[i] = i % 3
	}
	cache := NewCache()
	n := countComputations(cache, "kmeans-start/")
	for _, k2 := range []int{5, 3, 2} {
		a := NAGC{K2: k2, Init: InitKMeansMedianARI, Rho: 0.8}.withDefaults(3)
		u, v, _, _, err := a.initialise(context.Background(), Input{Adj: adj, X: x, Truth: truth, Cache: cache}, 3, 4)
		if err != nil {
			t.Fatal(err)
		}
		wu, wv, _, _, err := a.initialise(context.Background(), Input{Adj: adj, X: x, Truth: truth}, 3, 4)
		if err != nil {
			t.Fatal(err)
		}
		if !sameEntryBits(u, wu) || !sameEntryBits(v, wv) {
			t.Errorf("k2 = %d: cached median-ARI start differs from the uncached one", k2)
		}
	}
	if got := n["kmeans-start/"].Load(); got != 5 {
		t.Errorf("%d k-means runs with k1 clusters for three k2; want 5", got)
	}
}

// TestSharingAttributes checks that an input with the graph's attributes and another
// adjacency (a held-out copy), whose cache shares the graph's (SharingAttributes), finds
// the graph's k-means start and attribute transform instead of computing them again,
// and computes its own start on graph-filtered attributes and its own SGC start; every
// fit's labels are those of a fit with a cache of its own.
func TestSharingAttributes(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(33, 33))
	adj, x := randomGraph(rng, 70, 10, 0.12, 0.3)
	other, _ := randomGraph(rng, 70, 10, 0.08, 0.3)
	for _, c := range []struct {
		name   string
		a      NAGC
		shared bool // the held-out fit finds its start in the graph's cache
	}{
		{"kmeans start", NAGC{K2: 4, Iterations: 6, Rho: 0.8}, true},
		{"kmeans start, transform minmax", NAGC{K2: 4, Iterations: 6, Rho: 0.8, AttributeTransform: AttributeTransform{TransformMinMax}}, true},
		{"kmeans start, filtered", NAGC{K2: 4, Iterations: 6, Rho: 0.8, Filter: GraphFilterOptions{P: 2}}, false},
		{"sgc start", NAGC{K2: 4, Iterations: 6, Rho: 0.8, Init: InitSGC}, false},
	} {
		graph := NewCache()
		held := graph.SharingAttributes()
		inGraph := countComputations(graph, "kmeans-", "transform/", "sgc-labels/", "op/")
		inHeld := countComputations(held, "kmeans-", "sgc-labels/", "op/")
		for _, f := range []struct {
			name string
			in   Input
		}{{"graph", Input{Adj: adj, X: x, Cache: graph}}, {"held-out copy", Input{Adj: other, X: x, Cache: held}}} {
			got, err := c.a.Fit(ctx, f.in, 3, 9)
			if err != nil {
				t.Fatal(err)
			}
			alone := f.in
			alone.Cache = NewCache()
			want, err := c.a.Fit(ctx, alone, 3, 9)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Labels, want.Labels) {
				t.Errorf("%s, %s: labels differ from a fit with a cache of its own", c.name, f.name)
			}
		}
		starts := inGraph["kmeans-"].Load() + inGraph["sgc-labels/"].Load()
		heldStarts := inHeld["kmeans-"].Load() + inHeld["sgc-labels/"].Load()
		if c.shared && (starts != 2 || heldStarts != 0) {
			t.Errorf("%s: %d computations of the start in the graph's cache, %d in the copy's own; want 2 (k1 half, start), 0", c.name, starts, heldStarts)
		}
		if !c.shared && (starts == 0 || heldStarts != starts || inHeld["op/"].Load() != inGraph["op/"].Load()) {
			t.Errorf("%s: %d computations of the start (%d of the filter) in the graph's cache, %d (%d) in the copy's own; want the same, not 0",
				c.name, starts, inGraph["op/"].Load(), heldStarts, inHeld["op/"].Load())
		}
		if c.a.Transform != "" && inGraph["transform/"].Load() != 1 {
			t.Errorf("%s: the transform computed %d times; want once", c.name, inGraph["transform/"].Load())
		}
	}
	if (*Cache)(nil).SharingAttributes() == nil {
		t.Error("SharingAttributes of a nil cache gave no cache")
	}
}

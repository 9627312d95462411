package algorithms

import (
	"context"
	"math/rand/v2"
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
	// kmeans: one entry; median-ari: five more, one of which may coincide with the first.
	if n := cache.Len(); n < 5 || n > 6 {
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

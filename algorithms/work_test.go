package algorithms

import (
	"math"
	"testing"
)

// arxivShape is the ogbn-arxiv shape: 169,343 vertices, 2·1,165,449 stored adjacency
// entries, 128 dense attributes, 40 classes.
var arxivShape = Shape{N: 169_343, M: 128, NNZA: 2 * 1_165_449, NNZX: 169_343 * 128, DenseX: 8, K: 40}

// mustNew returns the method name with options params, failing t where it cannot be made.
func mustNew(t *testing.T, name string, params map[string]any) Method {
	t.Helper()
	m, err := New(name, params)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestEstimateWorkRanksMethods checks the work estimates on the arxiv shape against the
// order the methods measure in there (auto's quick budget: NAGC with the k-means start
// 62 s a fit, NAGC from SGC labels with 30 iterations 19 s, SGC k-means 10 s; METIS 7 s
// for the whole command), and that they grow with every size, iterations and starts.
func TestEstimateWorkRanksMethods(t *testing.T) {
	type run struct {
		alg    string
		params map[string]any
	}
	ranked := []run{
		{"nagc", map[string]any{"init": "kmeans-median-ari"}},
		{"nagc", map[string]any{"init": "kmeans", "iterations": 100}},
		{"nagc", map[string]any{"init": "random", "iterations": 100}},
		{"nagc", map[string]any{"init": "sgc", "init_rank": 32, "p": 8, "norm_after": true, "iterations": 30}},
		{"sgc-kmeans", map[string]any{"p": 8, "rank": 32, "norm_after": true}},
		{"sgc-kmeans", map[string]any{"p": 2, "rank": 32, "norm_after": true}},
		{"metis", nil},
	}
	prev := 0.0
	for i, r := range ranked {
		w := EstimateWork(mustNew(t, r.alg, r.params), arxivShape)
		if w <= 0 || (i > 0 && w >= prev) {
			t.Errorf("%s %v takes %.3g, after %.3g: want positive and below the run before", r.alg, r.params, w, prev)
		}
		prev = w
	}
	grow := []func(s *Shape){
		func(s *Shape) { s.N *= 2 },
		func(s *Shape) { s.NNZA *= 2 },
		func(s *Shape) { s.NNZX *= 2 },
		func(s *Shape) { s.K *= 2 },
	}
	for _, r := range append(ranked, run{"kmeans", nil}, run{"bagc", nil}) {
		m := mustNew(t, r.alg, r.params)
		base := EstimateWork(m, arxivShape)
		for g, f := range grow {
			s := arxivShape
			f(&s)
			if w := EstimateWork(m, s); w < base || (g != 2 && r.alg == "nagc" && w == base) {
				t.Errorf("%s %v: size change %d takes %.3g, from %.3g", r.alg, r.params, g, w, base)
			}
		}
	}
	for _, key := range []string{"iterations", "n_init"} {
		alg := map[string]string{"iterations": "nagc", "n_init": "kmeans"}[key]
		a := EstimateWork(mustNew(t, alg, map[string]any{key: 10}), arxivShape)
		b := EstimateWork(mustNew(t, alg, map[string]any{key: 20}), arxivShape)
		if !(b > a) {
			t.Errorf("%s: %s 20 takes %.3g, 10 %.3g", alg, key, b, a)
		}
	}
	// split doubles the columns the fit reads.
	if a, b := EstimateWork(mustNew(t, "kmeans", nil), arxivShape), EstimateWork(mustNew(t, "kmeans", map[string]any{"transform": "split"}), arxivShape); !(b > a) {
		t.Errorf("kmeans: transform split takes %.3g, none %.3g", b, a)
	}
}

// TestNAGCIterationWork checks the count against a hand sum for n = 2, m = 3, nnz(A) = 2,
// nnz(X) = 4, k1 = 1, k2 = 2: A products 2·1·(2+2) = 8, X products 2·4·2 = 16, U(UᵀU) 2,
// Grams 2 + 6 + 9, V(fᵀf) 12, n·k1·k2 terms 6·4 = 24, f·VᵀV 8, dots 8, ·VᵀV 4, ‖UᵀU‖² 1:
// 100, and 96 for the ρ = ½ rule, which skips the two passes of (UUᵀ⊙W)U; and that a
// fit's work is its iterations' and its start's.
func TestNAGCIterationWork(t *testing.T) {
	s := Shape{N: 2, M: 3, NNZA: 2, NNZX: 4, K: 1}
	for _, c := range []struct {
		params map[string]any
		want   float64
	}{
		{map[string]any{"k2": 2}, 100},
		{map[string]any{"k2": 2, "rho": 0.5}, 96},
	} {
		m := mustNew(t, "nagc", c.params)
		got, ok := EstimateIterationWork(m, s)
		if !ok || got != c.want {
			t.Errorf("%v: %v multiply-adds (%v), want %v", c.params, got, ok, c.want)
		}
		// A random start costs n·(k1 + k2) = 6 beside 100 iterations.
		c.params["init"], c.params["iterations"] = InitRandom, 100
		if w := EstimateWork(mustNew(t, "nagc", c.params), s); w != 100*c.want+6 {
			t.Errorf("%v: fit work %v, want %v", c.params, w, 100*c.want+6)
		}
	}
	if w, ok := EstimateIterationWork(mustNew(t, "kmeans", nil), s); ok || !math.IsNaN(w) {
		t.Errorf("k-means: %v multiply-adds an iteration (%v), want NaN, false", w, ok)
	}
}

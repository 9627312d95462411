package datasets

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/attrtest"
)

func TestSyntheticDeterministic(t *testing.T) {
	cfg := DefaultSynthetic()
	a, err := Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if d := graphsEqual(a, b); d != "" {
		t.Errorf("same seed, different graphs: %s", d)
	}
	cfg.Seed++
	c, err := Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(a.Labels, c.Labels) {
		t.Error("seeds 1 and 2 give the same clusters")
	}
	if d := graphsEqual(a, c); d == "" {
		t.Error("seeds 1 and 2 give the same graph")
	}
}

func TestSynthetic(t *testing.T) {
	for _, test := range []struct {
		name string
		cfg  SyntheticConfig
	}{
		{"default", DefaultSynthetic()},
		{"fractional", SyntheticConfig{N: 1001, M: 97, K1: 3, K2: 5, AvgDegree: 5.5, PIn: 0.6,
			AttrPerVertex: 7.5, AttrSignal: 0.8, Seed: 7}},
		{"k1 equals k2", SyntheticConfig{N: 800, M: 400, K1: 5, K2: 5, AvgDegree: 12, PIn: 0.9,
			AttrPerVertex: 20, AttrSignal: 0.6, Seed: 3}},
		{"self-loops", SyntheticConfig{N: 2000, M: 50, K1: 100, K2: 2, AvgDegree: 4, PIn: 0.95,
			AttrPerVertex: 5, AttrSignal: 0.9, SelfLoops: true, Seed: 11}},
		{"pure", SyntheticConfig{N: 300, M: 60, K1: 2, K2: 3, AvgDegree: 4, PIn: 1,
			AttrPerVertex: 6, AttrSignal: 1, Seed: 5}},
	} {
		t.Run(test.name, func(t *testing.T) {
			cfg := test.cfg
			g, err := Synthetic(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if g.N() != cfg.N || g.M() != cfg.M || g.K() != cfg.K1 || len(g.Labels) != cfg.N ||
				len(g.IDs) != cfg.N || g.Name != "synthetic" || g.Dangling != 0 {
				t.Fatalf("sizes: %+v", g.Stats())
			}
			for c, name := range g.ClassNames {
				if want := fmt.Sprintf("c%d", c); name != want {
					t.Errorf("class %d named %q, want %q", c, name, want)
				}
			}
			sizes := g.ClassSizes()
			if lo, hi := slices.Min(sizes), slices.Max(sizes); hi-lo > 1 {
				t.Errorf("unbalanced clusters: %v", sizes)
			}
			checkAdjacency(t, g)

			// Self-loops only when asked for.
			if sl := g.SelfLoops(); cfg.SelfLoops != (sl > 0) {
				t.Errorf("SelfLoops = %v, %d self-loops", cfg.SelfLoops, sl)
			}

			// Average degree (self-loops counted once) a little below the target,
			// because duplicate draws merge.
			deg := float64(2*g.Edges()-g.SelfLoops()) / float64(g.N())
			if deg < 0.85*cfg.AvgDegree || deg > 1.03*cfg.AvgDegree {
				t.Errorf("average degree %.3f, target %v", deg, cfg.AvgDegree)
			}

			// Fraction of edge ends inside a cluster ≈ PIn + (1−PIn)/K1.
			in, all := 0, 0
			for i := 0; i < g.N(); i++ {
				cols, _ := g.Adj.Row(i)
				for _, j := range cols {
					all++
					if g.Labels[j] == g.Labels[i] {
						in++
					}
				}
			}
			wantIn := cfg.PIn + (1-cfg.PIn)/float64(cfg.K1)
			if got := float64(in) / float64(all); math.Abs(got-wantIn) > 0.05 {
				t.Errorf("within-cluster edge fraction %.3f, expected about %.3f", got, wantIn)
			}

			// Attributes per vertex a little below AttrPerVertex (duplicate draws merge).
			perV := float64(g.X.NNZ()) / float64(g.N())
			if perV < 0.75*cfg.AttrPerVertex || perV > 1.03*cfg.AttrPerVertex {
				t.Errorf("attributes per vertex %.3f, target %v", perV, cfg.AttrPerVertex)
			}

			// Attribute signal: the members of cluster c put more of their attributes
			// in the vocabularies of AttrMap(c) than the other vertices do.
			for c := 0; c < cfg.K1; c++ {
				inMap := make(map[int]bool)
				for _, a := range cfg.AttrMap(c) {
					inMap[a] = true
				}
				var hitIn, totIn, hitOut, totOut float64
				for i := 0; i < g.N(); i++ {
					cols, _ := attrtest.Sparse(g.X).Row(i)
					hits := 0
					for _, j := range cols {
						if inMap[cfg.AttrCluster(j)] {
							hits++
						}
					}
					if g.Labels[i] == c {
						hitIn += float64(hits)
						totIn += float64(len(cols))
					} else {
						hitOut += float64(hits)
						totOut += float64(len(cols))
					}
				}
				fin, fout := hitIn/totIn, hitOut/math.Max(totOut, 1)
				if len(inMap) < cfg.K2 && cfg.K1 > 1 && fin < fout+0.1 {
					t.Errorf("cluster %d: %.3f of its attributes in AttrMap vocabularies, others %.3f",
						c, fin, fout)
				}
				if cfg.AttrSignal == 1 && fin != 1 {
					t.Errorf("cluster %d: signal 1 but only %.3f of attributes in its vocabularies", c, fin)
				}
			}
		})
	}
}

func TestSyntheticEdgeCases(t *testing.T) {
	for _, test := range []struct {
		name       string
		cfg        SyntheticConfig
		edges, nnz int
	}{
		{"one vertex", SyntheticConfig{N: 1, M: 1, K1: 1, K2: 1, AvgDegree: 1, PIn: 1, AttrPerVertex: 1, AttrSignal: 1}, 0, 1},
		{"one vertex self-loop", SyntheticConfig{N: 1, M: 3, K1: 1, K2: 3, AvgDegree: 1, PIn: 0.5, SelfLoops: true}, -1, 0},
		{"no edges, no attributes", SyntheticConfig{N: 50, M: 10, K1: 50, K2: 10}, 0, 0},
		{"singleton clusters", SyntheticConfig{N: 20, M: 10, K1: 20, K2: 10, AvgDegree: 4, PIn: 1, AttrPerVertex: 10, AttrSignal: 0.5}, 0, -1},
	} {
		t.Run(test.name, func(t *testing.T) {
			g, err := Synthetic(test.cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkAdjacency(t, g)
			if g.Edges() > g.N()*g.N() || (!test.cfg.SelfLoops && g.SelfLoops() != 0) {
				t.Errorf("%d edges, %d self-loops", g.Edges(), g.SelfLoops())
			}
			if test.edges >= 0 && g.Edges() != test.edges {
				t.Errorf("%d edges, want %d", g.Edges(), test.edges)
			}
			if test.nnz >= 0 && g.X.NNZ() != test.nnz {
				t.Errorf("nnz(X) = %d, want %d", g.X.NNZ(), test.nnz)
			}
		})
	}
}

func TestSyntheticConfigErrors(t *testing.T) {
	ok := DefaultSynthetic()
	for _, test := range []struct {
		name   string
		change func(*SyntheticConfig)
		field  string
	}{
		{"N zero", func(c *SyntheticConfig) { c.N = 0 }, "N"},
		{"M zero", func(c *SyntheticConfig) { c.M = 0 }, "M"},
		{"K1 zero", func(c *SyntheticConfig) { c.K1 = 0 }, "K1"},
		{"K1 above N", func(c *SyntheticConfig) { c.K1 = c.N + 1 }, "K1"},
		{"K2 zero", func(c *SyntheticConfig) { c.K2 = 0 }, "K2"},
		{"K2 above M", func(c *SyntheticConfig) { c.K2 = c.M + 1 }, "K2"},
		{"negative degree", func(c *SyntheticConfig) { c.AvgDegree = -1 }, "AvgDegree"},
		{"NaN degree", func(c *SyntheticConfig) { c.AvgDegree = math.NaN() }, "AvgDegree"},
		{"degree above N", func(c *SyntheticConfig) { c.AvgDegree = float64(c.N) + 1 }, "AvgDegree"},
		{"PIn above 1", func(c *SyntheticConfig) { c.PIn = 1.5 }, "PIn"},
		{"PIn NaN", func(c *SyntheticConfig) { c.PIn = math.NaN() }, "PIn"},
		{"negative attributes", func(c *SyntheticConfig) { c.AttrPerVertex = -1 }, "AttrPerVertex"},
		{"infinite attributes", func(c *SyntheticConfig) { c.AttrPerVertex = math.Inf(1) }, "AttrPerVertex"},
		{"signal below 0", func(c *SyntheticConfig) { c.AttrSignal = -0.1 }, "AttrSignal"},
		{"too large", func(c *SyntheticConfig) { c.N, c.M, c.AvgDegree, c.AttrPerVertex = 1<<30, 1<<20, 100, 100 }, "exceeds"},
	} {
		t.Run(test.name, func(t *testing.T) {
			cfg := ok
			test.change(&cfg)
			_, err := Synthetic(cfg)
			if err == nil {
				t.Fatalf("no error for %+v", cfg)
			}
			if !strings.Contains(err.Error(), test.field) {
				t.Errorf("error %q does not name %s", err, test.field)
			}
		})
	}
	if err := ok.Validate(); err != nil {
		t.Errorf("default configuration invalid: %v", err)
	}
}

func TestAttrMapAndVocabulary(t *testing.T) {
	for _, test := range []struct {
		k1, k2, m int
	}{
		{4, 6, 300}, {5, 5, 5}, {7, 3, 10}, {1, 1, 1}, {3, 1, 8}, {2, 9, 1000},
	} {
		cfg := SyntheticConfig{K1: test.k1, K2: test.k2, M: test.m}
		// Vocabularies partition [0, M) into contiguous non-empty blocks.
		next := 0
		for a := 0; a < test.k2; a++ {
			lo, hi := cfg.Vocabulary(a)
			if lo != next || hi <= lo || hi-lo > test.m/test.k2+1 {
				t.Errorf("%+v: vocabulary %d = [%d, %d) after %d", test, a, lo, hi, next)
			}
			for j := lo; j < hi; j++ {
				if got := cfg.AttrCluster(j); got != a {
					t.Errorf("%+v: AttrCluster(%d) = %d, want %d", test, j, got, a)
				}
			}
			next = hi
		}
		if next != test.m || cfg.AttrCluster(-1) != -1 || cfg.AttrCluster(test.m) != -1 {
			t.Errorf("%+v: vocabularies end at %d", test, next)
		}
		for c := 0; c < test.k1; c++ {
			mp := cfg.AttrMap(c)
			for _, a := range mp {
				if a < 0 || a >= test.k2 {
					t.Errorf("%+v: AttrMap(%d) = %v out of range", test, c, mp)
				}
			}
			if test.k2 > 1 && (len(mp) != 2 || mp[0] == mp[1]) {
				t.Errorf("%+v: AttrMap(%d) = %v, want two distinct clusters", test, c, mp)
			}
			if test.k1 == test.k2 && test.k2 > 1 && mp[0] == c {
				t.Errorf("%+v: AttrMap(%d) = %v is the identity", test, c, mp)
			}
		}
	}
}

package datasets

import (
	"fmt"
	"math"
	"testing"

	"github.com/nagc-harness/nagc/internal/attrtest"
)

func TestShapeCountsAndHomophily(t *testing.T) {
	for _, tc := range []Shape{
		{Name: "tiny"},
		{Name: "small", N: 5000, Homophily: 0.3},
		{Name: "cora"},
		{N: 3000, Degree: 6, M: 12, K: 3, Homophily: 0.9, Attributes: "sparse", Seed: 4},
	} {
		t.Run(fmt.Sprint(tc), func(t *testing.T) {
			s, err := tc.Resolved()
			if err != nil {
				t.Fatal(err)
			}
			g, err := SyntheticShape(tc)
			if err != nil {
				t.Fatal(err)
			}
			if g.N() != s.N || g.M() != s.M || g.K() != s.K {
				t.Errorf("n, m, k = %d, %d, %d; want %d, %d, %d", g.N(), g.M(), g.K(), s.N, s.M, s.K)
			}
			if e := g.Edges(); math.Abs(float64(e-s.Edges)) > 0.02*float64(s.Edges) || e > s.Edges {
				t.Errorf("%d edges, want %d less the repeats (≤ 2%% on these small graphs)", e, s.Edges)
			}
			if g.SelfLoops() != 0 {
				t.Errorf("%d self-loops", g.SelfLoops())
			}
			inside := 0
			for i := 0; i < g.N(); i++ {
				cols, _ := g.Adj.Row(i)
				for _, j := range cols {
					if g.Labels[i] == g.Labels[j] {
						inside++
					}
				}
			}
			if h := float64(inside) / float64(g.Adj.NNZ()); math.Abs(h-s.Homophily) > 0.02 {
				t.Errorf("edge homophily %.3f, want %.2f ± 0.02", h, s.Homophily)
			}
			sizes := g.ClassSizes()
			for c, sz := range sizes {
				want := float64(s.N) / float64(s.K)
				if math.Abs(float64(sz)-want) > 5*math.Sqrt(want) {
					t.Errorf("class %d has %d vertices, want about %.0f (uniform)", c, sz, want)
				}
			}
			if (s.Attributes == "dense") != (attrtest.Dense(g.X) != nil) || (attrtest.Sparse(g.X) == nil) == (attrtest.Dense(g.X) == nil) {
				t.Errorf("attributes %q, XDense set %v, X set %v", s.Attributes, attrtest.Dense(g.X) != nil, attrtest.Sparse(g.X) != nil)
			}
			if attrtest.Dense(g.X) != nil {
				if !attrtest.Dense(g.X).Is32() {
					t.Error("dense attributes not float32")
				}
				if _, _, neg := attrtest.Dense(g.X).FirstNegative(); neg {
					t.Error("negative dense attribute")
				}
			}
		})
	}
}

func TestShapeDeterministic(t *testing.T) {
	a, err := SyntheticShape(Shape{Name: "tiny", Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SyntheticShape(Shape{Name: "tiny", Seed: 9})
	c, _ := SyntheticShape(Shape{Name: "tiny", Seed: 10})
	if a.Fingerprint() != b.Fingerprint() {
		t.Error("the same shape and seed gave different graphs")
	}
	if a.Fingerprint() == c.Fingerprint() {
		t.Error("different seeds gave the same graph")
	}
}

func TestParseShape(t *testing.T) {
	s, err := ParseShape("synthetic:arxiv,n=5000,attributes=sparse,seed=3")
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	// The arxiv mean degree kept at the smaller n.
	if r.N != 5000 || r.M != 128 || r.K != 40 || r.Attributes != "sparse" || r.Seed != 3 ||
		r.Edges != int(math.Round(5000*float64(1166243)/169343)) {
		t.Errorf("resolved %+v", r)
	}
	back, err := ParseShape(r.String())
	if err != nil {
		t.Fatal(err)
	}
	if rb, _ := back.Resolved(); rb != r {
		t.Errorf("String does not read back: %+v, want %+v", rb, r)
	}
	for _, bad := range []string{"synthetic:nope", "synthetic:tiny,n=x", "synthetic:tiny,colour=3", "synthetic:tiny,homophily=2", "synthetic:custom,n=10"} {
		s, err := ParseShape(bad)
		if err == nil {
			_, err = s.Resolved()
		}
		if err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	g, _, err := LoadSpec(Spec{Path: "synthetic:tiny"})
	if err != nil || g.N() != 1000 || g.Name != "synthetic:tiny" {
		t.Errorf("LoadSpec(synthetic:tiny) = %v, %v", g, err)
	}
}

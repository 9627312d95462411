package algorithms

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/dense/f32"
	"github.com/nagc-harness/nagc/internal/testenv"
	"github.com/nagc-harness/nagc/metrics"
)

// TestNAGCSolver32FollowsDefault checks the float32 iteration against the float64 one
// from the same factors, for sparse and dense attributes and both U rules: after a few
// iterations the factors agree to float32's precision (a relative 1e-3 allows for the
// growth of rounding differences over 5 iterations) and so does the objective.
func TestNAGCSolver32FollowsDefault(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	adj, x := randomGraph(rng, 1500, 70, 0.01, 0.1) // two blocks of f32.BlockRows
	n, m := x.Dims()
	k1, k2 := 5, 7
	xd := x.Dense()
	for _, rho := range []float64{0.75, 0.5} {
		for _, isDense := range []bool{false, true} {
			u, v, h := uniformDense(n, k1, rng), uniformDense(m, k2, rng), uniformDense(k1, k2, rng)
			ref := NewNAGCSolver(adj, x, mat.DenseCopyOf(u), mat.DenseCopyOf(v), mat.DenseCopyOf(h), 0.1, rho)
			var in Input
			if isDense {
				in = Input{Adj: adj, X: dense.NewMatrix64(n, m, slices.Clone(xd.RawMatrix().Data))}
			} else {
				in = Input{Adj: adj, X: x}
			}
			xa, err := attributes32(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewNAGCSolver32(adj, xa, x.Sum(), x.SumSq(), u, v, h, 0.1, rho)
			if err != nil {
				t.Fatal(err)
			}
			for it := 0; it < 5; it++ {
				ref.Step()
				s.Step()
			}
			for name, p := range map[string][2]*mat.Dense{"U": {ref.U, s.U.Dense()}, "V": {ref.V, s.V.Dense()}, "H": {ref.H, s.H.Dense()}} {
				if d := relDiff(p[0], p[1]); d > 1e-3 {
					t.Errorf("ρ %v dense %v: %s differs by %.2g (relative)", rho, isDense, name, d)
				}
			}
			if a, b := ref.Objective(), s.Objective(); math.Abs(a-b) > 1e-3*math.Abs(a) {
				t.Errorf("ρ %v dense %v: objective %v, float64 %v", rho, isDense, b, a)
			}
		}
	}
}

// TestNAGCFastThreadsAndLevels checks that a fast fit gives the same bits on 1 and 2
// threads, the same bits under AVX2 as under AVX-512, and labels close to those of the
// Go kernels (which differ from the assembly's in the last bit here and there).
func TestNAGCFastThreadsAndLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	adj, x := randomGraph(rng, 2500, 60, 0.006, 0.1)
	in := Input{Adj: adj, X: x}
	a := NAGC{K2: 6, Lambda: 0.01, Rho: 0.75, Iterations: 30, Precision: PrecisionFast}
	fit := func(threads int, l f32.Level) *Result {
		defer parallel.SetThreads(parallel.SetThreads(threads))
		defer parallel.SetSplitAlways(parallel.SetSplitAlways(threads > 1)) // split however small
		defer f32.SetLevel(f32.SetLevel(l))
		res, err := a.Fit(context.Background(), in, 4, 3)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	best := f32.BestLevel()
	one, two := fit(1, best), fit(2, best)
	if !mat.Equal(one.Factors["U"], two.Factors["U"]) || !slices.Equal(one.Objective, two.Objective) {
		t.Errorf("1 and 2 threads give different factors or objectives")
	}
	if best == f32.LevelAVX512 {
		if avx2 := fit(2, f32.LevelAVX2); !mat.Equal(one.Factors["U"], avx2.Factors["U"]) {
			t.Errorf("AVX2 and AVX-512 give different factors")
		}
	}
	goFit := fit(2, f32.LevelGo)
	if d := relDiff(one.Factors["U"], goFit.Factors["U"]); d > 1e-2 {
		t.Errorf("Go kernels: U differs from the assembly's by %.2g (relative)", d)
	}
	if one.Info["precision"] == "" {
		t.Errorf("Info has no precision: %v", one.Info)
	}
}

// TestNAGCFastARIOnPaperGraphs bounds the fast precision's ARI on the paper's four
// graphs by the spread of the default's restarts: over the same seeds, the fast fits'
// mean ARI lies within [min, max] of the default fits' ARIs.
func TestNAGCFastARIOnPaperGraphs(t *testing.T) { fastARIWithinRestarts(t, "nagc", 5, 0) }

// fastARIWithinRestarts fits method on the paper's four graphs at both precisions over
// seeds 1 to seeds and fails where the fast fits' mean ARI lies outside [min − slack,
// max + slack] of the default fits' ARIs.
func fastARIWithinRestarts(t *testing.T, method string, seeds int, slack float64) {
	if testing.Short() {
		t.Skip("fits the paper's four graphs")
	}
	for _, name := range datasets.PaperNames() {
		t.Run(name, func(t *testing.T) {
			g, err := datasets.Load(name)
			if errors.Is(err, datasets.ErrNotFound) {
				testenv.Missing(t, "the "+name+" dataset", testenv.FetchHint)
			}
			if err != nil {
				t.Fatal(err)
			}
			in := Input{Adj: g.Adj, X: g.X, Truth: g.Labels}
			k := g.K()
			lo, hi, fastSum := math.Inf(1), math.Inf(-1), 0.0
			for seed := range uint64(seeds) {
				for _, p := range []string{"", PrecisionFast} {
					res := fitAtPrecision(t, method, p, in, k, seed+1)
					ari, err := metrics.ARI(g.Labels, res.Labels)
					if err != nil {
						t.Fatal(err)
					}
					if p == "" {
						lo, hi = min(lo, ari), max(hi, ari)
					} else {
						fastSum += ari
					}
				}
			}
			mean := fastSum / float64(seeds)
			t.Logf("%s %s: fast mean ARI %.4f, default restarts [%.4f, %.4f]", method, name, mean, lo, hi)
			if mean < lo-slack || mean > hi+slack {
				t.Errorf("%s %s: fast mean ARI %.4f outside the default's restarts [%.4f, %.4f] ± %v", method, name, mean, lo, hi, slack)
			}
		})
	}
}

// fitAtPrecision fits method at its defaults and precision p ("": none given).
func fitAtPrecision(t *testing.T, method, p string, in Input, k int, seed uint64) *Result {
	t.Helper()
	params := map[string]any{}
	if p != "" {
		params["precision"] = p
	}
	m, err := New(method, params)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Fit(context.Background(), in, k, seed)
	if err != nil {
		t.Fatalf("%s at precision %q: %v", method, p, err)
	}
	return res
}

// TestNAGCFastContinue checks that a fast fit continued from its factors is the rest of
// a longer fast fit, bit for bit (as successive halving reads it).
func TestNAGCFastContinue(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	adj, x := randomGraph(rng, 300, 30, 0.03, 0.2)
	in := Input{Adj: adj, X: x}
	a := NAGC{K2: 4, Lambda: 0.05, Rho: 0.75, Precision: PrecisionFast}
	fit := func(m Method) *Result {
		res, err := m.Fit(context.Background(), in, 3, 5)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a.Iterations = 10
	whole := fit(a)
	a.Iterations = 4
	first := fit(a)
	c, err := a.Continue(first.Factors, 6)
	if err != nil {
		t.Fatal(err)
	}
	rest := fit(c)
	if !mat.Equal(whole.Factors["U"], rest.Factors["U"]) || !slices.Equal(whole.Objective, append(first.Objective, rest.Objective...)) {
		t.Errorf("4 + 6 fast iterations differ from 10")
	}
}

package algorithms

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/sparse"
)

// paicanPlanted returns a graph with k planted clusters (vertex i in class i mod k) and
// planted partial anomalies: the vertices in edgeBad draw every pair with probability
// pRand whatever the classes (random edges), the others pIn inside a class and pOut
// across; the vertices in attrBad draw each attribute with probability ½ (the model's
// anomalous attributes), the others aIn on their class's block of attributes (j mod k =
// class) and aOut elsewhere.
func paicanPlanted(seed uint64, n, m, k int, pIn, pOut, pRand, aIn, aOut float64, edgeBad, attrBad []bool) Input {
	rng := rand.New(rand.NewPCG(seed, 11))
	b := sparse.NewBuilder(n, n)
	xb := sparse.NewBuilder(n, m)
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % k
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			p := pOut
			switch {
			case edgeBad[i] || edgeBad[j]:
				p = pRand
			case truth[i] == truth[j]:
				p = pIn
			}
			if rng.Float64() < p {
				_ = b.Add(i, j, 1)
				_ = b.Add(j, i, 1)
			}
		}
		for j := 0; j < m; j++ {
			p := aOut
			switch {
			case attrBad[i]:
				p = 0.5
			case j%k == truth[i]:
				p = aIn
			}
			if rng.Float64() < p {
				_ = xb.Add(i, j, 1)
			}
		}
	}
	return Input{Adj: b.CSR(sparse.MaxDuplicates), X: xb.CSR(sparse.SumDuplicates), Truth: truth}
}

// plantedMasks marks every step-th vertex from offset.
func plantedMasks(n, offset, step int) []bool {
	m := make([]bool, n)
	for i := offset; i < n; i += step {
		m[i] = true
	}
	return m
}

// precisionRecall returns the precision and recall of got against want.
func precisionRecall(got, want []bool) (precision, recall float64) {
	var tp, fp, fn float64
	for i := range got {
		switch {
		case got[i] && want[i]:
			tp++
		case got[i]:
			fp++
		case want[i]:
			fn++
		}
	}
	if tp+fp > 0 {
		precision = tp / (tp + fp)
	}
	if tp+fn > 0 {
		recall = tp / (tp + fn)
	}
	return precision, recall
}

// TestPAICANRecoversPlantedAnomalies plants 3 clusters on 300 vertices, 20 vertices with
// random edges and 20 others with random attributes, and asks PAICAN for the clusters
// (ARI over the clean vertices at least 0.8) and for both kinds of anomalies: precision
// and recall of each flag at least 0.8 from the DC-SBM start. From a random start the
// fit ends at a lower ELBO (about −13 400 against −13 300 here) that also flags about as
// many clean vertices' edges as planted ones: its bar for the precision of the edge
// flags is 0.4.
func TestPAICANRecoversPlantedAnomalies(t *testing.T) {
	const n, m, k = 300, 60, 3
	edgeBad := plantedMasks(n, 0, 15) // 20 vertices
	attrBad := plantedMasks(n, 7, 15) // 20 others
	cases := []struct {
		name          string
		opts          PAICAN
		seed          uint64
		edgePrecision float64 // bar for the precision of the edge flags
	}{
		{"dcsbm init", PAICAN{}, 1, 0.8},
		{"dcsbm init, other seed", PAICAN{}, 2, 0.8},
		{"random init", PAICAN{Init: PAICANInitRandom}, 3, 0.4},
		{"reference protocol", PAICAN{Protocol: PAICANProtocolReference}, 1, 0.8},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := paicanPlanted(5, n, m, k, 0.12, 0.01, 0.05, 0.3, 0.02, edgeBad, attrBad)
			res, err := tc.opts.Fit(context.Background(), in, k, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			keep := make([]bool, n)
			for i := range keep {
				keep[i] = !edgeBad[i] && !attrBad[i]
			}
			ari, err := metrics.ARIKept(in.Truth, res.Labels, keep)
			if err != nil {
				t.Fatal(err)
			}
			if ari < 0.8 {
				t.Errorf("ARI over the clean vertices %.3f, want ≥ 0.8", ari)
			}
			for _, f := range []struct {
				name      string
				want      []bool
				precision float64
			}{{FlagEdgeAnomalous, edgeBad, tc.edgePrecision}, {FlagAttributeAnomalous, attrBad, 0.8}} {
				got := res.Flags[f.name]
				if len(got) != n {
					t.Fatalf("flags %s: %d entries for %d vertices", f.name, len(got), n)
				}
				p, r := precisionRecall(got, f.want)
				t.Logf("%s: precision %.2f recall %.2f", f.name, p, r)
				if p < f.precision || r < 0.8 {
					t.Errorf("%s: precision %.2f, recall %.2f; want ≥ %.1f and ≥ 0.8", f.name, p, r, f.precision)
				}
			}
			t.Logf("ARI clean %.3f, %d iterations, info %v", ari, res.Iterations, res.Info)
		})
	}
}

// TestPAICANCleanGraphFlagsFew: on a planted graph without anomalies PAICAN recovers the
// clusters and flags under 5% of the vertices.
func TestPAICANCleanGraphFlagsFew(t *testing.T) {
	const n, m, k = 240, 40, 4
	none := make([]bool, n)
	in := paicanPlanted(9, n, m, k, 0.15, 0.01, 0, 0.3, 0.02, none, none)
	res, err := PAICAN{}.Fit(context.Background(), in, k, 1)
	if err != nil {
		t.Fatal(err)
	}
	ari, _ := metrics.ARI(in.Truth, res.Labels)
	if ari < 0.9 {
		t.Errorf("ARI %.3f, want ≥ 0.9", ari)
	}
	_, share, err := metrics.Unflagged(n, res.Flags)
	if err != nil {
		t.Fatal(err)
	}
	if share < 0.95 {
		t.Errorf("%.1f%% of the vertices of a clean graph flagged, want < 5%%", 100*(1-share))
	}
}

func TestPAICANDeterministic(t *testing.T) {
	const n, m, k = 150, 30, 3
	in := paicanPlanted(3, n, m, k, 0.12, 0.02, 0.05, 0.3, 0.02, plantedMasks(n, 0, 10), plantedMasks(n, 4, 10))
	for _, init := range []string{PAICANInitDCSBM, PAICANInitRandom} {
		a, err := PAICAN{Init: init}.Fit(context.Background(), in, k, 7)
		if err != nil {
			t.Fatal(err)
		}
		b, err := PAICAN{Init: init}.Fit(context.Background(), in, k, 7)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(a.Factors["z"], b.Factors["z"]) || !mat.Equal(a.Factors["c"], b.Factors["c"]) {
			t.Errorf("init %s: two fits with seed 7 differ", init)
		}
		if len(a.Objective) != len(b.Objective) || a.Objective[len(a.Objective)-1] != b.Objective[len(b.Objective)-1] {
			t.Errorf("init %s: ELBO curves differ", init)
		}
	}
}

func TestPAICANCancelled(t *testing.T) {
	in := paicanPlanted(3, 90, 20, 3, 0.2, 0.02, 0.05, 0.3, 0.02, make([]bool, 90), make([]bool, 90))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, init := range []string{PAICANInitDCSBM, PAICANInitRandom} {
		if _, err := (PAICAN{Init: init}).Fit(ctx, in, 3, 1); !errors.Is(err, context.Canceled) {
			t.Errorf("init %s: cancelled fit returned %v, want context.Canceled", init, err)
		}
	}
}

func TestPAICANOptions(t *testing.T) {
	cases := []struct {
		params map[string]any
		ok     bool
	}{
		{map[string]any{}, true},
		{map[string]any{"alpha": 1.5, "clean_prior": 100, "anomaly_prior": 0.5, "max_iter": 10, "tol": 1e-6, "init": "random"}, true},
		{map[string]any{"alpha": -1}, false},
		{map[string]any{"clean_prior": -2}, false},
		{map[string]any{"anomaly_prior": -0.1}, false},
		{map[string]any{"max_iter": -1}, false},
		{map[string]any{"tol": -1e-3}, false},
		{map[string]any{"init": "spectral"}, false},
		{map[string]any{"protocol": "reference"}, true},
		{map[string]any{"protocol": "authors"}, false},
		{map[string]any{"iterations": 10}, false},
	}
	for _, tc := range cases {
		_, err := New("paican", tc.params)
		if (err == nil) != tc.ok {
			t.Errorf("New(paican, %v): error %v, want ok=%v", tc.params, err, tc.ok)
		}
	}
}

func TestPAICANRefusesBadInput(t *testing.T) {
	in := paicanPlanted(3, 60, 10, 2, 0.2, 0.02, 0.05, 0.3, 0.02, make([]bool, 60), make([]bool, 60))
	asym := sparse.FromDense(mat.NewDense(3, 3, []float64{0, 1, 0, 0, 0, 1, 0, 1, 0}))
	x3 := sparse.FromDense(mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1}))
	cases := []struct {
		name string
		in   Input
		k    int
		opts PAICAN
	}{
		{"no attributes", Input{Adj: in.Adj}, 2, PAICAN{}},
		{"k too large", in, 61, PAICAN{}},
		{"k zero", in, 0, PAICAN{}},
		{"asymmetric adjacency", Input{Adj: asym, X: x3}, 2, PAICAN{}},
		{"infinite prior", in, 2, PAICAN{Alpha: math.Inf(1)}},
	}
	for _, tc := range cases {
		if _, err := tc.opts.Fit(context.Background(), tc.in, tc.k, 1); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	defer memory.SetLimit(0)
	memory.SetLimit(1000)
	if _, err := (PAICAN{}).Fit(context.Background(), in, 2, 1); !errors.Is(err, memory.ErrTooLarge) {
		t.Errorf("1000-byte budget: error %v, want memory.ErrTooLarge", err)
	}
}

// paicanPairLL returns the expected log-likelihood of the pair (i, j), i ≠ j, given
// vertex i's edges clean (clean, in cluster k) or anomalous, over q(c_j) and q(z_j), at
// p's parameters: the model's definition term by term.
func paicanPairLL(p *paicanModel, i, j int, clean bool, k int) float64 {
	aij := p.adj.At(i, j)
	poisson := func(rate float64) float64 { return aij*math.Log(rate) - rate }
	if clean {
		var good float64
		for l := 0; l < p.k; l++ {
			good += p.z.At(j, l) * poisson(p.theta[i]*p.theta[j]*p.eta[k*p.k+l])
		}
		return p.g[j]*good + p.b[j]*poissonOrZero(aij, p.deg[j]*p.etaBG)
	}
	return p.g[j]*poissonOrZero(aij, p.deg[i]*p.etaBG) + p.b[j]*poissonOrZero(aij, p.deg[i]*p.deg[j]*p.etaBB)
}

// poissonOrZero returns a·log(rate) − rate, with 0·log 0 = 0.
func poissonOrZero(a, rate float64) float64 {
	if a == 0 {
		return -rate
	}
	return a*math.Log(rate) - rate
}

// TestPAICANUpdatesMatchModel checks the sparse update terms against the model's
// definition summed over every pair on a small graph with soft posteriors: G_i and B_i
// (edgeTerms) exactly, and the edge part of log q(z_i = k) up to a constant in k.
func TestPAICANUpdatesMatchModel(t *testing.T) {
	const n, m, k = 24, 8, 3
	in := paicanPlanted(4, n, m, k, 0.4, 0.1, 0.2, 0.4, 0.1, plantedMasks(n, 0, 6), plantedMasks(n, 2, 6))
	adj, err := bagcEdgePattern(in.Adj)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	z := uniformDense(n, k, rng)
	for i := 0; i < n; i++ {
		softmaxInto(z.RawRowView(i), z.RawRowView(i))
	}
	p := newPaicanModel(adj, bagcBinaryPattern(attrtest.Sparse(in.X)), z, PAICAN{}.withDefaults())
	for i := 0; i < n; i++ {
		c := p.c.RawRowView(i)
		for s := range c {
			c[s] = rng.Float64() + 0.1
		}
		softmaxInto(c, c)
	}
	p.mstep()
	scores := make([]float64, k)
	for i := 0; i < n; i++ {
		perK := make([]float64, k) // clean edges, z_i = k: Σ_{j≠i} pair + self
		var bad float64
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			for r := 0; r < k; r++ {
				perK[r] += paicanPairLL(p, i, j, true, r)
			}
			bad += paicanPairLL(p, i, j, false, 0)
		}
		// Self-pairs: half the rate, the pair of i with itself drawn in i's own state.
		var good float64
		for r := 0; r < k; r++ {
			perK[r] -= 0.5 * p.theta[i] * p.theta[i] * p.eta[r*k+r]
			good += p.z.At(i, r) * perK[r]
		}
		bad -= 0.5 * p.deg[i] * p.deg[i] * p.etaBB
		// Pairs whose other end is i's own (soft) cluster count with the exclusion term:
		// the brute force above used E over z_j independently for j ≠ i, which is what κ
		// minus i's own share gives.
		g, b := p.edgeTerms(i)
		if d := math.Abs(g - good); d > 1e-9*math.Max(1, math.Abs(good)) {
			t.Errorf("vertex %d: G = %v, by the definition %v", i, g, good)
		}
		if d := math.Abs(b - bad); d > 1e-9*math.Max(1, math.Abs(bad)) {
			t.Errorf("vertex %d: B = %v, by the definition %v", i, b, bad)
		}
		p.zScores(scores, i)
		for r := 1; r < k; r++ {
			want := p.g[i]*(perK[r]-perK[0]) + p.a[i]*(p.ell.At(i, r)-p.ell.At(i, 0)) + (1-p.c.At(i, 3))*(p.logPi[r]-p.logPi[0])
			if got := scores[r] - scores[0]; math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("vertex %d: log q(z=%d) − log q(z=0) = %v, by the definition %v", i, r, got, want)
			}
		}
	}
}

// TestPAICANParametersMatchDefinitions checks the closed-form parameters of mstep against
// their definitions computed densely on a small graph.
func TestPAICANParametersMatchDefinitions(t *testing.T) {
	const n, m, k = 20, 6, 2
	in := paicanPlanted(8, n, m, k, 0.5, 0.1, 0.3, 0.5, 0.1, plantedMasks(n, 0, 5), plantedMasks(n, 1, 5))
	adj, _ := bagcEdgePattern(in.Adj)
	x := bagcBinaryPattern(attrtest.Sparse(in.X))
	rng := rand.New(rand.NewPCG(3, 4))
	z := uniformDense(n, k, rng)
	for i := 0; i < n; i++ {
		softmaxInto(z.RawRowView(i), z.RawRowView(i))
	}
	p := newPaicanModel(adj, x, z, PAICAN{}.withDefaults())
	for i := 0; i < n; i++ {
		c := p.c.RawRowView(i)
		for s := range c {
			c[s] = rng.Float64()
		}
		softmaxInto(c, c)
	}
	p.mstep()
	A, X := adj.Dense(), x.Dense()
	g := func(i int) float64 { return p.c.At(i, 0) + p.c.At(i, 2) }
	b := func(i int) float64 { return 1 - g(i) }
	a := func(i int) float64 { return p.c.At(i, 0) + p.c.At(i, 1) }
	theta := make([]float64, n)
	var mBG, mBB, degB, gSum float64
	for i := 0; i < n; i++ {
		var d float64
		for j := 0; j < n; j++ {
			theta[i] += A.At(i, j) * g(j)
			mBG += b(i) * A.At(i, j) * g(j)
			mBB += b(i) * A.At(i, j) * b(j)
			d += A.At(i, j)
		}
		degB += b(i) * d
		gSum += g(i)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %v, by definition %v", what, got, want)
		}
	}
	for i := 0; i < n; i++ {
		near("θ", p.theta[i], math.Max(theta[i], paicanEps))
	}
	near("η_bg", p.etaBG, mBG/(degB*gSum))
	near("η_bb", p.etaBB, mBB/(degB*degB))
	for r := 0; r < k; r++ {
		var kr float64
		for i := 0; i < n; i++ {
			kr += g(i) * p.theta[i] * z.At(i, r)
		}
		for l := 0; l < k; l++ {
			var mrl, kl float64
			for i := 0; i < n; i++ {
				kl += g(i) * p.theta[i] * z.At(i, l)
				for j := 0; j < n; j++ {
					mrl += g(i) * z.At(i, r) * A.At(i, j) * g(j) * z.At(j, l)
				}
			}
			near("η", p.eta[r*k+l], mrl/(kr*kl))
		}
		for d := 0; d < m; d++ {
			var num, den float64
			for i := 0; i < n; i++ {
				num += a(i) * z.At(i, r) * X.At(i, d)
				den += a(i) * z.At(i, r)
			}
			tt := num / den
			near("log t − log(1−t)", p.attrD.At(d, r), math.Log(tt)-math.Log(1-tt))
		}
		var kept, nk float64
		for i := 0; i < n; i++ {
			kept += 1 - p.c.At(i, 3)
			nk += (1 - p.c.At(i, 3)) * z.At(i, r)
		}
		near("log π", p.logPi[r], math.Log((nk+10)/(kept+float64(k)*10)))
	}
	beta := [4]float64{10, 1, 1, 1}
	for s := 0; s < 4; s++ {
		var cs float64
		for i := 0; i < n; i++ {
			cs += p.c.At(i, s)
		}
		near("log ρ", p.logRho[s], math.Log((cs+beta[s])/(float64(n)+13)))
	}
}

// TestPAICANIsolatedVertex: a vertex without edges is clustered by its attributes and
// the fit stays finite.
func TestPAICANIsolatedVertex(t *testing.T) {
	const n, m, k = 60, 20, 2
	in := paicanPlanted(6, n, m, k, 0.3, 0.02, 0.05, 0.5, 0.02, make([]bool, n), make([]bool, n))
	d := in.Adj.Dense()
	for j := 0; j < n; j++ {
		d.Set(0, j, 0)
		d.Set(j, 0, 0)
	}
	in.Adj = sparse.FromDense(d)
	res, err := PAICAN{}.Fit(context.Background(), in, k, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range res.Objective {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("ELBO %v", v)
		}
	}
	ari, _ := metrics.ARI(in.Truth, res.Labels)
	if ari < 0.8 {
		t.Errorf("ARI %.3f with one isolated vertex, want ≥ 0.8", ari)
	}
}

// TestPAICANIterationAllocates: an iteration (both updates, both parameter passes and the
// ELBO) allocates nothing.
func TestPAICANIterationAllocates(t *testing.T) {
	const n, m, k = 120, 30, 3
	in := paicanPlanted(3, n, m, k, 0.15, 0.02, 0.05, 0.3, 0.02, plantedMasks(n, 0, 10), plantedMasks(n, 4, 10))
	adj, _ := bagcEdgePattern(in.Adj)
	p := newPaicanModel(adj, bagcBinaryPattern(attrtest.Sparse(in.X)), paicanRandomZ(n, k, newRand(1)), PAICAN{}.withDefaults())
	p.mstep()
	allocs := testing.AllocsPerRun(5, func() {
		p.updateZ()
		p.mstep()
		p.updateC()
		p.mstep()
		_ = p.elbo()
	})
	if allocs > 0 {
		t.Errorf("%v allocations per iteration, want 0", allocs)
	}
}

// TestPAICANMemoryEstimate checks the estimate against its terms for Cora's sizes.
func TestPAICANMemoryEstimate(t *testing.T) {
	const n, m, nnzA, nnzX, k = 2708, 1433, 10556, 49216, 7
	want := uint64((nnzA+n)*88 + 2*nnzX*16 + (4*n+m)*8 + 12*n*k*8 + 5*m*k*8 + 8*n*(k+10)*8)
	if got := paicanMemory(n, m, nnzA, nnzX, k); got != want {
		t.Errorf("estimate %d bytes, want %d", got, want)
	}
	if got := paicanMemory(1<<40, 1<<40, 1<<50, 1<<50, 1<<20); got != math.MaxUint64 {
		t.Errorf("estimate for absurd sizes %d, want saturation at MaxUint64", got)
	}
}

// BenchmarkPAICANIteration times one variational EM iteration of PAICAN (both updates,
// both parameter passes, the ELBO) on each paper graph, from a random start.
func BenchmarkPAICANIteration(b *testing.B) {
	for _, name := range datasets.PaperNames() {
		b.Run(name, func(b *testing.B) {
			g := benchGraph(b, name)
			adj, err := bagcEdgePattern(g.Adj)
			if err != nil {
				b.Fatal(err)
			}
			n, k := g.N(), g.K()
			p := newPaicanModel(adj, bagcBinaryPattern(attrtest.Sparse(g.X)), paicanRandomZ(n, k, newRand(1)), PAICAN{}.withDefaults())
			p.mstep()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p.updateZ()
				p.mstep()
				p.updateC()
				p.mstep()
				_ = p.elbo()
			}
		})
	}
}

// BenchmarkPAICANInit times the DC-SBM initialisation (spectral clustering, then the
// DC-SBM's variational EM) on each paper graph.
func BenchmarkPAICANInit(b *testing.B) {
	for _, name := range datasets.PaperNames() {
		b.Run(name, func(b *testing.B) {
			g := benchGraph(b, name)
			adj, err := bagcEdgePattern(g.Adj)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				if _, err := fitPaicanDCSBM(context.Background(), adj, g.K(), false, newRand(uint64(i))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPAICANDCSBMInitRecovers: the DC-SBM initialisation alone recovers planted clusters
// (ARI ≥ 0.9) under both protocols, and is deterministic by seed.
func TestPAICANDCSBMInitRecovers(t *testing.T) {
	const n, m, k = 240, 10, 4
	none := make([]bool, n)
	in := paicanPlanted(12, n, m, k, 0.15, 0.01, 0, 0.3, 0.02, none, none)
	adj, err := bagcEdgePattern(in.Adj)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []bool{false, true} {
		a, err := fitPaicanDCSBM(context.Background(), adj, k, ref, newRand(4))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := fitPaicanDCSBM(context.Background(), adj, k, ref, newRand(4))
		if !mat.Equal(a.z, b.z) {
			t.Errorf("reference %v: two fits with one seed differ", ref)
		}
		ari, _ := metrics.ARI(in.Truth, ArgmaxRows(a.z))
		if ari < 0.9 || a.sweeps < 1 || math.IsNaN(a.elbo) {
			t.Errorf("reference %v: ARI %.3f after %d sweeps (ELBO %v), want ≥ 0.9", ref, ari, a.sweeps, a.elbo)
		}
	}
}

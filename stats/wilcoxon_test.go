package stats

import (
	"math"
	"testing"
)

// The expected values are scipy.stats.wilcoxon's (scipy 1.10.1, Debian's python3-scipy).
// The first case is the example of scipy's documentation (the differences of Darwin's
// maize heights, statistic 24, exact p 0.041259765625); the others were computed with
// wilcoxon(x, y, correction=True), the options Wilcoxon states.
func TestWilcoxon(t *testing.T) {
	maize := []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75}
	n60 := []float64{0.426, 0.168, 0.94, 0.405, -0.236, 0.662, 1.604, 1.247, -0.404, -0.965, -0.323, 0.341, -2.025, 0.081, -0.946, -0.432, -0.244, -0.016, 0.712, 1.343, 0.171, 1.666, -0.365, 0.652, 1.203, 0.394, -0.443, -0.622, -0.158, 0.52, -0.71, 0.091, 0.141, 0.841, 0.515, 0.655, -0.354, 0.17, 1.084, 1.793, -0.959, 1.814, 1.646, 1.081, 0.564, -0.014, 1.758, 2.26, 2.102, 1.615, 0.657, -0.908, 0.296, 0.956, -0.988, 0.695, 0.73, 0.996, -0.884, -0.362}
	for _, c := range []struct {
		name      string
		x, y      []float64
		statistic float64
		p         float64
		exact     bool
		n, zeros  int
	}{
		{"scipy doc example, exact", maize, nil, 24, 0.041259765625, true, 15, 0},
		// wilcoxon(x, y, correction=True): one zero difference dropped, tied |d|, so the
		// normal approximation.
		{"ties and a zero", []float64{0.5, 0.6, 0.6, 0.7, 0.8, 0.5, 0.9, 0.3}, []float64{0.4, 0.5, 0.6, 0.6, 0.6, 0.4, 0.5, 0.5}, 5, 0.14343261961361004, false, 7, 1},
		// wilcoxon(d, correction=True, method="approx"): tied |d| without zeros.
		{"ties", []float64{1, 2, 2, 3, -1, 4, 5, 5, 6, -2}, nil, 5.5, 0.027801830120072507, false, 10, 0},
		{"n = 60 > 50", n60, nil, 517, 0.0034308924519063488, false, 60, 0},
		{"n = 5, all positive: the smallest two-sided p", []float64{1, 2, 3, 4, 5}, nil, 0, 0.0625, true, 5, 0},
		{"n = 6", []float64{1, -2, 3, 4, 5, 6}, nil, 2, 0.09375, true, 6, 0},
		{"centre of the distribution", []float64{1, -2, -3, 4}, nil, 5, 1, true, 4, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			y := c.y
			if y == nil {
				y = make([]float64, len(c.x))
			}
			r, err := Wilcoxon(c.x, y)
			if err != nil {
				t.Fatal(err)
			}
			if r.Statistic != c.statistic || r.Exact != c.exact || r.N != c.n || r.Zeros != c.zeros {
				t.Errorf("statistic %v exact %v n %d zeros %d, want %v %v %d %d", r.Statistic, r.Exact, r.N, r.Zeros, c.statistic, c.exact, c.n, c.zeros)
			}
			if math.Abs(r.P-c.p) > 1e-12 {
				t.Errorf("p = %.17g, want %.17g", r.P, c.p)
			}
			if r.WPlus+r.WMinus != float64(r.N*(r.N+1))/2 {
				t.Errorf("W+ %v + W− %v is not the sum of ranks 1…%d", r.WPlus, r.WMinus, r.N)
			}
		})
	}
}

// TestWilcoxonOneSided checks the one-sided tests against scipy.stats.wilcoxon(…,
// alternative="greater" or "less", correction=True) (scipy 1.10.1); the first pair is
// the documentation's example (p 0.0206298828125 for "greater").
func TestWilcoxonOneSided(t *testing.T) {
	maize := []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75}
	ties := []float64{1, 2, 2, 3, -1, 4, 5, 5, 6, -2}
	for _, c := range []struct {
		name      string
		d         []float64
		alt       Alternative
		statistic float64
		p         float64
	}{
		{"maize greater", maize, Greater, 96, 0.0206298828125},
		{"maize less", maize, Less, 96, 0.982330322265625},
		{"ties greater", ties, Greater, 49.5, 0.013900915060036254},
		{"ties less", ties, Less, 49.5, 0.9893436958330899},
		// Tied differences: the normal approximation.
		{"five equal", []float64{0.1, 0.1, 0.1, 0.1, 0.1}, Greater, 15, 0.018444212853524936},
		// Exact: P(W+ ≥ 15) = 1/2⁵.
		{"five distinct", []float64{1, 2, 3, 4, 5}, Greater, 15, 1.0 / 32},
	} {
		r, err := WilcoxonTest(c.d, make([]float64, len(c.d)), c.alt)
		if err != nil {
			t.Fatal(err)
		}
		if r.Statistic != c.statistic || math.Abs(r.P-c.p) > 1e-12 {
			t.Errorf("%s: statistic %v p %.17g, want %v %.17g", c.name, r.Statistic, r.P, c.statistic, c.p)
		}
	}
}

func TestWilcoxonErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		x, y []float64
	}{
		{"lengths", []float64{1, 2}, []float64{1}},
		{"all zero", []float64{1, 2}, []float64{1, 2}},
		{"NaN", []float64{math.NaN(), 2}, []float64{1, 1}},
	} {
		if _, err := Wilcoxon(c.x, c.y); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// TestWilcoxonExactDistribution checks the counted distribution against the one
// enumerated over all 2ⁿ sign patterns for small n.
func TestWilcoxonExactDistribution(t *testing.T) {
	for n := 1; n <= 12; n++ {
		total := n * (n + 1) / 2
		le := make([]int, total+1)
		for mask := 0; mask < 1<<n; mask++ {
			s := 0
			for i := range n {
				if mask>>i&1 == 1 {
					s += i + 1
				}
			}
			le[s]++
		}
		cum := 0
		for w := 0; 2*w < total; w++ {
			cum += le[w]
			want := math.Min(1, 2*float64(cum)/float64(int(1)<<n))
			if got := wilcoxonExactP(n, w); math.Abs(got-want) > 1e-15 {
				t.Errorf("n %d w %d: p %v, enumerated %v", n, w, got, want)
			}
		}
	}
}

func TestRank(t *testing.T) {
	got := Rank([]float64{0.931, 0.936, 0.916, 0.931})
	want := []float64{2.5, 4, 1, 2.5} // scipy.stats.rankdata([...]) (average ties)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Rank = %v, want %v", got, want)
		}
	}
}

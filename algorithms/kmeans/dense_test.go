package kmeans

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// planted returns n rows in m dimensions around k class means drawn uniformly in [0, 10)ᵐ,
// with Gaussian noise of the given spread, absolute values (as attributes of the scale
// benchmarks), and the classes.
func planted(rng *rand.Rand, n, m, k int, spread float64) ([]float64, []int) {
	means := make([]float64, k*m)
	for p := range means {
		means[p] = 10 * rng.Float64()
	}
	x, truth := make([]float64, n*m), make([]int, n)
	for i := range n {
		c := rng.IntN(k)
		truth[i] = c
		for j := range m {
			x[i*m+j] = math.Abs(means[c*m+j] + spread*rng.NormFloat64())
		}
	}
	return x, truth
}

// referenceFit is k-means by the book, for the tests: the protocol of FitDense (greedy
// k-means++ with the same draws, Lloyd's iterations, the same stopping rules and empty
// cluster rule) with every distance computed directly and every row compared with every
// centre at every iteration.
func referenceFit(x []float64, n, m int, cfg Config, rng *rand.Rand) ([]int, [][]float64, float64, int) {
	cfg = cfg.withDefaults()
	k := cfg.K
	d2 := func(a, b []float64) float64 {
		var s float64
		for j := range a {
			s += (a[j] - b[j]) * (a[j] - b[j])
		}
		return s
	}
	row := func(i int) []float64 { return x[i*m : (i+1)*m] }
	mean, variance := make([]float64, m), 0.0
	for i := range n {
		for j, v := range row(i) {
			mean[j] += v / float64(n)
		}
	}
	for i := range n {
		for j, v := range row(i) {
			variance += (v - mean[j]) * (v - mean[j]) / float64(n*m)
		}
	}
	tol := cfg.Tol * variance
	var bestLabels []int
	var bestCenters [][]float64
	bestInertia, bestIter := math.Inf(1), 0
	for range cfg.NInit {
		centers := make([][]float64, 0, k)
		first := rng.IntN(n)
		centers = append(centers, append([]float64(nil), row(first)...))
		closest := make([]float64, n)
		for i := range n {
			closest[i] = d2(row(i), centers[0])
		}
		trials := 2 + int(math.Log(float64(k)))
		for len(centers) < k {
			var pot float64
			for _, v := range closest {
				pot += v
			}
			cand := make([]int, trials)
			for t := range cand {
				cand[t] = sampleProportional(closest, pot, rng)
			}
			var keep []float64
			keepPot, keepRow := math.Inf(1), 0
			for _, r := range cand {
				d := make([]float64, n)
				var p float64
				for i := range n {
					d[i] = min(closest[i], d2(row(i), row(r)))
					p += d[i]
				}
				if p < keepPot {
					keep, keepPot, keepRow = d, p, r
				}
			}
			closest = keep
			centers = append(centers, append([]float64(nil), row(keepRow)...))
		}
		labels, prev := make([]int, n), make([]int, n)
		nearest := func() {
			for i := range n {
				best, bd := 0, math.Inf(1)
				for c := range k {
					if d := d2(row(i), centers[c]); d < bd {
						best, bd = c, d
					}
				}
				labels[i] = best
			}
		}
		iter := 0
		for iter < cfg.MaxIter {
			iter++
			nearest()
			counts := make([]int, k)
			sums := make([][]float64, k)
			for c := range sums {
				sums[c] = make([]float64, m)
			}
			for i, l := range labels {
				counts[l]++
				for j, v := range row(i) {
					sums[l][j] += v
				}
			}
			for c := range k {
				if counts[c] > 0 {
					continue
				}
				far, farD := -1, -1.0
				for i, l := range labels {
					if d := d2(row(i), centers[l]); counts[l] > 1 && d > farD {
						far, farD = i, d
					}
				}
				l := labels[far]
				for j, v := range row(far) {
					sums[l][j] -= v
					sums[c][j] = v
				}
				counts[l]--
				counts[c] = 1
			}
			var shift float64
			for c := range k {
				next := make([]float64, m)
				for j := range next {
					next[j] = sums[c][j] * (1 / float64(counts[c]))
				}
				shift += d2(next, centers[c])
				centers[c] = next
			}
			same := iter > 1
			for i := range labels {
				same = same && labels[i] == prev[i]
			}
			copy(prev, labels)
			if same || shift <= tol {
				break
			}
		}
		nearest()
		var inertia float64
		for i, l := range labels {
			inertia += d2(row(i), centers[l])
		}
		if inertia < bestInertia {
			bestLabels, bestCenters, bestInertia, bestIter = append([]int(nil), labels...), centers, inertia, iter
		}
	}
	return bestLabels, bestCenters, bestInertia, bestIter
}

var denseCases = []struct {
	n, m, k int
	spread  float64
}{
	{60, 3, 1, 1},
	{200, 5, 3, 0.5},
	{300, 8, 6, 2},
	{500, 16, 10, 3},
	{700, 12, 20, 4},
	{400, 2, 7, 6}, // heavily overlapping
}

func TestFitDenseMatchesReference(t *testing.T) {
	for _, c := range denseCases {
		name := fmt.Sprintf("n=%d m=%d k=%d spread=%v", c.n, c.m, c.k, c.spread)
		x, _ := planted(rand.New(rand.NewPCG(uint64(c.n), 1)), c.n, c.m, c.k, c.spread)
		cfg := Config{K: c.k, NInit: 3}
		got, err := FitDense(context.Background(), x, c.n, c.m, cfg, rand.New(rand.NewPCG(4, 2)))
		if err != nil {
			t.Fatal(err)
		}
		labels, centers, inertia, iter := referenceFit(x, c.n, c.m, cfg, rand.New(rand.NewPCG(4, 2)))
		if math.Abs(got.Inertia-inertia) > 1e-9*inertia {
			t.Errorf("%s: inertia %v, reference %v", name, got.Inertia, inertia)
		}
		if got.Iterations != iter {
			t.Errorf("%s: %d iterations, reference %d", name, got.Iterations, iter)
		}
		for i := range labels {
			if got.Labels[i] != labels[i] {
				t.Fatalf("%s: row %d in cluster %d, reference %d", name, i, got.Labels[i], labels[i])
			}
		}
		for cl := range c.k {
			for j := range c.m {
				if g, w := got.Centers.At(cl, j), centers[cl][j]; math.Abs(g-w) > 1e-9*(1+math.Abs(w)) {
					t.Fatalf("%s: centre %d column %d is %v, reference %v", name, cl, j, g, w)
				}
			}
		}
	}
}

// TestFitDenseFloat32 checks that float32 input (distances from float32 products) gives
// the fit of the same values widened to float64 (float64 products), and one close to
// that of the unrounded float64 data.
func TestFitDenseFloat32(t *testing.T) {
	for _, c := range denseCases[1:4] {
		x, _ := planted(rand.New(rand.NewPCG(uint64(c.n), 3)), c.n, c.m, c.k, c.spread)
		x32, wide := make([]float32, len(x)), make([]float64, len(x))
		for p, v := range x {
			x32[p] = float32(v)
			wide[p] = float64(x32[p])
		}
		cfg := Config{K: c.k, NInit: 2}
		a, err := FitDense(context.Background(), x32, c.n, c.m, cfg, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := FitDense(context.Background(), wide, c.n, c.m, cfg, rand.New(rand.NewPCG(1, 1)))
		full, _ := FitDense(context.Background(), x, c.n, c.m, cfg, rand.New(rand.NewPCG(1, 1)))
		if !samePartition(a.Labels, b.Labels) || math.Abs(a.Inertia-b.Inertia) > 1e-9*b.Inertia {
			t.Errorf("n=%d: float32 gives inertia %v, its float64 widening %v", c.n, a.Inertia, b.Inertia)
		}
		if math.Abs(a.Inertia-full.Inertia) > 1e-5*full.Inertia {
			t.Errorf("n=%d: float32 inertia %v, float64 %v", c.n, a.Inertia, full.Inertia)
		}
		if !samePartition(a.Labels, full.Labels) {
			t.Errorf("n=%d: float32 and float64 partitions differ", c.n)
		}
	}
}

func sameBits(a, b *Result) error {
	if math.Float64bits(a.Inertia) != math.Float64bits(b.Inertia) || a.Iterations != b.Iterations {
		return fmt.Errorf("inertia %v after %d iterations vs %v after %d", a.Inertia, a.Iterations, b.Inertia, b.Iterations)
	}
	for i := range a.Labels {
		if a.Labels[i] != b.Labels[i] {
			return fmt.Errorf("row %d in cluster %d vs %d", i, a.Labels[i], b.Labels[i])
		}
	}
	g, w := a.Centers.RawMatrix().Data, b.Centers.RawMatrix().Data
	for p := range g {
		if math.Float64bits(g[p]) != math.Float64bits(w[p]) {
			return fmt.Errorf("centre entry %d is %v vs %v", p, g[p], w[p])
		}
	}
	return nil
}

// TestFitDenseThreadInvariant checks bit-identical results for 1, 2 and 3 threads, with
// tasks small enough that each thread gets many.
func TestFitDenseThreadInvariant(t *testing.T) {
	defer func(r int) { taskRows = r }(taskRows)
	taskRows = 40
	defer parallel.SetThreads(parallel.SetThreads(1))
	x, _ := planted(rand.New(rand.NewPCG(7, 7)), 900, 10, 12, 3)
	x32 := make([]float32, len(x))
	for p, v := range x {
		x32[p] = float32(v)
	}
	var want, want32 *Result
	for _, th := range []int{1, 2, 3} {
		parallel.SetThreads(th)
		got, err := FitDense(context.Background(), x, 900, 10, Config{K: 12, NInit: 3}, rand.New(rand.NewPCG(5, 5)))
		if err != nil {
			t.Fatal(err)
		}
		got32, _ := FitDense(context.Background(), x32, 900, 10, Config{K: 12, NInit: 3}, rand.New(rand.NewPCG(5, 5)))
		if want == nil {
			want, want32 = got, got32
			continue
		}
		if err := sameBits(got, want); err != nil {
			t.Errorf("float64, %d threads vs 1: %v", th, err)
		}
		if err := sameBits(got32, want32); err != nil {
			t.Errorf("float32, %d threads vs 1: %v", th, err)
		}
	}
}

// countingCtx reports cancellation from its (after+1)-th Err call on.
type countingCtx struct {
	context.Context
	after, calls int
}

func (c *countingCtx) Err() error {
	c.calls++
	if c.calls > c.after {
		return context.Canceled
	}
	return nil
}

// TestFitDenseCancel checks that a fit returns at the first check after cancellation, and
// that it checks at least once per Lloyd iteration.
func TestFitDenseCancel(t *testing.T) {
	x, _ := planted(rand.New(rand.NewPCG(2, 2)), 400, 6, 5, 4)
	cfg := Config{K: 5, NInit: 2}
	ctx := &countingCtx{Context: context.Background(), after: math.MaxInt}
	res, err := FitDense(ctx, x, 400, 6, cfg, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if ctx.calls < res.Iterations {
		t.Errorf("%d checks for %d iterations", ctx.calls, res.Iterations)
	}
	for _, after := range []int{0, 1, 3, ctx.calls / 2, ctx.calls - 1} {
		c := &countingCtx{Context: context.Background(), after: after}
		if _, err := FitDense(c, x, 400, 6, cfg, rand.New(rand.NewPCG(1, 1))); err != context.Canceled {
			t.Errorf("cancelled after %d checks: got %v", after, err)
		}
		if c.calls != after+1 {
			t.Errorf("cancelled after %d checks: went on to %d checks", after, c.calls)
		}
	}
}

func TestFitDenseErrors(t *testing.T) {
	x := []float64{1, 0, 0, 1, 1, 1}
	for _, c := range []struct {
		x    []float64
		n, m int
		cfg  Config
	}{
		{x, 3, 2, Config{K: 0}},
		{x, 3, 2, Config{K: 4}},
		{x, 3, 2, Config{K: 2, NInit: -1}},
		{x, 2, 2, Config{K: 2}},
		{x, 0, 2, Config{K: 1}},
		{[]float64{1, math.NaN(), 0, 1}, 2, 2, Config{K: 1}},
		{[]float64{1, 2, math.Inf(1), 1}, 2, 2, Config{K: 1}},
	} {
		if _, err := FitDense(context.Background(), c.x, c.n, c.m, c.cfg, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%d×%d %v %+v accepted", c.n, c.m, c.x, c.cfg)
		}
	}
}

func TestFitDenseDuplicates(t *testing.T) {
	// Five identical rows and one other into three clusters: a cluster empties and takes
	// the farthest row; every label stays valid and the fit is exact.
	x := []float32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9, 9}
	res, err := FitDense(context.Background(), x, 6, 2, Config{K: 3}, rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range res.Labels {
		if l < 0 || l >= 3 {
			t.Fatalf("label %d out of range", l)
		}
	}
	if math.IsNaN(res.Inertia) || res.Inertia > 1e-9 {
		t.Errorf("inertia %v, want 0", res.Inertia)
	}
}

// TestLloydAllocatesNothing checks that Lloyd's iterations allocate nothing, on two
// threads.
func TestLloydAllocatesNothing(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(2))
	x, _ := planted(rand.New(rand.NewPCG(3, 3)), 3000, 8, 6, 3)
	f := newDenseFitter(x, 3000, 8, 6, 2)
	defer f.pool.Close()
	rng := rand.New(rand.NewPCG(1, 1))
	allocs := testing.AllocsPerRun(5, func() {
		if err := f.seed(context.Background(), rng); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.lloyd(context.Background(), 300, 1e-6); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("k-means++ and Lloyd's iterations allocate %v times per run", allocs)
	}
}

func ExampleFitDense() {
	// Four points in the plane, two groups.
	x := []float32{0, 0, 0, 1, 10, 10, 10, 11}
	res, err := FitDense(context.Background(), x, 4, 2, Config{K: 2}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Labels[0] == res.Labels[1], res.Labels[2] == res.Labels[3], res.Labels[0] != res.Labels[2])
	fmt.Printf("inertia %.1f, centres %v and %v\n", res.Inertia, res.Centers.RawRowView(res.Labels[0]), res.Centers.RawRowView(res.Labels[2]))
	// Output:
	// true true true
	// inertia 1.0, centres [0 0.5] and [10 10.5]
}

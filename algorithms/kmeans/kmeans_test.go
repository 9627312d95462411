package kmeans

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
)

// blobs returns n points in m dimensions around k well-separated centres, and their truth.
func blobs(rng *rand.Rand, n, m, k int, spread float64) (*sparse.CSR, []int) {
	d := mat.NewDense(n, m, nil)
	truth := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % k
		truth[i] = c
		for j := 0; j < m; j++ {
			v := spread * rng.Float64()
			if j%k == c {
				v += 5
			}
			d.Set(i, j, v)
		}
	}
	return sparse.FromDense(d), truth
}

func samePartition(a, b []int) bool {
	ab, ba := map[int]int{}, map[int]int{}
	for i := range a {
		if x, ok := ab[a[i]]; ok && x != b[i] {
			return false
		}
		if y, ok := ba[b[i]]; ok && y != a[i] {
			return false
		}
		ab[a[i]], ba[b[i]] = b[i], a[i]
	}
	return true
}

func TestRecoversBlobs(t *testing.T) {
	for _, k := range []int{2, 3, 5} {
		rng := rand.New(rand.NewPCG(uint64(k), 7))
		x, truth := blobs(rng, 200, 10, k, 1)
		res, err := Fit(x, Config{K: k}, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if !samePartition(res.Labels, truth) {
			t.Errorf("k=%d: blobs not recovered", k)
		}
		// Inertia must equal the direct sum of squared distances to the centres.
		var want float64
		for i, l := range res.Labels {
			for j := 0; j < 10; j++ {
				d := x.At(i, j) - res.Centers.At(l, j)
				want += d * d
			}
		}
		if math.Abs(res.Inertia-want) > 1e-8*want {
			t.Errorf("k=%d: inertia %v, direct %v", k, res.Inertia, want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	x, _ := blobs(rng, 150, 8, 4, 6)
	a, _ := Fit(x, Config{K: 4}, rand.New(rand.NewPCG(42, 0)))
	b, _ := Fit(x, Config{K: 4}, rand.New(rand.NewPCG(42, 0)))
	if a.Inertia != b.Inertia || fmt.Sprint(a.Labels) != fmt.Sprint(b.Labels) {
		t.Error("same seed gave different results")
	}
}

func TestMoreInitsNeverWorse(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	x, _ := blobs(rng, 300, 12, 6, 8)
	one, _ := Fit(x, Config{K: 6, NInit: 1}, rand.New(rand.NewPCG(3, 0)))
	ten, _ := Fit(x, Config{K: 6, NInit: 10}, rand.New(rand.NewPCG(3, 0)))
	if ten.Inertia > one.Inertia {
		t.Errorf("10 inits inertia %v > first init's %v", ten.Inertia, one.Inertia)
	}
}

func TestDistances(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	x, _ := blobs(rng, 30, 6, 3, 2)
	centers := mat.NewDense(3, 6, nil)
	centers.Apply(func(i, j int, _ float64) float64 { return rng.Float64() * 3 }, centers)
	got := mat.NewDense(30, 3, nil)
	Distances(got, x, centers)
	for i := 0; i < 30; i++ {
		for c := 0; c < 3; c++ {
			var s float64
			for j := 0; j < 6; j++ {
				d := x.At(i, j) - centers.At(c, j)
				s += d * d
			}
			if math.Abs(got.At(i, c)-math.Sqrt(s)) > 1e-9 {
				t.Fatalf("distance (%d,%d) = %v, want %v", i, c, got.At(i, c), math.Sqrt(s))
			}
		}
	}
}

func TestErrors(t *testing.T) {
	x := sparse.FromDense(mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1}))
	for _, cfg := range []Config{{K: 0}, {K: 4}, {K: 2, NInit: -1}} {
		if _, err := Fit(x, cfg, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
}

func TestDuplicatePointsEmptyClusterRelocated(t *testing.T) {
	// Five identical points and one other: k = 3 forces an empty cluster at some point;
	// every label must still be valid and inertia finite.
	x := sparse.FromDense(mat.NewDense(6, 2, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9, 9}))
	res, err := Fit(x, Config{K: 3}, rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range res.Labels {
		if l < 0 || l >= 3 {
			t.Fatalf("label %d out of range", l)
		}
	}
	if math.IsNaN(res.Inertia) || res.Inertia > 1e-9 {
		t.Errorf("inertia %v, want 0 (duplicates can be fitted exactly)", res.Inertia)
	}
}

func ExampleFit() {
	x := sparse.FromDense(mat.NewDense(4, 2, []float64{0, 0, 0, 1, 10, 10, 10, 11}))
	res, _ := Fit(x, Config{K: 2}, rand.New(rand.NewPCG(1, 2)))
	fmt.Println(res.Labels[0] == res.Labels[1], res.Labels[2] == res.Labels[3], res.Labels[0] != res.Labels[2])
	fmt.Printf("inertia %.1f\n", res.Inertia)
	// Output:
	// true true true
	// inertia 1.0
}

func TestFitContextCancelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	x, _ := blobs(rng, 100, 8, 4, 6)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := FitContext(ctx, x, Config{K: 4}, rng); err != context.Canceled {
		t.Errorf("cancelled fit returned %v", err)
	}
}

// TestDenseCopySameBits checks that k-means on a dense copy of its data (denseEnough)
// gives the labels, centres, inertia and iterations of k-means on the sparse rows, bit
// for bit, for densities from a quarter to full, and that the copy is made only for
// dense, non-negative data.
func TestDenseCopySameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, c := range []struct {
		n, m, k int
		density float64
		neg     bool
		full    bool
	}{
		{150, 40, 3, 0.3, false, true},
		{200, 25, 5, 0.6, false, true},
		{90, 12, 8, 1, false, true},
		{120, 30, 4, 0.1, false, false},
		{120, 30, 4, 0.8, true, false},
	} {
		d := mat.NewDense(c.n, c.m, nil)
		for i := 0; i < c.n; i++ {
			for j := 0; j < c.m; j++ {
				if rng.Float64() < c.density {
					v := rng.Float64() + float64((i%c.k+j)%c.k)
					if c.neg && rng.IntN(5) == 0 {
						v = -v
					}
					d.Set(i, j, v)
				}
			}
		}
		x := sparse.FromDense(d)
		name := fmt.Sprintf("n=%d m=%d k=%d density=%v", c.n, c.m, c.k, c.density)
		if got := newWorkspace(x, c.k).full != nil; got != c.full {
			t.Fatalf("%s: dense copy %v, want %v", name, got, c.full)
		}
		cfg := Config{K: c.k, NInit: 4}
		got, err := Fit(x, cfg, rand.New(rand.NewPCG(9, 9)))
		if err != nil {
			t.Fatal(err)
		}
		useFull = false
		want, err := Fit(x, cfg, rand.New(rand.NewPCG(9, 9)))
		useFull = true
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(got.Inertia) != math.Float64bits(want.Inertia) || got.Iterations != want.Iterations {
			t.Errorf("%s: inertia %v after %d iterations, sparse rows give %v after %d", name, got.Inertia, got.Iterations, want.Inertia, want.Iterations)
		}
		for i, l := range want.Labels {
			if got.Labels[i] != l {
				t.Fatalf("%s: row %d in cluster %d, sparse rows give %d", name, i, got.Labels[i], l)
			}
		}
		g, w := got.Centers.RawMatrix().Data, want.Centers.RawMatrix().Data
		for i := range w {
			if math.Float64bits(g[i]) != math.Float64bits(w[i]) {
				t.Fatalf("%s: centre entry %d is %v, sparse rows give %v", name, i, g[i], w[i])
			}
		}
	}
}

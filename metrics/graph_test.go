package metrics

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
)

// undirected builds the symmetric n×n adjacency of the given edges with unit weights.
func undirected(n int, edges [][2]int) *sparse.CSR {
	b := sparse.NewBuilder(n, n)
	for _, e := range edges {
		_ = b.Add(e[0], e[1], 1)
		_ = b.Add(e[1], e[0], 1)
	}
	return b.CSR(sparse.MaxDuplicates)
}

// denseModularity is the definition evaluated with a double loop over all vertex pairs.
func denseModularity(a [][]float64, labels []int) float64 {
	var total float64
	for _, row := range a {
		for _, v := range row {
			total += v
		}
	}
	e := map[int]float64{}
	ai := map[int]float64{}
	for u := range a {
		for v := range a[u] {
			ai[labels[u]] += a[u][v] / total
			if labels[u] == labels[v] {
				e[labels[u]] += a[u][v] / total
			}
		}
	}
	var q float64
	for c, x := range ai {
		q += e[c] - x*x
	}
	return q
}

func TestModularityHand(t *testing.T) {
	triangles := undirected(6, [][2]int{{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}})
	// Two triangles joined by the edge 2–3: 14 directed entries, e_00 = e_11 = 6/14,
	// a_0 = a_1 = 7/14, Q = 2(6/14 − 1/4) = 5/14.
	bridged := undirected(6, [][2]int{{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {2, 3}})
	for _, tc := range []struct {
		name   string
		adj    *sparse.CSR
		labels []int
		want   float64
	}{
		{"triangles by triangle", triangles, []int{0, 0, 0, 1, 1, 1}, 0.5},
		{"triangles sparse labels", triangles, []int{9, 9, 9, 1 << 50, 1 << 50, 1 << 50}, 0.5},
		{"triangles one cluster", triangles, []int{4, 4, 4, 4, 4, 4}, 0},
		// Singletons: e_ii = 0, a_i = 2/12 each: Q = −6/36.
		{"triangles singletons", triangles, []int{0, 1, 2, 3, 4, 5}, -1.0 / 6},
		{"bridged", bridged, []int{0, 0, 0, 1, 1, 1}, 5.0 / 14},
		// Single edge, self-loop-free, split: Q = 0 − 2·(1/2)² = −1/2.
		{"edge split", undirected(2, [][2]int{{0, 1}}), []int{0, 1}, -0.5},
	} {
		q, err := Modularity(tc.adj, tc.labels)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(q-tc.want) > tol {
			t.Errorf("%s: Q = %v, want %v", tc.name, q, tc.want)
		}
		for _, f := range []float64{0.001, 3, 1e6} {
			qs, err := Modularity(tc.adj.Scaled(f), tc.labels)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(qs-q) > tol {
				t.Errorf("%s: Q(scaled by %v) = %v, want %v", tc.name, f, qs, q)
			}
		}
	}
}

func TestModularityRandom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 50; trial++ {
		n := 2 + rnd.IntN(40)
		symmetric := trial%2 == 0
		a := make([][]float64, n)
		for i := range a {
			a[i] = make([]float64, n)
		}
		for u := 0; u < n; u++ {
			for v := 0; v < n; v++ {
				if rnd.Float64() < 0.2 {
					w := 0.5 + rnd.Float64()
					a[u][v] = w
					if symmetric {
						a[v][u] = w
					}
				}
			}
		}
		a[0][1], a[1][0] = 1, 1 // non-zero total weight
		b := sparse.NewBuilder(n, n)
		for u := range a {
			for v, w := range a[u] {
				if w != 0 {
					_ = b.Add(u, v, w)
				}
			}
		}
		adj := b.CSR(sparse.SumDuplicates)
		labels := randomLabels(rnd, n, 1+rnd.IntN(5))
		q, err := Modularity(adj, labels)
		if err != nil {
			t.Fatal(err)
		}
		if want := denseModularity(a, labels); math.Abs(q-want) > tol {
			t.Errorf("trial %d: Q = %v, want %v", trial, q, want)
		}
		qs, err := Modularity(adj.Scaled(7.5), labels)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(qs-q) > tol {
			t.Errorf("trial %d: scaled Q = %v, want %v", trial, qs, q)
		}
	}
}

func TestModularityErrors(t *testing.T) {
	adj := undirected(3, [][2]int{{0, 1}, {1, 2}})
	for _, tc := range []struct {
		name   string
		adj    *sparse.CSR
		labels []int
		length bool
	}{
		{"nil", nil, []int{0, 0, 0}, false},
		{"short labels", adj, []int{0, 0}, true},
		{"non-square", sparse.NewBuilder(3, 4).CSR(sparse.SumDuplicates), []int{0, 0, 0}, true},
		{"negative", adj, []int{0, -1, 0}, false},
		{"no edges", sparse.NewBuilder(3, 3).CSR(sparse.SumDuplicates), []int{0, 0, 1}, false},
	} {
		_, err := Modularity(tc.adj, tc.labels)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
		} else if errors.Is(err, errLength) != tc.length {
			t.Errorf("%s: unexpected error %v", tc.name, err)
		}
	}
}

// denseEntropy is the definition evaluated over the dense n×m matrix.
func denseEntropy(x [][]float64, m int, labels []int) float64 {
	members := map[int][]int{}
	for u, c := range labels {
		members[c] = append(members[c], u)
	}
	var e float64
	for t := 0; t < m; t++ {
		for _, us := range members {
			zeros := 0
			for _, u := range us {
				if x[u][t] == 0 {
					zeros++
				}
			}
			p := float64(zeros) / float64(len(us))
			var h float64
			if p > 0 {
				h -= p * math.Log(p)
			}
			if p < 1 {
				h -= (1 - p) * math.Log(1-p)
			}
			e += float64(len(us)) * h
		}
	}
	return e / float64(len(labels)*m)
}

func TestAverageEntropyHand(t *testing.T) {
	x := [][]float64{
		{1, 0},
		{1, 1},
		{0, 0},
		{2, 0},
	}
	b := sparse.NewBuilder(4, 2)
	for u, row := range x {
		for t, v := range row {
			if v != 0 {
				_ = b.Add(u, t, v)
			}
		}
	}
	_ = b.Add(2, 1, 0) // an explicitly stored zero counts as zero
	xs := b.CSR(sparse.SumDuplicates)
	for _, tc := range []struct {
		name   string
		labels []int
		want   float64
	}{
		// Cluster {0,1}: attribute 0 pure, attribute 1 half zero (ln 2).
		// Cluster {2,3}: attribute 0 half zero (ln 2), attribute 1 pure.
		// E = (2 ln2 + 2 ln2) / (4·2) = ln2 / 2.
		{"two clusters", []int{0, 0, 1, 1}, math.Ln2 / 2},
		{"two clusters sparse labels", []int{1 << 45, 1 << 45, 3, 3}, math.Ln2 / 2},
		// Singletons are always pure.
		{"singletons", []int{0, 1, 2, 3}, 0},
		// One cluster: attribute 0 has p = 1/4, attribute 1 has p = 3/4.
		{"one cluster", []int{0, 0, 0, 0}, 2 * 4 * (-0.25*math.Log(0.25) - 0.75*math.Log(0.75)) / 8},
	} {
		e, err := AverageEntropy(xs, tc.labels)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(e-tc.want) > tol {
			t.Errorf("%s: E = %v, want %v", tc.name, e, tc.want)
		}
		if want := denseEntropy(x, 2, tc.labels); math.Abs(e-want) > tol {
			t.Errorf("%s: E = %v, dense %v", tc.name, e, want)
		}
	}
}

func TestAverageEntropyRandom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 50; trial++ {
		n, m := 1+rnd.IntN(50), 1+rnd.IntN(30)
		density := rnd.Float64()
		x := make([][]float64, n)
		b := sparse.NewBuilder(n, m)
		for u := range x {
			x[u] = make([]float64, m)
			for t := range x[u] {
				switch r := rnd.Float64(); {
				case r < density/2:
					x[u][t] = 1
					_ = b.Add(u, t, 1)
				case r < density:
					x[u][t] = rnd.Float64() + 0.1
					_ = b.Add(u, t, x[u][t])
				case r < density+0.05:
					_ = b.Add(u, t, 0) // stored zero
				}
			}
		}
		xs := b.CSR(sparse.SumDuplicates)
		labels := randomLabels(rnd, n, 1+rnd.IntN(6))
		e, err := AverageEntropy(xs, labels)
		if err != nil {
			t.Fatal(err)
		}
		if want := denseEntropy(x, m, labels); math.Abs(e-want) > tol {
			t.Errorf("trial %d: E = %v, want %v", trial, e, want)
		}
	}
}

func TestAverageEntropyErrors(t *testing.T) {
	x := sparse.NewBuilder(3, 2).CSR(sparse.SumDuplicates)
	for _, tc := range []struct {
		name   string
		x      *sparse.CSR
		labels []int
		length bool
	}{
		{"nil", nil, []int{0, 0, 0}, false},
		{"short labels", x, []int{0, 0}, true},
		{"negative", x, []int{0, -2, 0}, false},
		{"no attributes", sparse.NewBuilder(3, 0).CSR(sparse.SumDuplicates), []int{0, 0, 0}, false},
		{"no vertices", sparse.NewBuilder(0, 2).CSR(sparse.SumDuplicates), []int{}, false},
	} {
		_, err := AverageEntropy(tc.x, tc.labels)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
		} else if errors.Is(err, errLength) != tc.length {
			t.Errorf("%s: unexpected error %v", tc.name, err)
		}
	}
}

// bruteAttributeModularity forms the n×n cosine-similarity graph (diagonal excluded) and
// applies Modularity to it.
func bruteAttributeModularity(x *sparse.CSR, labels []int) (float64, error) {
	xd := x.Dense()
	n, m := xd.Dims()
	b := sparse.NewBuilder(n, n)
	norm := func(i int) float64 {
		var s float64
		for j := 0; j < m; j++ {
			s += xd.At(i, j) * xd.At(i, j)
		}
		return math.Sqrt(s)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j || norm(i) == 0 || norm(j) == 0 {
				continue
			}
			var d float64
			for t := 0; t < m; t++ {
				d += xd.At(i, t) * xd.At(j, t)
			}
			if d != 0 {
				_ = b.Add(i, j, d/(norm(i)*norm(j)))
			}
		}
	}
	return Modularity(b.CSR(sparse.SumDuplicates), labels)
}

func TestAttributeModularityEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 4))
	for trial := 0; trial < 30; trial++ {
		n, m, k := 5+rng.IntN(30), 1+rng.IntN(12), 1+rng.IntN(5)
		b := sparse.NewBuilder(n, m)
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				switch r := rng.Float64(); {
				case r < 0.3:
					_ = b.Add(i, j, rng.Float64()*3)
				case r < 0.35:
					_ = b.Add(i, j, 0) // a stored zero
				}
			}
		}
		x := b.CSR(sparse.SumDuplicates)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = 10 * rng.IntN(k) // arbitrary label values
		}
		want, werr := bruteAttributeModularity(x, labels)
		if werr != nil { // a similarity graph without weight
			want = 0
		}
		got, err := AttributeModularity(x, labels)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d (n %d, m %d, k %d): %v, brute force %v", trial, n, m, k, got, want)
		}
	}
}

func TestAttributeModularityByHand(t *testing.T) {
	// Two vertices with attribute a, two with b: the similarity graph is two edges of
	// weight 1, {0,1} and {2,3}; clustering them apart gives Q = 2·(1/2 − 1/4) = 1/2,
	// together Q = 1 − 1 = 0.
	x := sparse.FromDense(mat.NewDense(4, 2, []float64{1, 0, 2, 0, 0, 1, 0, 5}))
	for _, c := range []struct {
		labels []int
		want   float64
	}{{[]int{0, 0, 1, 1}, 0.5}, {[]int{0, 0, 0, 0}, 0}, {[]int{0, 1, 0, 1}, -0.5}} {
		got, err := AttributeModularity(x, c.labels)
		if err != nil || math.Abs(got-c.want) > 1e-15 {
			t.Errorf("labels %v: %v (%v), want %v", c.labels, got, err, c.want)
		}
	}
	if _, err := AttributeModularity(x, []int{0, 1}); err == nil {
		t.Error("length mismatch accepted")
	}
	if q, err := AttributeModularity(sparse.FromDense(mat.NewDense(2, 2, []float64{1, 0, 0, 1})), []int{0, 1}); q != 0 || err != nil {
		t.Errorf("similarity graph without weight: %v (%v), want 0", q, err)
	}
	if _, err := AttributeModularity(sparse.FromDense(mat.NewDense(2, 1, []float64{1, -1})), []int{0, 1}); err == nil {
		t.Error("negative attribute accepted")
	}
}

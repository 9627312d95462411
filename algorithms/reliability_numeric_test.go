package algorithms

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/sparse"
)

// numericGraphs returns the small graphs the extreme-parameter sweeps run on: a planted
// attributed graph; one with self-loops plus isolated vertices (three of them with no
// attribute either, one whose only edge is a self-loop); and the planted graph with
// attribute values as large as the loader accepts (2⁵³).
func numericGraphs(t *testing.T) map[string]Input {
	t.Helper()
	planted, err := datasets.Synthetic(datasets.SyntheticConfig{N: 90, M: 60, K1: 3, K2: 4,
		AvgDegree: 6, PIn: 0.8, AttrPerVertex: 8, AttrSignal: 0.7, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	loops, err := datasets.Synthetic(datasets.SyntheticConfig{N: 80, M: 50, K1: 3, K2: 3,
		AvgDegree: 3, PIn: 0.8, AttrPerVertex: 5, AttrSignal: 0.6, SelfLoops: true, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if loops.SelfLoops() == 0 {
		t.Fatal("the self-loop graph has no self-loop")
	}
	// Six extra vertices: 80, 81, 82 isolated with no attribute; 83, 84 isolated with
	// attributes; 85 with a self-loop only.
	const extra = 6
	n := loops.N() + extra
	adj := extendCSR(t, loops.Adj, n, n, map[int][]int{85: {85}})
	x := extendCSR(t, attrtest.Sparse(loops.X), n, loops.M(), map[int][]int{83: {0, 1}, 84: {2}, 85: {3}})
	truth := append(append([]int(nil), loops.Labels...), 0, 1, 2, 0, 1, 2)
	// The planted attributes scaled so that the largest is the largest the loader accepts.
	xmax := slices.Max(attrtest.Sparse(planted.X).ColMax())
	big := attrtest.Sparse(planted.X).Scaled(datasets.MaxAttribute / xmax)
	return map[string]Input{
		"planted":        {Adj: planted.Adj, X: planted.X, Truth: planted.Labels},
		"loops+isolated": {Adj: adj, X: x, Truth: truth},
		"huge-values":    {Adj: planted.Adj, X: big, Truth: planted.Labels},
	}
}

// extendCSR returns a with rows up to r, the new rows holding ones at the given columns.
func extendCSR(t *testing.T, a *sparse.CSR, r, c int, rows map[int][]int) *sparse.CSR {
	t.Helper()
	ptr := []int{0}
	var ind []int
	var val []float64
	old, _ := a.Dims()
	for i := 0; i < r; i++ {
		if i < old {
			cols, vals := a.Row(i)
			ind = append(ind, cols...)
			val = append(val, vals...)
		} else {
			for _, j := range rows[i] {
				ind = append(ind, j)
				val = append(val, 1)
			}
		}
		ptr = append(ptr, len(ind))
	}
	m, err := sparse.NewCSR(r, c, ptr, ind, val)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkFit asserts that a fit either failed with a clean error naming the method, or
// gave valid labels and only finite factors and objective values.
func checkFit(t *testing.T, method string, in Input, k int, res *Result, err error) {
	t.Helper()
	if err != nil {
		if msg := err.Error(); !strings.HasPrefix(msg, method+":") || strings.Contains(msg, "goroutine") {
			t.Errorf("error %q: want a one-line error starting with %q", msg, method+":")
		}
		t.Logf("clean error: %v", err)
		return
	}
	if len(res.Labels) != in.N() {
		t.Fatalf("%d labels for %d vertices", len(res.Labels), in.N())
	}
	for i, l := range res.Labels {
		if l < 0 || l >= k {
			t.Fatalf("vertex %d: label %d not in [0, %d)", i, l, k)
		}
	}
	for name, f := range res.Factors {
		for i, v := range f.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("factor %s: entry %d is %v", name, i, v)
			}
		}
	}
	for i, v := range res.Objective {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("objective after iteration %d is %v", i+1, v)
		}
	}
}

// TestNAGCExtremeParameters sweeps the corners of the paper's grid (λ up to 100, ρ up to
// 0.995, k2 up to 20) and the boundary ρ = 1, with both label-free initialisations, on
// a planted graph and on one with self-loops and isolated vertices.
func TestNAGCExtremeParameters(t *testing.T) {
	for gname, in := range numericGraphs(t) {
		k1 := 3
		for _, lambda := range []float64{1e-10, 100} {
			for _, rho := range []float64{0.5, 0.995, 1} {
				for _, k2 := range []int{k1, 20} {
					for _, init := range []string{InitRandom, InitKMeans} {
						name := fmt.Sprintf("%s/lambda=%g/rho=%g/k2=%d/%s", gname, lambda, rho, k2, init)
						t.Run(name, func(t *testing.T) {
							m, err := New("nagc", map[string]any{"lambda": lambda, "rho": rho, "k2": k2, "init": init})
							if err != nil {
								t.Fatal(err)
							}
							res, err := m.Fit(context.Background(), in, k1, 11)
							checkFit(t, "nagc", in, k1, res, err)
						})
					}
				}
			}
		}
	}
}

// TestBaselinesExtremeParameters runs every baseline at the extremes of its options.
func TestBaselinesExtremeParameters(t *testing.T) {
	type fit struct {
		method string
		params map[string]any
	}
	var fits []fit
	for _, lambda := range []float64{1e-10, 100} {
		for _, init := range []string{InitRandom, InitKMeans} {
			for _, damped := range []bool{false, true} {
				fits = append(fits, fit{"jwnmf", map[string]any{"lambda": lambda, "init": init, "damped": damped, "self_loops": damped}})
			}
		}
	}
	for _, solver := range []string{NMFSolverMU, NMFSolverHALS} {
		for _, init := range []string{InitRandom, NMFInitNNDSVDa} {
			fits = append(fits, fit{"nmf", map[string]any{"solver": solver, "init": init}})
		}
	}
	for _, normalize := range []bool{false, true} {
		for _, loops := range []bool{false, true} {
			fits = append(fits, fit{"snmf", map[string]any{"normalize": normalize, "self_loops": loops}})
		}
	}
	for _, prior := range []float64{1e-10, 1e6} {
		fits = append(fits, fit{"bagc", map[string]any{"xi": prior, "gamma": prior, "mu": prior, "nu": prior, "max_sweeps": 50}})
	}
	fits = append(fits, fit{"bagc", map[string]any{"mu": 1e-10, "nu": 1e6, "gamma": 1e-10, "restarts": 2}})
	fits = append(fits, fit{"bagc", map[string]any{"protocol": "reference"}})
	fits = append(fits, fit{"sa-cluster", nil}, fit{"sa-cluster", map[string]any{"direction": "to-centre", "bins": 2}},
		fit{"sa-cluster", map[string]any{"protocol": "reference", "max_iter": 3}}, fit{"inc-cluster", nil})
	fits = append(fits, fit{"kmeans", nil})
	for gname, in := range numericGraphs(t) {
		for _, k := range []int{1, 3, 20} {
			for _, f := range fits {
				t.Run(fmt.Sprintf("%s/k=%d/%s%v", gname, k, f.method, f.params), func(t *testing.T) {
					m, err := New(f.method, f.params)
					if err != nil {
						t.Fatal(err)
					}
					res, err := m.Fit(context.Background(), in, k, 5)
					checkFit(t, f.method, in, k, res, err)
				})
			}
		}
	}
}

// TestKOutOfRangeIsAnError checks that every method refuses k1 > n, k1 < 1 and (NAGC)
// k2 outside 1…n with an error, and that k2 = 0 means k2 = k1.
func TestKOutOfRangeIsAnError(t *testing.T) {
	in := numericGraphs(t)["planted"]
	n := in.N()
	for _, name := range Names() {
		if name == "metis" {
			requireGPMetis(t)
		}
		m, err := New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{0, -1, n + 1} {
			res, err := m.Fit(context.Background(), in, k, 1)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("k = %d clusters for %d vertices", k, n)) {
				t.Errorf("%s with k = %d: result %v, error %v; want a k-out-of-range error", name, k, res != nil, err)
			}
		}
	}
	// A negative k2 is refused before any graph is seen; one above n when fitting.
	if _, err := New("nagc", map[string]any{"k2": -1, "init": InitRandom}); err == nil || !strings.Contains(err.Error(), "k2") {
		t.Errorf("k2 = -1: error %v, want one naming k2", err)
	}
	m, _ := New("nagc", map[string]any{"k2": n + 1, "init": InitRandom})
	if _, err := m.Fit(context.Background(), in, 3, 1); err == nil || !strings.Contains(err.Error(), "k2") {
		t.Errorf("k2 = %d: error %v, want one naming k2", n+1, err)
	}
	zero, _ := New("nagc", map[string]any{"k2": 0, "init": InitRandom, "iterations": 3})
	res, err := zero.Fit(context.Background(), in, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, k2 := res.Factors["H"].Dims(); k2 != 3 {
		t.Errorf("k2 = 0 gave H with %d columns, want k1 = 3", k2)
	}
}

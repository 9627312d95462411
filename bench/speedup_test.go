package bench

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"
)

// TestSpeedups checks the pair-by-pair comparison against hand-computed ratios: each
// setting after the first of a graph and method against the first, nothing across
// graphs or methods, nothing for a failed setting.
func TestSpeedups(t *testing.T) {
	rs := []Result{
		{Case: "g", Method: "nagc", Threads: 1, Seconds: []float64{4, 6, 5}},
		{Case: "g", Method: "nagc", Threads: 2, Seconds: []float64{2, 4, 2}},
		{Case: "g", Method: "nagc", Threads: 4, Seconds: []float64{1, 2, 1}},
		{Case: "g", Method: "sgc", Threads: 1, Seconds: []float64{1}},
		{Case: "g", Method: "sgc", Threads: 2, Err: "failed"},
		{Case: "h", Method: "nagc", Threads: 1, Seconds: []float64{3}},
	}
	got := Speedups(rs)
	want := []Speedup{
		{Case: "g", Method: "nagc", Threads: 2, Base: 1, Ratios: []float64{2, 1.5, 2.5}, Median: 2},
		{Case: "g", Method: "nagc", Threads: 4, Base: 1, Ratios: []float64{4, 3, 5}, Median: 4},
	}
	if len(got) != len(want) {
		t.Fatalf("%d speedups %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Case != w.Case || g.Method != w.Method || g.Threads != w.Threads || g.Base != w.Base ||
			!slices.Equal(g.Ratios, w.Ratios) || g.Median != w.Median {
			t.Errorf("speedup %d: %+v, want %+v", i, g, w)
		}
	}
	var b bytes.Buffer
	WriteSpeedup(&b, got[0])
	if line := "g nagc: 2 threads against 1: 2.00× (median of the pairs run in turn: 2.00, 1.50, 2.50)\n"; b.String() != line {
		t.Errorf("line %q, want %q", b.String(), line)
	}
	b.Reset()
	WriteSpeedup(&b, Speedup{Case: "g", Method: "nagc", Threads: 1, Base: 2, Ratios: []float64{0.5}, Median: 0.5})
	if line := "g nagc: 1 thread against 2: 0.50× (median of the pairs run in turn: 0.50)\n"; b.String() != line {
		t.Errorf("line %q, want %q", b.String(), line)
	}
}

// TestRunThreadsInTurn times one method at two thread settings: a Result each, in the
// order given, with every repetition, and a speedup from the pairs.
func TestRunThreadsInTurn(t *testing.T) {
	cases, err := SyntheticSeries([]int{300}, 1)
	if err != nil {
		t.Fatal(err)
	}
	methods := []Method{{Name: "nagc", Algo: "nagc", Params: map[string]any{"init": "random", "iterations": 3}}}
	rs, err := Run(context.Background(), cases, methods, Options{Repeats: 2, Threads: []int{2, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Threads != 2 || rs[1].Threads != 1 {
		t.Fatalf("results %+v, want one at 2 threads then one at 1", rs)
	}
	for _, r := range rs {
		if r.Err != "" || len(r.Seconds) != 2 || !(r.Median > 0) {
			t.Errorf("result %+v", r)
		}
	}
	sp := Speedups(rs)
	if len(sp) != 1 || sp[0].Threads != 1 || sp[0].Base != 2 || len(sp[0].Ratios) != 2 || math.IsNaN(sp[0].Median) {
		t.Errorf("speedups %+v", sp)
	}
}

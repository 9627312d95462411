package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteAssignment returns the minimum total cost over all assignments of min(r, c) rows
// to distinct columns, by enumerating injections.
func bruteAssignment(cost [][]float64) float64 {
	r, c := len(cost), len(cost[0])
	best := math.Inf(1)
	usedCol := make([]bool, c)
	usedRow := make([]bool, r)
	var rec func(i, left int, acc float64)
	if r <= c {
		// Every row gets a distinct column.
		rec = func(i, _ int, acc float64) {
			if i == r {
				best = min(best, acc)
				return
			}
			for j := 0; j < c; j++ {
				if !usedCol[j] {
					usedCol[j] = true
					rec(i+1, 0, acc+cost[i][j])
					usedCol[j] = false
				}
			}
		}
	} else {
		// Every column gets a distinct row.
		rec = func(j, _ int, acc float64) {
			if j == c {
				best = min(best, acc)
				return
			}
			for i := 0; i < r; i++ {
				if !usedRow[i] {
					usedRow[i] = true
					rec(j+1, 0, acc+cost[i][j])
					usedRow[i] = false
				}
			}
		}
	}
	rec(0, 0, 0)
	return best
}

func TestHungarianBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, dims := range [][2]int{{5, 5}, {4, 6}, {6, 4}, {1, 5}, {5, 1}, {3, 3}, {2, 7}, {7, 2}} {
		for trial := 0; trial < 50; trial++ {
			r, c := dims[0], dims[1]
			cost := make([][]float64, r)
			for i := range cost {
				cost[i] = make([]float64, c)
				for j := range cost[i] {
					if trial%2 == 0 {
						cost[i][j] = rnd.Float64()*20 - 10
					} else {
						cost[i][j] = float64(rnd.IntN(4)) // many ties
					}
				}
			}
			assign := Hungarian(cost)
			if len(assign) != r {
				t.Fatalf("%v: got %d assignments, want %d", dims, len(assign), r)
			}
			seen := make([]bool, c)
			var total float64
			assigned := 0
			for i, j := range assign {
				if j == -1 {
					continue
				}
				if j < 0 || j >= c || seen[j] {
					t.Fatalf("%v: invalid assignment %v", dims, assign)
				}
				seen[j] = true
				total += cost[i][j]
				assigned++
			}
			if assigned != min(r, c) {
				t.Fatalf("%v: %d rows assigned, want %d: %v", dims, assigned, min(r, c), assign)
			}
			if want := bruteAssignment(cost); math.Abs(total-want) > 1e-9 {
				t.Errorf("%v trial %d: cost %v, want %v (assignment %v)", dims, trial, total, want, assign)
			}
		}
	}
}

func TestHungarianEdgeCases(t *testing.T) {
	if got := Hungarian(nil); len(got) != 0 {
		t.Errorf("Hungarian(nil) = %v", got)
	}
	if got := Hungarian([][]float64{{}, {}}); len(got) != 2 || got[0] != -1 || got[1] != -1 {
		t.Errorf("Hungarian(2×0) = %v", got)
	}
	got := Hungarian([][]float64{{4, 1, 3}, {2, 0, 5}, {3, 2, 2}})
	if want := []int{1, 0, 2}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("Hungarian(3×3) = %v, want %v", got, want)
	}
	for name, cost := range map[string][][]float64{
		"ragged": {{1, 2}, {3}},
		"NaN":    {{1, math.NaN()}},
		"Inf":    {{math.Inf(1), 0}, {0, 1}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			Hungarian(cost)
		}()
	}
}

func TestAccuracyAndMatch(t *testing.T) {
	for _, tc := range []struct {
		name        string
		truth, pred []int
		acc         float64
		match       map[int]int
	}{
		{
			name:  "permuted",
			truth: []int{0, 0, 1, 1, 2, 2, 2},
			pred:  []int{7, 7, 3, 3, 0, 0, 0},
			acc:   1,
			match: map[int]int{7: 0, 3: 1, 0: 2},
		},
		{
			// Clusters 0: {0,0,0,1,1}, 1: {0,0}, 2: {0}. Greedy would take 0→0 (3 correct)
			// and then 1→1 or 2→1 (0 correct); the optimum 0→1, 1→0 gets 4 of 8.
			name:  "more clusters than classes",
			truth: []int{0, 0, 0, 1, 1, 0, 0, 0},
			pred:  []int{0, 0, 0, 0, 0, 1, 1, 2},
			acc:   0.5,
			match: map[int]int{0: 1, 1: 0, 2: -1},
		},
		{
			name:  "more classes than clusters",
			truth: []int{0, 0, 1, 1, 2, 2},
			pred:  []int{4, 4, 4, 9, 9, 9},
			acc:   4.0 / 6,
			match: nil, // ties: checked only through the accuracy
		},
		{
			name:  "sparse labels",
			truth: []int{100, 100, 5, 5, 5},
			pred:  []int{1 << 40, 1 << 40, 1 << 40, 2, 2},
			acc:   4.0 / 5,
			match: map[int]int{1 << 40: 100, 2: 5},
		},
		{name: "empty", truth: nil, pred: nil, acc: 1, match: map[int]int{}},
	} {
		acc, err := Accuracy(tc.truth, tc.pred)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(acc-tc.acc) > tol {
			t.Errorf("%s: Accuracy = %v, want %v", tc.name, acc, tc.acc)
		}
		m, err := Match(tc.truth, tc.pred)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// The match must reproduce the accuracy.
		correct := 0
		for i := range tc.truth {
			if m[tc.pred[i]] == tc.truth[i] {
				correct++
			}
		}
		if len(tc.truth) > 0 && math.Abs(float64(correct)/float64(len(tc.truth))-acc) > tol {
			t.Errorf("%s: Match gives %d correct, Accuracy %v", tc.name, correct, acc)
		}
		if tc.match != nil {
			if len(m) != len(tc.match) {
				t.Errorf("%s: Match = %v, want %v", tc.name, m, tc.match)
			}
			for k, v := range tc.match {
				if got, ok := m[k]; !ok || got != v {
					t.Errorf("%s: Match = %v, want %v", tc.name, m, tc.match)
					break
				}
			}
		}
	}
}

func TestAccuracyRandomBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 100; trial++ {
		n := 1 + rnd.IntN(60)
		truth := randomLabels(rnd, n, 1+rnd.IntN(5))
		pred := randomLabels(rnd, n, 1+rnd.IntN(6))
		acc, err := Accuracy(truth, pred)
		if err != nil {
			t.Fatal(err)
		}
		// Brute force on the dense contingency table (max label + 1 square-ish).
		k1, k2 := 0, 0
		for i := range truth {
			k1, k2 = max(k1, truth[i]+1), max(k2, pred[i]+1)
		}
		cost := make([][]float64, k2)
		for j := range cost {
			cost[j] = make([]float64, k1)
		}
		for i := range truth {
			cost[pred[i]][truth[i]]--
		}
		want := -bruteAssignment(cost) / float64(n)
		if math.Abs(acc-want) > tol {
			t.Errorf("trial %d: Accuracy = %v, want %v", trial, acc, want)
		}
	}
}

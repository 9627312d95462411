package search

import (
	"math"
	"reflect"
	"slices"
	"testing"
)

// The bracket sizes of Li et al. (2018): their Table 1 (R = 81, eta = 3) and the
// smaller example with R = 8, eta = 2, computed by hand from ⌈(s_max+1)·ηˢ/(s+1)⌉.
func TestBracketSizes(t *testing.T) {
	for _, c := range []struct {
		rungs, eta int
		want       []int
	}{
		{5, 3, []int{81, 34, 15, 8, 5}},
		{4, 2, []int{8, 6, 4, 4}},
		{3, 3, []int{9, 5, 3}},
		{1, 3, []int{1}},
	} {
		if got := BracketSizes(c.rungs, c.eta); !reflect.DeepEqual(got, c.want) {
			t.Errorf("BracketSizes(%d, %d) = %v, want %v", c.rungs, c.eta, got, c.want)
		}
	}
}

// Every prefix of the trials is split among the brackets within one trial of their
// shares; a batch's brackets are those of its trials in the sequence, shuffled; the
// split does not depend on the batch size.
func TestBrackets(t *testing.T) {
	sizes := BracketSizes(5, 3) // 81 : 34 : 15 : 8 : 5 of 143
	total := 143.0
	var unshuffled []int // batches of 1 are not shuffled
	for _, batch := range []int{1, 7, 10} {
		var seq []int
		for first := 0; first < 300; first += batch {
			seq = append(seq, Brackets(first, min(batch, 300-first), sizes, NewRand(uint64(first)))...)
		}
		for first := 0; first < 300; first += batch {
			a := slices.Sorted(slices.Values(seq[first:min(first+batch, 300)]))
			if batch == 1 {
				unshuffled = append(unshuffled, a...)
				continue
			}
			if b := slices.Sorted(slices.Values(unshuffled[first:min(first+batch, 300)])); !reflect.DeepEqual(a, b) {
				t.Fatalf("batch from %d: brackets %v, want %v (as in batches of 1)", first, a, b)
			}
		}
	}
	count := make([]int, len(sizes))
	for m, s := range unshuffled {
		count[s]++
		for b, w := range sizes {
			if share := float64(w) * float64(m+1) / total; math.Abs(float64(count[b])-share) >= 1 {
				t.Fatalf("after %d trials bracket %d has %d, share %.2f", m+1, b, count[b], share)
			}
		}
	}
	if first := Brackets(0, 10, sizes, NewRand(1)); reflect.DeepEqual(first, Brackets(0, 10, sizes, NewRand(2))) &&
		reflect.DeepEqual(first, Brackets(0, 10, sizes, NewRand(3))) {
		t.Errorf("three seeds put the trials of a batch in the same brackets: %v", first)
	}
}

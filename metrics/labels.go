package metrics

import (
	"errors"
	"fmt"
	"sort"
)

// Unlabelled marks, in a ground truth, a vertex without a label (a partly labelled
// graph, such as Planetoid's with its 140 training labels of Cora). The measures that
// read the truth (ARI, NMI, Accuracy, Match, ARIConnected) score the labelled vertices
// only; the others are clustered and scored by the label-free measures all the same.
const Unlabelled = -1

// Scored returns the number of vertices the label-reading measures score: those whose
// truth is not Unlabelled. Cost O(n).
func Scored(truth []int) int {
	c := 0
	for _, l := range truth {
		if l != Unlabelled {
			c++
		}
	}
	return c
}

// labelled returns truth and pred restricted to the positions whose truth is not
// Unlabelled: the inputs themselves when every position is labelled, else copies.
// Cost O(n).
func labelled(truth, pred []int) ([]int, []int) {
	k := 0
	for k < len(truth) && truth[k] != Unlabelled {
		k++
	}
	if k == len(truth) {
		return truth, pred
	}
	t := append(make([]int, 0, len(truth)), truth[:k]...)
	p := append(make([]int, 0, len(pred)), pred[:k]...)
	for i := k; i < len(truth); i++ {
		if truth[i] != Unlabelled {
			t, p = append(t, truth[i]), append(p, pred[i])
		}
	}
	return t, p
}

// errLength is returned when two labelings, or labels and a matrix, disagree in size.
var errLength = errors.New("metrics: length mismatch")

// compress maps arbitrary non-negative labels to dense indices 0..k-1, assigned in
// increasing label order (as numpy.unique does). It returns the index of every element
// and the distinct labels in increasing order. Cost O(n) when the largest label is
// O(n), O(n log n) otherwise.
func compress(labels []int, name string) (idx, uniq []int, err error) {
	maxLabel := -1
	for i, l := range labels {
		if l < 0 {
			return nil, nil, fmt.Errorf("metrics: negative label %d at position %d of %s", l, i, name)
		}
		maxLabel = max(maxLabel, l)
	}
	idx = make([]int, len(labels))
	if maxLabel < 2*len(labels)+64 {
		// Direct lookup table over the label range.
		pos := make([]int, maxLabel+1)
		for _, l := range labels {
			pos[l] = 1
		}
		for l, seen := range pos {
			if seen != 0 {
				pos[l] = len(uniq)
				uniq = append(uniq, l)
			}
		}
		for i, l := range labels {
			idx[i] = pos[l]
		}
		return idx, uniq, nil
	}
	sorted := append([]int(nil), labels...)
	sort.Ints(sorted)
	pos := make(map[int]int)
	for _, l := range sorted {
		if len(uniq) == 0 || uniq[len(uniq)-1] != l {
			pos[l] = len(uniq)
			uniq = append(uniq, l)
		}
	}
	for i, l := range labels {
		idx[i] = pos[l]
	}
	return idx, uniq, nil
}

// countingOrder returns a stable permutation of order sorted by key[order[·]], where keys
// lie in [0, k). Cost O(len(order) + k).
func countingOrder(order, key []int, k int) []int {
	start := make([]int, k+1)
	for _, o := range order {
		start[key[o]+1]++
	}
	for c := 0; c < k; c++ {
		start[c+1] += start[c]
	}
	out := make([]int, len(order))
	for _, o := range order {
		c := key[o]
		out[start[c]] = o
		start[c]++
	}
	return out
}

package stats

import "sort"

// Rank returns the ranks of x, 1 for the smallest, ties given the mean of the ranks
// they span (scipy.stats.rankdata's "average"). Cost O(n log n).
func Rank(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		avg := float64(i+j+1) / 2 // mean of ranks i+1 … j
		for _, k := range idx[i:j] {
			r[k] = avg
		}
		i = j
	}
	return r
}

// tieSizes returns the sizes of the groups of equal values of x, groups of one left out.
// Cost O(n log n).
func tieSizes(x []float64) []int {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	var out []int
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		if j-i > 1 {
			out = append(out, j-i)
		}
		i = j
	}
	return out
}

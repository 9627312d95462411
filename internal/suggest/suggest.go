// Package suggest finds, for a misspelt word, the closest of the words that were meant, so
// that an error can say "did you mean …?".
package suggest

import "strings"

// Closest returns the candidate nearest to word by edit distance (insertions, deletions,
// substitutions and swaps of adjacent letters, case ignored), or "" when none is near
// enough: within 1 edit for words of up to 4 letters, 2 up to 8, else 3. Ties go to the
// earlier candidate. Cost O(len(word)·Σ len(candidate)).
func Closest(word string, candidates []string) string {
	w := []rune(strings.ToLower(word))
	limit := 3
	switch {
	case len(w) <= 4:
		limit = 1
	case len(w) <= 8:
		limit = 2
	}
	best, bestD := "", limit+1
	for _, c := range candidates {
		if d := distance(w, []rune(strings.ToLower(c))); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// DidYouMean returns " (did you mean 'X'?)" for the Closest candidate, or "".
func DidYouMean(word string, candidates []string) string {
	if c := Closest(word, candidates); c != "" && c != word {
		return " (did you mean '" + c + "'?)"
	}
	return ""
}

// distance is the optimal-string-alignment edit distance of a and b.
func distance(a, b []rune) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

package search

import "math/rand/v2"

// BracketSizes returns the number of configurations Hyperband (Li et al. 2018,
// Algorithm 1) starts in each of its brackets over rungs rungs with reduction factor
// eta: bracket s starts at rung s and halves h = rungs−1−s times, and gets
// ⌈rungs·etaʰ/(h+1)⌉ configurations, so that every bracket spends about the same
// resource. The paper's example (81 iterations from 1, eta 3: 5 rungs) gives 81, 34,
// 15, 8 and 5. It costs O(rungs²).
func BracketSizes(rungs, eta int) []int {
	sizes := make([]int, rungs)
	for s := range sizes {
		h := rungs - 1 - s
		pow := 1
		for range h {
			pow *= eta
		}
		sizes[s] = (rungs*pow + h) / (h + 1)
	}
	return sizes
}

// Brackets returns the bracket of each of the trials first, …, first+n−1 (counted from
// 0) of a Hyperband search whose brackets have weights sizes (BracketSizes). Trial t's
// bracket is the one furthest below its share among trials 0…t (ties to the earlier
// bracket), so that every prefix of the trials is split among the brackets within one
// trial of their shares, whatever the batch size; within the n trials, rng shuffles
// which trial goes to which of their brackets. It costs O((first+n)·len(sizes)).
func Brackets(first, n int, sizes []int, rng *rand.Rand) []int {
	total := 0
	for _, w := range sizes {
		total += w
	}
	count := make([]int, len(sizes))
	out := make([]int, 0, n)
	for t := 0; t < first+n; t++ {
		best, deficit := 0, 0
		for s, w := range sizes {
			// deficit of bracket s after trial t, scaled by total: its share of t+1
			// trials less the trials it has.
			if d := w*(t+1) - count[s]*total; s == 0 || d > deficit {
				best, deficit = s, d
			}
		}
		count[best]++
		if t >= first {
			out = append(out, best)
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

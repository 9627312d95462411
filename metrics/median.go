package metrics

import (
	"math"
	"sort"
)

// Median returns the median of xs (the mean of the two middle values for an even count),
// NaN for none. xs is not modified. Cost O(len(xs)·log len(xs)).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

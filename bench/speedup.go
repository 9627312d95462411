package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	clmetrics "github.com/nagc-harness/nagc/metrics"
)

// A Speedup compares one method on one graph at two thread settings timed in turn.
type Speedup struct {
	Case, Method string
	Threads      int // the setting compared
	Base         int // the setting it is compared with (the first of Options.Threads)
	// Ratios are the base's fit time over the compared setting's, repetition by
	// repetition (each pair run one after the other); Median is their median.
	Ratios []float64
	Median float64
}

// Speedups compares, for every graph and method timed at several thread settings, each
// setting after the first with the first, pair by pair. Cost O(len(results)²).
func Speedups(results []Result) []Speedup {
	var out []Speedup
	for i, base := range results {
		if base.Err != "" || (i > 0 && sameRun(results[i-1], base)) {
			continue // not the first setting of its graph and method
		}
		for _, r := range results[i+1:] {
			if !sameRun(base, r) {
				break
			}
			if r.Err != "" || len(r.Seconds) != len(base.Seconds) || len(r.Seconds) == 0 {
				continue
			}
			s := Speedup{Case: r.Case, Method: r.Method, Threads: r.Threads, Base: base.Threads}
			for p := range r.Seconds {
				s.Ratios = append(s.Ratios, base.Seconds[p]/r.Seconds[p])
			}
			s.Median = clmetrics.Median(s.Ratios)
			out = append(out, s)
		}
	}
	return out
}

// sameRun reports whether a and b time the same method on the same graph.
func sameRun(a, b Result) bool { return a.Case == b.Case && a.Method == b.Method }

// WriteSpeedup writes s as a line: "synthetic-100000 nagc: 2 threads against 1: 1.87×
// (pairs 1.88, 1.86, 1.89)".
func WriteSpeedup(w io.Writer, s Speedup) {
	pairs := make([]string, len(s.Ratios))
	for i, r := range s.Ratios {
		pairs[i] = strconv.FormatFloat(r, 'f', 2, 64)
	}
	fmt.Fprintf(w, "%s %s: %s against %d: %.2f× (median of the pairs run in turn: %s)\n",
		s.Case, s.Method, ThreadsName(s.Threads), s.Base, s.Median, strings.Join(pairs, ", "))
}

// ThreadsName names a thread setting: "1 thread", "2 threads".
func ThreadsName(t int) string {
	if t == 1 {
		return "1 thread"
	}
	return strconv.Itoa(t) + " threads"
}

package command_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/commandtest"
	"github.com/nagc-harness/nagc/internal/testenv"
)

// BenchmarkOverhead fits k-means on Cora compiled in and as a program (this test binary
// playing it, reading the graph file written once beforehand), and times the protocol
// alone: a program that reads the graph file and writes labels without computing them
// (commandtest.Good), which is what a run as a program costs beyond its method: a process
// start, the JSON job, reading the .npz, writing and reading the labels. For k-means it
// also reports protocol-ms/op: the program's wall time less the fit time it reports.
func BenchmarkOverhead(b *testing.B) {
	g, err := datasets.Load("cora")
	if errors.Is(err, datasets.ErrNotFound) {
		testenv.Missing(b, "the cora dataset", testenv.FetchHint)
	}
	if err != nil {
		b.Fatal(err)
	}
	in := algorithms.Input{Adj: g.Adj, X: g.X, Cache: algorithms.NewCache()}
	k := g.K()
	b.Run("compiled-in", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := (algorithms.KMeans{}).Fit(context.Background(), in, k, uint64(i)); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, mode := range []string{commandtest.KMeans, commandtest.Good, commandtest.Shape} {
		b.Run("command-"+mode, func(b *testing.B) { benchProgram(b, in, k, mode) })
	}
}

// benchProgram times fits of the program in mode on in, the graph file written before.
func benchProgram(b *testing.B, in algorithms.Input, k int, mode string) {
	m := method(mode, b.TempDir())
	if _, err := m.Fit(context.Background(), in, k, 0); err != nil { // writes the graph
		b.Fatal(err)
	}
	b.ResetTimer()
	var inside float64 // seconds the program says its own fit took
	for i := 0; i < b.N; i++ {
		res, err := m.Fit(context.Background(), in, k, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		if s, err := strconv.ParseFloat(res.Info["fit_seconds"], 64); err == nil {
			inside += s
		}
	}
	if inside > 0 { // the time outside the program's own fit: the protocol's
		b.ReportMetric((b.Elapsed().Seconds()-inside)/float64(b.N)*1e3, "protocol-ms/op")
	}
}

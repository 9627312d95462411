package algorithms

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/parallel"
)

// cpuSince returns the CPU time the process has used since cpuTime gave start.
func cpuSince(start int64) time.Duration { return time.Duration(cpuTime() - start) }

// BenchmarkSearchCostArxiv times, on one kernel thread as each worker of a search runs,
// the parts a search of the paper's space costs at the ogbn-arxiv shape
// (synthetic:arxiv: 169,343 vertices, 128 dense float32 attributes, k1 = 40): the k1
// half of NAGC's k-means start (k-means with 40 clusters, 10 starts), its k2 half for
// each smaller k2 of the space, and one iteration of a fit on the graph (with its
// objective) and on a held-out copy (80 % of the edges, no objective) at k2 = 40 and 10.
// Each reports cpu-s/op, the process's CPU seconds (getrusage): what a search's cost plan
// adds up (docs/search.md), where wall times on the shared machine measure its load.
func BenchmarkSearchCostArxiv(b *testing.B) {
	g := benchGraph(b, "synthetic:arxiv")
	defer parallel.SetThreads(parallel.SetThreads(1))
	ctx := context.Background()
	const k1, seed = 40, 1
	in := Input{Adj: g.Adj, X: g.X}
	p, err := kmeansStartPoints(ctx, in, k1)
	if err != nil {
		b.Fatal(err)
	}
	var first *kmeansStart
	cpu := func(b *testing.B, f func()) {
		b.Helper()
		start := cpuTime()
		for i := 0; i < b.N; i++ {
			f()
		}
		b.ReportMetric(cpuSince(start).Seconds()/float64(b.N), "cpu-s/op")
	}
	b.Run("start/k1=40", func(b *testing.B) {
		cpu(b, func() {
			src := rand.NewPCG(seed, streamKMeansInit)
			if first, err = kmeansFirstHalf(ctx, p, k1, 0, rand.New(src)); err != nil {
				b.Fatal(err)
			}
			first.after = *src
		})
	})
	for _, k2 := range []int{5, 7, 10, 15, 20} {
		b.Run(fmt.Sprintf("start/k2=%d", k2), func(b *testing.B) {
			if first == nil {
				b.Skip("needs start/k1=40")
			}
			cpu(b, func() {
				after := first.after
				if _, err := first.v(ctx, p, k2, 0, rand.New(&after)); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
	train, _, err := datasets.HoldOutEdges(g.Adj, 0.2, seed)
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []struct {
		name string
		in   Input
	}{{"main", Input{Adj: g.Adj, X: g.X}}, {"heldout", Input{Adj: train, X: g.X, NoObjective: true}}} {
		for _, k2 := range []int{40, 10} {
			b.Run(fmt.Sprintf("iteration/%s/k2=%d", f.name, k2), func(b *testing.B) {
				// The difference of a 1- and a 6-iteration fit from random factors: the
				// iterations alone, without the set-up both pay.
				fit := func(its int) time.Duration {
					start := cpuTime()
					a := NAGC{K2: k2, Lambda: 0.01, Rho: 0.75, Init: InitRandom, Iterations: its}
					if _, err := a.Fit(ctx, f.in, k1, seed); err != nil {
						b.Fatal(err)
					}
					return cpuSince(start)
				}
				var total time.Duration
				for i := 0; i < b.N; i++ {
					total += fit(6) - fit(1)
				}
				b.ReportMetric(total.Seconds()/float64(5*b.N), "cpu-s/op")
			})
		}
	}
}

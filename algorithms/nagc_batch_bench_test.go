package algorithms

import (
	"context"
	"fmt"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// paperGrid returns the 60 λ×ρ NAGC fits of one (dataset, restart, k2) of
// configs/paper.yaml (random start, k2 = k1, t iterations) on in.
func paperGrid(in Input, k2, t int) []BatchFit {
	var fits []BatchFit
	for _, lambda := range []float64{1e-10, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1, 10, 100} {
		for _, rho := range []float64{0.5, 0.55, 0.75, 0.95, 0.995} {
			fits = append(fits, BatchFit{NAGC{K2: k2, Lambda: lambda, Rho: rho, Iterations: t, Init: InitRandom}, in})
		}
	}
	return fits
}

// BenchmarkNAGCLockstep times the 60 λ×ρ fits of one (dataset, restart, k2) of the
// paper's grid (random start, k2 = k1, 20 iterations, one thread) fitted one by one
// ("batch=1") and in lockstep batches of 2, 4 and 60, at k2 = k1 and k2 = 20.
func BenchmarkNAGCLockstep(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	for _, name := range []string{"citeseer", "cora"} {
		g := benchGraph(b, name)
		in := Input{Adj: g.Adj, X: g.X, Cache: NewCache()}
		for _, k2 := range []int{g.K(), 20} {
			fits := paperGrid(in, k2, 20)
			for _, size := range []int{1, 2, 4, 60} {
				b.Run(fmt.Sprintf("%s/k2=%d/batch=%d", name, k2, size), func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						for lo := 0; lo < len(fits); lo += size {
							if _, errs := FitBatch(context.Background(), g.K(), 1, fits[lo:min(lo+size, len(fits))]); errs[0] != nil {
								b.Fatal(errs[0])
							}
						}
					}
				})
			}
		}
	}
}

package algorithms

import (
	"context"
	"flag"
	"fmt"
	"syscall"
	"testing"

	"github.com/nagc-harness/nagc/internal/parallel"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/dense"
)

// BenchmarkNAGCStepPrecision times one NAGC iteration (Step and Objective, random
// factors, λ = 0.01, ρ = 0.75) at each precision, side by side on 2 kernel threads: at
// the arxiv shape (k = 40, its 128 attributes dense float32 as in attr_matrix, and the
// same values as a full CSR) and at a sixteenth of the ogbn-products shape (k = 47, 100
// dense float32 attributes). The fast precision's target is ≥ 1.8× the default's speed.
// Besides wall time it reports the process's processor time per iteration (cpu-ns/op),
// the fairer measure on a shared machine; -threads picks the kernel threads.
func BenchmarkNAGCStepPrecision(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(*benchPrecisionThreads))
	for _, sh := range []struct {
		name         string
		n, deg, m, k int
		h            float64
	}{
		{"arxiv", 169_343, 14, 128, 40, 0.65},
		{"products-16th", 2_449_029 / 16, 50, 100, 47, 0.81},
	} {
		adj, xs, _ := shapeGraph(sh.n, sh.deg, sh.m, sh.k, sh.h, 1)
		x32 := make([]float32, 0, sh.n*sh.m)
		for i := 0; i < sh.n; i++ {
			_, vals := xs.Row(i)
			for _, v := range vals {
				x32 = append(x32, float32(v))
			}
		}
		stores := []struct {
			name string
			in   Input
		}{{"dense", Input{Adj: adj, X: dense.NewMatrix32(sh.n, sh.m, x32)}}, {"csr", Input{Adj: adj, X: xs}}}
		for _, st := range stores {
			if sh.name != "arxiv" && st.name == "csr" {
				continue
			}
			rng := newRand(1)
			u, v, h := uniformDense(sh.n, sh.k, rng), uniformDense(sh.m, sh.k, rng), uniformDense(sh.k, sh.k, rng)
			b.Run(fmt.Sprintf("%s/%s/precision=default", sh.name, st.name), func(b *testing.B) {
				s := NewNAGCSolverOp(adj, st.in.Attributes(), mat.DenseCopyOf(u), mat.DenseCopyOf(v), mat.DenseCopyOf(h), 0.01, 0.75)
				c := cpuTime()
				benchSteps(b, s)
				b.ReportMetric(float64(cpuTime()-c)/float64(b.N), "cpu-ns/op")
			})
			b.Run(fmt.Sprintf("%s/%s/precision=fast", sh.name, st.name), func(b *testing.B) {
				x, err := attributes32(context.Background(), st.in)
				if err != nil {
					b.Fatal(err)
				}
				op := st.in.Attributes()
				s, err := NewNAGCSolver32(adj, x, op.Sum(), op.SumSq(), u, v, h, 0.01, 0.75)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				c := cpuTime()
				for i := 0; i < b.N; i++ {
					s.Step()
					_ = s.Objective()
				}
				b.ReportMetric(float64(cpuTime()-c)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

var benchPrecisionThreads = flag.Int("threads", 2, "kernel threads of BenchmarkNAGCStepPrecision")

// cpuTime returns the process's user and system time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

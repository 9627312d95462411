package kmeans

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nagc-harness/nagc/dense/f32"
	"github.com/nagc-harness/nagc/internal/parallel"
)

// f32Levels returns every level of package dense/f32's kernels this processor runs.
func f32Levels() []f32.Level {
	var ls []f32.Level
	for l := f32.LevelGo; l <= f32.BestLevel(); l++ {
		ls = append(ls, l)
	}
	return ls
}

// TestProductFMA holds the fused distance products of FitDense's fast path, at every
// level of package dense/f32, to the exact products within float32 accuracy, and the
// assembly levels to one another bit for bit, on ragged sizes: rows read in place and
// gathered, a last group of one to three rows, column counts around the vector widths.
func TestProductFMA(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, m := range []int{1, 3, 16, 17, 100, 129} {
		for _, l := range []int{1, 5, 8, 13, 16, 33, 47} {
			n := 41
			x := make([]float32, n*m)
			for p := range x {
				x[p] = float32(math.Abs(rng.NormFloat64()))
			}
			lp := roundUp(l, tileCols)
			b := make([]float32, m*lp)
			for j := range m {
				for c := range l {
					b[j*lp+c] = float32(rng.NormFloat64())
				}
			}
			rows := []int{0, 1, 2, 3, 7, 9, 4, 5, 6, 8, 10, 11, 12, 13, 30, 40, 39}
			for cut := len(rows) - 3; cut <= len(rows); cut++ {
				rs := rows[:cut]
				var asm []float64
				for _, lv := range f32Levels() {
					old := f32.SetLevel(lv)
					pack, out := make([]float32, tileRows*m), make([]float32, roundUp(len(rs), tileRows)*lp)
					dots := make([]float64, len(rs)*l)
					productFMA(x, m, pack, out, dots, rs, b, lp, l)
					f32.SetLevel(old)
					name := fmt.Sprintf("%v m=%d l=%d rows=%d", lv, m, l, len(rs))
					for q, i := range rs {
						for c := range l {
							var exact, abs float64
							for j := range m {
								p := float64(x[i*m+j]) * float64(b[j*lp+c])
								exact, abs = exact+p, abs+math.Abs(p)
							}
							if d := math.Abs(dots[q*l+c] - exact); d > 1e-6*float64(m)*abs+1e-30 {
								t.Fatalf("%s: row %d column %d is %v, exact %v", name, i, c, dots[q*l+c], exact)
							}
						}
					}
					if lv == f32.LevelGo {
						continue
					}
					if asm == nil {
						asm = dots
						continue
					}
					for p := range dots {
						if dots[p] != asm[p] {
							t.Fatalf("%s: entry %d is %v, the other assembly level %v", name, p, dots[p], asm[p])
						}
					}
				}
			}
		}
	}
}

// TestFitDenseFMA checks that the fused products (Config.FMA) give, on float32 data at
// every level, the partition of the unfused float32 fit and an inertia within float32
// accuracy of it, the same bits for 1, 2 and 3 threads, and that float64 data ignores the
// flag (the same bits as without it).
func TestFitDenseFMA(t *testing.T) {
	defer func(r int) { taskRows = r }(taskRows)
	taskRows = 64
	for _, c := range denseCases[1:4] {
		x, _ := planted(rand.New(rand.NewPCG(uint64(c.n), 5)), c.n, c.m, c.k, c.spread)
		x32 := make([]float32, len(x))
		for p, v := range x {
			x32[p] = float32(v)
		}
		fit := func(data any, fma bool) *Result {
			t.Helper()
			cfg := Config{K: c.k, NInit: 2, FMA: fma}
			var r *Result
			var err error
			switch d := data.(type) {
			case []float32:
				r, err = FitDense(context.Background(), d, c.n, c.m, cfg, rand.New(rand.NewPCG(2, 2)))
			case []float64:
				r, err = FitDense(context.Background(), d, c.n, c.m, cfg, rand.New(rand.NewPCG(2, 2)))
			}
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		plain := fit(x32, false)
		for _, lv := range f32Levels() {
			old := f32.SetLevel(lv)
			var one *Result
			for _, th := range []int{1, 2, 3} {
				prev := parallel.SetThreads(th)
				got := fit(x32, true)
				parallel.SetThreads(prev)
				if one == nil {
					one = got
					continue
				}
				if err := sameBits(got, one); err != nil {
					t.Errorf("n=%d %v: %d threads against 1: %v", c.n, lv, th, err)
				}
			}
			f32.SetLevel(old)
			if !samePartition(one.Labels, plain.Labels) {
				t.Errorf("n=%d %v: fused and unfused float32 partitions differ", c.n, lv)
			}
			if math.Abs(one.Inertia-plain.Inertia) > 1e-5*plain.Inertia {
				t.Errorf("n=%d %v: fused inertia %v, unfused %v", c.n, lv, one.Inertia, plain.Inertia)
			}
		}
		if err := sameBits(fit(x, true), fit(x, false)); err != nil {
			t.Errorf("n=%d: float64 data with FMA set: %v", c.n, err)
		}
	}
}

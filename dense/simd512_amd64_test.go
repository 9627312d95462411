//go:build amd64 && !purego

package dense

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
)

// withLevel runs f with the kernels of level l (at most KernelLevel()).
func withLevel(l Level, f func()) {
	defer func(u2, u512 bool) { useAVX2, useAVX512 = u2, u512 }(useAVX2, useAVX512)
	useAVX2 = useAVX2 && l >= LevelAVX2
	useAVX512 = useAVX512 && l >= LevelAVX512
	f()
}

// levels returns the levels this processor has, the best first.
func levels() []Level {
	var ls []Level
	for l := KernelLevel(); l >= LevelGo; l-- {
		ls = append(ls, l)
	}
	return ls
}

// TestRowMulLevelsMatchGo holds the row kernel of every level this processor has to the
// Go kernels bit for bit (each level's kernels side by side where w is above its widest): every width 1…widestAVX512, row counts 1…17 (every group
// remainder of up to 8 rows, one and two full groups), inner dimensions 0…5 (odd and even
// remainders of the loop that takes two at a time) and maxInner, strided operands, with
// ±1e±k magnitudes so that rounding differs with the order of operations.
func TestRowMulLevelsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 12))
	for _, l := range levels() {
		for w := 1; w <= widestAVX512; w++ {
			for rows := 1; rows <= 17; rows++ {
				for _, k := range []int{0, 1, 2, 3, 4, 5, maxInner} {
					ds, as, bs := w+3, k+2, w+1
					a, b := spread(rng, rows*as), spread(rng, max(k, 1)*bs)
					want, got := spread(rng, rows*ds), make([]float64, rows*ds)
					copy(got, want)
					// Each level's kernels side by side up to w: each column is summed alone.
					run := func(out []float64, widest int) {
						for c := 0; c < w; c += widest {
							rowMulAt(min(widest, w-c), out[c:], ds, a, as, b[c:], bs, k, rows)
						}
					}
					withLevel(LevelGo, func() { run(want, widest) })
					withLevel(l, func() { run(got, [...]int{widest, widestAVX2, widestAVX512}[l]) })
					for p := range want {
						if math.Float64bits(got[p]) != math.Float64bits(want[p]) {
							t.Fatalf("%v: w %d, %d rows, k %d: entry %d (row %d, column %d) is %v, want %v",
								l, w, rows, k, p, p/ds, p%ds, got[p], want[p])
						}
					}
				}
			}
		}
	}
}

// TestColAccLevelsMatchGo holds the column kernel of every level this processor has to
// the Go kernels bit for bit (each level's kernels side by side where w is above its
// widest): every width 1…widestAVX512; output row counts k 0…17 and 23 (every remainder
// of the groups, one and two full groups); summed row counts 0…3 and colRows (odd and even
// remainders of the loop that takes two at a time); from +0 and continued from outputs
// that hold zeros of both signs; strided operands, with ±1e±k magnitudes so that rounding
// differs with the order of operations.
func TestColAccLevelsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 13))
	for _, l := range levels() {
		for w := 1; w <= widestAVX512; w++ {
			for _, k := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 23} {
				for _, n := range []int{0, 1, 2, 3, colRows} {
					for _, cont := range []bool{false, true} {
						ds, xs, bs := w+3, k+2, w+1
						x, b := spread(rng, max(n, 1)*xs), spread(rng, max(n, 1)*bs)
						want, got := spread(rng, max(k, 1)*ds), make([]float64, max(k, 1)*ds)
						want[0], want[len(want)-1] = 0, math.Copysign(0, -1)
						copy(got, want)
						run := func(out []float64, widest int) {
							for c := 0; c < w; c += widest {
								colAccAt(min(widest, w-c), out[c:], ds, x, xs, k, b[c:], bs, n, cont)
							}
						}
						withLevel(LevelGo, func() { run(want, widest) })
						withLevel(l, func() { run(got, [...]int{widest, widestAVX2, widestAVX512}[l]) })
						for p := range want {
							if math.Float64bits(got[p]) != math.Float64bits(want[p]) {
								t.Fatalf("%v: w %d, k %d, n %d, cont %v: entry %d (row %d, column %d) is %v, want %v",
									l, w, k, n, cont, p, p/ds, p%ds, got[p], want[p])
							}
						}
					}
				}
			}
		}
	}
}

// TestSigmoidLevelsMatchGo holds sigmoid at every level this processor has to its Go form
// bit for bit: exp's whole range (expArgs), each value outside the fast path in every lane
// of a group of 8 and of either group of a pair of groups, every length remainder (cut
// 0…8 entries from the end) and start offsets 0…3.
func TestSigmoidLevelsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 10))
	zs := expArgs(rng)
	for _, extra := range []float64{-349.9, -350.1, -351, -360, 700.9, 701, 750, math.NaN(), math.Inf(1)} {
		for lane := 0; lane < 16; lane++ {
			g := []float64{0.5, -0.25, 3, -7, 1e-9, -40, 100, -300, 0, 2, -2, 9, -9, 0.1, 600, -0.1}
			g[lane] = extra
			zs = append(zs, g...)
		}
	}
	for _, l := range levels() {
		for cut := 0; cut <= 8; cut++ {
			for start := 0; start < 4; start++ {
				z := zs[start : len(zs)-cut]
				f, fp := append([]float64(nil), z...), make([]float64, len(z))
				wf, wp := append([]float64(nil), z...), make([]float64, len(z))
				withLevel(l, func() { sigmoid(f, fp) })
				sigmoidGo(wf, wp)
				for i := range z {
					if !sameBits(f[i], wf[i]) || !sameBits(fp[i], wp[i]) {
						t.Fatalf("%v: sigmoid(%v) = %v, %v; Go gives %v, %v", l, z[i], f[i], fp[i], wf[i], wp[i])
					}
				}
			}
		}
	}
}

// spread returns n values ±u·10^e, u uniform in [1, 2), e in −8…8.
func spread(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = (1 + rng.Float64()) * math.Pow(10, float64(rng.IntN(17)-8))
		if rng.IntN(2) == 0 {
			x[i] = -x[i]
		}
	}
	return x
}

// TestProductsLevelsMatchGo holds the products that run on the row kernels (Mul,
// MulHadamard, SigmoidMul, Matrix.MulDense) and on the column kernels (TMul,
// TMulHadamard, Gram, Matrix.TMulDense) at every level this processor has to the Go
// kernels bit for bit, at ragged sizes: widths across the chunk splits of every level
// (up to 2·widestAVX512+1), inner dimensions within and above maxInner, row counts around
// the block size and colRows, on 1 and 2 threads.
func TestProductsLevelsMatchGo(t *testing.T) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(9, 4))
	for _, n := range []int{1, 7, colRows + 3, 128, 261} {
		for _, k := range []int{1, 3, 8, 13, maxInner + 5} {
			for l := 1; l <= 2*widestAVX512+1; l += 1 + rng.IntN(5) {
				a, a2, sm := signed(rng, n, k), signed(rng, n, k), signed(rng, k, l)
				t1, t2 := signed(rng, n, l), signed(rng, n, l)
				sa := mat.NewDense(n, k, nil)
				sa.Scale(1/float64(k), a)
				x32 := make([]float32, n*k)
				for p := range x32 {
					x32[p] = float32(a.RawMatrix().Data[p])
				}
				m32 := NewMatrix32(n, k, x32)
				ps := []struct {
					name string
					run  func(d *mat.Dense)
					r, c int
				}{
					{"Mul", func(d *mat.Dense) { Mul(d, a, sm) }, n, l},
					{"MulHadamard", func(d *mat.Dense) { MulHadamard(d, a, a2, sm) }, n, l},
					{"SigmoidMul", func(d *mat.Dense) { SigmoidMul(d, mat.NewDense(n, l, nil), sa, sm) }, n, l},
					{"Matrix32.MulDense", func(d *mat.Dense) { m32.MulDense(d, sm) }, n, l},
					{"TMul", func(d *mat.Dense) { TMul(d, a, t1) }, k, l},
					{"TMulHadamard", func(d *mat.Dense) { TMulHadamard(d, a, t1, t2) }, k, l},
					{"Gram", func(d *mat.Dense) { Gram(d, t1) }, l, l},
					{"Matrix32.TMulDense", func(d *mat.Dense) { m32.TMulDense(d, t1) }, k, l},
				}
				for _, p := range ps {
					if p.name == "SigmoidMul" && k > maxInner {
						continue
					}
					want := mat.NewDense(p.r, p.c, nil)
					withLevel(LevelGo, func() { p.run(want) })
					for _, lv := range levels() {
						for _, th := range []int{1, 2} {
							got := mat.NewDense(p.r, p.c, nil)
							parallel.SetThreads(th)
							withLevel(lv, func() { p.run(got) })
							parallel.SetThreads(1)
							if err := sameDense(got, want); err != nil {
								t.Fatalf("%s at %v on %d threads, n %d, k %d, l %d: %v", p.name, lv, th, n, k, l, err)
							}
						}
					}
				}
			}
		}
	}
}

func sameDense(got, want *mat.Dense) error {
	r, c := want.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if g, w := got.At(i, j), want.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
				return fmt.Errorf("entry (%d, %d) is %v, want %v", i, j, g, w)
			}
		}
	}
	return nil
}

// BenchmarkMulLevels times Mul of a 10⁵×k by k×l product, one thread, at every level this
// processor has.
func BenchmarkMulLevels(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 100_000
	for _, kl := range [][2]int{{16, 16}, {40, 40}, {128, 40}} {
		k, l := kl[0], kl[1]
		a, s := signed(rng, n, k), signed(rng, k, l)
		d := mat.NewDense(n, l, nil)
		for _, lv := range levels() {
			b.Run(fmt.Sprintf("k=%d/l=%d/%v", k, l, lv), func(b *testing.B) {
				withLevel(lv, func() {
					for b.Loop() {
						Mul(d, a, s)
					}
				})
			})
		}
	}
}

// BenchmarkTMulLevels times the products on the column kernels, one thread, at every
// level this processor has: TMul of 10⁵×k by 10⁵×l (Xᵀ·M at the arxiv shape: k = 128,
// l = 40) and Gram of 10⁵×l. A shape's operands are made only when one of its
// benchmarks runs.
func BenchmarkTMulLevels(b *testing.B) {
	defer parallel.SetThreads(parallel.SetThreads(1))
	const n = 100_000
	for _, kl := range [][2]int{{16, 16}, {40, 40}, {128, 40}, {0, 40}} {
		k, l := kl[0], kl[1]
		name := fmt.Sprintf("TMul_k=%d_l=%d", k, l)
		if k == 0 {
			name = fmt.Sprintf("Gram_l=%d", l)
		}
		var run func()
		setup := func() {
			if run != nil {
				return
			}
			rng := rand.New(rand.NewPCG(uint64(k), uint64(l)))
			a, m := signed(rng, n, max(k, 1)), signed(rng, n, l)
			if k == 0 {
				d := mat.NewDense(l, l, nil)
				run = func() { Gram(d, m) }
				return
			}
			d := mat.NewDense(k, l, nil)
			run = func() { TMul(d, a, m) }
		}
		for _, lv := range levels() {
			b.Run(fmt.Sprintf("%s/%v", name, lv), func(b *testing.B) {
				setup()
				withLevel(lv, func() {
					for b.Loop() {
						run()
					}
				})
			})
		}
	}
}

// BenchmarkSigmoidLevels times sigmoid of 2¹⁴ entries in its fast path (NAGC's f(UH)
// values), one call per iteration, at every level this processor has.
func BenchmarkSigmoidLevels(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 5))
	z := make([]float64, 1<<14)
	for i := range z {
		z[i] = 20*rng.Float64() - 10
	}
	f, fp := make([]float64, len(z)), make([]float64, len(z))
	for _, lv := range levels() {
		b.Run(lv.String(), func(b *testing.B) {
			withLevel(lv, func() {
				for b.Loop() {
					copy(f, z)
					sigmoid(f, fp)
				}
			})
		})
	}
}

package kmeans

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/dense"
)

// levels returns every kernel level this processor runs, the Go forms first.
func levels() []Level {
	var ls []Level
	for l := LevelGo; l <= bestLevel; l++ {
		ls = append(ls, l)
	}
	return ls
}

// forEachLevel runs f with the kernels at every level this processor has.
func forEachLevel(t *testing.T, f func(t *testing.T)) {
	for _, l := range levels() {
		t.Run(l.String(), func(t *testing.T) {
			defer setLevel(setLevel(l))
			f(t)
		})
	}
}

// TestTile64SameBits holds the float64 tile kernel, at every level, to its Go form and to
// package dense's Mul (the product FitDense took before), bit for bit, on ragged sizes.
func TestTile64SameBits(t *testing.T) {
	forEachLevel(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 3))
		for _, m := range []int{1, 2, 5, 7, 128, 301} {
			aStride, bStride, dStride := m+3, 24, 16
			a, b := make([]float64, tileRows*aStride), make([]float64, m*bStride)
			for p := range a {
				a[p] = rng.NormFloat64()
			}
			for p := range b {
				b[p] = rng.NormFloat64() * 3
			}
			got, want := make([]float64, tileRows*dStride), make([]float64, tileRows*dStride)
			tile12x8f64(a, aStride, b[8:], bStride, m, got[4:], dStride)
			tile12x8Go(a, aStride, b[8:], bStride, m, want[4:], dStride)
			for p := range want {
				if got[p] != want[p] {
					t.Fatalf("m=%d: entry %d is %v, Go kernel %v", m, p, got[p], want[p])
				}
			}
			am := mat.NewDense(tileRows, m, nil)
			bm := mat.NewDense(m, tileCols, nil)
			for r := range tileRows {
				copy(am.RawRowView(r), a[r*aStride:r*aStride+m])
			}
			for j := range m {
				copy(bm.RawRowView(j), b[8+j*bStride:8+j*bStride+tileCols])
			}
			d := mat.NewDense(tileRows, tileCols, nil)
			dense.Mul(d, am, bm)
			for r := range tileRows {
				for c := range tileCols {
					if v := want[4+r*dStride+c]; v != d.At(r, c) {
						t.Fatalf("m=%d: entry (%d,%d) is %v, dense.Mul %v", m, r, c, v, d.At(r, c))
					}
				}
			}
		}
	})
}

// TestLevels checks that the levels run are the processor's and that setLevel restores.
func TestLevels(t *testing.T) {
	if KernelLevel() != bestLevel {
		t.Fatalf("level %v, processor's best %v", KernelLevel(), bestLevel)
	}
	old := setLevel(LevelGo)
	if KernelLevel() != LevelGo || old != bestLevel {
		t.Fatalf("setLevel(go): level %v, returned %v", KernelLevel(), old)
	}
	setLevel(old)
	t.Logf("kernel levels on this processor: %v", levels())
}

// TestFitDenseSameBitsEveryLevel fits the same rows at every kernel level, float32 and
// float64, and wants the Go forms' labels, centres and inertia bit for bit.
func TestFitDenseSameBitsEveryLevel(t *testing.T) {
	const n, m, k = 700, 37, 9
	rng := rand.New(rand.NewPCG(5, 5))
	x64, x32 := make([]float64, n*m), make([]float32, n*m)
	for p := range x64 {
		x64[p] = math.Abs(float64(p%k) + 2*rng.NormFloat64())
		x32[p] = float32(x64[p])
	}
	fit := func(f32 bool) *Result {
		cfg := Config{K: k, NInit: 3}
		var res *Result
		var err error
		if f32 {
			res, err = FitDense(context.Background(), x32, n, m, cfg, rand.New(rand.NewPCG(1, 2)))
		} else {
			res, err = FitDense(context.Background(), x64, n, m, cfg, rand.New(rand.NewPCG(1, 2)))
		}
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, f32 := range []bool{false, true} {
		old := setLevel(LevelGo)
		want := fit(f32)
		setLevel(old)
		for _, l := range levels()[1:] {
			old := setLevel(l)
			got := fit(f32)
			setLevel(old)
			if got.Inertia != want.Inertia || !slices.Equal(got.Labels, want.Labels) ||
				!slices.Equal(got.Centers.RawMatrix().Data, want.Centers.RawMatrix().Data) {
				t.Errorf("float32 %v, level %v: inertia %v, Go forms %v (or labels, centres differ)", f32, l, got.Inertia, want.Inertia)
			}
		}
	}
}

package f32

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// tolerance bounds |asm − Go| relative to the sum of the magnitudes of the terms: the
// forms do the same operations in the same order and differ only where the Go form's
// double rounding (float64, then float32) misses the hardware's single one, by an ulp at
// a step, which can carry through the later steps of a chain.
const tolerance = 1e-6

// levels returns the levels this processor can run, Go first.
func levels() []Level {
	var ls []Level
	for l := LevelGo; l <= BestLevel(); l++ {
		ls = append(ls, l)
	}
	return ls
}

func withLevel(t testing.TB, l Level) {
	old := SetLevel(l)
	t.Cleanup(func() { SetLevel(old) })
}

func randVec(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.Float64()*2 - 0.5)
	}
	return v
}

// raggedAxpy is a case of AxpyRows: c columns, k rows, of b with stride.
type raggedAxpy struct{ c, k, rows, stride, aStride int }

func axpyCases() []raggedAxpy {
	var cs []raggedAxpy
	for _, c := range []int{1, 7, 8, 15, 16, 17, 31, 32, 33, 40, 47, 48, 63, 64, 65, 100, 129} {
		for _, k := range []int{1, 2, 3, 8, 47} {
			cs = append(cs, raggedAxpy{c: c, k: k, rows: 2*k + 3, stride: c + c%5, aStride: 1 + k%3})
		}
	}
	return cs
}

func TestAxpyRowsLevels(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range axpyCases() {
		b := randVec(r, tc.rows*tc.stride)
		a := randVec(r, (tc.k-1)*tc.aStride+1)
		idx := make([]int32, tc.k)
		for i := range idx {
			idx[i] = int32(r.IntN(tc.rows))
		}
		start := randVec(r, tc.c+3) // the 3 past dst must stay as they are
		want := append([]float32(nil), start...)
		AxpyRowsGo(want[:tc.c], a, tc.aStride, idx, b, tc.stride)
		scale := make([]float64, tc.c) // Σ|terms| of each column
		for j := range scale {
			scale[j] = math.Abs(float64(start[j]))
			for p := range idx {
				scale[j] += math.Abs(float64(a[p*tc.aStride]) * float64(b[int(idx[p])*tc.stride+j]))
			}
		}
		var asm []float32 // the first assembly level's result
		for _, l := range levels() {
			withLevel(t, l)
			got := append([]float32(nil), start...)
			AxpyRowsStrided(got[:tc.c], a, tc.aStride, idx, b, tc.stride)
			for j := tc.c; j < len(got); j++ {
				if got[j] != start[j] {
					t.Fatalf("%v %+v: wrote past dst at %d", l, tc, j)
				}
			}
			for j := 0; j < tc.c; j++ {
				if d := math.Abs(float64(got[j] - want[j])); d > tolerance*scale[j] {
					t.Errorf("%v %+v: column %d = %v, Go form %v", l, tc, j, got[j], want[j])
				}
			}
			if l == LevelGo {
				continue
			}
			if asm == nil {
				asm = got
				continue
			}
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(asm[j]) {
					t.Errorf("%v %+v: column %d = %v, AVX2 %v (the assembly levels must agree bit for bit)", l, tc, j, got[j], asm[j])
				}
			}
		}
	}
}

// TestAxpyRowsDefinition checks the Go form against the definition in exact arithmetic
// on small integers, where every operation is exact: the chains add up to the plain sum.
func TestAxpyRowsDefinition(t *testing.T) {
	b := []float32{1, 2, 3, 4, 5, 6} // 3 rows of 2
	a := []float32{1, 10, 100}
	idx := []int32{2, 0, 1}
	for _, l := range levels() {
		withLevel(t, l)
		dst := []float32{1000, 2000}
		AxpyRows(dst, a, idx, b, 2)
		if want := []float32{1000 + 5 + 10 + 300, 2000 + 6 + 20 + 400}; dst[0] != want[0] || dst[1] != want[1] {
			t.Errorf("%v: got %v, want %v", l, dst, want)
		}
	}
}

func TestDotLevels(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 47, 48, 64, 100, 257} {
		x, y := randVec(r, n), randVec(r, n+5)
		want := DotGo(x, y)
		var scale float64
		for j := range x {
			scale += math.Abs(float64(x[j]) * float64(y[j]))
		}
		var asm *float32
		for _, l := range levels() {
			withLevel(t, l)
			got := Dot(x, y)
			if d := math.Abs(float64(got - want)); d > tolerance*scale {
				t.Errorf("%v n=%d: %v, Go form %v", l, n, got, want)
			}
			if l == LevelGo {
				continue
			}
			if asm == nil {
				asm = &got
			} else if math.Float32bits(got) != math.Float32bits(*asm) {
				t.Errorf("%v n=%d: %v, AVX2 %v (the assembly levels must agree bit for bit)", l, n, got, *asm)
			}
		}
	}
}

// TestDotDefinition checks the lane order on values whose sums are exact.
func TestDotDefinition(t *testing.T) {
	x := make([]float32, 19)
	y := make([]float32, 19)
	var want float32
	for i := range x {
		x[i], y[i] = float32(i+1), 2
		want += float32(2 * (i + 1))
	}
	for _, l := range levels() {
		withLevel(t, l)
		if got := Dot(x, y); got != want {
			t.Errorf("%v: %v, want %v", l, got, want)
		}
	}
}

func TestLevelString(t *testing.T) {
	for l, want := range map[Level]string{LevelGo: "go", LevelAVX2: "avx2", LevelAVX512: "avx512"} {
		if l.String() != want {
			t.Errorf("%d: %q, want %q", l, l.String(), want)
		}
	}
}

// TestSigmoid holds Sigmoid to the float32 rounding of the float64 sigmoid, within two
// ulps, across the range where it is neither 0 nor 1, and at its ends.
func TestSigmoid(t *testing.T) {
	for x := -100.0; x <= 100; x += 0.0137 {
		got := Sigmoid(float32(x))
		want := float32(1 / (1 + math.Exp(-float64(float32(x)))))
		if d := math.Abs(float64(got - want)); d > max(2.4e-7*float64(want), 1.5e-45) { // two ulps, subnormals too
			t.Fatalf("Sigmoid(%v) = %v, want %v", float32(x), got, want)
		}
	}
	for x, want := range map[float32]float32{0: 0.5, 200: 1, -200: 0, float32(math.Inf(1)): 1, float32(math.Inf(-1)): 0} {
		if got := Sigmoid(x); got != want {
			t.Errorf("Sigmoid(%v) = %v, want %v", x, got, want)
		}
	}
	if got := Sigmoid(float32(math.NaN())); got == got {
		t.Errorf("Sigmoid(NaN) = %v, want NaN", got)
	}
}

// TestMul4Levels holds every level of Mul4Strided to its Go twin on ragged sizes, with a
// read by rows (as Mul4) and by columns (as TMul), writing nothing outside dst's four
// rows of c, and the assembly levels to each other bit for bit.
func TestMul4Levels(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, c := range []int{1, 7, 8, 15, 16, 17, 31, 33, 36, 40, 41, 47, 48, 63, 64, 65, 100, 104, 129} {
		for _, k := range []int{1, 2, 5, 40, 128} {
			for _, byCols := range []bool{false, true} {
				dStride, aStride, aTStride, stride := c+3, k+1, 1, c+c%4
				if byCols {
					aStride, aTStride = 1, 5+k%3
				}
				a, b := randVec(r, 3*aStride+(k-1)*aTStride+1), randVec(r, (k-1)*stride+c)
				n := 3*dStride + c + 2 // 2 past the last row must stay as they are
				want := make([]float32, n)
				Mul4StridedGo(want, dStride, a, aStride, aTStride, k, b, stride, c)
				var asm []float32
				for _, l := range levels() {
					withLevel(t, l)
					got := randVec(r, n)
					copy(got[n-2:], want[n-2:])
					for row := 0; row < 3; row++ { // the gaps between rows too
						copy(got[row*dStride+c:(row+1)*dStride], want[row*dStride+c:(row+1)*dStride])
					}
					Mul4Strided(got, dStride, a, aStride, aTStride, k, b, stride, c)
					for i := range got {
						row, j := i/dStride, i%dStride
						if row > 3 || j >= c {
							if got[i] != want[i] {
								t.Fatalf("%v c=%d k=%d byCols=%v: wrote outside dst at %d", l, c, k, byCols, i)
							}
							continue
						}
						var scale float64
						for p := 0; p < k; p++ {
							scale += math.Abs(float64(a[row*aStride+p*aTStride]) * float64(b[p*stride+j]))
						}
						if d := math.Abs(float64(got[i] - want[i])); d > tolerance*scale {
							t.Errorf("%v c=%d k=%d byCols=%v: (%d, %d) = %v, Go form %v", l, c, k, byCols, row, j, got[i], want[i])
						}
					}
					if l == LevelGo {
						continue
					}
					if asm == nil {
						asm = got
					} else if !slices.Equal(got, asm) {
						t.Errorf("%v c=%d k=%d byCols=%v: differs from AVX2 (the assembly levels must agree bit for bit)", l, c, k, byCols)
					}
				}
			}
		}
	}
}

// TestMul4Row checks Mul4 against Mul4Strided with a read by rows, bit for bit.
func TestMul4Row(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	k, c := 9, 21
	a, b := randVec(r, 4*k), randVec(r, k*c)
	for _, l := range levels() {
		withLevel(t, l)
		got, want := make([]float32, 4*c), make([]float32, 4*c)
		Mul4(got, c, a, k, k, b, c, c)
		Mul4Strided(want, c, a, k, 1, k, b, c, c)
		if !slices.Equal(got, want) {
			t.Errorf("%v: Mul4 differs from Mul4Strided", l)
		}
		Mul4Go(got, c, a, k, k, b, c, c)
		Mul4StridedGo(want, c, a, k, 1, k, b, c, c)
		if !slices.Equal(got, want) {
			t.Errorf("%v: Mul4Go differs from Mul4StridedGo", l)
		}
	}
}

// TestPrefetchRowsBounds checks that PrefetchRows takes rows inside b, at every level,
// and refuses a row past b's end before any assembly runs.
func TestPrefetchRowsBounds(t *testing.T) {
	b := make([]float32, 10*7)
	for _, l := range levels() {
		withLevel(t, l)
		PrefetchRows([]int32{0, 9, 3}, b, 7, 7)
		PrefetchRows(nil, b, 7, 7)
	}
	defer func() {
		if recover() == nil {
			t.Error("row 10 of a 10-row matrix: no panic")
		}
	}()
	PrefetchRows([]int32{10}, b, 7, 7)
}

// sigmoidInputs returns n values for the sigmoid's tests: random ones across its range
// and, cycling through them, the special ones (±0, ±Inf, NaN, the ends of the computed
// range, subnormals, the largest floats).
func sigmoidInputs(r *rand.Rand, n int) []float32 {
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00001), 693.1, -693.1, 693.2, -693.2, 88.7, -103.9,
		1e-45, -1e-45, math.MaxFloat32, -math.MaxFloat32, 0.5, -0.5}
	x := make([]float32, n)
	for i := range x {
		if i%3 == 0 {
			x[i] = special[(i/3)%len(special)]
		} else {
			x[i] = float32(r.NormFloat64() * 20)
		}
	}
	return x
}

// TestSigmoidSlopeLevels holds every level of SigmoidSlope to its Go twin bit for bit
// (NaNs included) on ragged sizes, leaving fp past len(f) as it is.
func TestSigmoidSlopeLevels(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for n := 0; n <= 70; n++ {
		x := sigmoidInputs(r, n)
		wantF, wantFp := slices.Clone(x), make([]float32, n)
		SigmoidSlopeGo(wantF, wantFp)
		for _, l := range levels() {
			withLevel(t, l)
			f, fp := slices.Clone(x), make([]float32, n+2)
			fp[n], fp[n+1] = 7, 7
			SigmoidSlope(f, fp)
			if fp[n] != 7 || fp[n+1] != 7 {
				t.Fatalf("%v n=%d: wrote past fp[:n]", l, n)
			}
			for i := range f {
				if math.Float32bits(f[i]) != math.Float32bits(wantF[i]) || math.Float32bits(fp[i]) != math.Float32bits(wantFp[i]) {
					t.Errorf("%v n=%d: σ(%v) = %v, %v; Go form %v, %v", l, n, x[i], f[i], fp[i], wantF[i], wantFp[i])
				}
			}
		}
	}
}

// TestSigmoidSlopeRange holds SigmoidSlope, at every level, to the float32 rounding of
// math's float64 sigmoid within two ulps (one subnormal step where it is below the
// normal floats) on every 9973rd float32 bit pattern: both signs, every exponent,
// infinities and NaNs; NaN gives NaN, and fp is σ·(1−σ) of the σ returned.
func TestSigmoidSlopeRange(t *testing.T) {
	var x []float32
	for b := uint64(0); b < 1<<32; b += 9973 {
		x = append(x, math.Float32frombits(uint32(b)))
	}
	for _, l := range levels() {
		withLevel(t, l)
		f, fp := slices.Clone(x), make([]float32, len(x))
		SigmoidSlope(f, fp)
		bad := 0
		for i, v := range x {
			if v != v {
				if f[i] == f[i] || fp[i] == fp[i] {
					t.Errorf("%v: σ(NaN) = %v, %v; want NaN", l, f[i], fp[i])
				}
				continue
			}
			want := float32(1 / (1 + math.Exp(-float64(v))))
			if d := math.Abs(float64(f[i] - want)); d > max(2.4e-7*float64(want), 1.5e-45) {
				t.Errorf("%v: σ(%v) = %v, want %v", l, v, f[i], want)
				bad++
			}
			if s := f[i]; math.Float32bits(fp[i]) != math.Float32bits(s*(1-s)) {
				t.Errorf("%v: slope at %v = %v, want %v", l, v, fp[i], s*(1-s))
				bad++
			}
			if bad > 10 {
				t.FailNow()
			}
		}
	}
}

// TestMulElemsLevels holds every level of MulElems to its Go twin bit for bit on ragged
// sizes (Inf and NaN among the values), writing nothing past dst.
func TestMulElemsLevels(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 100, 129, 1000} {
		x, y := randVec(r, n), randVec(r, n+1)
		if n > 3 {
			x[1], x[3], y[2] = float32(math.Inf(1)), float32(math.NaN()), 0
		}
		want := make([]float32, n)
		MulElemsGo(want, x, y)
		for _, l := range levels() {
			withLevel(t, l)
			got := make([]float32, n+1)
			got[n] = 7
			MulElems(got[:n], x, y)
			if got[n] != 7 {
				t.Fatalf("%v n=%d: wrote past dst", l, n)
			}
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) || want[i] == want[i] && want[i] != x[i]*y[i] {
					t.Errorf("%v n=%d: %d: %v, Go form %v", l, n, i, got[i], want[i])
				}
			}
		}
	}
}

// TestDotRowsLevels holds DotRows, at every level, to Dot row by row at the same level
// bit for bit (and so to the Go twin within tolerance), on ragged lengths, writing
// nothing past d[:len(idx)].
func TestDotRowsLevels(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, n := range []int{0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 40, 47, 48, 64, 65, 100} {
		for _, m := range []int{1, 2, 5, 50} {
			stride, rows := n+n%3, m+4
			x, b := randVec(r, n), randVec(r, rows*stride+1)
			idx := make([]int32, m)
			for i := range idx {
				idx[i] = int32(r.IntN(rows))
			}
			want := make([]float32, m)
			DotRowsGo(want, x, idx, b, stride)
			for _, l := range levels() {
				withLevel(t, l)
				got := make([]float32, m+1)
				got[m] = 7
				DotRows(got, x, idx, b, stride)
				if got[m] != 7 {
					t.Fatalf("%v n=%d m=%d: wrote past d", l, n, m)
				}
				for i, row := range idx {
					y := b[int(row)*stride:][:n]
					if one := Dot(x, y); math.Float32bits(got[i]) != math.Float32bits(one) {
						t.Errorf("%v n=%d m=%d: d[%d] = %v, Dot %v", l, n, m, i, got[i], one)
					}
					var scale float64
					for j := range x {
						scale += math.Abs(float64(x[j]) * float64(y[j]))
					}
					if d := math.Abs(float64(got[i] - want[i])); d > tolerance*scale {
						t.Errorf("%v n=%d m=%d: d[%d] = %v, Go form %v", l, n, m, i, got[i], want[i])
					}
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("row 3 of a 3-row matrix: no panic")
		}
	}()
	DotRows(make([]float32, 1), make([]float32, 4), []int32{3}, make([]float32, 12), 4)
}

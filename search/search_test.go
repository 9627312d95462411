package search

import (
	"math"
	"reflect"
	"sort"
	"testing"
)

var testSpace = Space{
	{Name: "lambda", Kind: Float, Lo: 1e-10, Hi: 100, Log: true},
	{Name: "rho", Kind: Choice, Choices: []any{0.5, 0.55, 0.75, 0.95, 0.995}},
	{Name: "k2", Kind: Int, Lo: 2, Hi: 40, Log: true},
	{Name: "x", Kind: Float, Lo: -1, Hi: 3},
	{Name: "n", Kind: Int, Lo: 1, Hi: 5},
}

// toy is a function of testSpace with its maximum 0 at λ = 1e-3, ρ = 0.95, k2 = 10,
// x = 2, n = 4.
func toy(s Space, x []float64) float64 {
	v := s.Values(x)
	d := math.Log10(v["lambda"].(float64)) + 3
	r := 0.0
	if v["rho"] != 0.95 {
		r = 1
	}
	k := math.Log(float64(v["k2"].(int)) / 10)
	return -(d*d/4 + r + k*k + (v["x"].(float64)-2)*(v["x"].(float64)-2) + math.Abs(float64(v["n"].(int)-4))/2)
}

func run(t *testing.T, s Sampler, trials int, seed uint64) []Observation {
	t.Helper()
	var obs []Observation
	for i := 0; i < trials; i++ {
		x := s.Propose(testSpace, obs, NewRand(seed+uint64(i)))
		obs = append(obs, Observation{X: x, Value: toy(testSpace, x)})
	}
	return obs
}

func TestSamplersDeterministic(t *testing.T) {
	for _, s := range []Sampler{RandomSampler{}, TPE{}} {
		a, b := run(t, s, 40, 7), run(t, s, 40, 7)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%T: two runs of the same seed differ", s)
		}
		if c := run(t, s, 40, 8); reflect.DeepEqual(a, c) {
			t.Errorf("%T: two seeds give the same trials", s)
		}
	}
}

func TestSamplersStayInBounds(t *testing.T) {
	for _, s := range []Sampler{RandomSampler{}, TPE{}} {
		for _, o := range run(t, s, 200, 1) {
			for i, p := range testSpace {
				v := o.X[i]
				switch p.Kind {
				case Choice:
					if v != math.Trunc(v) || v < 0 || int(v) >= len(p.Choices) {
						t.Fatalf("%T: %s index %v", s, p.Name, v)
					}
				default:
					if v < p.Lo || v > p.Hi || (p.Kind == Int && v != math.Trunc(v)) {
						t.Fatalf("%T: %s = %v outside [%v, %v]", s, p.Name, v, p.Lo, p.Hi)
					}
				}
			}
		}
	}
}

// A log range is sampled uniformly in the log: about half the draws of λ in
// [1e-10, 100] fall below 1e-4, the log's midpoint; uniformly in λ, almost none would.
func TestRandomLogScale(t *testing.T) {
	below, n := 0, 4000
	rng := NewRand(3)
	for i := 0; i < n; i++ {
		if Random(testSpace, rng)[0] < 1e-4 {
			below++
		}
	}
	if share := float64(below) / float64(n); math.Abs(share-0.5) > 0.03 {
		t.Errorf("share of λ below 1e-4: %.3f, want ≈ 0.5", share)
	}
	// Each integer of a range gets its share: n in 1…5, about 1/5 each.
	counts := map[float64]int{}
	for i := 0; i < n; i++ {
		counts[Random(testSpace, rng)[4]]++
	}
	for v := 1.0; v <= 5; v++ {
		if share := float64(counts[v]) / float64(n); math.Abs(share-0.2) > 0.03 {
			t.Errorf("share of n = %v: %.3f, want ≈ 0.2", v, share)
		}
	}
}

func TestGamma(t *testing.T) {
	for _, c := range []struct{ n, want int }{{1, 1}, {10, 1}, {11, 2}, {60, 6}, {249, 25}, {1000, 25}} {
		if got := Gamma(c.n); got != c.want {
			t.Errorf("Gamma(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// Over 20 seeds of 60 trials, TPE's best value on the toy function beats random
// search's in most seeds and on the median.
func TestTPEBeatsRandom(t *testing.T) {
	best := func(obs []Observation) float64 {
		b := math.Inf(-1)
		for _, o := range obs {
			b = math.Max(b, o.Value)
		}
		return b
	}
	var tpe, rnd []float64
	wins := 0
	for seed := uint64(0); seed < 20; seed++ {
		a, b := best(run(t, TPE{}, 60, seed*1000)), best(run(t, RandomSampler{}, 60, seed*1000))
		tpe, rnd = append(tpe, a), append(rnd, b)
		if a > b {
			wins++
		}
	}
	sort.Float64s(tpe)
	sort.Float64s(rnd)
	if wins < 14 || tpe[10] <= rnd[10] {
		t.Errorf("TPE beat random in %d of 20 seeds; medians %.3f (TPE) and %.3f (random)", wins, tpe[10], rnd[10])
	}
	t.Logf("TPE beat random in %d of 20 seeds; medians %.3f (TPE) and %.3f (random)", wins, tpe[10], rnd[10])
}

// Observations of a higher level rank above those of a lower one: with the lone
// level-1 trial at x = −1 and better level-0 values elsewhere, TPE's best group is that
// trial, and it proposes near it.
func TestTPELevelsRankFirst(t *testing.T) {
	s := Space{{Name: "x", Kind: Float, Lo: -1, Hi: 3}}
	var obs []Observation
	for i := 0; i < 9; i++ {
		obs = append(obs, Observation{X: []float64{2 + float64(i)/10}, Value: 10})
	}
	obs = append(obs, Observation{X: []float64{-0.9}, Value: 0, Level: 1})
	near := 0
	for i := 0; i < 50; i++ {
		if x := (TPE{}).Propose(s, obs, NewRand(uint64(i)))[0]; x < 0.5 {
			near++
		}
	}
	if near < 40 {
		t.Errorf("%d of 50 proposals near the level-1 trial, want most", near)
	}
}

func TestSpaceCheck(t *testing.T) {
	for _, c := range []struct {
		p    Param
		want bool
	}{
		{Param{Name: "a", Kind: Float, Lo: 1, Hi: 1}, false},
		{Param{Name: "a", Kind: Float, Lo: 0, Hi: 1, Log: true}, false},
		{Param{Name: "a", Kind: Int, Lo: 1.5, Hi: 3}, false},
		{Param{Name: "a", Kind: Choice}, false},
		{Param{Name: "a", Kind: Int, Lo: 1, Hi: 3, Log: true}, true},
	} {
		if err := (Space{c.p}).Check(); (err == nil) != c.want {
			t.Errorf("%+v: Check() = %v", c.p, err)
		}
	}
}

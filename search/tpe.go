package search

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Observation is a finished trial as a sampler sees it: its point, the value it
// reached (higher is better; −Inf for a failed trial) and the level it reached there
// (the rung of successive halving; 0 without pruning). A trial that reached a higher
// level ranks above every trial of a lower level, whatever their values.
type Observation struct {
	X     []float64
	Value float64
	Level int
}

// Sampler proposes the next point of a space from the observations of earlier trials
// (in trial order), drawing from rng only.
type Sampler interface {
	Propose(s Space, obs []Observation, rng *rand.Rand) []float64
}

// RandomSampler proposes points uniformly at random (Random), ignoring observations.
type RandomSampler struct{}

// Propose returns Random(s, rng).
func (RandomSampler) Propose(s Space, _ []Observation, rng *rand.Rand) []float64 {
	return Random(s, rng)
}

// TPE is the tree-structured Parzen estimator sampler (see the package documentation).
// Its zero value has Optuna's defaults.
type TPE struct {
	// StartupTrials is the number of observations below which proposals are random
	// (0: 10).
	StartupTrials int
	// EICandidates is the number of candidates drawn from the estimator of the best
	// trials, of which the one of largest l/g is proposed (0: 24).
	EICandidates int
	// PriorWeight is the weight of the prior component of each estimator (0: 1).
	PriorWeight float64
}

func (t TPE) withDefaults() TPE {
	if t.StartupTrials == 0 {
		t.StartupTrials = 10
	}
	if t.EICandidates == 0 {
		t.EICandidates = 24
	}
	if t.PriorWeight == 0 {
		t.PriorWeight = 1
	}
	return t
}

// Startup returns the observations below which t proposes at random.
func (t TPE) Startup() int { return t.withDefaults().StartupTrials }

// Gamma returns the number of observations, of n, that TPE counts as the best:
// min(⌈0.1·n⌉, 25).
func Gamma(n int) int { return min((n+9)/10, 25) }

// weights returns the weights of m observations in trial order: 1 each for m < 25,
// else a ramp from 1/m to 1 over the m − 25 oldest and 1 for the 25 newest.
func weights(m int) []float64 {
	w := make([]float64, m)
	ramp := m - 25
	for i := range w {
		w[i] = 1
		if ramp > 0 && i < ramp {
			if ramp == 1 {
				w[i] = 1 / float64(m)
			} else {
				w[i] = 1/float64(m) + (1-1/float64(m))*float64(i)/float64(ramp-1)
			}
		}
	}
	return w
}

// Propose returns the next point: random while fewer than StartupTrials observations
// are given, else, parameter by parameter, the candidate of largest l(x)/g(x).
func (t TPE) Propose(s Space, obs []Observation, rng *rand.Rand) []float64 {
	t = t.withDefaults()
	if len(obs) < t.StartupTrials {
		return Random(s, rng)
	}
	order := make([]int, len(obs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := obs[order[a]], obs[order[b]]
		if x.Level != y.Level {
			return x.Level > y.Level
		}
		return x.Value > y.Value
	})
	nBelow := Gamma(len(obs))
	below, above := order[:nBelow], order[nBelow:]
	sort.Ints(below) // trial order, for the weights
	above = append([]int(nil), above...)
	sort.Ints(above)
	x := make([]float64, len(s))
	for i, p := range s {
		l := newParzen(p, i, obs, below, t.PriorWeight)
		g := newParzen(p, i, obs, above, t.PriorWeight)
		best, bestScore := 0.0, math.Inf(-1)
		for c := 0; c < t.EICandidates; c++ {
			z := l.sample(rng)
			if score := l.logDensity(z) - g.logDensity(z); score > bestScore {
				best, bestScore = z, score
			}
		}
		if p.Kind == Choice {
			x[i] = best
		} else {
			x[i] = p.fromInternal(best)
		}
	}
	return x
}

// parzen is the Parzen estimator of one parameter over a group of observations: a
// mixture of truncated Gaussians on [lo, hi] (numbers) or of categorical
// distributions (choices), with a prior component.
type parzen struct {
	choice bool
	w      []float64 // component weights, summing to 1
	// numbers
	lo, hi     float64
	mu, sigma  []float64
	logNorm    []float64 // log of each component's mass on [lo, hi]
	categories [][]float64
}

func newParzen(p Param, dim int, obs []Observation, group []int, prior float64) *parzen {
	w := weights(len(group))
	w = append(w, prior)
	var sum float64
	for _, v := range w {
		sum += v
	}
	for i := range w {
		w[i] /= sum
	}
	pz := &parzen{w: w}
	if p.Kind == Choice {
		pz.choice = true
		nc := len(p.Choices)
		fill := prior / float64(len(group)+1)
		for _, o := range group {
			row := make([]float64, nc)
			for c := range row {
				row[c] = fill
			}
			row[int(obs[o].X[dim])]++
			pz.categories = append(pz.categories, normalised(row))
		}
		row := make([]float64, nc)
		for c := range row {
			row[c] = 1
		}
		pz.categories = append(pz.categories, normalised(row))
		return pz
	}
	pz.lo, pz.hi = p.internal()
	mus := make([]float64, 0, len(group)+1)
	for _, o := range group {
		mus = append(mus, p.toInternal(obs[o].X[dim]))
	}
	pz.mu = append(mus, (pz.lo+pz.hi)/2)
	pz.sigma = bandwidths(pz.mu[:len(group)], pz.lo, pz.hi)
	pz.sigma = append(pz.sigma, pz.hi-pz.lo)
	for i := range pz.mu {
		pz.logNorm = append(pz.logNorm, math.Log(normalCDF((pz.hi-pz.mu[i])/pz.sigma[i])-normalCDF((pz.lo-pz.mu[i])/pz.sigma[i])))
	}
	return pz
}

func normalised(row []float64) []float64 {
	var s float64
	for _, v := range row {
		s += v
	}
	for i := range row {
		row[i] /= s
	}
	return row
}

// bandwidths returns the width of each observation's Gaussian: the larger of its gaps
// to its neighbours in sorted order (the range's ends and the prior's centre counting as
// neighbours), clipped to [(hi − lo)/min(100, n + 2), hi − lo].
func bandwidths(mus []float64, lo, hi float64) []float64 {
	pts := append(append([]float64(nil), mus...), (lo+hi)/2)
	idx := make([]int, len(pts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return pts[idx[a]] < pts[idx[b]] })
	sigma := make([]float64, len(pts))
	for r, i := range idx {
		left, right := lo, hi
		if r > 0 {
			left = pts[idx[r-1]]
		}
		if r+1 < len(idx) {
			right = pts[idx[r+1]]
		}
		sigma[i] = math.Max(pts[i]-left, right-pts[i])
	}
	maxS := hi - lo
	minS := maxS / math.Min(100, float64(len(pts)+1))
	for i := range sigma {
		sigma[i] = math.Min(math.Max(sigma[i], minS), maxS)
	}
	return sigma[:len(mus)]
}

func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// component draws a component index by weight.
func (pz *parzen) component(rng *rand.Rand) int {
	u := rng.Float64()
	for i, w := range pz.w {
		if u < w {
			return i
		}
		u -= w
	}
	return len(pz.w) - 1
}

// sample draws a value: a choice index, or a number in [lo, hi] of the internal space.
func (pz *parzen) sample(rng *rand.Rand) float64 {
	c := pz.component(rng)
	if pz.choice {
		return float64(drawIndex(pz.categories[c], rng))
	}
	for try := 0; try < 100; try++ {
		if z := pz.mu[c] + pz.sigma[c]*rng.NormFloat64(); z >= pz.lo && z <= pz.hi {
			return z
		}
	}
	return pz.lo + (pz.hi-pz.lo)*rng.Float64()
}

func drawIndex(p []float64, rng *rand.Rand) int {
	u := rng.Float64()
	for i, v := range p {
		if u < v {
			return i
		}
		u -= v
	}
	return len(p) - 1
}

// logDensity returns the log of the mixture's density (numbers) or mass (choices) at z.
func (pz *parzen) logDensity(z float64) float64 {
	var sum float64
	for i, w := range pz.w {
		if pz.choice {
			sum += w * pz.categories[i][int(z)]
			continue
		}
		d := (z - pz.mu[i]) / pz.sigma[i]
		sum += w * math.Exp(-0.5*d*d-pz.logNorm[i]) / (pz.sigma[i] * math.Sqrt(2*math.Pi))
	}
	return math.Log(sum)
}

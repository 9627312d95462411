package search

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Kind is the kind of a parameter.
type Kind int

const (
	// Choice is a parameter taking one of a list of values, in order.
	Choice Kind = iota
	// Float is a real parameter in [Lo, Hi].
	Float
	// Int is an integer parameter in [Lo, Hi].
	Int
)

// Param is one dimension of a search space.
type Param struct {
	Name string
	Kind Kind
	// Lo and Hi bound a Float or Int parameter (inclusive); Log samples it log-uniformly
	// (then Lo > 0).
	Lo, Hi float64
	Log    bool
	// Choices are the values of a Choice parameter.
	Choices []any
}

// Space is a search space: one coordinate per parameter, in this order.
type Space []Param

// Check returns an error for a parameter the samplers cannot draw from: no choices,
// Lo ≥ Hi, a log range with Lo ≤ 0, an integer range with bounds not whole.
func (s Space) Check() error {
	for _, p := range s {
		switch p.Kind {
		case Choice:
			if len(p.Choices) == 0 {
				return fmt.Errorf("%s: no values", p.Name)
			}
		case Float, Int:
			if !(p.Lo < p.Hi) || math.IsInf(p.Lo, 0) || math.IsInf(p.Hi, 0) {
				return fmt.Errorf("%s: need lo < hi, got [%v, %v]", p.Name, p.Lo, p.Hi)
			}
			if p.Log && p.Lo <= 0 {
				return fmt.Errorf("%s: a log range needs lo > 0, got %v", p.Name, p.Lo)
			}
			if p.Kind == Int && (p.Lo != math.Trunc(p.Lo) || p.Hi != math.Trunc(p.Hi)) {
				return fmt.Errorf("%s: integer bounds must be whole numbers, got [%v, %v]", p.Name, p.Lo, p.Hi)
			}
		default:
			return errors.New(p.Name + ": unknown kind")
		}
	}
	return nil
}

// Values returns the parameter values of point x: the choice, the float, or the
// integer (as an int).
func (s Space) Values(x []float64) map[string]any {
	out := make(map[string]any, len(s))
	for i, p := range s {
		switch p.Kind {
		case Choice:
			out[p.Name] = p.Choices[int(x[i])]
		case Float:
			out[p.Name] = x[i]
		case Int:
			out[p.Name] = int(x[i])
		}
	}
	return out
}

// internal returns the bounds of parameter p in the space the samplers work in: the
// log of the range for a log range, and for integers the range widened by ½ on each
// side (before the log), so that each integer gets the same share.
func (p Param) internal() (lo, hi float64) {
	lo, hi = p.Lo, p.Hi
	if p.Kind == Int {
		lo, hi = lo-0.5, hi+0.5
		if p.Log {
			lo = math.Max(lo, p.Lo*0.5) // stays > 0
		}
	}
	if p.Log {
		lo, hi = math.Log(lo), math.Log(hi)
	}
	return lo, hi
}

// toInternal maps a coordinate to the sampler's space.
func (p Param) toInternal(v float64) float64 {
	if p.Log {
		return math.Log(v)
	}
	return v
}

// fromInternal maps a value of the sampler's space back to a coordinate within the
// parameter's range: exp for a log range, rounding for integers, clamped to [Lo, Hi].
func (p Param) fromInternal(z float64) float64 {
	v := z
	if p.Log {
		v = math.Exp(z)
	}
	if p.Kind == Int {
		v = math.Round(v)
	}
	return math.Min(math.Max(v, p.Lo), p.Hi)
}

// randomCoordinate draws coordinate of p uniformly (log-uniformly on a log range).
func (p Param) randomCoordinate(rng *rand.Rand) float64 {
	if p.Kind == Choice {
		return float64(rng.IntN(len(p.Choices)))
	}
	lo, hi := p.internal()
	return p.fromInternal(lo + (hi-lo)*rng.Float64())
}

// NewRand returns the generator a sampler draws from for seed.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x7470652d6e616763)) }

// Random returns a point drawn uniformly from s (log-uniformly along log ranges).
func Random(s Space, rng *rand.Rand) []float64 {
	x := make([]float64, len(s))
	for i, p := range s {
		x[i] = p.randomCoordinate(rng)
	}
	return x
}

package algorithms

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Continuer is a Method whose fit can go on from where another fit of the same options
// stopped: successive halving continues a configuration it promotes instead of fitting
// it again from its start.
type Continuer interface {
	Method
	// Continue returns the method that runs iterations more iterations from factors
	// (Result.Factors of a fit with the receiver's options). For the same input, k and
	// seed, the continued fit's labels, factors and objective curve (appended to the
	// first fit's) are those of one fit of both counts together, bit for bit.
	Continue(factors map[string]*mat.Dense, iterations int) (Method, error)
}

// Continue returns NAGC with the given U, V and H as its initial factors and iterations
// iterations: the iterations draw nothing, and the solver set up from the factors
// (NewNAGCSolver) holds what the solver that produced them held after their last
// iteration, so the continued fit is the rest of a longer one. Its Result.Info["init"]
// reads "given".
func (a NAGC) Continue(factors map[string]*mat.Dense, iterations int) (Method, error) {
	if iterations < 1 {
		return nil, fmt.Errorf("nagc: continue for %d iterations, need ≥ 1", iterations)
	}
	u, v, h := factors["U"], factors["V"], factors["H"]
	if u == nil || v == nil || h == nil {
		return nil, errors.New("nagc: continuing needs the factors U, V and H of a fit")
	}
	a.InitU, a.InitV, a.InitH = u, v, h
	a.Iterations = iterations
	return a, nil
}

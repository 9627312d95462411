package algorithms

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
)

// SNMF is symmetric NMF of the adjacency (SymNMF; Kuang, Ding & Park, SDM 2012) by the
// multiplicative β-rule with β = ½ (Wang et al., DMKD 2011; He et al., IEEE TNN 2011):
//
//	min_{H ≥ 0}  ‖A − H Hᵀ‖²_F
//	H ← H ⊙ (1 − β + β·(AH) ⊘ max(H(HᵀH), δ)),   β = ½
//
// with H n×k and δ = 1e-12 × the largest entry of H(HᵀH) at that step (0/0 → machine ε).
// Cluster of vertex i = argmax of row i of H.
//
// A is the 0/1 adjacency without self-loops by default (the baselines spec writes S for
// the adjacency with no self-loops; METIS also drops them); SelfLoops keeps the stored
// diagonal. Normalize replaces A by D^-1/2 A D^-1/2 (D the degrees of that A; isolated
// vertices keep an empty row), the 'ncut' default of Kuang's symnmf_cluster.m.
// Initialisation, as Kuang's code: H = 2·sqrt(mean(A)/k)·U(0,1) with mean(A) = ΣA/n², on
// the A actually factorised (normalised or not).
//
// Objective recorded after each iteration, with no n×n matrix:
// ‖A‖² − 2⟨AH, H⟩ + ‖HᵀH‖²_F (⟨AH, H⟩ = Σ_stored aᵢⱼ hᵢ·hⱼ, exact for weighted A). It is
// not proven monotone under the β = ½ rule; what was measured is in docs/faithfulness.md
// ("SNMF's β-rule"). Cost per iteration O(nnz(A)·k + n·k²); memory O(n·k) beyond the
// input.
//
// Defaults (zero values): Iterations 100 (to match NAGC's t; no convergence test, one
// start), no normalisation, self-loops dropped.
type SNMF struct {
	Iterations int  `yaml:"iterations"` // 0 means 100
	Normalize  bool `yaml:"normalize"`  // factorise D^-1/2 A D^-1/2 instead of A
	SelfLoops  bool `yaml:"self_loops"` // keep the adjacency's stored diagonal
}

// Name returns "snmf".
func (SNMF) Name() string { return "snmf" }

// withDefaults returns a with zero iterations at the default, 100.
func (a SNMF) withDefaults() SNMF {
	if a.Iterations == 0 {
		a.Iterations = 100
	}
	return a
}

// Fit factorises the adjacency with rank k. See the type's documentation.
func (a SNMF) Fit(ctx context.Context, in Input, k int, seed uint64) (*Result, error) {
	start := time.Now()
	a = a.withDefaults()
	if err := in.validate(true, false, k); err != nil {
		return nil, fmt.Errorf("snmf: %w", err)
	}
	if a.Iterations < 0 {
		return nil, fmt.Errorf("snmf: %d iterations", a.Iterations)
	}
	adj := nmfGraphMatrix(in.Adj, a.SelfLoops)
	if err := nmfCheckNonNegative("adjacency", adj); err != nil {
		return nil, fmt.Errorf("snmf: %w", err)
	}
	if a.Normalize {
		adj = nmfNormalisedAdjacency(adj)
	}
	n, _ := adj.Dims()
	rng := newRand(seed)
	h := nmfScaledUniform(n, k, 2*math.Sqrt(adj.Sum()/(float64(n)*float64(n))/float64(k)), rng)
	s := newSymNMFSolver(adj, h)
	obj, err := iterate(ctx, a.Iterations, s.step, s.objective)
	if err != nil {
		return nil, err
	}
	if !allFinite(s.H) {
		return nil, errors.New("snmf: factor diverged (Inf or NaN after the updates)")
	}
	return &Result{
		Labels:     ArgmaxRows(s.H),
		Iterations: a.Iterations,
		Objective:  obj,
		FitTime:    time.Since(start),
		Factors:    map[string]*mat.Dense{"H": s.H},
		Info: map[string]string{
			"rule":       "multiplicative, beta = 1/2",
			"init":       "2·sqrt(mean(A)/k)·U(0,1)",
			"normalize":  fmt.Sprint(a.Normalize),
			"self_loops": fmt.Sprint(a.SelfLoops),
			"objective":  "‖A − HHᵀ‖²",
		},
	}, nil
}

// nmfGraphMatrix returns adj, without its diagonal unless selfLoops.
func nmfGraphMatrix(adj *sparse.CSR, selfLoops bool) *sparse.CSR {
	if selfLoops {
		return adj
	}
	return adj.WithoutDiagonal()
}

// nmfNormalisedAdjacency returns D^-1/2 A D^-1/2 with D the row sums of a (a zero row sum
// gives a factor 0). Cost O(n + nnz).
func nmfNormalisedAdjacency(a *sparse.CSR) *sparse.CSR {
	f := a.RowSums()
	for i, d := range f {
		if d > 0 {
			f[i] = 1 / math.Sqrt(d)
		} else {
			f[i] = 0
		}
	}
	return a.ScaleRows(f).ScaleColumns(f)
}

// symNMFSolver holds SNMF's factor and work buffers. Invariant between steps: ah = A·H,
// hth = HᵀH.
type symNMFSolver struct {
	H       *mat.Dense // n×k
	a       *sparse.CSR
	aNormSq float64

	ah, den *mat.Dense // n×k
	hth     *mat.Dense // k×k
}

// newSymNMFSolver takes over h (updated in place).
func newSymNMFSolver(a *sparse.CSR, h *mat.Dense) *symNMFSolver {
	n, k := h.Dims()
	s := &symNMFSolver{
		H: h, a: a, aNormSq: a.SumSq(),
		ah: mat.NewDense(n, k, nil), den: mat.NewDense(n, k, nil), hth: mat.NewDense(k, k, nil),
	}
	sparse.MulDense(s.ah, a, h)
	s.hth.Mul(h.T(), h)
	return s
}

// step applies the β = ½ rule once. Cost O(nnz(A)·k + n·k²).
func (s *symNMFSolver) step() {
	s.den.Mul(s.H, s.hth)
	delta := nmfEpsRel * nmfMaxEntry(s.den)
	r, c := s.H.Dims()
	for i := 0; i < r; i++ {
		hs, ns, ds := s.H.RawRowView(i)[:c], s.ah.RawRowView(i)[:c], s.den.RawRowView(i)[:c]
		for j := range hs {
			v := hs[j] * (0.5 + 0.5*ns[j]/max(ds[j], delta))
			if v != v {
				v = eps
			}
			hs[j] = v
		}
	}
	sparse.MulDense(s.ah, s.a, s.H)
	s.hth.Mul(s.H.T(), s.H)
}

// objective returns ‖A − HHᵀ‖² = ‖A‖² − 2⟨AH, H⟩ + ‖HᵀH‖²_F. Cost O(n·k).
func (s *symNMFSolver) objective() float64 {
	return s.aNormSq - 2*nmfFrobDot(s.ah, s.H) + nmfFrobDot(s.hth, s.hth)
}

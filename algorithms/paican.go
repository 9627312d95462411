package algorithms

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/memory"
)

// PAICAN is Partial Anomaly Identification and Clustering in Attributed Networks
// (Bojchevski and Günnemann, "Bayesian Robust Attributed Graph Clustering: Joint Learning
// of Partial Anomalies and Group Structure", AAAI 2018), fitted by variational EM with
// closed-form updates, as its authors' code does.
//
// The model, every update and the ELBO, formula by formula, are in docs/paican.md
// ("The update formulas"). One iteration updates every q(z_i) at once (a parallel
// mean-field step), recomputes the point estimates of the parameters in closed form,
// then updates every q(c_i) at once; Result.Objective holds the ELBO after each
// iteration, and the fit stops when it changed by less than Tol (absolute) or after
// MaxIter iterations.
//
// Outputs: cluster of vertex i = argmax_k q(z_i = k); Result.Flags["edge_anomalous"][i]
// where q gives i's edges a higher probability of being anomalous than clean, and
// Result.Flags["attribute_anomalous"][i] likewise for its attributes (the authors' argmax
// of the two marginals; a tie counts as clean).
//
// Initialisation (Init "dcsbm", the default): a plain DC-SBM fitted by variational EM
// from spectral clustering (fitPaicanDCSBM); Init "random": one-hot draws from the seed.
//
// Inputs: A is the 0/1 pattern of the adjacency's entries > 0 off the diagonal (it must be
// symmetric); X the 0/1 pattern of the attributes > 0. Vertices without edges are allowed
// (the authors' code refuses them): their edge terms are 0 except the expected non-edges.
//
// Cost per iteration O((|E| + nnz(X))·K + n·K² + m·K), no n×n or n×m dense matrix (the
// authors' code forms 1 − X densely); the initialisation costs a randomised eigensolver
// (10 products of A with K + 10 columns), k-means, and O(|E|·K + n·K²) per DC-SBM sweep.
// Memory O((n + m)·K) beyond binarised copies of A and X, checked against the memory
// budget before anything is allocated.
//
// Protocol "reference" keeps two formulas of the authors' code where it departs from the
// model (docs/paican.md); the default, "model", follows the model.
//
// Defaults (zero values): α = 10 and β = (10, 1, 1, 1) (the authors' priors: Alpha 10,
// CleanPrior 10, AnomalyPrior 1), MaxIter 1000, Tol 1e-3 (the authors'), Init "dcsbm"
// (DC-SBM: at most 1000 sweeps, stopping at an ELBO change below 1e-5, the authors').
type PAICAN struct {
	Alpha        float64 `yaml:"alpha"`         // Dirichlet prior on the cluster proportions; 0 means 10
	CleanPrior   float64 `yaml:"clean_prior"`   // Dirichlet pseudo-count β_0 of the clean state; 0 means 10
	AnomalyPrior float64 `yaml:"anomaly_prior"` // pseudo-count β of each of the three anomalous states; 0 means 1
	MaxIter      int     `yaml:"max_iter"`      // variational EM iterations at most; 0 means 1000
	Tol          float64 `yaml:"tol"`           // absolute ELBO change that stops; 0 means 1e-3
	Init         string  `yaml:"init"`          // "dcsbm" (default) or "random"
	Protocol     string  `yaml:"protocol"`      // "model" (default) or "reference": the authors' code's two departures
}

// PAICAN protocols.
const (
	PAICANProtocolModel     = "model"
	PAICANProtocolReference = "reference"
)

// PAICAN initialisations.
const (
	PAICANInitDCSBM  = "dcsbm"
	PAICANInitRandom = "random"
)

// Names of the per-vertex masks PAICAN reports in Result.Flags.
const (
	FlagEdgeAnomalous      = "edge_anomalous"
	FlagAttributeAnomalous = "attribute_anomalous"
)

// Name returns "paican".
func (PAICAN) Name() string { return "paican" }

func (a PAICAN) withDefaults() PAICAN {
	if a.Alpha == 0 {
		a.Alpha = 10
	}
	if a.CleanPrior == 0 {
		a.CleanPrior = 10
	}
	if a.AnomalyPrior == 0 {
		a.AnomalyPrior = 1
	}
	if a.MaxIter == 0 {
		a.MaxIter = 1000
	}
	if a.Tol == 0 {
		a.Tol = 1e-3
	}
	if a.Init == "" {
		a.Init = PAICANInitDCSBM
	}
	if a.Protocol == "" {
		a.Protocol = PAICANProtocolModel
	}
	return a
}

func (a PAICAN) resolved(_, _ int) Method { return a.withDefaults() }

func (a PAICAN) checkOptions() error {
	return firstError(
		nonNegative("paican", "alpha", a.Alpha),
		nonNegative("paican", "clean_prior", a.CleanPrior),
		nonNegative("paican", "anomaly_prior", a.AnomalyPrior),
		atLeastZero("paican", "max_iter", a.MaxIter),
		nonNegative("paican", "tol", a.Tol),
		oneOf("paican", "init", a.Init, PAICANInitDCSBM, PAICANInitRandom),
		oneOf("paican", "protocol", a.Protocol, PAICANProtocolModel, PAICANProtocolReference),
	)
}

func (a PAICAN) validate(in Input, k int) error {
	if err := a.checkOptions(); err != nil {
		return err
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"alpha", a.Alpha}, {"clean_prior", a.CleanPrior}, {"anomaly_prior", a.AnomalyPrior}, {"tol", a.Tol}} {
		if math.IsInf(p.v, 0) {
			return fmt.Errorf("paican: %s = %v, need a finite value", p.name, p.v)
		}
	}
	if err := in.validate(true, true, k); err != nil {
		return fmt.Errorf("paican: %w", err)
	}
	return nil
}

// paicanMemory estimates the peak bytes a fit of an n-vertex graph with nnzA stored
// adjacency entries, m attributes with nnzX stored entries and k clusters allocates: the
// binarised A and its transpose (symmetry check), D^-½AD^-½ + I and its transpose, and
// the triplets that build it (16 bytes per stored entry of a CSR, 24 per triplet); the
// binarised X and Xᵀ; the twelve n×K and five m×K buffers of the model and the DC-SBM;
// and eight n×(K+10) matrices of the eigensolver, the embedding and k-means. On Cora
// (k = 7) it is 8.0 MB; the whole fit allocates 17 MB in total, most of it short-lived.
func paicanMemory(n, m, nnzA, nnzX, k int) uint64 {
	const f = 8
	return memory.Add(
		memory.Bytes(int64(nnzA)+int64(n), 4*16+24),
		memory.Bytes(2*int64(nnzX), 16),
		memory.Bytes(4*int64(n)+int64(m), f),
		memory.Bytes(12*int64(n)*int64(k), f),
		memory.Bytes(5*int64(m)*int64(k), f),
		memory.Bytes(8*int64(n)*int64(k+10), f),
	)
}

// Fit runs PAICAN with k clusters. See the type's documentation.
func (a PAICAN) Fit(ctx context.Context, in Input, k int, seed uint64) (*Result, error) {
	start := time.Now()
	a = a.withDefaults()
	if err := a.validate(in, k); err != nil {
		return nil, err
	}
	xin, err := in.ExplicitAttributes()
	if err != nil {
		return nil, fmt.Errorf("paican: %w", err)
	}
	n := in.N()
	_, m := xin.Dims()
	need := paicanMemory(n, m, in.Adj.NNZ(), xin.NNZ(), k)
	if err := memory.Check(fmt.Sprintf("paican on %d vertices, %d attributes, k = %d", n, m, k), need); err != nil {
		return nil, err
	}
	adj, err := bagcEdgePattern(in.Adj)
	if err != nil {
		return nil, fmt.Errorf("paican: %w", err)
	}
	x := bagcBinaryPattern(xin)
	rng := newRand(seed)

	var z *mat.Dense
	initInfo := ""
	switch a.Init {
	case PAICANInitDCSBM:
		d, err := fitPaicanDCSBM(ctx, adj, k, a.Protocol == PAICANProtocolReference, rng)
		if err != nil {
			return nil, err
		}
		z = d.z
		initInfo = fmt.Sprintf("DC-SBM, %d sweeps from spectral clustering", d.sweeps)
	case PAICANInitRandom:
		z = paicanRandomZ(n, k, rng)
		initInfo = "random one-hot (ε-smoothed)"
	}
	mdl := newPaicanModel(adj, x, z, a)
	elbo, converged, err := mdl.run(ctx, a.MaxIter, a.Tol)
	if err != nil {
		return nil, err
	}
	if !allFinite(mdl.z) || !allFinite(mdl.c) {
		return nil, fmt.Errorf("paican: variational posteriors diverged (Inf or NaN)")
	}
	edgeBad, attrBad := mdl.flags()
	nEdge, nAttr, nAny := 0, 0, 0
	for i := range edgeBad {
		if edgeBad[i] {
			nEdge++
		}
		if attrBad[i] {
			nAttr++
		}
		if edgeBad[i] || attrBad[i] {
			nAny++
		}
	}
	return &Result{
		Labels:     ArgmaxRows(mdl.z),
		Iterations: len(elbo),
		Objective:  elbo,
		FitTime:    time.Since(start),
		Factors:    map[string]*mat.Dense{"z": mdl.z, "c": mdl.c},
		Flags:      map[string][]bool{FlagEdgeAnomalous: edgeBad, FlagAttributeAnomalous: attrBad},
		Info: map[string]string{
			"objective":           "ELBO after each iteration (variational EM, parallel updates)",
			"priors":              fmt.Sprintf("α=%g β=(%g,%g,%g,%g)", a.Alpha, a.CleanPrior, a.AnomalyPrior, a.AnomalyPrior, a.AnomalyPrior),
			"init":                initInfo,
			"protocol":            a.Protocol,
			"converged":           strconv.FormatBool(converged),
			"edge_anomalous":      strconv.Itoa(nEdge),
			"attribute_anomalous": strconv.Itoa(nAttr),
			"flagged":             strconv.Itoa(nAny),
			"edges":               "adjacency entries > 0 off the diagonal (self-loops dropped)",
			"attributes":          "binary: present where X > 0",
		},
	}, nil
}

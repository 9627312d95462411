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
// Model, with K clusters, n vertices, m binary attributes. Every vertex i has a cluster
// z_i ~ Cat(π) and an anomaly state c_i ~ Cat(ρ) over four states: 0 clean, 1 its edges
// anomalous, 2 its attributes anomalous, 3 both (a vertex anomalous in both belongs to no
// cluster: its z_i gets no prior term). Write g_i = P(c_i ∈ {0, 2}) (edges clean),
// b_i = 1 − g_i, a_i = P(c_i ∈ {0, 1}) (attributes clean).
//
//   - Edges: a degree-corrected SBM with Poisson edge counts (Karrer and Newman), one
//     rate per pair of vertices by the two ends' states: clean–clean θ_i θ_j η_{z_i z_j},
//     anomalous i with clean j θ'_i η_bg, anomalous–anomalous θ'_i θ'_j η_bb. Self-pairs
//     count with half their rate, as in Karrer and Newman's likelihood.
//   - Attributes: a clean vertex draws x_id ~ Bernoulli(t_{z_i d}); an attribute-anomalous
//     one draws every x_id ~ Bernoulli(½).
//   - Priors: π ~ Dirichlet(α,…,α), ρ ~ Dirichlet(β_0, β, β, β).
//
// Parameters (θ, θ', η, t, π, ρ) are point estimates recomputed in closed form from the
// variational posteriors q(z_i) q(c_i) before every update (the authors' "MLE/MAP
// updates"): θ_i = Σ_j A_ij g_j (expected clean neighbours; ε where 0), θ'_i = deg_i,
// η_kl = m_kl/(κ_k κ_l) with m = (g⊙z)ᵀ A (g⊙z) and κ_k = Σ_i g_i θ_i z_ik, η_bg =
// m_bg/(Θ'_B G), η_bb = m_bb/Θ'_B² with m_bg = bᵀAg, m_bb = bᵀAb, Θ'_B = Σ_i b_i θ'_i and
// G = Σ_i g_i (every η at least ε), t_kd = Σ_i a_i z_ik x_id / Σ_i a_i z_ik (clipped to
// [ε, 1−ε]), π_k = (Σ_i (1−c_i3) z_ik + α)/(Σ_i (1−c_i3) + Kα), ρ_s = (Σ_i c_is +
// β_s)/(n + Σβ); ε = 1e-20, the authors' constant.
//
// One iteration updates every q(z_i) at once (the authors' default at_once=True, a
// parallel mean-field step), recomputes the parameters, then updates every q(c_i) at
// once:
//
//	log q(z_i = k) = g_i [Σ_l (A(g⊙z))_il log η_kl − θ_i (Σ_l η_kl κ_l − g_i θ_i (η z_i)_k) − ½ θ_i² η_kk]
//	               + a_i ℓ_ik + (1 − c_i3) log π_k + const,   ℓ_ik = Σ_d x_id log t_kd + (1−x_id) log(1−t_kd)
//	log q(c_i = s) = log ρ_s + [s ∈ {0,2}] G_i + [s ∈ {1,3}] B_i + [s ∈ {0,1}] z_i·ℓ_i + [s ∈ {2,3}] m log ½
//	               + [s ≠ 3] z_i·log π + const,
//
// where G_i and B_i are the expected log-likelihoods of vertex i's pairs with i's edges
// clean or anomalous (see paicanModel.edgeTerms). The ELBO is the expected complete
// log-likelihood at the parameters recomputed from q plus the entropies of q(z) and q(c);
// it is evaluated at the start and after every iteration (Result.Objective holds the
// values after each iteration), and the fit stops when it changed by less than Tol
// (absolute, the authors' rule) or after MaxIter iterations. Parallel updates do not
// guarantee a monotone ELBO.
//
// Outputs: cluster of vertex i = argmax_k q(z_i = k); Result.Flags["edge_anomalous"][i] =
// b_i > g_i and Result.Flags["attribute_anomalous"][i] = a_i < ½ (the authors' argmax of
// the two marginals; a tie counts as clean).
//
// Initialisation (Init "dcsbm", the authors' default): the clustering of a plain DC-SBM
// fitted by variational EM (see fitPaicanDCSBM) started from spectral clustering (k-means on
// the row-normalised K leading eigenvectors of D^-½ A D^-½); q(c_i) starts at (0.997,
// 0.001, 0.001, 0.001). Init "random": q(z_i) is a one-hot draw from the seed, smoothed
// by ε and renormalised (the authors' 'cat').
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
// model: π_k = exp(log((Σ_i (1−c_i3) z_ik + α)/Σ_i (1−c_i3) + Kα)) (a misplaced
// parenthesis; the prior on z is then nearly flat, unnormalised), and the DC-SBM
// initialisation's E-step with its edge term counted twice (see fitPaicanDCSBM). The
// default, "model", uses the formulas above.
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

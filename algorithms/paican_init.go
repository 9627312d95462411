package algorithms

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/algorithms/kmeans"
	"github.com/nagc-harness/nagc/sparse"
)

// Settings of PAICAN's DC-SBM initialisation (the authors' DCSBM class).
const (
	paicanDCSBMMaxSweeps = 1000
	paicanDCSBMTol       = 1e-5  // absolute ELBO change that stops
	paicanDCSBMEtaFloor  = 1e-14 // floor of the block rates
)

// paicanDCSBM is the result of the DC-SBM initialisation.
type paicanDCSBM struct {
	z      *mat.Dense // n×K variational posteriors
	sweeps int
	elbo   float64
}

// fitPaicanDCSBM fits a degree-corrected SBM (Karrer and Newman; Poisson edges with rate
// θ_i θ_j η_{z_i z_j}, θ_i = deg_i) to the 0/1 symmetric adjacency adj by variational EM,
// as PAICAN's initialisation: spectral clustering to start, then sweeps of a closed-form
// M-step and a sequential E-step (vertices in order 0…n−1) until the ELBO changes by less
// than 1e-5, or after 1000 sweeps. The start, both steps and the ELBO, formula by formula:
// see docs/paican.md#the-dc-sbm-initialisation.
//
// The authors' E-step counts the edge term twice; here it counts once, unless reference
// is set (PAICAN's protocol "reference"). Cost per sweep O(|E|·K + n·K²).
func fitPaicanDCSBM(ctx context.Context, adj *sparse.CSR, k int, reference bool, rng *rand.Rand) (*paicanDCSBM, error) {
	n, _ := adj.Dims()
	deg := adj.RowSums()
	f := make([]float64, n)
	for i, d := range deg {
		if d > 0 {
			f[i] = 1 / math.Sqrt(d)
		}
	}
	b := sparse.NewBuilder(n, n)
	for i := 0; i < n; i++ {
		cols, _ := adj.Row(i)
		for _, j := range cols {
			_ = b.Add(i, j, f[i]*f[j])
		}
		_ = b.Add(i, i, 1)
	}
	emb, err := SpectralEmbeddingContext(ctx, sparse.NewCSROperator(b.CSR(sparse.SumDuplicates)), k, rng)
	if err != nil {
		return nil, err
	}
	km, err := kmeans.FitContext(ctx, emb, kmeans.Config{K: k}, rng)
	if err != nil {
		return nil, err
	}
	z := mat.NewDense(n, k, nil)
	for i, l := range km.Labels {
		z.Set(i, l, 1)
	}
	s := newDCSBMState(adj, deg, z)
	if reference {
		s.edgeWeight = 2
	}
	s.mstep()
	prev := s.elbo()
	out := &paicanDCSBM{z: z, elbo: prev}
	for sweep := 1; sweep <= paicanDCSBMMaxSweeps; sweep++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.estep()
		s.mstep()
		l := s.elbo()
		out.sweeps, out.elbo = sweep, l
		if math.Abs(l-prev) < paicanDCSBMTol {
			break
		}
		prev = l
	}
	return out, nil
}

// dcsbmState holds the DC-SBM's posteriors and parameters.
type dcsbmState struct {
	n, k         int
	adj          *sparse.CSR
	theta, logTh []float64  // θ_i = deg_i, log θ_i (0 when deg_i = 0)
	z, az        *mat.Dense // n×K: q(z), A z
	m, eta, lEt  []float64  // K×K
	kappa, etaK  []float64  // K: κ, Σ_l η_kl κ_l
	logPi        []float64  // K
	nb, s        []float64  // K scratch
	thetaLogTh   float64    // Σ_i θ_i log θ_i
	edgeWeight   float64    // weight of the edge term in the E-step: 1, or 2 as the authors' code
}

func newDCSBMState(adj *sparse.CSR, deg []float64, z *mat.Dense) *dcsbmState {
	n, k := z.Dims()
	s := &dcsbmState{
		n: n, k: k, adj: adj, theta: deg, logTh: make([]float64, n), z: z, az: mat.NewDense(n, k, nil),
		m: make([]float64, k*k), eta: make([]float64, k*k), lEt: make([]float64, k*k),
		kappa: make([]float64, k), etaK: make([]float64, k), logPi: make([]float64, k),
		nb: make([]float64, k), s: make([]float64, k), edgeWeight: 1,
	}
	for i, d := range deg {
		if d > 0 {
			s.logTh[i] = math.Log(d)
			s.thetaLogTh += d * s.logTh[i]
		}
	}
	return s
}

// mstep recomputes η, κ and π from z. Cost O(|E|·K + n·K²).
func (s *dcsbmState) mstep() {
	k := s.k
	sparse.MulDense(s.az, s.adj, s.z)
	clear(s.m)
	clear(s.kappa)
	clear(s.nb)
	for i := 0; i < s.n; i++ {
		zi, azi := s.z.RawRowView(i), s.az.RawRowView(i)
		for r, u := range zi {
			s.kappa[r] += s.theta[i] * u
			s.nb[r] += u
		}
		addOuter(s.m, zi, azi)
	}
	for r := 0; r < k; r++ {
		var e float64
		for l := 0; l < k; l++ {
			v := paicanDCSBMEtaFloor
			if den := s.kappa[r] * s.kappa[l]; den > 0 {
				v = math.Max(s.m[r*k+l]/den, paicanDCSBMEtaFloor)
			}
			s.eta[r*k+l], s.lEt[r*k+l] = v, math.Log(v)
			e += v * s.kappa[l]
		}
		s.etaK[r] = e
		s.logPi[r] = math.Log(math.Max(s.nb[r]/float64(s.n), paicanEps))
	}
}

// estep updates q(z_i) for i = 0…n−1 in turn, each from the current rows of its
// neighbours. Cost O(|E|·K + n·K²).
func (s *dcsbmState) estep() {
	k := s.k
	for i := 0; i < s.n; i++ {
		clear(s.nb)
		cols, _ := s.adj.Row(i)
		for _, j := range cols {
			for l, v := range s.z.RawRowView(j) {
				s.nb[l] += v
			}
		}
		zi, th := s.z.RawRowView(i), s.theta[i]
		for r := 0; r < k; r++ {
			row, lrow := s.eta[r*k:(r+1)*k], s.lEt[r*k:(r+1)*k]
			var ez, edge float64
			for l := 0; l < k; l++ {
				ez += row[l] * zi[l]
				edge += s.nb[l] * lrow[l]
			}
			s.s[r] = s.logPi[r] + s.edgeWeight*edge - th*(s.etaK[r]-th*ez) - 0.5*th*th*row[r]
		}
		softmaxInto(zi, s.s)
	}
}

// elbo returns the DC-SBM's ELBO at the current parameters. Cost O(n·K + K²).
func (s *dcsbmState) elbo() float64 {
	k := s.k
	l := s.thetaLogTh
	for r := 0; r < k; r++ {
		for q := 0; q < k; q++ {
			l += 0.5 * (s.m[r*k+q]*s.lEt[r*k+q] - s.kappa[r]*s.kappa[q]*s.eta[r*k+q])
		}
	}
	for i := 0; i < s.n; i++ {
		for r, v := range s.z.RawRowView(i) {
			l += v*s.logPi[r] - xlogx(v)
		}
	}
	return l
}

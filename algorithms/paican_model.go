package algorithms

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/sparse"
)

// paicanEps is the floor of PAICAN's rates, degrees and attribute probabilities (the
// authors' 1e-20).
const paicanEps = 1e-20

// paicanCInit is the initial q(c_i) of every vertex (the authors' values).
var paicanCInit = [4]float64{0.997, 0.001, 0.001, 0.001}

// paicanModel holds the data, the variational posteriors and the closed-form parameters
// of one PAICAN fit. Rows are vertices; K×K matrices are row-major slices.
type paicanModel struct {
	n, m, k   int
	adj, x    *sparse.CSR // 0/1 patterns; adj symmetric without diagonal
	xt        *sparse.CSR // Xᵀ
	deg       []float64   // θ'_i = deg_i
	logDeg    []float64   // log θ'_i (0 for an isolated vertex, whose terms are all 0)
	alpha     float64
	beta      [4]float64
	logHalfM  float64 // m·log ½
	reference bool    // the authors' code's log π (PAICAN protocol "reference")

	z, c *mat.Dense // n×K, n×4 variational posteriors

	// Parameters, recomputed by mstep from z and c.
	g, b, a       []float64  // n: P(edges clean), P(edges anomalous), P(attributes clean)
	theta, logTh  []float64  // n: θ_i (≥ ε) and its log
	ag, ab        []float64  // n: (A g)_i, (A b)_i
	agLogTh       []float64  // n: (A (g⊙log θ))_i
	abLogDeg      []float64  // n: (A (b⊙log θ'))_i
	gz, agz       *mat.Dense // n×K: g⊙z, A(g⊙z)
	agzLogEta     *mat.Dense // n×K: A(g⊙z)·log η
	ell           *mat.Dense // n×K: ℓ_ik, the clean attribute log-likelihood of i in k
	az, xtaz      *mat.Dense // n×K a⊙z, m×K Xᵀ(a⊙z)
	attrD         *mat.Dense // m×K: log t_kd − log(1−t_kd)
	mkl, eta, lEt []float64  // K×K: m_kl, η_kl, log η_kl
	lEtM          *mat.Dense // log η as a K×K matrix (aliases lEt)
	etaKappa      []float64  // K: Σ_l η_kl κ_l
	kappa         []float64  // K
	attrBase      []float64  // K: Σ_d log(1−t_kd)
	logPi         []float64  // K
	logRho        [4]float64
	etaBG, etaBB  float64
	mBG, mBB      float64
	degB, gSum    float64 // Θ'_B, G
	logDCSBMConst float64 // Σ_i g_i θ_i log θ_i + Σ_i b_i θ'_i log θ'_i

	tmp []float64 // K scratch
}

func newPaicanModel(adj, x *sparse.CSR, z *mat.Dense, a PAICAN) *paicanModel {
	n, k := z.Dims()
	_, m := x.Dims()
	deg := adj.RowSums()
	logDeg := make([]float64, n)
	for i, d := range deg {
		if d > 0 {
			logDeg[i] = math.Log(d)
		}
	}
	c := mat.NewDense(n, 4, nil)
	for i := 0; i < n; i++ {
		copy(c.RawRowView(i), paicanCInit[:])
	}
	p := &paicanModel{
		n: n, m: m, k: k, adj: adj, x: x, xt: x.T(), deg: deg, logDeg: logDeg,
		alpha: a.Alpha, beta: [4]float64{a.CleanPrior, a.AnomalyPrior, a.AnomalyPrior, a.AnomalyPrior},
		logHalfM: float64(m) * math.Log(0.5), reference: a.Protocol == PAICANProtocolReference,
		z: z, c: c,
		g: make([]float64, n), b: make([]float64, n), a: make([]float64, n),
		theta: make([]float64, n), logTh: make([]float64, n),
		ag: make([]float64, n), ab: make([]float64, n),
		agLogTh: make([]float64, n), abLogDeg: make([]float64, n),
		gz: mat.NewDense(n, k, nil), agz: mat.NewDense(n, k, nil), agzLogEta: mat.NewDense(n, k, nil),
		ell: mat.NewDense(n, k, nil), az: mat.NewDense(n, k, nil),
		xtaz: mat.NewDense(m, k, nil), attrD: mat.NewDense(m, k, nil),
		mkl: make([]float64, k*k), eta: make([]float64, k*k), lEt: make([]float64, k*k),
		etaKappa: make([]float64, k), kappa: make([]float64, k), attrBase: make([]float64, k),
		logPi: make([]float64, k), tmp: make([]float64, k),
	}
	p.lEtM = mat.NewDense(k, k, p.lEt)
	return p
}

// run iterates variational EM at most maxIter times from the current z and c: before
// each iteration the parameters are recomputed and the ELBO evaluated, and the fit stops
// when it changed by less than tol. It returns the ELBO after each iteration.
func (p *paicanModel) run(ctx context.Context, maxIter int, tol float64) ([]float64, bool, error) {
	elbo := make([]float64, 0, min(maxIter, maxPrealloc))
	p.mstep()
	prev := p.elbo()
	for it := 0; it < maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		p.updateZ()
		p.mstep()
		p.updateC()
		p.mstep()
		l := p.elbo()
		elbo = append(elbo, l)
		if math.Abs(l-prev) < tol {
			return elbo, true, nil
		}
		prev = l
	}
	return elbo, false, nil
}

// mstep recomputes every parameter from z and c. Cost O((|E| + nnz(X))·K + n·K² + m·K).
func (p *paicanModel) mstep() {
	n, k := p.n, p.k
	for i := 0; i < n; i++ {
		c := p.c.RawRowView(i)
		p.g[i], p.b[i], p.a[i] = c[0]+c[2], c[1]+c[3], c[0]+c[1]
	}
	// Degrees and the anomalous blocks: one pass over the edges.
	p.degB, p.gSum, p.mBG, p.mBB = 0, 0, 0, 0
	for i := 0; i < n; i++ {
		cols, _ := p.adj.Row(i)
		var sg, sb float64
		for _, j := range cols {
			sg += p.g[j]
			sb += p.b[j]
		}
		p.ag[i], p.ab[i] = sg, sb
		p.theta[i] = math.Max(sg, paicanEps)
		p.logTh[i] = math.Log(p.theta[i])
		p.degB += p.b[i] * p.deg[i]
		p.gSum += p.g[i]
		p.mBG += p.b[i] * sg
		p.mBB += p.b[i] * sb
	}
	p.logDCSBMConst = 0
	for i := 0; i < n; i++ {
		cols, _ := p.adj.Row(i)
		var s, t float64
		for _, j := range cols {
			s += p.g[j] * p.logTh[j]
			t += p.b[j] * p.logDeg[j]
		}
		p.agLogTh[i], p.abLogDeg[i] = s, t
		p.logDCSBMConst += p.g[i]*p.theta[i]*p.logTh[i] + p.b[i]*p.deg[i]*p.logDeg[i]
	}
	p.etaBG = paicanRate(p.mBG, p.degB*p.gSum)
	p.etaBB = paicanRate(p.mBB, p.degB*p.degB)

	// Clean block: m = (g⊙z)ᵀ A (g⊙z), κ_k = Σ_i g_i θ_i z_ik.
	clear(p.kappa)
	for i := 0; i < n; i++ {
		zi, gz := p.z.RawRowView(i), p.gz.RawRowView(i)
		for l, v := range zi {
			gz[l] = p.g[i] * v
			p.kappa[l] += p.theta[i] * gz[l]
		}
	}
	sparse.MulDense(p.agz, p.adj, p.gz)
	clear(p.mkl)
	for i := 0; i < n; i++ {
		gz, agz := p.gz.RawRowView(i), p.agz.RawRowView(i)
		addOuter(p.mkl, gz, agz)
	}
	for r := 0; r < k; r++ {
		var s float64
		for l := 0; l < k; l++ {
			e := paicanRate(p.mkl[r*k+l], p.kappa[r]*p.kappa[l])
			p.eta[r*k+l], p.lEt[r*k+l] = e, math.Log(e)
			s += e * p.kappa[l]
		}
		p.etaKappa[r] = s
	}
	p.agzLogEta.Mul(p.agz, p.lEtM)

	// Attribute probabilities t_kd from a⊙z; ℓ = X·D + base.
	var cnt [4]float64
	for i := 0; i < n; i++ {
		zi, az := p.z.RawRowView(i), p.az.RawRowView(i)
		for l, v := range zi {
			az[l] = p.a[i] * v
		}
		for s, v := range p.c.RawRowView(i) {
			cnt[s] += v
		}
	}
	sparse.MulDense(p.xtaz, p.xt, p.az)
	den := p.tmp
	clear(den)
	for i := 0; i < n; i++ {
		for l, v := range p.az.RawRowView(i) {
			den[l] += v
		}
	}
	clear(p.attrBase)
	for d := 0; d < p.m; d++ {
		num, out := p.xtaz.RawRowView(d), p.attrD.RawRowView(d)
		for l, s := range num {
			lt, l1t := paicanLogBernoulli(s, den[l])
			out[l] = lt - l1t
			p.attrBase[l] += l1t
		}
	}
	sparse.MulDense(p.ell, p.x, p.attrD)
	for i := 0; i < n; i++ {
		row := p.ell.RawRowView(i)
		for l := range row {
			row[l] += p.attrBase[l]
		}
	}

	// Priors: π from the vertices not anomalous in both, ρ from the state masses.
	clear(den)
	var kept float64
	for i := 0; i < n; i++ {
		w := 1 - p.c.At(i, 3)
		kept += w
		for l, v := range p.z.RawRowView(i) {
			den[l] += w * v
		}
	}
	for l := range p.logPi {
		if p.reference {
			p.logPi[l] = math.Log((den[l]+p.alpha)/kept + float64(k)*p.alpha)
		} else {
			p.logPi[l] = math.Log((den[l] + p.alpha) / (kept + float64(k)*p.alpha))
		}
	}
	sumBeta := p.beta[0] + p.beta[1] + p.beta[2] + p.beta[3]
	for s := range p.logRho {
		p.logRho[s] = math.Log((cnt[s] + p.beta[s]) / (float64(n) + sumBeta))
	}
}

// paicanRate returns num/den floored at ε (ε also for den = 0).
func paicanRate(num, den float64) float64 {
	if !(den > 0) {
		return paicanEps
	}
	return math.Max(num/den, paicanEps)
}

// paicanLogBernoulli returns log t and log(1 − t) for t = num/den clipped to [ε, 1−ε],
// computed without forming 1 − t; for den = 0 (no clean mass in the cluster) t = ½.
func paicanLogBernoulli(num, den float64) (logT, log1mT float64) {
	if !(den > 0) {
		return math.Log(0.5), math.Log(0.5)
	}
	return math.Log(math.Max(num, paicanEps*den) / den), math.Log(math.Max(den-num, paicanEps*den) / den)
}

// updateZ sets every q(z_i) from the current parameters at once. Cost O(n·K²).
func (p *paicanModel) updateZ() {
	for i := 0; i < p.n; i++ {
		p.zScores(p.tmp, i)
		softmaxInto(p.z.RawRowView(i), p.tmp)
	}
}

// zScores sets dst[k] to log q(z_i = k) up to a constant, from the current parameters
// and q(z_i) (for the pair of i with itself excluded from κ). Cost O(K²).
func (p *paicanModel) zScores(dst []float64, i int) {
	k := p.k
	zi := p.z.RawRowView(i)
	gi, th := p.g[i], p.theta[i]
	al, ell, pe := p.agzLogEta.RawRowView(i), p.ell.RawRowView(i), 1-p.c.At(i, 3)
	for r := 0; r < k; r++ {
		var ez float64 // (η z_i)_r
		row := p.eta[r*k : (r+1)*k]
		for l, v := range zi {
			ez += row[l] * v
		}
		graph := al[r] - th*(p.etaKappa[r]-gi*th*ez) - 0.5*th*th*row[r]
		dst[r] = gi*graph + p.a[i]*ell[r] + pe*p.logPi[r]
	}
}

// edgeTerms returns G_i and B_i, the expected log-likelihood of the pairs of vertex i
// when its edges are clean or anomalous, at the current parameters and the other
// vertices' q(c_j) and q(z_j). Cost O(K²).
func (p *paicanModel) edgeTerms(i int) (good, bad float64) {
	k := p.k
	zi, al := p.z.RawRowView(i), p.agzLogEta.RawRowView(i)
	th, gi, bi := p.theta[i], p.g[i], p.b[i]
	var rate, quad, diag, edge float64
	for r, u := range zi {
		if u == 0 {
			continue
		}
		row := p.eta[r*k : (r+1)*k]
		var ez float64
		for l, v := range zi {
			ez += row[l] * v
		}
		rate += u * p.etaKappa[r]
		quad += u * ez
		diag += u * row[r]
		edge += u * al[r]
	}
	good = -th*rate + gi*th*th*quad - 0.5*th*th*diag + edge + p.agLogTh[i] + p.ag[i]*p.logTh[i] -
		p.etaBG*(p.degB-bi*p.deg[i]) + p.abLogDeg[i] + p.ab[i]*math.Log(p.etaBG)
	d := p.deg[i]
	bad = -d*p.etaBB*(p.degB-bi*d) - p.etaBG*d*(p.gSum-gi) - 0.5*d*d*p.etaBB +
		p.ab[i]*(p.logDeg[i]+math.Log(p.etaBB)) + p.abLogDeg[i] + p.ag[i]*(p.logDeg[i]+math.Log(p.etaBG))
	return good, bad
}

// updateC sets every q(c_i) from the current parameters and q(z) at once. Cost
// O(n·K² + |E|).
func (p *paicanModel) updateC() {
	var s [4]float64
	for i := 0; i < p.n; i++ {
		good, bad := p.edgeTerms(i)
		var attr, prior float64
		zi, ell := p.z.RawRowView(i), p.ell.RawRowView(i)
		for l, v := range zi {
			attr += v * ell[l]
			prior += v * p.logPi[l]
		}
		s[0] = p.logRho[0] + good + attr + prior
		s[1] = p.logRho[1] + bad + attr + prior
		s[2] = p.logRho[2] + good + p.logHalfM + prior
		s[3] = p.logRho[3] + bad + p.logHalfM
		softmaxInto(p.c.RawRowView(i), s[:])
	}
}

// elbo returns the ELBO at the current parameters. Cost O(n·K + K²).
func (p *paicanModel) elbo() float64 {
	k := p.k
	var l float64
	for r := 0; r < k; r++ {
		for q := 0; q < k; q++ {
			l += 0.5 * (p.mkl[r*k+q]*p.lEt[r*k+q] - p.kappa[r]*p.kappa[q]*p.eta[r*k+q])
		}
	}
	l += p.logDCSBMConst + p.mBG*math.Log(p.etaBG) + 0.5*p.mBB*math.Log(p.etaBB) -
		0.5*p.degB*p.degB*p.etaBB - p.degB*p.gSum*p.etaBG
	for i := 0; i < p.n; i++ {
		zi, ell, ci := p.z.RawRowView(i), p.ell.RawRowView(i), p.c.RawRowView(i)
		var attr, prior float64
		for r, v := range zi {
			attr += v * ell[r]
			prior += v * p.logPi[r]
			l -= xlogx(v)
		}
		l += p.a[i]*attr + (1-p.a[i])*p.logHalfM + (1-ci[3])*prior
		for s, v := range ci {
			l += v*p.logRho[s] - xlogx(v)
		}
	}
	return l
}

// xlogx returns x·log x, 0 at x = 0.
func xlogx(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return x * math.Log(x)
}

// softmaxInto sets dst to the softmax of s (max-subtracted). dst and s may alias.
func softmaxInto(dst, s []float64) {
	mx := math.Inf(-1)
	for _, v := range s {
		mx = math.Max(mx, v)
	}
	var sum float64
	for j, v := range s {
		e := math.Exp(v - mx)
		dst[j] = e
		sum += e
	}
	for j := range dst {
		dst[j] /= sum
	}
}

// flags returns, per vertex, whether its edges and its attributes are flagged anomalous.
func (p *paicanModel) flags() (edge, attr []bool) {
	edge, attr = make([]bool, p.n), make([]bool, p.n)
	for i := 0; i < p.n; i++ {
		c := p.c.RawRowView(i)
		edge[i] = c[1]+c[3] > c[0]+c[2]
		attr[i] = c[2]+c[3] > c[0]+c[1]
	}
	return edge, attr
}

// paicanRandomZ returns the authors' 'cat' start: each row a one-hot draw, plus ε,
// renormalised.
func paicanRandomZ(n, k int, rng *rand.Rand) *mat.Dense {
	z := mat.NewDense(n, k, nil)
	for i := 0; i < n; i++ {
		row := z.RawRowView(i)
		row[rng.IntN(k)] = 1
		var s float64
		for j := range row {
			row[j] += paicanEps
			s += row[j]
		}
		for j := range row {
			row[j] /= s
		}
	}
	return z
}

// addOuter adds the outer product u·vᵀ to the row-major len(u)×len(v) matrix dst,
// skipping the rows where u is zero (most of them for near-hard memberships): the edge
// counts between clusters, Σᵢ zᵢ·(A·Z)ᵢᵀ, one vertex at a time. Cost O(nnz(u)·len(v)).
func addOuter(dst, u, v []float64) {
	k := len(v)
	for r, ur := range u {
		if ur == 0 {
			continue
		}
		row := dst[r*k : (r+1)*k]
		for l, vl := range v {
			row[l] += ur * vl
		}
	}
}

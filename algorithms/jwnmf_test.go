package algorithms

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/sparse"
)

// nmfFamilyDenseJWNMF is a dense reference of JWNMF's updates, with W = diag(w) an m×m
// matrix and the m×m products XᵀUVᵀ and XᵀXW formed in full.
type nmfFamilyDenseJWNMF struct {
	s, x   *mat.Dense
	u, v   *mat.Dense
	w      *mat.Dense // m×m diagonal
	lambda float64
	damped bool
}

func newNMFFamilyDenseJWNMF(adj, x *sparse.CSR, u, v *mat.Dense, lambda float64, damped bool) *nmfFamilyDenseJWNMF {
	s := nmfFamilyDenseSNMFMatrix(adj, false, false)
	s.Scale(1/mat.Sum(s), s)
	xd := x.Dense()
	xd.Scale(1/mat.Sum(xd), xd)
	_, m := xd.Dims()
	kept := 0
	for j := 0; j < m; j++ {
		if mat.Norm(xd.ColView(j), 2) > 0 {
			kept++
		}
	}
	w := mat.NewDense(m, m, nil)
	for j := 0; j < m; j++ {
		if mat.Norm(xd.ColView(j), 2) > 0 {
			w.Set(j, j, 1/float64(kept))
		}
	}
	if lambda == 0 {
		lambda = 0.1 * math.Pow(mat.Norm(s, 2), 2) / math.Pow(mat.Norm(xd, 2), 2)
	}
	return &nmfFamilyDenseJWNMF{s: s, x: xd, u: mat.DenseCopyOf(u), v: mat.DenseCopyOf(v), w: w, lambda: lambda, damped: damped}
}

func (d *nmfFamilyDenseJWNMF) step() {
	lam := d.lambda
	// U ← U ⊙ (2SU + λXWV) ⊘ (2UUᵀU + λUVᵀV + δ).
	var num, den, t mat.Dense
	num.Scale(2, nmfFamilyMul(d.s, d.u))
	t.Scale(lam, nmfFamilyMul(nmfFamilyMul(d.x, d.w), d.v))
	num.Add(&num, &t)
	den.Scale(2, nmfFamilyMul(d.u, nmfFamilyMul(d.u.T(), d.u)))
	t.Scale(lam, nmfFamilyMul(d.u, nmfFamilyMul(d.v.T(), d.v)))
	den.Add(&den, &t)
	beta := 1.0
	if d.damped {
		beta = 0.5
	}
	nmfFamilyRatio(d.u, &num, &den, beta, false)
	// V ← V ⊙ (WXᵀU) ⊘ (VUᵀU + δ).
	nmfFamilyRatio(d.v, nmfFamilyMul(d.w, nmfFamilyMul(d.x.T(), d.u)), nmfFamilyMul(d.v, nmfFamilyMul(d.u.T(), d.u)), 1, false)
	// wⱼ ← wⱼ [XᵀUVᵀ]ⱼⱼ ⊘ ([XᵀXW]ⱼⱼ + δ), then w ← w/Σw.
	wnum := nmfFamilyMul(nmfFamilyMul(d.x.T(), d.u), d.v.T())
	wden := nmfFamilyMul(nmfFamilyMul(d.x.T(), d.x), d.w)
	m, _ := d.w.Dims()
	var dmax float64
	for j := 0; j < m; j++ {
		dmax = math.Max(dmax, wden.At(j, j))
	}
	var total float64
	for j := 0; j < m; j++ {
		if d.w.At(j, j) == 0 && wden.At(j, j) == 0 && mat.Norm(d.x.ColView(j), 2) == 0 {
			continue
		}
		v := d.w.At(j, j) * wnum.At(j, j) / (wden.At(j, j) + 1e-12*dmax)
		d.w.Set(j, j, v)
		total += v
	}
	d.w.Scale(1/total, d.w)
}

func (d *nmfFamilyDenseJWNMF) objective() float64 {
	return nmfFamilySqDist(d.s, nmfFamilyMul(d.u, d.u.T())) +
		d.lambda*nmfFamilySqDist(nmfFamilyMul(d.x, d.w), nmfFamilyMul(d.u, d.v.T()))
}

// nmfFamilyJWNMFSolver returns the sparse solver for in as JWNMF.Fit builds it.
func nmfFamilyJWNMFSolver(in Input, u, v *mat.Dense, lambda float64, damped bool) *jwnmfSolver {
	adj := nmfGraphMatrix(in.Adj, false)
	return newJWNMFSolver(adj.Scaled(1/adj.Sum()), attrtest.Sparse(in.X).Scaled(1/in.X.Sum()), u, v, lambda, damped)
}

func TestJWNMFSparseEqualsDense(t *testing.T) {
	for trial := 0; trial < 4; trial++ {
		for _, lambda := range []float64{0, 1e-3, 1, 1e4} {
			for _, damped := range []bool{false, true} {
				t.Run(fmt.Sprintf("trial%d/lambda=%v/damped=%v", trial, lambda, damped), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(trial), 12))
					n, m, k := 18+6*trial, 8+2*trial, 2+trial%3
					in := nmfFamilyRandomInput(rng, n, m, 0.15, 0.3) // last attribute column all zero
					in.X = attrtest.Sparse(in.X).Scaled(2)
					u, v := uniformDense(n, k, rng), uniformDense(m, k, rng)
					ref := newNMFFamilyDenseJWNMF(in.Adj, attrtest.Sparse(in.X), u, v, lambda, damped)
					s := nmfFamilyJWNMFSolver(in, mat.DenseCopyOf(u), mat.DenseCopyOf(v), lambda, damped)
					if s.kept != m-1 {
						t.Fatalf("%d columns kept, want %d", s.kept, m-1)
					}
					if math.Abs(s.lambda-ref.lambda) > 1e-12*ref.lambda {
						t.Fatalf("λ = %.15g, dense %.15g", s.lambda, ref.lambda)
					}
					for it := 0; it <= 6; it++ {
						if it > 0 {
							s.step()
							ref.step()
						}
						w := mat.NewDense(m, 1, nil)
						wref := mat.NewDense(m, 1, nil)
						for j := 0; j < m; j++ {
							w.Set(j, 0, s.w[j])
							wref.Set(j, 0, ref.w.At(j, j))
						}
						for _, c := range []struct {
							what      string
							got, want *mat.Dense
						}{{"U", s.U, ref.u}, {"V", s.V, ref.v}, {"w", w, wref}} {
							if d := nmfFamilyRel(c.got, c.want); d > 1e-9 {
								t.Fatalf("iteration %d: %s differs from the dense formula by %.3g", it, c.what, d)
							}
						}
						if s.w[m-1] != 0 {
							t.Fatalf("iteration %d: all-zero column has weight %g", it, s.w[m-1])
						}
						if sum := mat.Sum(w); math.Abs(sum-1) > 1e-12 {
							t.Fatalf("iteration %d: Σw = %.15g", it, sum)
						}
						got, want := s.objective(), ref.objective()
						if math.Abs(got-want) > 1e-9*math.Abs(want) {
							t.Fatalf("iteration %d: objective %.15g, dense %.15g", it, got, want)
						}
					}
				})
			}
		}
	}
}

// The full-step U rule oscillates and the w renormalisation is no descent step (spec,
// section 1, toy warnings), so J is not monotone. The full step makes J jump up (often by
// more than 1%) about every second iteration; the damped U step must leave fewer
// increases above 1e-4 relative on the same graph and start (on these graphs: none; what
// remains is a creep of at most ~5e-5 per step from the w power iteration, see JWNMF),
// and must lower J overall.
func TestJWNMFDampingReducesIncreases(t *testing.T) {
	for trial := 0; trial < 4; trial++ {
		in := nmfFamilyPlanted(uint64(10+trial), 150, 60, 3, 0.2, 0.03, 0.3, 0.05)
		n := in.N()
		_, m := in.X.Dims()
		rng := rand.New(rand.NewPCG(uint64(trial), 13))
		u, v := uniformDense(n, 3, rng), uniformDense(m, 3, rng)
		run := func(damped bool) []float64 {
			s := nmfFamilyJWNMFSolver(in, mat.DenseCopyOf(u), mat.DenseCopyOf(v), 0, damped)
			obj := []float64{s.objective()}
			for it := 0; it < 300; it++ {
				s.step()
				obj = append(obj, s.objective())
			}
			return obj
		}
		full, damped := run(false), run(true)
		cf, cd := nmfFamilyIncreases(full, 1e-4), nmfFamilyIncreases(damped, 1e-4)
		t.Logf("trial %d: increases > 1e-4: full %d, damped %d (any size: %d, %d); damped J %.4g → %.6g (full %.6g)",
			trial, cf, cd, nmfFamilyIncreases(full, 0), nmfFamilyIncreases(damped, 0), damped[0], damped[len(damped)-1], full[len(full)-1])
		if cd >= cf {
			t.Errorf("trial %d: damped run rose %d times, full step %d times", trial, cd, cf)
		}
		if !(damped[len(damped)-1] < damped[0]) {
			t.Errorf("trial %d: damped J %g → %g", trial, damped[0], damped[len(damped)-1])
		}
	}
}

func TestJWNMFRecoversPlantedClusters(t *testing.T) {
	// Both topology and attributes carry the classes. Single fits of the undamped k-means
	// start occasionally end near ARI 0.5 when w has collapsed onto an unlucky attribute
	// (see JWNMF), so the bar is on the median over 3 graphs × 3 seeds.
	var ins []Input
	for g := uint64(0); g < 3; g++ {
		ins = append(ins, nmfFamilyPlanted(20+g, 150, 60, 3, 0.2, 0.03, 0.3, 0.05))
	}
	for _, c := range []JWNMF{{}, {Init: InitRandom}, {Damped: true}, {Init: InitRandom, Damped: true}} {
		var aris []float64
		for _, in := range ins {
			for seed := uint64(1); seed <= 3; seed++ {
				res, err := c.Fit(context.Background(), in, 3, seed)
				if err != nil {
					t.Fatal(err)
				}
				aris = append(aris, nmfFamilyARI(t, in.Truth, res.Labels))
				if res.Iterations != 100 || len(res.Objective) != 100 {
					t.Errorf("%+v: %d iterations, %d objective values", c, res.Iterations, len(res.Objective))
				}
				if r, cc := res.Factors["w"].Dims(); r != 60 || cc != 1 {
					t.Errorf("w is %d×%d", r, cc)
				}
			}
		}
		sorted := slices.Clone(aris)
		slices.Sort(sorted)
		if med := sorted[len(sorted)/2]; med < 0.9 {
			t.Errorf("%+v: median ARI %.3f < 0.9 (all: %.2f)", c, med, aris)
		}
	}
}

// The w rule is a power iteration wⱼ ∝ wⱼ·rⱼ (see JWNMF): on a planted graph with 60
// informative attributes it leaves almost all weight on very few of them.
func TestJWNMFWeightsConcentrate(t *testing.T) {
	in := nmfFamilyPlanted(20, 150, 60, 3, 0.2, 0.03, 0.3, 0.05)
	for _, c := range []JWNMF{{}, {Init: InitRandom, Damped: true}} {
		res, err := c.Fit(context.Background(), in, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		w := slices.Clone(res.Factors["w"].RawMatrix().Data)
		slices.Sort(w)
		slices.Reverse(w)
		t.Logf("%+v: largest weights %.3g", c, w[:4])
		if w[0]+w[1] < 0.9 {
			t.Errorf("%+v: the two largest weights sum to %.3g; the w rule no longer concentrates", c, w[0]+w[1])
		}
	}
}

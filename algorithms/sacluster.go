package algorithms

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/memory"
)

// SA-Cluster protocols (the protocol option).
const (
	// SAProtocolPaper is the default: SA-Cluster as its paper defines it, with attribute
	// vertices for the values vertices hold (see SACluster).
	SAProtocolPaper = "paper"
	// SAProtocolReference does what SA-Cluster's public MATLAB code does, pruning
	// included (see SACluster.fitReference); on graphs with thousands of binary
	// attributes its pruning removes every structure edge and the result is degenerate.
	SAProtocolReference = "reference"
)

// Defaults of SA-Cluster and Inc-Cluster.
const (
	saRestart = 0.15  // restart probability c (the public code's)
	saLength  = 10    // walk length l (the public code's)
	saMaxIter = 20    // outer iterations at most
	saSigma   = 0.005 // stop when fewer than this share of the vertices move (the public code's)
)

// saMoved returns how many vertices have different labels in a and b.
func saMoved(a, b []int) float64 {
	moved := 0
	for i := range a {
		if a[i] != b[i] {
			moved++
		}
	}
	return float64(moved)
}

// SACluster is SA-Cluster (Zhou, Cheng, Yu, "Graph clustering based on
// structural/attribute similarities", VLDB 2009): k-medoids clustering under the
// neighbourhood random-walk distance on the attribute-augmented graph, with attribute
// weights learnt between iterations. The model, its walk and the paper's weight vote are
// derived in docs/methods-discussed.md#sa-cluster-and-inc-cluster.
//
// Computed: one attribute vertex per (column, nonzero value) held, or per equal-frequency
// bin of a column's nonzero values with Bins = b > 0; the walk P = D⁻¹·Aug over structure
// rows (D_ii = deg_i + Σ_{t held} w_t, a self-loop counted once), 1/|members| from an
// attribute vertex; R = Σ_{γ=1}^{l} c(1−c)^γ [P^γ]_VV, computed column block by column
// block as X_γ = Pv·X_{γ−1} + Pa·(B·X_{γ−2}). Centres start at the k vertices of largest
// degree (ties to the larger index); each iteration assigns every vertex to the centre of
// largest R (first on ties; centres keep their own clusters), stops when fewer than 0.5 %
// of the vertices moved, else moves each centre to the member nearest (Euclidean) the
// cluster's mean row of R, updates the weights by the vote (Σw kept) and recomputes R. No
// random numbers are drawn: every seed gives the same result. Result.Objective records,
// after each assignment, Σ_i of the walk similarity between i and its centre.
//
// Cost: R is a dense n×n matrix (8n² bytes; memory is checked before it is taken), each
// recomputation O(l·n·(nnz(A) + 2·nnz(X))) and each iteration O(n²) beyond it: quadratic
// in n by design.
//
// Defaults (zero values): restart 0.15 and length 10 (the public code's), initial
// attribute weight mean degree / mean number of attribute values held (the attributes
// carry as much walk weight as the edges on average; why not the paper's 1: see
// docs/methods-discussed.md), max_iter 20, no binning, direction from-centre, protocol
// paper.
type SACluster struct {
	Restart float64 `yaml:"restart"`  // restart probability c; 0 means 0.15
	Length  int     `yaml:"length"`   // walk length l; 0 means 10
	Weight  float64 `yaml:"weight"`   // initial weight of every attribute; 0: balanced with the edges (see Defaults)
	MaxIter int     `yaml:"max_iter"` // outer iterations at most; 0 means 20
	Bins    int     `yaml:"bins"`     // equal-frequency bins per column; 0: one vertex per value
	// Direction is "from-centre" (the default: a vertex joins the centre whose walk
	// reaches it most, R(c, i)) or "to-centre" (the paper's d(v_i, c_j) = R(i, c): the
	// walk from the vertex). Why from-centre is the default: see docs/methods-discussed.md.
	Direction string `yaml:"direction,omitempty"`
	Protocol  string `yaml:"protocol,omitempty"` // "paper" (default) or "reference"
}

// Directions of SA-Cluster's distance (the direction option).
const (
	SADirectionFromCentre = "from-centre"
	SADirectionToCentre   = "to-centre"
)

// Name returns "sa-cluster".
func (SACluster) Name() string { return "sa-cluster" }

// IncCluster is Inc-Cluster (Zhou, Cheng, Yu, "Clustering large attributed graphs: an
// efficient incremental approach", ICDM 2010): SA-Cluster whose random-walk matrix is
// updated after each weight change from the change of the walk matrix instead of being
// recomputed (see saWalk.update). It gives SA-Cluster's clustering. It stores the l
// matrices X_γ besides R, (l+1)·8n² bytes, and its update costs about as much as a
// recomputation here: the weights of every attribute change at once, so ΔP is not sparse
// enough for the saving the paper reports. Options as SACluster; protocol reference is
// SA-Cluster's alone.
type IncCluster struct {
	SACluster `yaml:",inline"`
}

// Name returns "inc-cluster".
func (IncCluster) Name() string { return "inc-cluster" }

func (a SACluster) withDefaults() SACluster {
	a.Restart = cmp.Or(a.Restart, saRestart)
	if a.Length == 0 {
		a.Length = saLength
	}
	if a.MaxIter == 0 {
		a.MaxIter = saMaxIter
	}
	if a.Protocol == "" {
		a.Protocol = SAProtocolPaper
	}
	if a.Direction == "" {
		a.Direction = SADirectionFromCentre
	}
	return a
}

// saAutoWeight returns the initial attribute weight that gives the attributes, on
// average over the vertices, as much walk weight as the edges: mean degree over mean
// number of attribute values held (1 when either is 0).
func saAutoWeight(g *saGraph) float64 {
	edges, held := g.adj.NNZ(), g.inc.NNZ()
	if edges == 0 || held == 0 {
		return 1
	}
	return float64(edges) / float64(held)
}

// Fit clusters the graph with SA-Cluster. See the type's documentation.
func (a SACluster) Fit(ctx context.Context, in Input, k int, _ uint64) (*Result, error) {
	return a.fit(ctx, in, k, false)
}

// Fit clusters the graph with Inc-Cluster. See the type's documentation.
func (a IncCluster) Fit(ctx context.Context, in Input, k int, _ uint64) (*Result, error) {
	if a.Protocol == SAProtocolReference {
		return nil, &OptionError{Method: "inc-cluster", Key: "protocol", Value: a.Protocol,
			Msg: "protocol reference is sa-cluster's (the public code's pruning); inc-cluster follows the paper"}
	}
	return a.SACluster.fit(ctx, in, k, true)
}

func (a SACluster) fit(ctx context.Context, in Input, k int, incremental bool) (*Result, error) {
	start := time.Now()
	name := "sa-cluster"
	if incremental {
		name = "inc-cluster"
	}
	a = a.withDefaults()
	if err := in.validate(true, true, k); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	x, err := in.ExplicitAttributes()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if a.Protocol == SAProtocolReference {
		return a.fitReference(ctx, in, x, k)
	}
	n := in.N()
	g := newSAGraph(in.Adj, x, a.Bins)
	workers := max(parallel.Threads(), 1)
	big, scratch := saWalkBytes(n, g.m, a.Length, workers, incremental)
	what := fmt.Sprintf("%s on %d vertices (a dense %d×%d random-walk matrix)", name, n, n, n)
	if incremental {
		what = fmt.Sprintf("%s on %d vertices (a dense %d×%d random-walk matrix and the %d walk matrices it updates)", name, n, n, n, a.Length)
	}
	if err := memory.Check(what, memory.Add(big, scratch)); err != nil {
		return nil, err
	}
	w0 := a.Weight
	if w0 == 0 {
		w0 = saAutoWeight(g)
	}
	w := make([]float64, g.cols)
	for t := range w {
		w[t] = w0
	}
	walk := newSAWalk(g, a.Restart, a.Length, workers, incremental)
	walk.transposed = a.Direction == SADirectionFromCentre
	walk.ctx = ctx
	walk.compute(w)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	centres := bagcRefCentres(g.adj, k)
	labels := make([]int, n)
	prev := make([]int, n)
	var obj []float64
	converged := false
	it := 0
	votes := make([]float64, g.cols)
	for it < a.MaxIter {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		it++
		obj = append(obj, saAssign(labels, walk.r, centres))
		if it > 1 && saMoved(labels, prev) < saSigma*float64(n) {
			converged = true
			break
		}
		copy(prev, labels)
		if it == a.MaxIter {
			break
		}
		saMedoids(centres, labels, walk.r)
		if saVotes(votes, g, labels, centres) {
			total, sum := 0.0, 0.0
			for t := range w {
				total += w[t]
				sum += votes[t]
			}
			for t := range w {
				w[t] = (w[t] + total*votes[t]/sum) / 2
			}
		}
		if incremental {
			walk.update(w)
		} else {
			walk.compute(w)
		}
	}
	wmin, wmax := math.Inf(1), math.Inf(-1)
	for _, x := range w {
		wmin, wmax = min(wmin, x), max(wmax, x)
	}
	return &Result{
		Labels:     labels,
		Iterations: it,
		Objective:  obj,
		FitTime:    time.Since(start),
		Info: map[string]string{
			"protocol":           SAProtocolPaper,
			"objective":          "Σ_i walk similarity of i and its centre (R(c, i) from the centre, R(i, c) to it)",
			"attribute_vertices": strconv.Itoa(g.m),
			"walk":               fmt.Sprintf("restart %g, length %d, initial attribute weight %.4g", a.Restart, a.Length, w0),
			"direction":          a.Direction,
			"converged":          strconv.FormatBool(converged),
			"weights":            fmt.Sprintf("min %.4g, max %.4g", wmin, wmax),
			"centres":            fmt.Sprint(centres),
			"incremental":        strconv.FormatBool(incremental),
		},
	}, nil
}

// saAssign sets each vertex's label to the centre of largest R(i, c) (first on ties),
// centres to their own, and returns Σ_i R(i, c_{label i}). Cost O(n·k).
func saAssign(labels []int, r *mat.Dense, centres []int) float64 {
	n, _ := r.Dims()
	total := 0.0
	for i := 0; i < n; i++ {
		row := r.RawRowView(i)
		best := 0
		for j, c := range centres {
			if row[c] > row[centres[best]] {
				best = j
			}
		}
		labels[i] = best
	}
	for j, c := range centres {
		labels[c] = j
	}
	for i, l := range labels {
		total += r.At(i, centres[l])
	}
	return total
}

// saMedoids moves each centre to the member of its cluster whose row of R is closest
// (Euclidean) to the cluster's mean row (first on ties). Cost O(n²).
func saMedoids(centres, labels []int, r *mat.Dense) {
	n, _ := r.Dims()
	k := len(centres)
	mean := make([]float64, n*k)
	count := make([]float64, k)
	for i, l := range labels {
		count[l]++
		m := mean[l*n : (l+1)*n]
		for c, v := range r.RawRowView(i) {
			m[c] += v
		}
	}
	for l := 0; l < k; l++ {
		if count[l] > 0 {
			m := mean[l*n : (l+1)*n]
			for c := range m {
				m[c] /= count[l]
			}
		}
	}
	best := make([]float64, k)
	for l := range best {
		best[l] = math.Inf(1)
	}
	for i, l := range labels {
		m := mean[l*n : (l+1)*n]
		d := 0.0
		for c, v := range r.RawRowView(i) {
			e := v - m[c]
			d += e * e
		}
		if d < best[l] {
			best[l], centres[l] = d, i
		}
	}
}

// saVotes sets votes[t] to the number of vertices that hold their centre's (nonzero)
// value of column t, and reports whether any vertex voted. Cost O(nnz(X)·log).
func saVotes(votes []float64, g *saGraph, labels, centres []int) bool {
	clear(votes)
	any := false
	for i, l := range labels {
		held, _ := g.inc.Row(centres[l])
		cols, _ := g.inc.Row(i)
		for _, v := range cols {
			if _, ok := slices.BinarySearch(held, v); ok {
				votes[g.valCol[v]]++
				any = true
			}
		}
	}
	return any
}

package experiments

import (
	"cmp"
	"math"
	"slices"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/algorithms/kmeans"
)

// The cost model of the pool's longest-first order (longestFirst). A run's cost is an
// estimate of the multiply-adds of its fits, from what the run is (method, initialisation,
// iterations, filter order, rank, k-means starts) and the shape of its input (n, stored
// entries of the adjacency and of the attributes, m, k1). It only orders runs: it is
// monotone in every size and in iterations and starts, and it ranks the methods as they
// measure on the ogbn-arxiv shape (NAGC with the k-means start ≫ NAGC from SGC labels ≫
// SGC k-means ≫ METIS), but it is no time prediction.

// Assumed constants of the cost model.
const (
	// costLloydIters is the Lloyd iterations assumed of one k-means start.
	costLloydIters = 10
	// costRandomizedPasses is the passes over the filtered attributes a rank-r
	// spectral embedding (randomized range finder and SVD) is assumed to take.
	costRandomizedPasses = 4
	// costPaperIters is the iterations assumed of a method the model does not know
	// (the paper's baselines, which iterate over the adjacency and the attributes).
	costPaperIters = 100
)

// sgcStartKMeansStarts is the k-means starts of each k-means run of NAGC's SGC start:
// package kmeans' default number of starts (n_init), which that start takes.
var sgcStartKMeansStarts = kmeans.Config{}.WithDefaults().NInit

// fitCost returns the estimated cost of one fit of the run (algorithm, params) into k1
// clusters of an input of shape s: see the cost model above. A method that cannot be
// built costs 0 (its run fails at once). Cost O(1).
func fitCost(algorithm string, params map[string]any, s algorithms.Shape) float64 {
	m, err := algorithms.New(algorithm, params)
	if err != nil {
		return 0
	}
	s, _ = algorithms.TransformedShape(s, m) // the attributes the fit reads
	n, nnzA, nnzX, k := float64(s.N), float64(s.NNZA), float64(s.NNZX), float64(max(s.K, 1))
	switch a := algorithms.Resolved(m, s.K, s.N).(type) { // defaults as the fit takes them
	case algorithms.NAGC:
		return nagcCost(a, s)
	case algorithms.SGCKMeans:
		rank := float64(min(a.Rank, s.M))
		if a.Rank == 0 {
			rank = float64(s.M)
		}
		return filterCost(a.P, s) + embedCost(int(rank), s) + kmeansCost(a.NInit, n*rank, s.N, s.K)
	case algorithms.KMeans:
		return kmeansCost(a.NInit, nnzX, s.N, s.K)
	case algorithms.METIS:
		return nnzA * math.Log2(n+2)
	default:
		return costPaperIters * (nnzA + nnzX + n*k) * k
	}
}

// nagcCost is the cost of a NAGC fit: its start (random, k-means on the attributes, or
// k-means on the SGC embedding of filtered attributes) and its iterations, each a product
// of the adjacency with the n×k1 factor, of the attributes with the k2 factors, and the
// n×(k1+k2)² Gram and update terms. a has its defaults filled in (algorithms.Resolved).
func nagcCost(a algorithms.NAGC, s algorithms.Shape) float64 {
	n, nnzA, nnzX := float64(s.N), float64(s.NNZA), float64(s.NNZX)
	k1, k2 := max(s.K, 1), max(a.K2, 1)
	kk := float64(k1 + k2)
	cost := float64(a.Iterations) * (nnzA*float64(k1) + nnzX*float64(k2) + n*kk*kk)
	switch a.Init {
	case algorithms.InitRandom:
		cost += n * kk
	case algorithms.InitSGC:
		rank := a.InitRank
		if rank == 0 || rank > s.M {
			rank = s.M
		}
		cost += filterCost(a.Filter.P, s) + embedCost(rank, s) +
			kmeansCost(sgcStartKMeansStarts, n*float64(rank), s.N, k1) + kmeansCost(sgcStartKMeansStarts, n*float64(rank), s.N, k2)
	default: // the k-means start (and its median-ARI variant, which repeats it)
		starts := a.InitNInit
		if a.Init == algorithms.InitKMeansMedianARI {
			starts *= 5
		}
		cost += kmeansCost(starts, nnzX, s.N, k1) + kmeansCost(starts, nnzX, s.N, k2)
	}
	return cost
}

// kmeansCost is the cost of k-means with the given starts on points of nnz stored
// entries (n·d for dense ones) into k clusters: costLloydIters distance passes per start,
// each also n·k comparisons.
func kmeansCost(starts int, nnz float64, n, k int) float64 {
	return float64(starts) * costLloydIters * (nnz + float64(n)) * float64(max(k, 1))
}

// filterCost is the cost of p steps of the graph filter on the attributes: each a product
// of the adjacency with the n×m attributes.
func filterCost(p int, s algorithms.Shape) float64 {
	return float64(p) * (float64(s.NNZA)*float64(s.M) + float64(s.NNZX))
}

// embedCost is the cost of a rank-r spectral embedding of the n×m (filtered) attributes.
func embedCost(rank int, s algorithms.Shape) float64 {
	if rank >= s.M {
		return 0 // the attributes themselves
	}
	return costRandomizedPasses * float64(s.N) * float64(s.M) * float64(rank)
}

// shapeOf returns the input shape a job's fits read (algorithms.InputShape of its
// dataset's input and k1).
type shapeOf func(j job) algorithms.Shape

// inputShapes returns the shapeOf the inputs of a pool.
func inputShapes(inputs map[string]algorithms.Input) shapeOf {
	return func(j job) algorithms.Shape { return algorithms.InputShape(inputs[j.Dataset], j.K1) }
}

// taskCost is the estimated cost of executing task t (on inputs of shape shape): per
// chain (jobs that differ only in iterations, fitted as one fit the shorter ones are read
// off) its longest job's fits, and the chains' sum. A job's fits are, for a whole batch,
// its own fit unless it has a record already plus its held-out fit when holdout is on;
// for a part of a split batch, that part's fit.
func taskCost(t task, shape shapeOf, holdout bool) float64 {
	chains := map[string]float64{}
	var order []string
	for _, j := range t.batch {
		fits := 0
		if j.prior == nil && t.part != heldOutFits {
			fits++
		}
		if holdout && t.part != mainFits {
			fits++
		}
		c := float64(fits) * fitCost(j.Algorithm, j.Params, shape(j))
		key := chainKey(j)
		if _, ok := chains[key]; !ok {
			order = append(order, key)
		}
		chains[key] = max(chains[key], c)
	}
	total := 0.0
	for _, k := range order {
		total += chains[k]
	}
	return total
}

// longestFirst orders the tasks for the workers: within each stretch of consecutive
// tasks of one dataset and group of restarts (see interleaveRestarts, which Execute
// ordered the jobs by), the tasks of largest estimated cost (taskCost) first, ties in
// their order. This is the longest-processing-time rule: the long fits start while there
// are short ones left to fill the other workers, instead of running alone at the end.
// The stretches keep their order, so that a dataset's caches and a restart's held-out
// split are dropped as early as before. What runs (the shard, a sweep's limit, the
// batches) and every record are the same in any order. Cost O(len(tasks) log len(tasks))
// and one fitCost per job.
func longestFirst(tasks []task, shape shapeOf, group int, holdout bool) {
	group = max(group, 1)
	type keyed struct {
		stretch int
		cost    float64
		t       task
	}
	ks := make([]keyed, len(tasks))
	stretch := -1
	for i, t := range tasks {
		if i == 0 || t.batch[0].Dataset != tasks[i-1].batch[0].Dataset || t.batch[0].Restart/group != tasks[i-1].batch[0].Restart/group {
			stretch++
		}
		ks[i] = keyed{stretch, taskCost(t, shape, holdout), t}
	}
	slices.SortStableFunc(ks, func(x, y keyed) int {
		if x.stretch != y.stretch {
			return x.stretch - y.stretch
		}
		return cmp.Compare(y.cost, x.cost)
	})
	for i := range ks {
		tasks[i] = ks[i].t
	}
}

package experiments

import (
	"cmp"
	"slices"

	"github.com/nagc-harness/nagc/algorithms"
)

// fitCost returns the estimated cost of one fit of the run (algorithm, params) into k1
// clusters of an input of shape s: the method's own estimate of its multiply-adds
// (algorithms.EstimateWork), which orders runs but is no time prediction. A method that
// cannot be built costs 0 (its run fails at once). Cost O(1).
func fitCost(algorithm string, params map[string]any, s algorithms.Shape) float64 {
	m, err := algorithms.New(algorithm, params)
	if err != nil {
		return 0
	}
	return algorithms.EstimateWork(m, s)
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

package experiments

// SearchCost is what one search executes, known before it runs: which trials a rung
// cuts depends on their values, how many it cuts does not.
type SearchCost struct {
	Dataset, Row string
	Trials       int
	Batches      int
	Rungs        []int // the iterations of each rung
	// Fits is the fits of the whole graph, and Iterations the iterations they execute (a
	// continued fit only those its rung adds; a program, refitted, all its rung's): the
	// sum of the records' iterations_run. With whole_graph last_rung, only the last
	// rung's fits fit the whole graph, straight to its iterations.
	Fits, Iterations int
	// Holdout is the fraction of edges held out (0: none); HeldOutFits and
	// HeldOutIterations are then the held-out fits, one a record, and the iterations
	// they execute: the sum of the records' heldout_iterations_run.
	Holdout                        float64
	HeldOutFits, HeldOutIterations int
	// Restarts is the restarts the search's fits are spread over (a start that reads
	// only the attributes, such as NAGC's k-means start, is computed once per restart).
	Restarts int
}

// SearchCosts returns what each search of cfg executes, in plan order, after loading
// cfg's datasets (their numbers of clusters set the runs).
func SearchCosts(cfg *Config) ([]SearchCost, error) {
	p, err := planSweep(cfg, Options{})
	if err != nil {
		return nil, err
	}
	out := make([]SearchCost, len(p.searches))
	for i, t := range p.searches {
		out[i] = t.cost()
	}
	return out, nil
}

// cost walks the batches and rungs of t as execute does, with every trial's value equal:
// the same survivors' count at every rung (keep), so the same fits and iterations.
func (t *searchTask) cost() SearchCost {
	c := SearchCost{Dataset: t.ds.Name, Row: t.row.Name.Value, Trials: t.spec.Trials, Batches: t.batches(),
		Rungs: t.rungs, Holdout: t.cfg.Holdout}
	for b := 0; b < t.batches(); b++ {
		n := t.batchSize(b)
		bracket := t.brackets(b, n)
		alive, value := make([]int, n), make([]float64, n)
		for i := range alive {
			alive[i] = i
		}
		for k := range t.rungs {
			var active []int
			for _, i := range alive {
				if bracket[i] > k {
					continue
				}
				active = append(active, i)
				for r := 0; r < t.restartsAt(bracket[i], k); r++ {
					c.Restarts = max(c.Restarts, r+1)
					ran := t.rungs[k] // run straight: the first rung, a program, a new restart
					if k > bracket[i] && r < t.restartsAt(bracket[i], k-1) && t.row.program == nil {
						ran = t.rungs[k] - t.rungs[k-1]
					}
					if t.cfg.Holdout > 0 {
						c.HeldOutFits++
						c.HeldOutIterations += ran
					}
					switch {
					case t.spec.WholeGraph != WholeGraphLastRung:
						c.Fits++
						c.Iterations += ran
					case k == len(t.rungs)-1:
						c.Fits++
						c.Iterations += t.rungs[k]
					}
				}
			}
			alive = t.keep(alive, active, bracket, value, k)
		}
	}
	return c
}

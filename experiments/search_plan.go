package experiments

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/search"
)

// searchTask is the search of one row on one dataset.
type searchTask struct {
	cfg   *Config
	row   MethodSpec
	spec  *SearchSpec
	space search.Space
	ds    *LoadedDataset
	// rungs are the iterations of each rung (one rung, the row's iterations, without
	// pruning); iterations says whether runs set the iterations option (to their rung's,
	// over a fixed option's).
	rungs      []int
	iterations bool
	// plan0 is the plan position before the search's first run.
	plan0 int
}

// searchTasks returns the searches of cfg on the loaded datasets, in config order
// (dataset, then row), each placed after the plan's total grid runs.
func (c *Config) searchTasks(loaded []*LoadedDataset, total int) ([]*searchTask, error) {
	var out []*searchTask
	plan := total
	for _, ds := range loaded {
		for _, m := range c.Methods {
			if len(m.Space) == 0 || (len(m.Datasets) > 0 && !hasPos(m.Datasets, ds.Name)) {
				continue
			}
			sp, err := c.rowSpace(m)
			if err != nil {
				return nil, err
			}
			s := c.searchOf(m)
			if results.ReadsLabels(s.Rule) && !ds.Graph.Labeled() {
				return nil, c.errf(s.lineOf("rule"), "rule", "rule %s reads the labels, and dataset %s has none: use modularity, two-view or heldout", s.Rule, ds.Name)
			}
			t := &searchTask{cfg: c, row: m, spec: s, space: sp, ds: ds, plan0: plan}
			t.rungs = rungIterations(s, c.rowIterations(m))
			params, _ := algorithms.Params(m.Algorithm.Value)
			_, fixed := m.Options["iterations"]
			t.iterations = contains(params, "iterations") && (s.Prune != PruneNone || c.Iterations > 0 || fixed)
			if m.program != nil { // a program's rungs are refits given the rung's iterations
				t.iterations = s.Prune != PruneNone
			}
			plan += s.Trials * len(t.rungs) * c.Restarts
			out = append(out, t)
		}
	}
	return out, nil
}

// rungIterations returns the iterations of the rungs of a search: min·etaᵏ below the
// row's iterations, then the row's iterations; only those without pruning. Hyperband's
// brackets start at each of these rungs in turn.
func rungIterations(s *SearchSpec, iterations int) []int {
	if s.Prune == PruneNone {
		return []int{iterations}
	}
	var rungs []int
	for it := s.MinIterations; it < iterations; it *= s.Eta {
		rungs = append(rungs, it)
	}
	return append(rungs, iterations)
}

// restartsAt returns the restarts of a trial of the bracket starting at rung s, at rung
// k: first_restarts at the bracket's first rung unless it is the last rung.
func (t *searchTask) restartsAt(s, k int) int {
	if k == s && k < len(t.rungs)-1 {
		return t.spec.FirstRestarts
	}
	return t.cfg.Restarts
}

// brackets returns the bracket (the rung it starts at) of each of the n trials of
// batch b: all 0 but with Hyperband, whose trials are split among its brackets in
// proportion to search.BracketSizes, by trial number, in an order drawn from the
// config's seed, the dataset, the row and b alone.
func (t *searchTask) brackets(b, n int) []int {
	if t.spec.Prune != PruneHyperband {
		return make([]int, n)
	}
	h := sha256.New()
	fmt.Fprintf(h, "nagc-hyperband\x00%d", t.batchSeed(b))
	rng := search.NewRand(binary.LittleEndian.Uint64(h.Sum(nil)))
	return search.Brackets(b*t.spec.Batch, n, search.BracketSizes(len(t.rungs), t.spec.Eta), rng)
}

// batchSize returns the number of trials of batch b.
func (t *searchTask) batchSize(b int) int { return min(t.spec.Batch, t.spec.Trials-b*t.spec.Batch) }

// shardOf returns the shard (of n) that runs the whole search: searches are split
// between shards, never a search's runs, since each rung waits for the one before.
func (t *searchTask) shardOf(n int) int {
	if n <= 1 {
		return 0
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s", t.ds.Identity, t.row.Name.Value)
	return int(h.Sum64() % uint64(n))
}

// batches returns the number of batches of proposals.
func (t *searchTask) batches() int { return (t.spec.Trials + t.spec.Batch - 1) / t.spec.Batch }

// batchSeed returns the seed of batch b's proposals: from the config's seed, the
// dataset, the row and b alone.
func (t *searchTask) batchSeed(b int) uint64 {
	h := sha256.New()
	fmt.Fprintf(h, "nagc-search\x00%d\x00%s\x00%s\x00%d", t.cfg.Seed, t.ds.Identity, t.row.Name.Value, b)
	return binary.LittleEndian.Uint64(h.Sum(nil))
}

// sampler returns the search's sampler (nil for the grid).
func (t *searchTask) sampler() search.Sampler {
	switch t.spec.Sampler {
	case SamplerRandom:
		return search.RandomSampler{}
	case SamplerTPE:
		return search.TPE{}
	}
	return nil
}

// propose returns the points of the trials of batch b (trials b·Batch+1 …), drawn from
// the batch's seed after the observations obs of every earlier batch's trials, each
// proposal counted as a failed trial by the ones after it (Optuna's constant liar). A
// proposal whose parameters equal an earlier trial's is drawn again (up to 20 times).
func (t *searchTask) propose(b int, obs []search.Observation, earlier map[string]bool) [][]float64 {
	first, n := b*t.spec.Batch, t.batchSize(b)
	out := make([][]float64, 0, n)
	if t.spec.Sampler == SamplerGrid {
		for i := first; i < first+n; i++ {
			out = append(out, gridPoint(t.space, i))
		}
		return out
	}
	rng := search.NewRand(t.batchSeed(b))
	s := t.sampler()
	seen := slices.Clone(obs)
	for len(out) < n {
		var x []float64
		for try := 0; try < 20; try++ {
			x = s.Propose(t.space, seen, rng)
			if !earlier[t.key(x)] {
				break
			}
		}
		earlier[t.key(x)] = true
		out = append(out, x)
		// The constant liar: a proposal of the batch counts, for the next ones, as a
		// trial that failed, so that they spread over the space instead of all landing
		// where the batch's first did.
		if len(seen) >= t.liarFrom() {
			seen = append(seen, search.Observation{X: x, Value: math.Inf(-1)})
		}
	}
	return out
}

// liarFrom returns the observations from which proposals of a batch lie about the
// ones before them (search.TPE's start-up trials: below, proposals are random anyway).
func (t *searchTask) liarFrom() int { return (search.TPE{}).Startup() }

// gridPoint returns combination i of a space of lists, the last parameter varying
// fastest.
func gridPoint(sp search.Space, i int) []float64 {
	x := make([]float64, len(sp))
	for d := len(sp) - 1; d >= 0; d-- {
		n := len(sp[d].Choices)
		x[d] = float64(i % n)
		i /= n
	}
	return x
}

// key returns the canonical parameters of point x on the task's dataset (k1 resolved),
// which identify a configuration.
func (t *searchTask) key(x []float64) string { return canonicalParams(t.params(x, 0)) }

// params returns the options of a fit of point x: the row's fixed options, the point's
// values (k1 resolved), where the search sets them, iterations, and for a program that
// reads the labels, paramReadsLabels.
func (t *searchTask) params(x []float64, iterations int) map[string]any {
	p := map[string]any{}
	for key, n := range t.row.Options {
		if v, err := scalar(&n); err == nil {
			p[key] = resolveK1(v, t.ds.K1)
		}
	}
	for key, v := range t.space.Values(x) {
		p[key] = resolveK1(v, t.ds.K1)
	}
	if t.iterations && iterations > 0 {
		p["iterations"] = iterations
	}
	if t.row.ReadsLabels {
		p[paramReadsLabels] = true
	}
	return p
}

// run returns the run of trial (from 1), proposed in batch b at point x, at rung k and
// restart r.
func (t *searchTask) run(trial, b int, x []float64, k, r int) Run {
	params := t.params(x, t.rungs[k])
	var argv []string
	if t.row.program != nil {
		argv = t.row.program.Argv
	}
	id := searchRunID(t.ds.Identity, t.row.Algorithm.Value, t.row.Name.Value, params, t.ds.K1, r, trial, argv)
	plan := t.plan0 + 1 + ((trial-1)*len(t.rungs)+k)*t.cfg.Restarts + r
	return Run{ID: id, Dataset: t.ds.Name, Methods: []string{t.row.Name.Value}, Algorithm: t.row.Algorithm.Value,
		Params: params, K1: t.ds.K1, Restart: r, Seed: RunSeed(t.cfg.Seed, t.ds.Identity, r), Program: t.row.program, Plan: plan}
}

// searchRunID returns the id of a run of a search: its dataset, method, row, options
// (the rung's iterations among them), k1, restart, trial and, for a command row, its
// program's argv (absent from the hashed text of a built-in method). Two trials at the
// same point are two runs.
func searchRunID(dataset, algorithm, row string, params map[string]any, k1, restart, trial int, argv []string) string {
	b, _ := json.Marshal(struct {
		Dataset   string         `json:"dataset"`
		Algorithm string         `json:"algorithm"`
		Row       string         `json:"row"`
		Params    map[string]any `json:"params"`
		K1        int            `json:"k1"`
		Restart   int            `json:"restart"`
		Trial     int            `json:"trial"`
		Command   []string       `json:"command,omitempty"`
	}{dataset, algorithm, row, params, k1, restart, trial, argv})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// ruleValue returns the value rule gives a record (higher is better), false where the
// record is failed or lacks the metric.
func ruleValue(rule string, r *results.Record) (float64, bool) {
	if r == nil || r.Status != results.StatusDone {
		return 0, false
	}
	return results.RuleValue(rule, r.Metrics)
}

// survivors returns the trials (indices into values) that go on from a rung: the best
// max(1, ⌊n/eta⌋) by value, ties to the earlier trial, in trial order.
func survivors(values []float64, eta int) []int {
	idx := make([]int, len(values))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return values[idx[a]] > values[idx[b]] })
	keep := idx[:max(1, len(values)/eta)]
	sort.Ints(keep)
	return keep
}

// totalRuns returns the number of fits the search makes: per batch and bracket of n
// trials, n·restartsAt at the bracket's first rung, then max(1, ⌊n/eta⌋) trials at each
// rung after with theirs (the cuts are decided by values, their sizes are not).
func (t *searchTask) totalRuns() int {
	total := 0
	for b := 0; b < t.batches(); b++ {
		inBracket := make([]int, len(t.rungs))
		for _, s := range t.brackets(b, t.batchSize(b)) {
			inBracket[s]++
		}
		for s, n := range inBracket {
			for k := s; k < len(t.rungs) && n > 0; k++ {
				if k > s {
					n = max(1, n/t.spec.Eta)
				}
				total += n * t.restartsAt(s, k)
			}
		}
	}
	return total
}

// searchRunCounts returns the fits of the searches opt's shard runs, and those of them
// the folder records, for the progress line.
func searchRunCounts(p *sweepPlan, opt Options, runsPath string) (total, done int) {
	rows := map[string]bool{}
	for _, t := range p.searches {
		if opt.Shards <= 1 || t.shardOf(opt.Shards) == opt.Shard {
			total += t.totalRuns()
			rows[t.ds.Name+"\x00"+t.row.Name.Value] = true
		}
	}
	if total == 0 {
		return 0, 0
	}
	recs, _, _ := results.ReadRecords(runsPath)
	for _, r := range results.Latest(recs) {
		if r.Search != nil && rows[r.Dataset+"\x00"+r.Search.Row] {
			done++
		}
	}
	return total, done
}

// probeRuns returns one run per value of transform a search's trials can take (the
// row's fixed options, and transform from the space where it is there), for the checks
// a plan makes before anything runs, such as refuseSignedAttributes.
func (t *searchTask) probeRuns() []Run {
	fixed := map[string]any{}
	for key, n := range t.row.Options {
		if v, err := scalar(&n); err == nil {
			fixed[key] = v
		}
	}
	var transforms []any
	for _, p := range t.space {
		if p.Name == "transform" {
			transforms = p.Choices
		}
	}
	if transforms == nil {
		transforms = []any{fixed["transform"]}
	}
	runs := make([]Run, 0, len(transforms))
	for _, tr := range transforms {
		params := maps.Clone(fixed)
		if tr != nil {
			params["transform"] = tr
		}
		runs = append(runs, Run{Dataset: t.ds.Name, Methods: []string{t.row.Name.Value},
			Algorithm: t.row.Algorithm.Value, Params: params, K1: t.ds.K1})
	}
	return runs
}

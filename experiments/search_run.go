package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/search"
)

// searchEnv is what the searches of one execution share.
type searchEnv struct {
	ctx    context.Context
	cfg    *Config
	opt    Options
	dir    string                     // the results folder
	latest map[string]*results.Record // the latest record of every run in the folder
	record func(*results.Record) error
	// rewrite appends a record of a run already counted (markCut).
	rewrite func(*results.Record) error
	inputs  map[string]algorithms.Input
	graphs  map[string]*datasets.Graph
	splits  *algorithms.Cache
	// left is the runs the execution may still execute (Options.Limit), < 0 for no limit.
	left int
	// stopped is set when a search stopped before its end (cancelled, the limit).
	stopped bool
	// concurrent is the most fits runTogether runs at once (the workers, at most the
	// fits of its searches), for the memory check of each.
	concurrent int
	// share is the share of a chained sweep this execution runs (nil: the whole
	// search); waiting is set where a rung waits for other shares' fits (unrecorded).
	share   *rungShare
	waiting bool
}

// searchJob is one fit of a search: its run and, for a fit that continues its trial's
// fit of the previous rung, that fit's record and iterations.
type searchJob struct {
	run       Run
	info      results.SearchInfo
	last      bool // the search's last rung: no factors kept
	prev      *results.Record
	prevIters int
	// heldOutFirst fits the held-out copy before the graph (every other job of a rung).
	// The copy shares the graph's k-means start (heldOutOf), so this decides only which
	// fit computes a start that reads the graph (a filtered or SGC start).
	heldOutFirst bool
}

// runSearches executes the searches of plan p that opt's shard runs (a search goes
// whole to one shard), appending records with record: the searches of a dataset at
// once (runTogether), the datasets one after another. It resumes from the records in
// the folder: proposals are a function of the config and the values recorded, so a
// search run again proposes the same trials and executes only the fits not recorded.
// limit is the runs it may execute (< 0: no limit).
// rewrite appends a record again (with Search.Cut set) without counting it.
func runSearches(ctx context.Context, cfg *Config, opt Options, p *sweepPlan, limit int, record, rewrite func(*results.Record) error) error {
	var tasks []*searchTask
	for _, t := range p.searches {
		if t.shardOf(opt.Shards) == max(opt.Shard, 0) || opt.Shards <= 1 || opt.chain != nil {
			tasks = append(tasks, t)
		}
	}
	if len(tasks) == 0 {
		return nil
	}
	recs, _, err := results.ReadRecords(filepath.Join(opt.ResultsDir, results.RunsFile))
	if err != nil {
		return err
	}
	env := &searchEnv{ctx: ctx, cfg: cfg, opt: opt, dir: opt.ResultsDir, latest: map[string]*results.Record{}, record: record, rewrite: rewrite,
		inputs: map[string]algorithms.Input{}, graphs: p.graphs, splits: algorithms.NewCache(), left: limit, share: opt.chain}
	if opt.chain != nil { // a share of a chain: its factors, and its records first
		env.dir = opt.chain.from
	}
	if opt.chain != nil && opt.chain.from != opt.ResultsDir {
		chained, _, err := results.ReadRecords(filepath.Join(opt.chain.from, results.RunsFile))
		if err != nil {
			return err
		}
		recs = append(chained, recs...)
	}
	for i := range recs {
		env.latest[recs[i].RunID] = &recs[i]
	}
	for _, t := range tasks {
		if err := t.checkSettings(opt.ResultsDir); err != nil {
			return err
		}
	}
	defer parallel.SetThreads(parallel.Threads())
	// The searches of one dataset run at once (runTogether); the datasets one after
	// another, so that one dataset's caches are held at a time. Under a limit, and in a
	// share of a chain, the searches run one after another: a limit then runs the
	// config's first runs whatever the order fits finish in, and a share counts its
	// positions per search.
	for i := 0; len(tasks) > 0; {
		d := tasks[0].ds.Name
		n := 1
		for n < len(tasks) && tasks[n].ds.Name == d && limit < 0 && env.share == nil {
			n++
		}
		if _, ok := env.inputs[d]; !ok {
			g := p.graphs[d]
			env.inputs = map[string]algorithms.Input{d: {Adj: g.Adj, X: g.X, Truth: g.Labels, Cache: newDatasetCache()}}
			env.splits = algorithms.NewCache()
		}
		env.nextSearch(i)
		if err := env.runTogether(tasks[:n]); err != nil || !env.goesOn() {
			return err
		}
		tasks, i = tasks[n:], i+n
	}
	return nil
}

// execute runs the search t: batch after batch, the batch's trials proposed from the
// values of the earlier batches, then rung after rung, every fit of a rung done before
// the rung is cut. With Hyperband, a trial enters at its bracket's first rung and is
// cut among the trials of its bracket only. It hands each rung's fits to fitRung, which
// returns once they are recorded, false where the search must stop (then, or where
// env.stopped is set, execute returns without cutting).
func (t *searchTask) execute(env *searchEnv, fitRung func([]searchJob) bool) error {
	var obs []search.Observation
	earlier := map[string]bool{}
	for b := 0; b < t.batches(); b++ {
		points := t.propose(b, obs, earlier)
		bracket := t.brackets(b, len(points))
		first := b*t.spec.Batch + 1
		alive := make([]int, len(points))
		for i := range alive {
			alive[i] = i
		}
		level, value := make([]int, len(points)), make([]float64, len(points))
		for k := range t.rungs {
			var jobs []searchJob
			var active []int // the alive trials whose bracket has started
			for _, i := range alive {
				if bracket[i] > k {
					continue
				}
				active = append(active, i)
				for r := 0; r < t.restartsAt(bracket[i], k); r++ {
					j := searchJob{run: t.run(first+i, b, points[i], k, r), last: k == len(t.rungs)-1,
						info: results.SearchInfo{Row: t.row.Name.Value, Rule: t.spec.Rule, Trial: first + i, Batch: b, Rung: k, Rungs: len(t.rungs), Bracket: bracket[i]}}
					if k > bracket[i] && r < t.restartsAt(bracket[i], k-1) {
						j.prev, j.prevIters = env.latest[t.run(first+i, b, points[i], k-1, r).ID], t.rungs[k-1]
					}
					jobs = append(jobs, j)
				}
			}
			if !fitRung(jobs) || env.stopped {
				return nil
			}
			for _, i := range active {
				level[i], value[i] = k, t.trialValue(env, first+i, b, points[i], bracket[i], k)
			}
			keep := t.keep(alive, active, bracket, value, k)
			for _, i := range active {
				cut := !slices.Contains(keep, i)
				for r := 0; r < t.restartsAt(bracket[i], k); r++ {
					id := t.run(first+i, b, points[i], k, r).ID
					if cut {
						if err := env.markCut(id); err != nil {
							return err
						}
						removeFactors(env.dir, id)
					}
					if k > bracket[i] && r < t.restartsAt(bracket[i], k-1) { // continued: the previous rung's factors are spent
						removeFactors(env.dir, t.run(first+i, b, points[i], k-1, r).ID)
					}
				}
			}
			alive = keep
		}
		for i, x := range points {
			obs = append(obs, search.Observation{X: x, Value: value[i], Level: level[i]})
		}
	}
	return nil
}

// keep returns the trials of alive that go on after rung k: those whose bracket has not
// started, and of each bracket's trials in active (which fitted rung k) the best
// max(1, ⌊n/eta⌋) by value, ties to the earlier trial; all at the last rung.
func (t *searchTask) keep(alive, active, bracket []int, value []float64, k int) []int {
	if k == len(t.rungs)-1 {
		return alive
	}
	goOn := map[int]bool{}
	for s := 0; s <= k; s++ {
		var members []int
		var vals []float64
		for _, i := range active {
			if bracket[i] == s {
				members, vals = append(members, i), append(vals, value[i])
			}
		}
		if len(members) == 0 {
			continue
		}
		for _, n := range survivors(vals, t.spec.Eta) {
			goOn[members[n]] = true
		}
	}
	var out []int
	for _, i := range alive {
		if bracket[i] > k || goOn[i] {
			out = append(out, i)
		}
	}
	return out
}

// trialValue returns the value of a trial of the bracket starting at rung s, at rung
// k: the mean of the rule's value over its restarts there, −Inf where a fit failed or
// lacks the rule's metric.
func (t *searchTask) trialValue(env *searchEnv, trial, b int, x []float64, s, k int) float64 {
	var sum float64
	n := t.restartsAt(s, k)
	for r := 0; r < n; r++ {
		v, ok := ruleValue(t.spec.Rule, env.latest[t.run(trial, b, x, k, r).ID])
		if !ok {
			return math.Inf(-1)
		}
		sum += v
	}
	return sum / float64(n)
}

// markCut appends the record of run id again with Search.Cut set, unless it says so.
func (env *searchEnv) markCut(id string) error {
	rec := env.latest[id]
	if rec == nil || rec.Search == nil || rec.Search.Cut {
		return nil
	}
	cp := *rec
	info := *rec.Search
	info.Cut = true
	cp.Search = &info
	if err := env.rewrite(&cp); err != nil {
		return err
	}
	env.latest[id] = &cp
	return nil
}

// fit executes job j of search t and returns its record, nil when cancelled: its fit
// (continued from the previous rung's factors where j has a previous fit whose factors
// are kept) and, with holdout, its held-out fit likewise; then, before a last rung,
// keeps the factors of both for the next rung. With rule heldout and whole_graph
// last_rung, a rung before the last fits only the held-out copy (heldOutOnly): the
// last rung fits the whole graph straight to its iterations, the same bits as
// continued.
func (env *searchEnv) fit(t *searchTask, j searchJob) *results.Record {
	in := env.inputs[t.ds.Name]
	rec := newRecord(j.run)
	info := j.info
	rec.Search = &info
	m, err := newMethod(job{Run: j.run, resultsDir: env.dir}, env.concurrent)
	if err == nil {
		err = algorithms.CheckMemory(m, in, j.run.K1, env.concurrent)
	}
	if err != nil {
		return markFailed(rec, err)
	}
	if t.spec.WholeGraph == WholeGraphLastRung && !j.last {
		return env.heldOutOnly(t, j, m, rec)
	}
	var hres *algorithms.Result
	var hran int
	var sp *heldOutInput
	var herr, splErr error
	heldOut := func() {
		if sp, splErr = heldOutOf(env.graphs[t.ds.Name], job{Run: j.run}, env.cfg.Holdout, env.splits, in.Cache); splErr == nil {
			hres, hran, herr = env.fitPart(m, sp.in, j, "heldout")
		}
	}
	if j.heldOutFirst && env.cfg.Holdout > 0 {
		heldOut()
	}
	res, ran, err := env.fitPart(m, in, j, "main")
	if env.ctx.Err() != nil {
		return nil
	}
	rec = scoreFit(rec, res, err, in, env.cfg.Metrics)
	rec.IterationsRun = ran
	if rec.Status == results.StatusDone && env.cfg.Holdout > 0 {
		if !j.heldOutFirst {
			heldOut()
		}
		if splErr != nil {
			return markFailed(rec, fmt.Errorf("held-out fit: %w", splErr))
		}
		if env.ctx.Err() != nil {
			return nil
		}
		scoreHeldOut(rec, hres, herr, sp.test, env.cfg.Holdout)
		setHeldOutCost(rec, hres, hran)
	}
	if rec.Status == results.StatusDone && !j.last {
		err := saveFactors(env.dir, j.run.ID, "main", res.Factors)
		if err == nil && hres != nil {
			err = saveFactors(env.dir, j.run.ID, "heldout", hres.Factors)
		}
		if err != nil {
			return markFailed(rec, fmt.Errorf("keeping the factors for the next rung: %w", err))
		}
	}
	return rec
}

// heldOutOnly fits job j's held-out copy alone (continued as fit does) and returns rec
// as its record: the held-out score and labels, the iterations the copy ran, marked
// Search.HeldOutOnly; nil when cancelled. Its factors are kept for the next rung.
func (env *searchEnv) heldOutOnly(t *searchTask, j searchJob, m algorithms.Method, rec *results.Record) *results.Record {
	in := env.inputs[t.ds.Name]
	rec.Search.HeldOutOnly = true
	sp, err := heldOutOf(env.graphs[t.ds.Name], job{Run: j.run}, env.cfg.Holdout, env.splits, in.Cache)
	if err != nil {
		return markFailed(rec, fmt.Errorf("held-out fit: %w", err))
	}
	hres, ran, herr := env.fitPart(m, sp.in, j, "heldout")
	if env.ctx.Err() != nil {
		return nil
	}
	rec.Status, rec.Metrics = results.StatusDone, map[string]float64{}
	if herr == nil {
		rec.Iterations = hres.Iterations
	}
	scoreHeldOut(rec, hres, herr, sp.test, env.cfg.Holdout)
	if rec.Status != results.StatusDone {
		return rec
	}
	setHeldOutCost(rec, hres, ran)
	if err := saveFactors(env.dir, j.run.ID, "heldout", hres.Factors); err != nil {
		return markFailed(rec, fmt.Errorf("keeping the factors for the next rung: %w", err))
	}
	return rec
}

// setHeldOutCost records what the held-out fit res cost: the iterations it ran itself
// and its seconds (its start's where it computed it).
func setHeldOutCost(rec *results.Record, res *algorithms.Result, ran int) {
	if rec.Status != results.StatusDone || res == nil {
		return
	}
	rec.HeldOutIterationsRun = ran
	rec.HeldOutSeconds = res.FitTime.Seconds()
	if !res.InitCached {
		rec.HeldOutSeconds += res.InitTime.Seconds()
	}
}

// fitPart fits method m on in for job j, part "main" or "heldout": continued from the
// factors of j's previous fit where they are kept and m is an algorithms.Continuer (the
// result then reads as the straight fit: the previous fit's loss curve, its
// description, all iterations), else from the start (a program of the user's always:
// it is given its rung's iterations, and runs them all). It returns the iterations it
// ran.
func (env *searchEnv) fitPart(m algorithms.Method, in algorithms.Input, j searchJob, part string) (*algorithms.Result, int, error) {
	its := j.run.Params["iterations"]
	c, ok := m.(algorithms.Continuer)
	if j.prev != nil && j.prev.Status == results.StatusDone && ok && its != nil {
		if f, err := loadFactors(env.dir, j.prev.RunID, part); err == nil {
			more := its.(int) - j.prevIters
			cm, err := c.Continue(f, more)
			if err != nil {
				return nil, 0, err
			}
			res, err := cm.Fit(env.ctx, in, j.run.K1, j.run.Seed)
			if err != nil {
				return nil, more, err
			}
			if part == "main" {
				res.Objective = append(slices.Clone(j.prev.Objective), res.Objective...)
				res.Info = j.prev.Info
			}
			res.Iterations = its.(int)
			res.InitCached = false
			return res, more, nil
		}
	}
	res, err := m.Fit(env.ctx, in, j.run.K1, j.run.Seed)
	if err != nil {
		return nil, 0, err
	}
	if its := programIterations(j.run); its > 0 {
		res.Iterations = its // a program, refitted from the start: all of them
	}
	return res, res.Iterations, nil
}

// checkSettings refuses to go on with a search whose settings differ from those its
// results folder recorded at its first run (naming what changed), and records them
// when it has none.
func (t *searchTask) checkSettings(dir string) error {
	now := t.settings()
	path := filepath.Join(dir, results.SearchDir, searchFileName(t.ds.Identity, t.row.Name.Value)+".json")
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		b, _ := json.MarshalIndent(now, "", "  ")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return results.WriteAtomic(path, append(b, '\n'))
	}
	if err != nil {
		return err
	}
	var was map[string]any
	if err := json.Unmarshal(raw, &was); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if _, ok := was["whole_graph"]; !ok && was["rule"] == results.SelectHeldOut {
		was["whole_graph"] = WholeGraphEveryRung // recorded before the setting existed
	}
	b, _ := json.Marshal(now)
	var cur map[string]any
	_ = json.Unmarshal(b, &cur)
	if changed := settingsChanges(was, cur); len(changed) > 0 {
		return t.cfg.errf(t.spec.line, "search", "the search of row %q on %s in %s was run with other settings (%s); a search is never mixed with another: use a new results folder, or restore the settings",
			t.row.Name.Value, t.ds.Name, dir, strings.Join(changed, "; "))
	}
	return nil
}

// proposalsVersion names how this nagc proposes a search's trials (samplers, liar,
// seeds): a folder whose search was proposed otherwise is not resumed.
const proposalsVersion = 1

// settings returns what a search's records depend on.
func (t *searchTask) settings() map[string]any {
	space := map[string]any{}
	for _, p := range t.space {
		space[p.Name] = p
	}
	opts := map[string]any{}
	for k, n := range t.row.Options {
		v, _ := scalar(&n)
		opts[k] = v
	}
	settings := map[string]any{
		"sampler": t.spec.Sampler, "trials": t.spec.Trials, "batch": t.spec.Batch, "rule": t.spec.Rule,
		"prune": t.spec.Prune, "rungs": t.rungs, "first_restarts": t.restartsAt(0, 0), "restarts": t.cfg.Restarts,
		"seed": t.cfg.Seed, "space": space, "options": opts, "algorithm": t.row.Algorithm.Value,
		"holdout": t.cfg.Holdout, "metrics": t.cfg.Metrics, "k1": t.ds.K1,
		"proposals": proposalsVersion,
	}
	if t.spec.WholeGraph != "" {
		settings["whole_graph"] = t.spec.WholeGraph
	}
	t.programSettings(settings)
	return settings
}

// searchFileName returns a file name for the search of row on a dataset.
func searchFileName(dataset, row string) string {
	return runID(dataset, "search", map[string]any{"row": row}, 0, 0, false, nil)
}

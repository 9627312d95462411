package experiments

import (
	"context"
	"fmt"
	"maps"
	"math"
	"runtime/debug"
	"slices"
	"time"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/sparse"
)

// present returns the entries of idx that are not −1.
func present(idx []int) []int {
	var out []int
	for _, i := range idx {
		if i >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// executeBatch executes the jobs of one batch (one dataset and seed; see batches): the
// fits of the runs without a record and, when the config holds edges out, every run's
// held-out fit are given to algorithms.FitBatch (all together in lockstep, else by input:
// the batch is then one chain of fits that differ only in their iterations), then each
// run is scored as if it had run alone. It returns each job's record, nil where ctx was
// cancelled.
// Each fit's estimated peak memory, times the workers that may run such fits at once
// (concurrent), is checked against the memory budget first: a fit that would not fit
// is recorded as failed with the refusal, without allocating.
func executeBatch(ctx context.Context, batch []job, g *datasets.Graph, in algorithms.Input, cfg *Config, splits *algorithms.Cache, lockstep bool, concurrent int) []*results.Record {
	bf := prepareBatch(batch, g, in, cfg, splits, concurrent)
	if lockstep {
		bf.fit(ctx, batch[0].K1, batch[0].Seed, allFits)
	} else {
		bf.fit(ctx, batch[0].K1, batch[0].Seed, mainFits)
		bf.fit(ctx, batch[0].K1, batch[0].Seed, heldOutFits)
	}
	return bf.records(ctx, batch, in, cfg)
}

// prepareBatch returns the fits of batch (newBatchFits), on in and, when cfg holds edges
// out, on the held-out split of g that the runs of the batch's dataset and seed share.
func prepareBatch(batch []job, g *datasets.Graph, in algorithms.Input, cfg *Config, splits *algorithms.Cache, concurrent int) *batchFits {
	var sp *heldOutInput
	var splitErr error
	if cfg.Holdout > 0 {
		sp, splitErr = heldOutOf(g, batch[0], cfg.Holdout, splits, in.Cache)
	}
	bf := newBatchFits(batch, in, sp, concurrent)
	bf.sp, bf.splitErr = sp, splitErr
	return bf
}

// records returns each job's record (record), all nil when ctx was cancelled.
func (bf *batchFits) records(ctx context.Context, batch []job, in algorithms.Input, cfg *Config) []*results.Record {
	recs := make([]*results.Record, len(batch))
	if ctx.Err() != nil {
		return recs
	}
	for i, j := range batch {
		recs[i] = bf.record(i, j, in, cfg, bf.sp, bf.splitErr)
	}
	return recs
}

// heldOutOf returns the held-out split of g (fraction holdout) that the runs of j's
// dataset and seed share, drawn once per sweep (splits caches it) with the input the
// held-out fits are fitted on. That input's cache shares with cache, the cache of g's own
// input, what reads only the attributes (algorithms.Cache.SharingAttributes): a restart's
// k-means start is computed once for both.
func heldOutOf(g *datasets.Graph, j job, holdout float64, splits, cache *algorithms.Cache) (*heldOutInput, error) {
	key, split := heldOutSplit(g, j.Dataset, holdout, j.Seed)
	v, err := splits.Do(key, func() (any, error) {
		train, test, err := split()
		if err != nil {
			return nil, err
		}
		// Only the held-out fit's labels are scored: no objective after each iteration.
		hin := algorithms.Input{Adj: train, X: g.X, Truth: g.Labels, Cache: cache.SharingAttributes(), NoObjective: true}
		return &heldOutInput{in: hin, test: test}, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*heldOutInput), nil
}

// batchFits are the fits of one batch: for job i, its own fit fits[mainFit[i]] (−1 when
// it has a record already) and its held-out fit fits[heldFit[i]] (−1 without held-out
// split), or the error methodErr[i] of building its method or checking its memory;
// res and errs receive the fits' results (the parts of fitPart may fill them at once:
// each writes its own entries). sp is the held-out split, or splitErr why there is none.
type batchFits struct {
	fits             []algorithms.BatchFit
	mainFit, heldFit []int
	methodErr        []error
	res              []*algorithms.Result
	errs             []error
	sp               *heldOutInput
	splitErr         error
}

// newBatchFits builds the fits of the jobs of batch on in and, with sp, on its held-out
// input, checking each fit's memory for concurrent workers (algorithms.CheckMemory).
func newBatchFits(batch []job, in algorithms.Input, sp *heldOutInput, concurrent int) *batchFits {
	bf := &batchFits{mainFit: make([]int, len(batch)), heldFit: make([]int, len(batch)), methodErr: make([]error, len(batch))}
	for i, j := range batch {
		bf.mainFit[i], bf.heldFit[i] = -1, -1
		m, err := newMethod(j, concurrent)
		if err == nil {
			err = algorithms.CheckMemory(m, in, j.K1, concurrent)
		}
		if err != nil {
			bf.methodErr[i] = err
			continue
		}
		if j.prior == nil {
			bf.mainFit[i] = len(bf.fits)
			bf.fits = append(bf.fits, algorithms.BatchFit{Method: m, In: in})
		}
		if sp != nil {
			bf.heldFit[i] = len(bf.fits)
			bf.fits = append(bf.fits, algorithms.BatchFit{Method: m, In: sp.in})
		}
	}
	bf.res, bf.errs = make([]*algorithms.Result, len(bf.fits)), make([]error, len(bf.fits))
	return bf
}

// fitPart names the fits of a batch one call of batchFits.fit makes.
type fitPart int

const (
	allFits     fitPart = iota // every fit, in lockstep
	mainFits                   // the runs' own fits (one chain: one fit read off)
	heldOutFits                // their held-out fits (likewise)
)

// fit runs the fits of part through algorithms.FitBatch with k1 clusters and seed, as one
// call: all of them in lockstep; or the batch's main or held-out fits, which in a batch of
// one chain (see batches) are one fit that the shorter ones are read off. The two parts
// write different entries of res and errs, so they may run at once. A panic fails every
// fit of its call.
func (bf *batchFits) fit(ctx context.Context, k1 int, seed uint64, part fitPart) {
	var idx []int
	switch part {
	case allFits:
		idx = make([]int, len(bf.fits))
		for i := range bf.fits {
			idx[i] = i
		}
	case mainFits:
		idx = present(bf.mainFit)
	case heldOutFits:
		idx = present(bf.heldFit)
	}
	if len(idx) == 0 {
		return
	}
	sub := make([]algorithms.BatchFit, len(idx))
	for n, f := range idx {
		sub[n] = bf.fits[f]
	}
	if p := recovered(func() {
		r, e := algorithms.FitBatch(ctx, k1, seed, sub)
		for n, f := range idx {
			bf.res[f], bf.errs[f] = r[n], e[n]
		}
	}); p != nil {
		for _, f := range idx {
			bf.res[f], bf.errs[f] = nil, p
		}
	}
}

// record returns the record of job j, the batch's i-th: its prior record, or its fit
// scored on in (scoreFit), with the held-out fit's score (scoreHeldOut on sp) when the
// config holds edges out; a failed fit, method or split (splitErr) fails the record.
func (bf *batchFits) record(i int, j job, in algorithms.Input, cfg *Config, sp *heldOutInput, splitErr error) *results.Record {
	var rec *results.Record
	switch {
	case j.prior != nil:
		cp := *j.prior
		cp.Metrics = maps.Clone(j.prior.Metrics)
		cp.Plan = j.Plan // a record written before positions were recorded has none
		rec = &cp
	case bf.methodErr[i] != nil:
		rec = markFailed(newRecord(j.Run), bf.methodErr[i])
	default:
		rec = newRecord(j.Run)
		f := bf.mainFit[i]
		if p := recovered(func() { rec = scoreFit(rec, bf.res[f], bf.errs[f], in, cfg.Metrics) }); p != nil {
			markFailed(rec, p)
		}
	}
	if rec.Status != results.StatusDone || cfg.Holdout <= 0 {
		return rec
	}
	switch {
	case splitErr != nil:
		markFailed(rec, fmt.Errorf("held-out fit: %w", splitErr))
	case bf.methodErr[i] != nil:
		markFailed(rec, fmt.Errorf("held-out fit: %w", bf.methodErr[i]))
	default:
		f := bf.heldFit[i]
		if p := recovered(func() { scoreHeldOut(rec, bf.res[f], bf.errs[f], sp.test, cfg.Holdout) }); p != nil {
			markFailed(rec, fmt.Errorf("held-out fit: %w", p))
		}
	}
	return rec
}

// recovered runs fn and returns the panic it raised, as an error with its stack, or nil.
func recovered(fn func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	fn()
	return nil
}

// scoreHeldOut adds to rec the held-out fit's result: the clustering's modularity on the
// held-out edges test (results.MetricHeldOut), or marks rec failed.
func scoreHeldOut(rec *results.Record, res *algorithms.Result, err error, test *sparse.CSR, holdout float64) {
	fail := func(err error) { markFailed(rec, fmt.Errorf("held-out fit: %w", err)) }
	if err != nil {
		fail(err)
		return
	}
	q, err := metrics.Modularity(test, res.Labels)
	if err != nil {
		fail(err)
		return
	}
	if math.IsNaN(q) || math.IsInf(q, 0) {
		fail(fmt.Errorf("metric %s is %v", results.MetricHeldOut, q))
		return
	}
	rec.Metrics[results.MetricHeldOut] = q
	rec.Holdout = holdout
	rec.HeldOutLabels = results.EncodeLabels(res.Labels)
	rec.Finished = time.Now().UTC()
}

// markFailed turns rec into the record of a failed run (no metrics, no loss curve) and
// returns it.
func markFailed(rec *results.Record, err error) *results.Record {
	rec.Status, rec.Error = results.StatusFailed, err.Error()
	rec.Metrics, rec.Objective, rec.FinalObjective, rec.Flags = nil, nil, nil, nil
	rec.Finished = time.Now().UTC()
	return rec
}

// newRecord returns the record of run r before its fit.
func newRecord(r Run) *results.Record {
	rec := &results.Record{
		RunID: r.ID, Dataset: r.Dataset, Methods: r.Methods, Algorithm: r.Algorithm,
		Params: r.Params, K1: r.K1, Restart: r.Restart, Seed: r.Seed, TimedAlone: r.TimedAlone,
		Plan: r.Plan,
	}
	stampProgram(rec, r)
	return rec
}

// execute fits one run on its own and scores it. It returns nil when ctx was cancelled
// mid-run.
func execute(ctx context.Context, r Run, in algorithms.Input, want []string) *results.Record {
	return executeBatch(ctx, []job{{Run: r}}, nil, in, &Config{Metrics: want}, nil, false, 1)[0]
}

// scoreFit fills rec from the result of its fit (res, err) on in: timings, loss curve,
// the metrics want and the labels; or marks it failed. It returns rec.
func scoreFit(rec *results.Record, res *algorithms.Result, err error, in algorithms.Input, want []string) *results.Record {
	fail := func(err error) *results.Record { return markFailed(rec, err) }
	if err != nil {
		return fail(err)
	}
	rec.Iterations = res.Iterations
	rec.FitSeconds = res.FitTime.Seconds()
	rec.InitSeconds = res.InitTime.Seconds()
	rec.InitCached = res.InitCached
	rec.BatchSize = res.BatchSize
	rec.PrefixOf = res.PrefixOf
	rec.Info = res.Info
	if len(res.Objective) > 0 {
		for _, v := range res.Objective {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fail(fmt.Errorf("objective diverged (%v)", v))
			}
		}
		rec.Objective = res.Objective
		last := res.Objective[len(res.Objective)-1]
		rec.FinalObjective = &last
	}
	scores, err := metrics.Evaluate(in.Truth, res.Labels, in.Adj, in.X)
	if err != nil {
		return fail(err)
	}
	all := scores.Named()
	rec.Metrics = map[string]float64{}
	for _, k := range want {
		v, ok := all[k]
		if !ok {
			continue // a label-reading metric of a graph without labels: absent, not 0
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fail(fmt.Errorf("metric %s is %v", k, v))
		}
		rec.Metrics[k] = v
	}
	flagged, err := flagMetrics(in.Truth, res.Labels, res.Flags, slices.Contains(want, "ari"))
	if err != nil {
		return fail(err)
	}
	for k, v := range flagged {
		rec.Metrics[k] = v
	}
	if len(res.Flags) > 0 {
		rec.Flags = make(map[string]string, len(res.Flags))
		for name, mask := range res.Flags {
			rec.Flags[name] = results.EncodeFlags(mask)
		}
	}
	rec.Labels = results.EncodeLabels(res.Labels)
	rec.Status = results.StatusDone
	rec.Finished = time.Now().UTC()
	return rec
}

package experiments

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nagc-harness/nagc/results"
)

// rungShare is one share of a chained sweep (ExecuteShare, AdvanceChain): the runs the
// chain's results folder from does not record, split among n shares so that the
// fits of every search's current rung run side by side on as many machines.
type rungShare struct {
	// from is the chain's results folder: its records count as recorded, and its
	// search/factors folder holds the factors a search keeps between rungs.
	from string
	// recorded holds the runs from records, whatever their status; finished those of
	// them failed (a failed run is a result: it would fail again) or done with the
	// held-out fit the config asks for.
	recorded, finished map[string]bool
	// i and n: this is share i (0-based) of n; n = 0 executes nothing (AdvanceChain).
	i, n int
	// search is the ordinal of the search being replayed and next the position, among
	// its fits that from does not record, of the next one.
	search, next int
	// pending counts the fits left to other shares (all of them when n = 0), waited the
	// searches that stopped at a rung the chain's folder lacks fits of.
	pending, waited int
	// dry plans without fitting: this share's fits go to planned instead (ShareFits).
	dry     bool
	planned []Run
}

// newRungShare reads the records of the chain's folder from, for share i of n.
func newRungShare(from string, holdout float64, i, n int) (*rungShare, error) {
	recs, _, err := results.ReadRecords(filepath.Join(from, results.RunsFile))
	if err != nil {
		return nil, err
	}
	s := &rungShare{from: from, recorded: map[string]bool{}, finished: map[string]bool{}, i: i, n: n}
	for _, r := range results.Latest(recs) {
		s.recorded[r.RunID] = true
		s.finished[r.RunID] = r.Status != results.StatusDone || hasHeldOut(&r, holdout)
	}
	return s, nil
}

// unrecordedRuns returns the grid runs of todo that the chain's folder does not hold
// finished.
func (s *rungShare) unrecordedRuns(todo []job) []job {
	var out []job
	for _, j := range todo {
		if !s.finished[j.ID] {
			out = append(out, j)
		}
	}
	return out
}

// mine reports whether a search fit at position pos (among the fits of its search
// the chain's folder does not record) belongs to this share: pos + the search's
// ordinal ≡ i (mod n), so that one-fit rungs of several searches spread too.
func (s *rungShare) mine(pos int) bool { return s.n > 0 && (pos+s.search)%s.n == s.i }

// unrecorded returns the jobs of a rung that this execution runs: those not recorded
// and, in a share of a chain (env.share), only its own of those the chain's folder
// lacks; as many as the limit lets run (setting env.stopped where it cuts them),
// counting them against it, with the held-out fit first on every other one, so that two
// jobs of one restart running side by side compute its two starts at once rather than
// one waiting for the other's. A rung with fits the chain's folder lacks is cut by the chain's next step
// (AdvanceChain), once every share's are merged: unrecorded then sets env.stopped and
// env.waiting, and the search stops after this rung's share.
func (env *searchEnv) unrecorded(jobs []searchJob) []searchJob {
	var todo []searchJob
	s := env.share
	for _, j := range jobs {
		if s != nil && s.recorded[j.run.ID] {
			continue
		}
		pos := 0
		if s != nil {
			pos = s.next
			s.next++
			env.stopped, env.waiting = true, true
			if !s.mine(pos) || s.dry {
				if s.mine(pos) {
					s.planned = append(s.planned, j.run)
				} else {
					s.pending++
				}
				continue
			}
		}
		if env.latest[j.run.ID] == nil {
			todo = append(todo, j)
		}
	}
	if env.left >= 0 && len(todo) > env.left {
		todo, env.stopped = todo[:env.left], true
	}
	if env.left >= 0 {
		env.left -= len(todo)
	}
	for i := range todo {
		todo[i].heldOutFirst = i%2 == 1
	}
	return todo
}

// nextSearch prepares env for the search of ordinal i: in a share, its positions count
// from 0.
func (env *searchEnv) nextSearch(i int) {
	env.stopped, env.waiting = false, false
	if env.share != nil {
		env.share.search, env.share.next = i, 0
	}
}

// goesOn reports whether runSearches goes on to the next search after one returned:
// where it finished, or waits for other shares' fits (counted in env.share.waited) and
// the execution is not cancelled.
func (env *searchEnv) goesOn() bool {
	if env.waiting {
		env.share.waited++
	}
	return !env.stopped || (env.waiting && env.ctx.Err() == nil)
}

// ExecuteShare runs share opt.Shard of opt.Shards of what the chain's results folder
// from lacks, into opt.ResultsDir (a folder of its own: one writer per folder): the
// grid runs of the shard (Options.Shard) that from does not hold finished (done, or
// failed: a failed run is a result), then, of every search, the fits of its current
// rung (the first with fits from does not record) whose position among them plus the
// search's ordinal ≡ shard (mod shards); the search stops there, to go on once from
// holds every share's fits (AdvanceChain). Proposals and cuts are the engine's, from
// the records of from and opt.ResultsDir together, so the records are one machine's.
// The factors a search keeps between rungs are written to and read from from's
// search/factors folder, whichever share fitted them. It costs Execute's, plus reading
// from's records twice.
func ExecuteShare(ctx context.Context, cfg *Config, opt Options, from string) (*Summary, error) {
	if opt.Shards < 1 || opt.Shard < 0 || opt.Shard >= opt.Shards {
		return nil, fmt.Errorf("share %d of %d", opt.Shard+1, opt.Shards)
	}
	if sameFolder(from, opt.ResultsDir) {
		return nil, fmt.Errorf("a share records into a folder of its own, not into the chain's %s", from)
	}
	s, err := newRungShare(from, cfg.Holdout, opt.Shard, opt.Shards)
	if err != nil {
		return nil, err
	}
	opt.chain = s
	return Execute(ctx, cfg, opt)
}

// shareSearchCounts returns the search fits that the share opt.chain runs (those of
// the searches' current rungs that fall to it, as ShareFits plans them) and how many of
// them its own folder records, for the progress line. It replays the searches without
// fitting, as ShareFits does.
func shareSearchCounts(ctx context.Context, cfg *Config, opt Options, p *sweepPlan, runsPath string) (total, done int, err error) {
	dry := *opt.chain
	dry.dry, dry.planned, dry.pending, dry.waited = true, nil, 0, 0
	opt.chain = &dry
	noWrite := func(*results.Record) error { return nil }
	if err := runSearches(ctx, cfg, opt, p, -1, noWrite, noWrite); err != nil {
		return 0, 0, err
	}
	recs, _, err := results.ReadRecords(runsPath)
	if err != nil {
		return 0, 0, err
	}
	own := map[string]bool{}
	for _, r := range results.Latest(recs) {
		own[r.RunID] = true
	}
	for _, r := range dry.planned {
		if own[r.ID] {
			done++
		}
	}
	return len(dry.planned), done, nil
}

// ChainState is what a chained sweep's results folder lacks, as AdvanceChain finds it.
type ChainState struct {
	// Grid counts the planned runs not recorded finished (done, or failed: a failed run
	// is a result, which the chain does not run again).
	Grid int
	// Fits counts the fits of the searches' current rungs not recorded; Searches the
	// searches with such fits.
	Fits, Searches int
}

// Complete reports whether the folder holds the whole sweep.
func (c ChainState) Complete() bool { return c.Grid == 0 && c.Fits == 0 }

// Work returns the runs and fits the next shares can run side by side.
func (c ChainState) Work() int { return c.Grid + c.Fits }

// AdvanceChain brings the searches of cfg recorded in the results folder dir as far as
// its records take them without fitting anything: every rung whose fits are all
// recorded is cut (the cut fits' records appended again, marked, and their kept factors
// removed) and the next batch proposed, as one machine would; it stops each search at
// its first rung with fits not recorded and counts them. The caller holds dir's append
// lock. It loads cfg's datasets and reads dir's records twice.
func AdvanceChain(ctx context.Context, cfg *Config, dir string) (ChainState, error) {
	var st ChainState
	opt := Options{ResultsDir: dir}
	var err error
	if opt.chain, err = newRungShare(dir, cfg.Holdout, 0, 0); err != nil {
		return st, err
	}
	p, grid, err := chainPlan(cfg, opt)
	if err != nil {
		return st, err
	}
	st.Grid = len(grid)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, err
	}
	runsPath := filepath.Join(dir, results.RunsFile)
	out, err := os.OpenFile(runsPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return st, err
	}
	defer out.Close()
	rewrite := func(rec *results.Record) error {
		if err := results.AppendLine(out, rec); err != nil {
			return fmt.Errorf("%s: %w", runsPath, err)
		}
		return nil
	}
	noFit := func(rec *results.Record) error { return fmt.Errorf("run %s fitted while advancing a chain", rec.RunID) }
	if err := runSearches(ctx, cfg, opt, p, -1, noFit, rewrite); err != nil {
		return st, err
	}
	st.Fits, st.Searches = opt.chain.pending, opt.chain.waited
	return st, out.Sync()
}

// sameFolder reports whether paths a and b name one folder.
func sameFolder(a, b string) bool {
	if x, err := os.Stat(a); err == nil {
		if y, err := os.Stat(b); err == nil {
			return os.SameFile(x, y)
		}
	}
	return filepath.Clean(a) == filepath.Clean(b)
}

// chainPlan plans cfg's sweep for opt (whose chain is set) and returns the plan and
// its runs of opt's shard that the chain's folder does not hold finished.
func chainPlan(cfg *Config, opt Options) (*sweepPlan, []Run, error) {
	p, err := planSweep(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	var grid []Run
	for _, r := range p.runs {
		if !opt.chain.finished[r.ID] {
			grid = append(grid, r)
		}
	}
	return p, grid, nil
}

// ShareFits returns what ExecuteShare would run first of the chain's results folder
// from as share i (0-based) of n, fitting nothing and appending no record: the grid runs
// of the share that from does not hold finished, then the fits of the searches' current
// rungs that fall to it, in the order of the searches. Like AdvanceChain it
// records the searches' settings in from where it has none, and removes the kept
// factors that from's complete rungs no longer need. It loads cfg's datasets and reads
// from's records twice.
func ShareFits(ctx context.Context, cfg *Config, from string, i, n int) ([]Run, error) {
	if n < 1 || i < 0 || i >= n {
		return nil, fmt.Errorf("share %d of %d", i+1, n)
	}
	opt := Options{ResultsDir: from, Shard: i, Shards: n}
	var err error
	if opt.chain, err = newRungShare(from, cfg.Holdout, i, n); err != nil {
		return nil, err
	}
	opt.chain.dry = true
	p, grid, err := chainPlan(cfg, opt)
	if err != nil {
		return nil, err
	}
	noWrite := func(*results.Record) error { return nil }
	if err := runSearches(ctx, cfg, opt, p, -1, noWrite, noWrite); err != nil {
		return nil, err
	}
	return append(grid, opt.chain.planned...), nil
}

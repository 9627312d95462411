package experiments

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nagc-harness/nagc/results"
)

// Plan returns every run of cfg, in config order, loading each dataset to learn its
// number of clusters and identity. Cost: loading the config's datasets.
func Plan(cfg *Config) ([]Run, error) {
	loaded, err := loadDatasets(cfg)
	if err != nil {
		return nil, err
	}
	return cfg.expandLoaded(loaded)
}

// Progress of a sweep, as StatusOf counts it.
type SweepStatus struct {
	// Expected, Done, Failed and Missing count the config's runs: recorded as done (with
	// the held-out fit the config asks for), recorded only as failed, and not recorded.
	Expected, Done, Failed, Missing int
	// Merged counts the runs recorded as done in the results folder itself.
	Merged int
	// Shards holds one entry per shard when the sweep is sharded (nil otherwise).
	Shards []ShardStatus
	// MissingRuns lists the runs neither done nor failed, in config order.
	MissingRuns []Run
	// FailedRuns lists the latest record of each run recorded only as failed.
	FailedRuns []results.Record
	// Searches counts the config's searches not held complete (SearchGaps): a search
	// plans its runs as it goes, so Expected and Missing count none of its runs.
	Searches int
}

// ShardStatus is the progress of one shard of a sweep.
type ShardStatus struct {
	// Shard is the shard's number (1-based) of Shards, and Dir its folder.
	Shard, Shards int
	Dir           string
	// Started reports that Dir holds a runs file.
	Started bool
	// Holder names the process recording into Dir now, nil when none is (as far as the
	// folder's lock tells: see results.LockAppend).
	Holder *results.LockHolder
	// Expected, Done, Failed, Missing and Searches count the shard's runs and searches
	// as SweepStatus does.
	Expected, Done, Failed, Missing, Searches int
}

// Complete reports whether every run is recorded, as done or failed.
func (s *SweepStatus) Complete() bool { return s.Missing == 0 }

// State describes the shard's progress in a word or two: running (with the pid and host
// of the process recording into it, when known), not started, finished or stopped.
func (s ShardStatus) State() string {
	switch {
	case s.Holder != nil && s.Holder.PID != 0:
		return fmt.Sprintf("running (pid %d on %s)", s.Holder.PID, s.Holder.Host)
	case s.Holder != nil:
		return "running"
	case !s.Started && s.Done+s.Failed == 0:
		return "not started"
	case s.Missing == 0 && s.Searches == 0:
		return "finished"
	}
	return "stopped"
}

// StatusOf counts how far the sweep of cfg into the results folder dir has come: runs are
// looked up in dir and in its shard folders (results.ShardDir) for n shards (n < 1: none; n = 1:
// the one shard 1-of-1 that a one-task job array records into), a run
// done in any of them being done. runs is Plan(cfg). It only reads, without taking
// locks: the files a sweep appends to are read up to their last whole record. Cost:
// reading every runs file once.
func StatusOf(cfg *Config, runs []Run, dir string, n int) (*SweepStatus, error) {
	dirs := []string{dir}
	for i := 1; i <= n; i++ {
		dirs = append(dirs, results.ShardDir(dir, i, n))
	}
	t, err := tallyRuns(cfg, dirs)
	if err != nil {
		return nil, err
	}
	st := t.status(runs)
	searches, err := SearchGaps(cfg, dirs, n)
	if err != nil {
		return nil, err
	}
	st.Searches = len(searches)
	for i := 1; i <= n; i++ {
		sh := ShardStatus{Shard: i, Shards: n, Dir: dirs[i], Started: t.started[dirs[i]]}
		if sh.Started {
			sh.Holder = results.Holder(sh.Dir)
		}
		sub := t.status(shardRuns(runs, i-1, n))
		sh.Expected, sh.Done, sh.Failed, sh.Missing = sub.Expected, sub.Done, sub.Failed, sub.Missing
		for _, g := range searches {
			if g.Shard == i {
				sh.Searches++
			}
		}
		st.Shards = append(st.Shards, sh)
	}
	return st, nil
}

// statusIn counts the runs of cfg (runs is Plan(cfg)) recorded in the results folders
// dirs together, a run done in any of them being done; Merged counts those done in
// dirs[0]. It reads as StatusOf does.
func statusIn(cfg *Config, runs []Run, dirs []string) (*SweepStatus, error) {
	t, err := tallyRuns(cfg, dirs)
	if err != nil {
		return nil, err
	}
	return t.status(runs), nil
}

// runTally is what the runs files of some results folders record about each run.
type runTally struct {
	done    map[string]bool            // recorded as done, with the held-out fit the config asks for
	merged  map[string]bool            // so recorded in the first folder
	failed  map[string]*results.Record // the latest failed record
	started map[string]bool            // folders holding a runs file
}

func tallyRuns(cfg *Config, dirs []string) (*runTally, error) {
	t := &runTally{done: map[string]bool{}, merged: map[string]bool{}, failed: map[string]*results.Record{}, started: map[string]bool{}}
	for k, d := range dirs {
		path := filepath.Join(d, results.RunsFile)
		recs, _, err := results.ReadRecords(path)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(path); err == nil {
			t.started[d] = true
		}
		for i := range recs {
			r := &recs[i]
			switch {
			case r.Status == results.StatusDone && hasHeldOut(r, cfg.Holdout):
				t.done[r.RunID] = true
				t.merged[r.RunID] = t.merged[r.RunID] || k == 0
			case r.Status == results.StatusFailed:
				t.failed[r.RunID] = r
			}
		}
	}
	return t, nil
}

// status counts runs against the tally.
func (t *runTally) status(runs []Run) *SweepStatus {
	st := &SweepStatus{Expected: len(runs)}
	for _, r := range runs {
		switch {
		case t.done[r.ID]:
			st.Done++
			if t.merged[r.ID] {
				st.Merged++
			}
		case t.failed[r.ID] != nil:
			st.Failed++
			st.FailedRuns = append(st.FailedRuns, *t.failed[r.ID])
		default:
			st.Missing++
			st.MissingRuns = append(st.MissingRuns, r)
		}
	}
	return st
}

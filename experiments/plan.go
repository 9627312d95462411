package experiments

import (
	"sort"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/results"
)

// sweepPlan is what a sweep executes: its datasets, loaded once, and its runs.
type sweepPlan struct {
	loaded []*LoadedDataset
	graphs map[string]*datasets.Graph // by dataset name
	// runs are the runs of opt's shard; all are the config's runs, every shard's, and
	// total counts them.
	runs, all []Run
	total     int
	// searches are the config's searches (searchTasks), every shard's.
	searches []*searchTask
}

// planSweep loads the datasets of cfg (telling opt.Warn the readers' warnings) and
// expands the config into the runs of opt's shard. A row whose method refuses the signed
// attributes of a dataset it runs on is an error before anything runs
// (refuseSignedAttributes).
func planSweep(cfg *Config, opt Options) (*sweepPlan, error) {
	loaded, err := loadDatasets(cfg)
	if err != nil {
		return nil, err
	}
	if opt.Loaded != nil {
		for _, ld := range loaded {
			rep := ld.Report
			if rep == nil {
				rep = datasets.NewLoadReport(ld.Graph, "synthetic")
			}
			opt.Loaded(ld.Name, rep)
		}
	} else if opt.Warn != nil {
		for _, ld := range loaded {
			if ld.Report != nil {
				for _, w := range ld.Report.Warnings {
					opt.Warn(ld.Name, w)
				}
			}
		}
	}
	graphs := map[string]*datasets.Graph{}
	for _, ld := range loaded {
		graphs[ld.Name] = ld.Graph
	}
	runs, err := cfg.expandLoaded(loaded)
	if err != nil {
		return nil, err
	}
	if err := cfg.refuseSignedAttributes(loaded, runs); err != nil {
		return nil, err
	}
	searches, err := cfg.searchTasks(loaded, len(runs))
	if err != nil {
		return nil, err
	}
	var probes []Run
	for _, t := range searches {
		probes = append(probes, t.probeRuns()...)
	}
	if err := cfg.refuseSignedAttributes(loaded, probes); err != nil {
		return nil, err
	}
	return &sweepPlan{loaded: loaded, graphs: graphs, runs: shardRuns(runs, opt.Shard, opt.Shards), all: runs, total: len(runs), searches: searches}, nil
}

// resumeJobs reads the records of runsPath (dropping a line torn by a crash mid-write)
// and returns the jobs of runs not yet done, in the order of runs. A run is done when its
// latest record is done and has the held-out fit of fraction holdout; a done record
// lacking it becomes a job that makes only that fit (its own fit is kept).
func resumeJobs(runsPath string, runs []Run, holdout float64) ([]job, error) {
	recs, torn, err := results.ReadRecords(runsPath)
	if err != nil {
		return nil, err
	}
	if torn { // a crash mid-write: drop the partial line before appending
		if _, err := results.RepairTorn(runsPath); err != nil {
			return nil, err
		}
	}
	done := map[string]bool{}
	prior := map[string]*results.Record{}
	for i := range recs {
		r := &recs[i]
		done[r.RunID] = r.Status == results.StatusDone && hasHeldOut(r, holdout)
		delete(prior, r.RunID)
		if r.Status == results.StatusDone && !done[r.RunID] {
			prior[r.RunID] = r
		}
	}
	var todo []job
	for _, r := range runs {
		if !done[r.ID] {
			todo = append(todo, job{Run: r, prior: prior[r.ID]})
		}
	}
	return todo, nil
}

// job is a run to execute; prior, when set, is its done record, which lacks only the
// held-out fit.
type job struct {
	Run
	prior *results.Record
	// resultsDir is the sweep's results folder, where a command row's graph is written.
	resultsDir string
}

// hasHeldOut reports whether r carries the held-out fit of fraction holdout (always true
// for holdout 0).
func hasHeldOut(r *results.Record, holdout float64) bool {
	if holdout == 0 {
		return true
	}
	_, ok := r.Metrics[results.MetricHeldOut]
	return ok && r.Holdout == holdout
}

// interleaveRestarts orders runs by dataset, then by groups of `group` restarts (0…group−1,
// then group…2·group−1, …), keeping the config's order within a group: row, grid point,
// restart. Execute does this for every config with group = the number of workers:
// records do not depend on the order; a restart's held-out split (with the filtered
// attributes and embeddings its cache holds) can be dropped once its runs are done,
// instead of every restart's staying in memory to the dataset's end; and the workers,
// taking runs in turn, mostly work on different restarts, so that one seldom waits for
// a start or filtered matrix the other is computing. A timing config runs one worker,
// so its rows are timed side by side, restart after restart, and a change in the
// machine's load while they run (another process starting or stopping) falls on every
// row alike rather than on the rows timed last.
func interleaveRestarts(todo []job, group int) {
	group = max(group, 1)
	dataset := map[string]int{}
	for _, j := range todo {
		if _, ok := dataset[j.Dataset]; !ok {
			dataset[j.Dataset] = len(dataset)
		}
	}
	sort.SliceStable(todo, func(a, b int) bool {
		if da, db := dataset[todo[a].Dataset], dataset[todo[b].Dataset]; da != db {
			return da < db
		}
		return todo[a].Restart/group < todo[b].Restart/group
	})
}

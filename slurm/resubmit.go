package slurm

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// Resubmission is what Resubmit did.
type Resubmission struct {
	// CancelledMerges lists the merge jobs of earlier submissions that were cancelled
	// because they waited for the earlier tasks.
	CancelledMerges []string
	// Tasks lists the array tasks resubmitted (as sbatch --array takes them), "" when
	// every shard was finished; Array is their job id.
	Tasks, Array string
	// Merge is the id of the new merge job, "" when nothing was submitted.
	Merge string
	// Expected, Done, Failed and Missing count the sweep's runs as the shards and the
	// results folder hold them (experiments.SweepStatus); Merged counts those done in the
	// results folder itself.
	Expected, Done, Failed, Missing, Merged int
	// Searches counts the config's searches the shards and the results folder do not
	// hold complete (experiments.SearchGaps): their shards are resubmitted too.
	Searches int
}

// Resubmit submits the tasks of job whose shard has missing runs or an unfinished
// search (experiments.SearchGaps) and a new merge job
// after them (MergeAfter), cancelling a merge job of an earlier submission still
// queued. job is the first submission's (its scripts in job.Results); cfg its config;
// opts are sbatch options (--time=…, --mem=…, --cpus-per-task=…) overriding the
// scripts', the merge job taking all but --cpus-per-task (it runs on one CPU). Every
// shard finished and merged, it submits nothing; every shard finished but not merged,
// only a merge job. It refuses while tasks of an earlier submission are queued or
// running, or while a shard is being recorded. What it did is returned even with an
// error (a merge job it cancelled before failing).
func Resubmit(ctx context.Context, job *Job, cfg *experiments.Config, opts []string) (*Resubmission, error) {
	out := &Resubmission{}
	counts, err := results.ShardCounts(job.Results)
	if err != nil {
		return out, err
	}
	if len(counts) > 0 && !slices.Contains(counts, job.Tasks) {
		return out, fmt.Errorf("%s holds shards of %v tasks, not %d: pass the --tasks of the first submission", filepath.Join(job.Results, results.ShardsDir), counts, job.Tasks)
	}
	arrays, err := job.Jobs("array")
	if err != nil {
		return out, err
	}
	for _, id := range arrays {
		q, err := Queued(ctx, id)
		if err != nil {
			return out, err
		}
		if len(q) > 0 {
			return out, fmt.Errorf("job %s still has tasks in the queue: %s; wait for them (or cancel them: scancel %s), then resubmit", id, strings.Join(q, ", "), id)
		}
	}
	runs, err := experiments.Plan(cfg)
	if err != nil {
		return out, err
	}
	st, err := experiments.StatusOf(cfg, runs, job.Results, job.Tasks)
	if err != nil {
		return out, err
	}
	out.Expected, out.Done, out.Failed, out.Missing, out.Merged = st.Expected, st.Done, st.Failed, st.Missing, st.Merged
	var todo []int
	for _, s := range st.Shards {
		if s.Holder != nil {
			return out, fmt.Errorf("shard %d/%d is being recorded by %s: wait for it, or stop it, then resubmit", s.Shard, s.Shards, s.State())
		}
		if s.Missing+s.Searches > 0 {
			todo = append(todo, s.Shard)
		}
	}
	out.Searches = st.Searches
	if len(todo) == 0 && st.Missing > 0 {
		// The shards of job.Tasks tasks hold every run of cfg between them: none can be
		// missing without its shard; say so rather than claim the sweep complete.
		return out, fmt.Errorf("%d of %d runs are missing, but no shard of %d tasks lacks them: is %s the config of this sweep?", st.Missing, st.Expected, job.Tasks, cfg.File)
	}
	merges, err := job.Jobs("merge")
	if err != nil {
		return out, err
	}
	for _, id := range merges {
		if q, err := Queued(ctx, id); err == nil && len(q) > 0 {
			if err := Cancel(ctx, id); err != nil {
				return out, err
			}
			out.CancelledMerges = append(out.CancelledMerges, id)
		}
	}
	merge := filepath.Join(job.Results, Dir, MergeScript)
	var mergeOpts []string // the merge job runs on one CPU
	for _, o := range opts {
		if !strings.HasPrefix(o, "--cpus-per-task=") {
			mergeOpts = append(mergeOpts, o)
		}
	}
	if len(todo) == 0 {
		unmerged, err := experiments.SearchGaps(cfg, []string{job.Results}, 0)
		if err != nil {
			return out, err
		}
		if st.Merged == st.Done && len(unmerged) == 0 {
			return out, nil
		}
		out.Merge, err = job.Submit(ctx, "merge", merge, mergeOpts...)
		return out, err
	}
	out.Tasks = Tasks(todo)
	if out.Array, err = job.Submit(ctx, "array", filepath.Join(job.Results, Dir, ArrayScript), append(opts, "--array="+out.Tasks)...); err != nil {
		return out, err
	}
	out.Merge, err = job.Submit(ctx, "merge", merge, append(mergeOpts, MergeAfter(out.Array))...)
	return out, err
}

package slurm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// Files of a chain of arrays (`nagc slurm --rungs`) in a results folder.
const (
	// RungsScript is the array script of a chain: task I of an array of N runs share I
	// of N of what the results folder lacks (experiments.ExecuteShare).
	RungsScript = "rungs.sh"
	// StepScript is the step job of a chain, which runs after each array (Step).
	StepScript = "step.sh"
	// RungsDir holds the arrays' folders: RungsDir/S/I-of-N is task I of array S.
	RungsDir = "rungs"
	// mergedMark marks an array's folder merged into the results folder.
	mergedMark = "merged"
)

// rungsDir returns the folder of array step of the chain into results.
func rungsDir(results string, step int) string {
	return filepath.Join(results, RungsDir, strconv.Itoa(step))
}

// RungsArray returns the array script of a chain: submitted with `--array=1-N` and
// the arguments S N, task I runs `nagc run CONFIG --from RESULTS --shard I/N` into
// RESULTS/rungs/S/I-of-N: the grid runs of its shard and its share of every search's
// current rung that RESULTS lacks. A task stopped by its time limit or scancel keeps
// what it finished; the step job after the array (StepScript) merges it and submits
// the rest.
func (j *Job) RungsArray() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "# Written by `nagc slurm --rungs`: submitted by the step job as `sbatch --array=1-N %s S N`,\n", RungsScript)
	fmt.Fprintf(&b, "# task I runs share I of N of what %s lacks of\n# %s\n# into %s.\n", j.Results, j.Config, filepath.Join(j.Results, RungsDir, "S", "I-of-N"))
	j.header(&b, j.Name, "rungs-task-%a-job-%A.out")
	if j.CPUsPerTask > 0 {
		fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", j.CPUsPerTask)
	}
	b.WriteString(`
# SIGTERM (the time limit, scancel) reaches nagc too, which stops cleanly: the trap only
# keeps this script alive until nagc has exited.
trap 'echo "task ${SLURM_ARRAY_TASK_ID}: SIGTERM (time limit or scancel): waiting for nagc to stop" >&2' TERM
`)
	fmt.Fprintf(&b, "%s run %s --from %s --shard \"${SLURM_ARRAY_TASK_ID}/$2\" --results \"%s\" --workers \"${SLURM_CPUS_PER_TASK:-1}\"\n",
		j.Nagc, j.Config, j.Results, filepath.Join(j.Results, RungsDir, "$1", "${SLURM_ARRAY_TASK_ID}-of-$2"))
	b.WriteString(`code=$?
# 4: every run finished, some recorded as failed: they are results.
if [ "$code" -eq 4 ]; then exit 0; fi
# 3: stopped (time limit, scancel): the finished runs are recorded; the step job after
# this array submits the rest.
exit "$code"
`)
	return b.String()
}

// stepCommand returns the command of the step job of j's chain.
func (j *Job) stepCommand() string {
	return fmt.Sprintf("%s slurm %s --results %s --tasks %d --rungs --step", j.Nagc, j.Config, j.Results, j.Tasks)
}

// submitCommand returns the command that starts or resumes j's chain.
func (j *Job) submitCommand() string {
	return fmt.Sprintf("%s slurm %s --results %s --tasks %d --rungs --submit", j.Nagc, j.Config, j.Results, j.Tasks)
}

// StepJob returns the step job's script, which runs on one CPU after each array of the
// chain, whatever its tasks' end (MergeAfter), and once at its start: `nagc slurm
// --rungs --step` (Step).
func (j *Job) StepJob() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by `nagc slurm --rungs`: merges the last array of the chain of\n# %s\n# into %s, cuts the rungs it completes and submits the next array and step job,\n# or renders the report when the sweep is complete.\n", j.Config, j.Results)
	j.header(&b, j.Name+"-step", "step-job-%j.out")
	b.WriteString("#SBATCH --cpus-per-task=1\n\n")
	fmt.Fprintf(&b, "%s\n", j.stepCommand())
	return b.String()
}

// WriteRungs writes the chain's scripts into Results/slurm (creating it and its logs
// folder) and returns the step job's path.
func (j *Job) WriteRungs() (step string, err error) {
	if err := j.Check(); err != nil {
		return "", err
	}
	dir := filepath.Join(j.Results, Dir)
	if err := os.MkdirAll(filepath.Join(dir, LogsDir), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, RungsScript), []byte(j.RungsArray()), 0o755); err != nil {
		return "", err
	}
	step = filepath.Join(dir, StepScript)
	return step, os.WriteFile(step, []byte(j.StepJob()), 0o755)
}

// SubmitRungs submits the step job of j's chain (held with hold), which starts it: it
// refuses while a job of the chain is still queued or running, so that a chain stopped
// (a scancel, an array that recorded nothing) is resumed by submitting it again.
func (j *Job) SubmitRungs(ctx context.Context, step string, hold bool) (string, error) {
	if err := j.chainIdle(ctx); err != nil {
		return "", err
	}
	var opts []string
	if hold {
		opts = []string{"--hold"}
	}
	return j.Submit(ctx, "step", step, opts...)
}

// chainJob is a job of a chain that squeue lists: its kind ("rungs", "step"), id and
// its tasks' states (Queued).
type chainJob struct {
	kind, id string
	tasks    []string
}

// queuedJobs returns the jobs of j's chain still queued or running, oldest first of
// each kind.
func (j *Job) queuedJobs(ctx context.Context) ([]chainJob, error) {
	var out []chainJob
	for _, kind := range []string{"rungs", "step"} {
		ids, err := j.Jobs(kind)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			q, err := Queued(ctx, id)
			if err != nil {
				return nil, err
			}
			if len(q) > 0 {
				out = append(out, chainJob{kind, id, q})
			}
		}
	}
	return out, nil
}

// chainIdle returns an error naming a job of j's chain still queued.
func (j *Job) chainIdle(ctx context.Context) error {
	q, err := j.queuedJobs(ctx)
	if err != nil || len(q) == 0 {
		return err
	}
	return fmt.Errorf("job %s of this chain is still queued or running (%s): wait for it, or cancel it (scancel %s), then submit again", q[0].id, strings.Join(q[0].tasks, ", "), q[0].id)
}

// StepResult is what one step of a chain did.
type StepResult struct {
	// Merged lists the arrays merged into the results folder; Recorded counts the
	// records their tasks held.
	Merged   []int
	Recorded int
	// State is what the results folder lacks after the merge.
	State experiments.ChainState
	// Array is the number of the array submitted, Tasks its tasks, ArrayID and StepID
	// the job ids of it and of the step job after it ("" when the sweep is complete).
	Array, Tasks    int
	ArrayID, StepID string
}

// Step runs one step of j's chain for cfg, as the step job does: it merges the arrays
// of the chain not yet merged into j.Results (each task's folder, whatever the task
// recorded before it ended), cuts the rungs that are then complete and proposes what
// comes next (experiments.AdvanceChain), and, where runs or fits are left, submits the
// next array, of at most j.Tasks tasks (no more than the fits left), with a step job
// after it (MergeAfter). The sweep complete, it submits nothing. An array that recorded
// nothing ends the chain with an error saying how to resume it (its tasks all failed,
// were cancelled, or their time limit is shorter than one fit). self is the id of the
// step job running Step, "" outside one, where no job of the chain may be queued (in
// the step job, the array it waited for may still be listed as completing).
func Step(ctx context.Context, j *Job, cfg *experiments.Config, self string) (*StepResult, error) {
	out := &StepResult{}
	if self == "" {
		if err := j.chainIdle(ctx); err != nil {
			return out, err
		}
	}
	last, err := j.mergeArrays(out)
	if err != nil {
		return out, err
	}
	lock, err := results.LockAppend(j.Results)
	if err != nil {
		return out, err
	}
	out.State, err = experiments.AdvanceChain(ctx, cfg, j.Results)
	lock.Unlock()
	if err != nil || out.State.Complete() {
		return out, err
	}
	if len(out.Merged) > 0 && out.Recorded == 0 {
		return out, fmt.Errorf("array %d of the chain recorded nothing (its tasks failed, were cancelled, or their --time is shorter than one fit: see %s): the chain stops here; resume it with\n  %s",
			out.Merged[len(out.Merged)-1], filepath.Join(j.Results, Dir, LogsDir), j.submitCommand())
	}
	out.Array, out.Tasks = last+1, min(j.Tasks, out.State.Work())
	if err := os.MkdirAll(rungsDir(j.Results, out.Array), 0o755); err != nil {
		return out, err
	}
	dir := filepath.Join(j.Results, Dir)
	if out.ArrayID, err = j.submitScript(ctx, "rungs", filepath.Join(dir, RungsScript), []string{"--array=1-" + strconv.Itoa(out.Tasks)},
		strconv.Itoa(out.Array), strconv.Itoa(out.Tasks)); err != nil {
		return out, err
	}
	out.StepID, err = j.Submit(ctx, "step", filepath.Join(dir, StepScript), MergeAfter(out.ArrayID))
	return out, err
}

// mergeArrays merges the tasks' folders of every array of the chain not yet merged
// into j.Results, marking each array merged, and returns the highest array number.
func (j *Job) mergeArrays(out *StepResult) (last int, err error) {
	entries, err := os.ReadDir(filepath.Join(j.Results, RungsDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, err
	}
	var arrays []int
	for _, e := range entries {
		if n, err := strconv.Atoi(e.Name()); err == nil && e.IsDir() && n > 0 {
			arrays = append(arrays, n)
		}
	}
	slices.Sort(arrays)
	for _, a := range arrays {
		last = a
		dir := rungsDir(j.Results, a)
		if _, err := os.Stat(filepath.Join(dir, mergedMark)); err == nil {
			continue
		}
		tasks, err := filepath.Glob(filepath.Join(dir, "*-of-*", results.RunsFile))
		if err != nil {
			return 0, err
		}
		var srcs []string
		for _, runs := range tasks {
			recs, _, err := results.ReadRecords(runs)
			if err != nil {
				return 0, err
			}
			out.Recorded += len(recs)
			srcs = append(srcs, filepath.Dir(runs))
		}
		if len(srcs) > 0 {
			if _, err := results.Merge(j.Results, srcs); err != nil {
				return 0, err
			}
		}
		if err := os.WriteFile(filepath.Join(dir, mergedMark), nil, 0o644); err != nil {
			return 0, err
		}
		out.Merged = append(out.Merged, a)
	}
	return last, nil
}

// ChainDirs returns the tasks' folders of the chain's arrays not yet merged into the
// results folder dir (those a running array records into), for nagc status.
func ChainDirs(dir string) []string {
	tasks, _ := filepath.Glob(filepath.Join(dir, RungsDir, "*", "*-of-*"))
	var out []string
	for _, t := range tasks {
		if _, err := os.Stat(filepath.Join(filepath.Dir(t), mergedMark)); err != nil {
			out = append(out, t)
		}
	}
	return out
}

// ChainSubmitted reports whether the results folder results holds the scripts of a
// chain (WriteRungs).
func ChainSubmitted(results string) bool {
	_, err := os.Stat(filepath.Join(results, Dir, StepScript))
	return err == nil
}

// WriteChainJobs writes, for nagc status, the jobs of j's chain still queued or
// running, each with its tasks' states, or, when none is and the sweep is not
// complete, the command that resumes the chain. Off the cluster (no squeue) it says
// that it cannot tell.
func (j *Job) WriteChainJobs(ctx context.Context, w io.Writer, complete bool) error {
	if _, err := exec.LookPath("squeue"); err != nil {
		if complete {
			return nil
		}
		_, err := fmt.Fprintf(w, "squeue is not on PATH: the chain's jobs are not shown (if none is queued, resume it with %s)\n", j.submitCommand())
		return err
	}
	queued, err := j.queuedJobs(ctx)
	if err != nil {
		return err
	}
	for _, q := range queued {
		what := "array"
		if q.kind == "step" {
			what = "step job"
		}
		fmt.Fprintf(w, "%s %s: %s\n", what, q.id, strings.Join(q.tasks, ", "))
	}
	if len(queued) == 0 && !complete {
		_, err := fmt.Fprintf(w, "no job of the chain is queued: resume it with\n  %s\n", j.submitCommand())
		return err
	}
	return nil
}

// ChainTasks returns the --tasks of the chain whose scripts the results folder results
// holds (as its step job passes them), 0 when it holds none.
func ChainTasks(results string) int {
	b, err := os.ReadFile(filepath.Join(results, Dir, StepScript))
	if err != nil {
		return 0
	}
	_, after, ok := strings.Cut(string(b), " --tasks ")
	if !ok {
		return 0
	}
	n, _ := strconv.Atoi(strings.Fields(after)[0])
	return n
}

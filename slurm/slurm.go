// Package slurm writes the Slurm batch scripts that run a nagc sweep as a job array, one
// shard per task, followed by a job that merges the shards and renders the report, and
// submits them with sbatch.
package slurm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nagc-harness/nagc/results"
)

// Files that Job.Write puts in a results folder's Dir.
const (
	// Dir is the folder of a results folder holding the scripts, the job log and the
	// tasks' output.
	Dir = "slurm"
	// ArrayScript runs one shard per array task.
	ArrayScript = "array.sh"
	// MergeScript merges the shards into the results folder and renders the report.
	MergeScript = "merge.sh"
	// JobsFile lists every submission: one line "time kind job-id [array]" each.
	JobsFile = "jobs.txt"
	// LogsDir receives the standard output and error of every task.
	LogsDir = "logs"
)

// Job describes a sweep to run as a Slurm job array.
type Job struct {
	// Name names the jobs in the queue (the merge job gets a "-merge" suffix).
	Name string
	// Nagc, Config and Results are the absolute paths of the nagc program the tasks run,
	// of the experiment config and of the results folder. Config may instead be the name
	// of a config shipped inside nagc ("quick", "paper"; no path separator).
	Nagc, Config, Results string
	// Tasks is the number of array tasks, hence of shards.
	Tasks int
	// CPUsPerTask is the CPUs (and nagc workers) of each task; 0 leaves Slurm's default.
	CPUsPerTask int
	// Time, Mem, Partition and Account are passed to sbatch as --time, --mem,
	// --partition and --account when set.
	Time, Mem, Partition, Account string
}

// Check returns an error in the user's words when the job cannot be written.
func (j *Job) Check() error {
	if j.Tasks < 1 {
		return fmt.Errorf("--tasks %d: want at least 1", j.Tasks)
	}
	if j.CPUsPerTask < 0 {
		return fmt.Errorf("--cpus-per-task %d: want at least 1", j.CPUsPerTask)
	}
	for _, p := range []struct{ what, path string }{{"nagc program", j.Nagc}, {"config", j.Config}, {"results folder", j.Results}} {
		if p.what == "config" && p.path != "" && !strings.ContainsAny(p.path, `/\`) && !strings.ContainsAny(p.path, " \t\n'\"$`%") {
			continue // a shipped config, by name
		}
		if !filepath.IsAbs(p.path) {
			return fmt.Errorf("the %s path %q must be absolute", p.what, p.path)
		}
		if strings.ContainsAny(p.path, " \t\n'\"$`\\%") {
			return fmt.Errorf("the %s path %q holds a space, quote, $, `, \\ or %%, which batch scripts cannot carry safely: use a path without them", p.what, p.path)
		}
	}
	for _, o := range []struct{ flag, v string }{{"time", j.Time}, {"mem", j.Mem}, {"partition", j.Partition}, {"account", j.Account}, {"job-name", j.Name}} {
		if strings.ContainsAny(o.v, " \t\n'\"$`\\") {
			return fmt.Errorf("--%s %q: no spaces, quotes, $, ` or \\ please", o.flag, o.v)
		}
	}
	return nil
}

// TaskResults returns the results folder of array task task (1-based): the shard folder
// results.ShardDir names.
func (j *Job) TaskResults(task string) string {
	return filepath.Join(j.Results, results.ShardsDir, task+"-of-"+strconv.Itoa(j.Tasks))
}

// header writes the #SBATCH lines common to both scripts.
func (j *Job) header(b *bytes.Buffer, name, output string) {
	fmt.Fprintf(b, "#SBATCH --job-name=%s\n", name)
	fmt.Fprintf(b, "#SBATCH --output=%s\n", filepath.Join(j.Results, Dir, LogsDir, output))
	for _, o := range []struct{ flag, v string }{{"time", j.Time}, {"mem", j.Mem}, {"partition", j.Partition}, {"account", j.Account}} {
		if o.v != "" {
			fmt.Fprintf(b, "#SBATCH --%s=%s\n", o.flag, o.v)
		}
	}
}

// MergeAfter returns the sbatch option that starts a merge job once every task of the
// job array id has ended, however it ended (afterany): a task stopped by its time limit
// or by scancel never satisfies afterok, which would leave the merge job waiting forever.
// The merge script itself refuses an incomplete sweep and says what finishes it.
func MergeAfter(id string) string { return "--dependency=afterany:" + id }

// resubmitCommand returns the command that completes the sweep of j (Resubmit).
func (j *Job) resubmitCommand() string {
	return fmt.Sprintf("%s slurm %s --results %s --tasks %d --resubmit", j.Nagc, j.Config, j.Results, j.Tasks)
}

// Array returns the job-array script: task I of 1…Tasks runs
// `nagc run CONFIG --shard I/Tasks` into TaskResults(I). At a time limit (or on scancel)
// Slurm sends SIGTERM to nagc and to the script: nagc stops handing out runs, records
// those that finished and exits 3 (the rest resumable); the script's trap keeps it alive
// until then, to say in the task's log how to finish the sweep. A task whose runs all
// finished but some failed exits 0 (failed runs are recorded results).
func (j *Job) Array() string {
	var b bytes.Buffer
	n := strconv.Itoa(j.Tasks)
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "# Written by `nagc slurm`: task I of this array runs shard I/%s of\n# %s\n# into %s.\n", n, j.Config, j.TaskResults("I"))
	fmt.Fprintf(&b, "# Submit: sbatch %s (then the merge job with --dependency=afterany:JOBID).\n", filepath.Join(j.Results, Dir, ArrayScript))
	j.header(&b, j.Name, "task-%a-of-"+n+"-job-%A.out")
	fmt.Fprintf(&b, "#SBATCH --array=1-%s\n", n)
	if j.CPUsPerTask > 0 {
		fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", j.CPUsPerTask)
	}
	b.WriteString(`
# SIGTERM (the time limit, scancel) reaches nagc too, which stops cleanly: the trap only
# keeps this script alive until nagc has exited, to report it.
trap 'echo "task ${SLURM_ARRAY_TASK_ID}: SIGTERM (time limit or scancel): waiting for nagc to stop" >&2' TERM
`)
	fmt.Fprintf(&b, "%s run %s --shard \"${SLURM_ARRAY_TASK_ID}/%s\" --results \"%s\" --workers \"${SLURM_CPUS_PER_TASK:-1}\"\n",
		j.Nagc, j.Config, n, j.TaskResults("${SLURM_ARRAY_TASK_ID}"))
	b.WriteString(`code=$?
# 4: every run finished, some recorded as failed: they are results, the merge goes on.
if [ "$code" -eq 4 ]; then exit 0; fi
# 3: stopped (time limit, scancel): the finished runs are recorded, the rest resumable.
if [ "$code" -eq 3 ]; then
`)
	fmt.Fprintf(&b, "\techo \"task ${SLURM_ARRAY_TASK_ID}: stopped; its finished runs are recorded. Finish the sweep with:\" >&2\n\techo \"  %s\" >&2\nfi\n", j.resubmitCommand())
	b.WriteString("exit \"$code\"\n")
	return b.String()
}

// Merge returns the merge job's script, which runs after every task has ended however
// it ended (MergeAfter): it merges the shards into Results and renders the report into
// Results/report, or, when a shard is unfinished (a task stopped by its time limit,
// scancel or a node failure), merges nothing, says which runs are missing and the
// command that finishes the sweep, and fails.
func (j *Job) Merge() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by `nagc slurm`: merges the %d shards of\n# %s\n# into %s and renders the report.\n", j.Tasks, j.Config, j.Results)
	j.header(&b, j.Name+"-merge", "merge-job-%j.out")
	b.WriteString("#SBATCH --cpus-per-task=1\n\n")
	b.WriteString("# nagc merge refuses an incomplete set of shards, saying which runs are missing.\n")
	fmt.Fprintf(&b, "if ! %s merge --out %s --config %s", j.Nagc, j.Results, j.Config)
	for i := 1; i <= j.Tasks; i++ {
		fmt.Fprintf(&b, " \\\n\t%s", j.TaskResults(strconv.Itoa(i)))
	}
	fmt.Fprintf(&b, "; then\n\techo \"not merged. Finish the sweep (the unfinished tasks, then a new merge job) with:\" >&2\n\techo \"  %s\" >&2\n\texit 1\nfi\n", j.resubmitCommand())
	fmt.Fprintf(&b, "%s report %s\n", j.Nagc, j.Results)
	return b.String()
}

// Write writes both scripts into Results/slurm (creating it and its logs folder) and
// returns their paths.
func (j *Job) Write() (array, merge string, err error) {
	if err := j.Check(); err != nil {
		return "", "", err
	}
	dir := filepath.Join(j.Results, Dir)
	if err := os.MkdirAll(filepath.Join(dir, LogsDir), 0o755); err != nil {
		return "", "", err
	}
	array, merge = filepath.Join(dir, ArrayScript), filepath.Join(dir, MergeScript)
	if err := os.WriteFile(array, []byte(j.Array()), 0o755); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(merge, []byte(j.Merge()), 0o755); err != nil {
		return "", "", err
	}
	return array, merge, nil
}

// Submit submits script with sbatch and the extra sbatch options opts, and returns the
// job id. It records the submission in the results folder's JobsFile under kind.
func (j *Job) Submit(ctx context.Context, kind, script string, opts ...string) (string, error) {
	return j.submitScript(ctx, kind, script, opts)
}

// submitScript is Submit with the arguments scriptArgs given to the script.
func (j *Job) submitScript(ctx context.Context, kind, script string, opts []string, scriptArgs ...string) (string, error) {
	sbatch, err := exec.LookPath("sbatch")
	if err != nil {
		return "", fmt.Errorf("sbatch is not on PATH (is this a Slurm login node?); the scripts are in %s", filepath.Dir(script))
	}
	args := append(append(append([]string{"--parsable"}, opts...), script), scriptArgs...)
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, sbatch, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("sbatch %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";") // "id;cluster" on federations
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch %s printed %q, not a job id", strings.Join(args, " "), out)
	}
	line := fmt.Sprintf("%s %s %s %s\n", time.Now().UTC().Format(time.RFC3339), kind, id, strings.Join(opts, " "))
	f, err := os.OpenFile(filepath.Join(j.Results, Dir, JobsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return id, err
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return id, err
	}
	return id, f.Close()
}

// Cancel cancels the job id with scancel (a job already finished is not an error).
func Cancel(ctx context.Context, id string) error {
	scancel, err := exec.LookPath("scancel")
	if err != nil {
		return fmt.Errorf("scancel is not on PATH (is this a Slurm login node?)")
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, scancel, id).CombinedOutput(); err != nil {
		return fmt.Errorf("scancel %s: %v: %s", id, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Tasks formats task numbers as an sbatch --array list ("2,3").
func Tasks(tasks []int) string {
	s := make([]string, len(tasks))
	for i, t := range tasks {
		s[i] = strconv.Itoa(t)
	}
	return strings.Join(s, ",")
}

// Queued returns the jobs (as "id_task" for array tasks) of job id still pending or
// running, as squeue lists them; a job Slurm has forgotten gives none.
func Queued(ctx context.Context, id string) ([]string, error) {
	squeue, err := exec.LookPath("squeue")
	if err != nil {
		return nil, fmt.Errorf("squeue is not on PATH (is this a Slurm login node?)")
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, squeue, "--noheader", "--array", "--jobs", id, "--format", "%i %T")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if strings.Contains(stderr.String(), "Invalid job id") {
			return nil, nil
		}
		return nil, fmt.Errorf("squeue --jobs %s: %v: %s", id, err, strings.TrimSpace(stderr.String()))
	}
	var jobs []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			jobs = append(jobs, f[0]+" ("+strings.ToLower(f[1])+")")
		}
	}
	return jobs, nil
}

// Jobs returns the ids of every job of kind recorded in the results folder's JobsFile,
// oldest first.
func (j *Job) Jobs(kind string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(j.Results, Dir, JobsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[1] == kind {
			ids = append(ids, f[2])
		}
	}
	return ids, nil
}

// Submitted reports whether the results folder results holds the scripts of a
// submission (Job.Write's ArrayScript), which Resubmit completes.
func Submitted(results string) bool {
	_, err := os.Stat(filepath.Join(results, Dir, ArrayScript))
	return err == nil
}

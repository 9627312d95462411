package slurm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// chainConfig has a grid row and a search with halving (rungs at 3, 9 and 27
// iterations, two batches).
const chainConfig = `name: chain
seed: 5
restarts: 2
iterations: 27
metrics: [ari, modularity]
datasets: [synthetic]
search: {sampler: tpe, trials: 6, batch: 3, rule: modularity, prune: halving, min_iterations: 3, eta: 3, first_restarts: 1}
methods:
  - name: G
    algorithm: nagc
    grid:
      lambda: [1.0e-2, 1]
      rho: [0.5, 0.95]
  - name: S
    algorithm: nagc
    space:
      lambda: {log: [1.0e-4, 10]}
      rho: [0.5, 0.95]
`

// latestRecords returns the latest records of dir as the JSON-free text of what a sweep
// must reproduce (no times, no host), sorted.
func latestRecords(t *testing.T, dir string) []string {
	t.Helper()
	recs, torn, err := results.ReadRecords(filepath.Join(dir, results.RunsFile))
	if err != nil || torn {
		t.Fatalf("%s: %v (torn %v)", dir, err, torn)
	}
	var out []string
	for _, r := range results.Latest(recs) {
		out = append(out, fmt.Sprint(r.RunID, r.Params, r.Seed, r.Restart, r.Status, r.Metrics, r.Iterations, r.IterationsRun, r.Objective, r.Labels, r.Search, r.Plan))
	}
	sort.Strings(out)
	return out
}

// Step, as the step jobs of a chain run it on a (fake) cluster whose arrays are played
// by ExecuteShare: each step submits the next array (--array=1-N, no more tasks than
// fits left, with its number and task count as the script's arguments) and a step job
// after it (afterany); the merged records equal one machine's, with an array whose
// task 2 was cancelled before it started (its share submitted again by the next
// step); an array that records nothing stops the chain, saying how to resume it; and a
// chain job still queued refuses a new step.
func TestStepChain(t *testing.T) {
	dir := t.TempDir()
	fakeSlurm(t, dir)
	job, cfg := writtenJob(t, dir, "chain", chainConfig, 3)
	if _, err := job.WriteRungs(); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(dir, "one")
	if _, err := experiments.Execute(context.Background(), cfg, experiments.Options{ResultsDir: one, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var arrays []int
	for i := 0; ; i++ {
		if i > 30 {
			t.Fatal("the chain does not end")
		}
		r, err := Step(ctx, job, cfg, "")
		if err != nil {
			t.Fatal(err)
		}
		if r.State.Complete() {
			break
		}
		if r.Tasks < 1 || r.Tasks > 3 || r.Tasks > r.State.Work() {
			t.Fatalf("array %d of %d tasks for %+v", r.Array, r.Tasks, r.State)
		}
		calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
		for _, want := range []string{
			fmt.Sprintf("sbatch --parsable --array=1-%d %s %d %d\n", r.Tasks, filepath.Join(job.Results, Dir, RungsScript), r.Array, r.Tasks),
			fmt.Sprintf("sbatch --parsable --dependency=afterany:%s %s\n", r.ArrayID, filepath.Join(job.Results, Dir, StepScript)),
		} {
			if !strings.Contains(string(calls), want) {
				t.Fatalf("no call %q among\n%s", want, calls)
			}
		}
		arrays = append(arrays, r.Tasks)
		for task := 1; task <= r.Tasks; task++ {
			if r.Array == 1 && task == 2 && r.Tasks > 2 {
				continue // cancelled before it started
			}
			opt := experiments.Options{ResultsDir: filepath.Join(job.Results, RungsDir, fmt.Sprint(r.Array), fmt.Sprintf("%d-of-%d", task, r.Tasks)),
				Workers: 1, Shard: task - 1, Shards: r.Tasks}
			if _, err := experiments.ExecuteShare(ctx, cfg, opt, job.Results); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got, want := latestRecords(t, job.Results), latestRecords(t, one); !reflect.DeepEqual(got, want) {
		t.Fatalf("the chain's %d records differ from one machine's %d", len(got), len(want))
	}
	if len(arrays) < 4 || arrays[0] != 3 {
		t.Errorf("arrays of %v tasks: want a chain of arrays, the first of 3", arrays)
	}
	if st := ChainDirs(job.Results); len(st) != 0 {
		t.Errorf("tasks' folders left unmerged: %v", st)
	}

	// An array that recorded nothing (its tasks' folders empty) ends the chain.
	dir2 := t.TempDir()
	job2, _ := writtenJob(t, dir2, "chain", chainConfig, 2)
	job2.WriteRungs()
	if _, err := Step(ctx, job2, cfg, ""); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(job2.Results, RungsDir, "1", "1-of-2"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(job2.Results, RungsDir, "1", "1-of-2", results.RunsFile), nil, 0o644)
	r, err := Step(ctx, job2, cfg, "")
	if err == nil || !strings.Contains(err.Error(), "array 1 of the chain recorded nothing") || !strings.Contains(err.Error(), "--rungs --submit") || r.ArrayID != "" {
		t.Errorf("a step after an array that recorded nothing: %v, submitted %q", err, r.ArrayID)
	}
	// A job of the chain still queued: another step or submission is refused.
	os.WriteFile(filepath.Join(dir, "queued"), []byte("100"), 0o644)
	if _, err := Step(ctx, job, cfg, ""); err == nil || !strings.Contains(err.Error(), "job 100 of this chain is still queued") {
		t.Errorf("a step with job 100 queued: %v", err)
	}
	if _, err := Step(ctx, job, cfg, "100"); err != nil {
		t.Errorf("the step job 100 itself: %v", err)
	}
	// nagc status lists the chain's queued jobs, or says how to resume it.
	var w strings.Builder
	if err := job.WriteChainJobs(ctx, &w, false); err != nil || !strings.Contains(w.String(), "array 100: 100 (pending)\n") || strings.Contains(w.String(), "resume") {
		t.Errorf("chain jobs with array 100 queued: %v\n%s", err, w.String())
	}
	os.WriteFile(filepath.Join(dir, "queued"), nil, 0o644)
	w.Reset()
	if err := job.WriteChainJobs(ctx, &w, false); err != nil || !strings.Contains(w.String(), "resume it with\n  /bin/true slurm "+job.Config+" --results "+job.Results+" --tasks 3 --rungs --submit\n") {
		t.Errorf("chain jobs with none queued: %v\n%s", err, w.String())
	}
}

// The chain's scripts: the array runs `nagc run --from RESULTS --shard I/N` into
// RESULTS/rungs/S/I-of-N from its arguments S N, the step job runs `nagc slurm --rungs
// --step` on one CPU; ChainTasks reads the task count back.
func TestRungsScripts(t *testing.T) {
	j := &Job{Name: "nagc-x", Nagc: "/opt/nagc", Config: "/c/x.yaml", Results: "/r/x", Tasks: 4, CPUsPerTask: 2, Time: "1:00:00"}
	array := j.RungsArray()
	for _, want := range []string{
		`/opt/nagc run /c/x.yaml --from /r/x --shard "${SLURM_ARRAY_TASK_ID}/$2" --results "/r/x/rungs/$1/${SLURM_ARRAY_TASK_ID}-of-$2"`,
		"#SBATCH --cpus-per-task=2\n", "#SBATCH --time=1:00:00\n", "#SBATCH --output=/r/x/slurm/logs/rungs-task-%a-job-%A.out\n",
	} {
		if !strings.Contains(array, want) {
			t.Errorf("array script lacks %q:\n%s", want, array)
		}
	}
	step := j.StepJob()
	for _, want := range []string{"/opt/nagc slurm /c/x.yaml --results /r/x --tasks 4 --rungs --step\n", "#SBATCH --cpus-per-task=1\n", "#SBATCH --job-name=nagc-x-step\n"} {
		if !strings.Contains(step, want) {
			t.Errorf("step script lacks %q:\n%s", want, step)
		}
	}
	dir := t.TempDir()
	j.Results = dir
	if _, err := j.WriteRungs(); err != nil {
		t.Fatal(err)
	}
	if !ChainSubmitted(dir) || ChainTasks(dir) != 4 {
		t.Errorf("ChainSubmitted %v, ChainTasks %d: want true, 4", ChainSubmitted(dir), ChainTasks(dir))
	}
}

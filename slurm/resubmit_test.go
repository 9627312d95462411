package slurm

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// fakeSlurm puts sbatch, squeue and scancel scripts on PATH that log their arguments to
// dir/calls, sbatch answering job ids 100, 101, …, squeue listing the jobs named in
// dir/queued and scancel removing nothing.
func fakeSlurm(t *testing.T, dir string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts stand for sbatch, squeue and scancel")
	}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	scripts := map[string]string{
		"sbatch":  `n=$(cat "$D/next" 2>/dev/null || echo 100); echo $((n+1)) > "$D/next"; echo "sbatch $*" >> "$D/calls"; echo "$n"`,
		"squeue":  `echo "squeue $*" >> "$D/calls"; for id in $(cat "$D/queued" 2>/dev/null); do case " $* " in *" $id "*) echo "$id PENDING";; esac; done`,
		"scancel": `echo "scancel $*" >> "$D/calls"`,
	}
	for name, body := range scripts {
		s := "#!/bin/sh\nD=" + dir + "\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// Resubmit submits only the unfinished shards' tasks and a merge job after them,
// cancelling the merge job of the first submission still waiting.
func TestResubmit(t *testing.T) {
	dir := t.TempDir()
	fakeSlurm(t, dir)
	job, cfg := writtenJob(t, dir, "tiny", "name: tiny\nseed: 1\nrestarts: 2\ndatasets: [synthetic]\nmethods:\n  - {name: k-means, algorithm: kmeans}\n  - {name: SNMF, algorithm: snmf}\n", 2)
	res := job.Results
	// The first submission: array 100, merge 101, still queued.
	if _, err := job.Submit(context.Background(), "array", filepath.Join(res, Dir, ArrayScript)); err != nil {
		t.Fatal(err)
	}
	if _, err := job.Submit(context.Background(), "merge", filepath.Join(res, Dir, MergeScript)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "queued"), []byte("101"), 0o644)
	// Shard 1 finished, shard 2 never started.
	if _, err := experiments.Execute(context.Background(), cfg, experiments.Options{ResultsDir: results.ShardDir(res, 1, 2), Shard: 0, Shards: 2, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	r, err := Resubmit(context.Background(), job, cfg, []string{"--time=2:00:00", "--cpus-per-task=4"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.CancelledMerges, ",") != "101" || r.Tasks != "2" || r.Array != "102" || r.Merge != "103" || r.Expected != 4 || r.Missing == 0 {
		t.Errorf("resubmission %+v: want merge 101 cancelled, task 2 as job 102, merge 103, 4 runs expected, some missing", r)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "calls"))
	calls := string(b)
	for _, want := range []string{
		"scancel 101",
		"sbatch --parsable --time=2:00:00 --cpus-per-task=4 --array=2 " + filepath.Join(res, Dir, ArrayScript),
		"sbatch --parsable --time=2:00:00 --dependency=afterany:102 " + filepath.Join(res, Dir, MergeScript),
	} {
		if !strings.Contains(calls, want) {
			t.Errorf("no call %q among\n%s", want, calls)
		}
	}

	// A task of the new array still queued: refused.
	os.WriteFile(filepath.Join(dir, "queued"), []byte("102"), 0o644)
	if _, err := Resubmit(context.Background(), job, cfg, nil); err == nil || !strings.Contains(err.Error(), "job 102 still has tasks in the queue") {
		t.Errorf("with a task queued: %v", err)
	}
	// Shards of another task count: refused.
	os.WriteFile(filepath.Join(dir, "queued"), nil, 0o644)
	other := *job
	other.Tasks = 3
	if _, err := Resubmit(context.Background(), &other, cfg, nil); err == nil || !strings.Contains(err.Error(), "not 3") {
		t.Errorf("with --tasks 3 over shards of 2: %v", err)
	}
}

// A one-task array stopped part-way (its shard shards/1-of-1 holds some runs, the results
// folder none) is resubmitted, never reported as recorded and merged; once its shard is
// finished, only a merge job is submitted; once merged, nothing.
func TestResubmitOneTask(t *testing.T) {
	dir := t.TempDir()
	fakeSlurm(t, dir)
	config := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(config, []byte("name: tiny\nseed: 1\nrestarts: 4\ndatasets: [synthetic]\nmethods:\n  - {name: k-means, algorithm: kmeans}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := experiments.LoadConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "results")
	job := &Job{Name: "nagc-tiny", Nagc: "/bin/true", Config: config, Results: res, Tasks: 1}
	if _, _, err := job.Write(); err != nil {
		t.Fatal(err)
	}
	shard := results.ShardDir(res, 1, 1)
	run := func(limit int) {
		t.Helper()
		if _, err := experiments.Execute(context.Background(), cfg, experiments.Options{ResultsDir: shard, Shards: 1, Workers: 1, Limit: limit}); err != nil {
			t.Fatal(err)
		}
	}
	run(3)
	r, err := Resubmit(context.Background(), job, cfg, nil)
	if err != nil || r.Tasks != "1" || r.Done != 3 || r.Missing != 1 || r.Merge == "" {
		t.Fatalf("3 of 4 runs in the shard: %+v, %v; want task 1 resubmitted, 3 done, 1 missing, a merge job", r, err)
	}
	run(0)
	if r, err = Resubmit(context.Background(), job, cfg, nil); err != nil || r.Tasks != "" || r.Merge == "" || r.Done != 4 || r.Merged != 0 {
		t.Fatalf("shard finished, not merged: %+v, %v; want only a merge job", r, err)
	}
	if _, err := results.Merge(res, []string{shard}); err != nil {
		t.Fatal(err)
	}
	if r, err = Resubmit(context.Background(), job, cfg, nil); err != nil || r.Tasks != "" || r.Merge != "" || r.Merged != 4 {
		t.Fatalf("merged: %+v, %v; want nothing submitted, 4 merged", r, err)
	}
}

// A search's runs are planned as it goes, so its shard stopped inside it (every planned
// run recorded) is resubmitted all the same; finished, it gets a merge job only.
func TestResubmitSearch(t *testing.T) {
	dir := t.TempDir()
	fakeSlurm(t, dir)
	job, cfg := writtenJob(t, dir, "s", "name: s\nseed: 2\nrestarts: 2\niterations: 27\ndatasets: [synthetic]\n"+
		"search: {sampler: random, trials: 6, batch: 3, rule: modularity, prune: halving, min_iterations: 3, first_restarts: 1}\n"+
		"methods:\n  - name: S\n    algorithm: nagc\n    space: {lambda: {log: [1.0e-4, 10]}}\n", 2)
	res := job.Results
	execute := func(limit int) string {
		held := ""
		for i := range 2 {
			d := results.ShardDir(res, i+1, 2)
			if _, err := experiments.Execute(context.Background(), cfg, experiments.Options{ResultsDir: d, Shard: i, Shards: 2, Workers: 1, Limit: limit}); err != nil {
				t.Fatal(err)
			}
			if recs, _, _ := results.ReadRecords(filepath.Join(d, results.RunsFile)); len(recs) > 0 {
				held = strconv.Itoa(i + 1)
			}
		}
		return held
	}
	task := execute(4)
	r, err := Resubmit(context.Background(), job, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Searches != 1 || r.Tasks != task || r.Array == "" || r.Merge == "" {
		t.Errorf("search stopped in shard %s: resubmission %+v; want that task and a merge job", task, r)
	}
	execute(0)
	r, err = Resubmit(context.Background(), job, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Searches != 0 || r.Tasks != "" || r.Merge == "" {
		t.Errorf("search finished, not merged: resubmission %+v; want a merge job only", r)
	}
}

// writtenJob writes config text cfgText to dir/NAME.yaml and the scripts of a job of
// tasks tasks recording into dir/results, and returns the job and the loaded config.
func writtenJob(t *testing.T, dir, name, cfgText string, tasks int) (*Job, *experiments.Config) {
	t.Helper()
	config := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(config, []byte(cfgText), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := experiments.LoadConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	job := &Job{Name: "nagc-" + name, Nagc: "/bin/true", Config: config, Results: filepath.Join(dir, "results"), Tasks: tasks, CPUsPerTask: 1}
	if _, _, err := job.Write(); err != nil {
		t.Fatal(err)
	}
	return job, cfg
}

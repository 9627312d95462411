package slurm

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

func testJob() *Job {
	return &Job{Name: "nagc-quick", Nagc: "/opt/bin/nagc", Config: "/home/me/quick.yaml", Results: "/scratch/me/quick", Tasks: 3, CPUsPerTask: 2}
}

func TestTaskResultsIsShardDir(t *testing.T) {
	j := testJob()
	for i := 1; i <= j.Tasks; i++ {
		if got, want := j.TaskResults(fmt.Sprint(i)), results.ShardDir(j.Results, i, j.Tasks); got != want {
			t.Errorf("task %d records into %s, but nagc status looks in %s", i, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		edit func(*Job)
		err  string
	}{
		{func(j *Job) {}, ""},
		{func(j *Job) { j.Tasks = 0 }, "--tasks 0"},
		{func(j *Job) { j.CPUsPerTask = -1 }, "--cpus-per-task"},
		{func(j *Job) { j.Config = "configs/quick.yaml" }, "must be absolute"},
		{func(j *Job) { j.Config = "quick" }, ""}, // a shipped config, by name
		{func(j *Job) { j.Results = "/scratch/my results" }, "holds a space"},
		{func(j *Job) { j.Results = "/scratch/100%" }, "holds a space"},
		{func(j *Job) { j.Time = "1:00:00; rm" }, "--time"},
	} {
		j := testJob()
		tc.edit(j)
		err := j.Check()
		if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%+v: %v, want an error saying %q", j, err, tc.err)
		}
	}
}

func TestScripts(t *testing.T) {
	j := testJob()
	j.Time, j.Partition = "2:00:00", "short"
	a := j.Array()
	for _, want := range []string{
		"#!/bin/bash\n",
		"#SBATCH --array=1-3\n",
		"#SBATCH --cpus-per-task=2\n",
		"#SBATCH --time=2:00:00\n",
		"#SBATCH --partition=short\n",
		"#SBATCH --output=/scratch/me/quick/slurm/logs/task-%a-of-3-job-%A.out\n",
		`/opt/bin/nagc run /home/me/quick.yaml --shard "${SLURM_ARRAY_TASK_ID}/3" --results "/scratch/me/quick/shards/${SLURM_ARRAY_TASK_ID}-of-3" --workers "${SLURM_CPUS_PER_TASK:-1}"`,
		`if [ "$code" -eq 4 ]; then exit 0; fi`,
	} {
		if !strings.Contains(a, want) {
			t.Errorf("array script lacks %q:\n%s", want, a)
		}
	}
	for _, absent := range []string{"--mem", "--account"} {
		if strings.Contains(a, absent) {
			t.Errorf("array script has %s, which was not asked for", absent)
		}
	}
	// #SBATCH lines count only before the first command.
	body := a[strings.Index(a, "\ntrap "):]
	if strings.Contains(body, "#SBATCH") {
		t.Error("an #SBATCH line after the first command is ignored by sbatch")
	}
	m := j.Merge()
	for _, want := range []string{
		"#SBATCH --job-name=nagc-quick-merge\n",
		"/opt/bin/nagc merge --out /scratch/me/quick --config /home/me/quick.yaml",
		"/scratch/me/quick/shards/1-of-3", "/scratch/me/quick/shards/3-of-3",
		"/opt/bin/nagc report /scratch/me/quick\n",
		"/opt/bin/nagc slurm /home/me/quick.yaml --results /scratch/me/quick --tasks 3 --resubmit",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("merge script lacks %q:\n%s", want, m)
		}
	}
}

func TestWriteAndJobs(t *testing.T) {
	j := testJob()
	j.Results = t.TempDir()
	array, merge, err := j.Write()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{array, merge, filepath.Join(j.Results, Dir, LogsDir)} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	if ids, err := j.Jobs("array"); err != nil || ids != nil {
		t.Errorf("no submission yet: %v %v", ids, err)
	}
	log := "2026-01-01T00:00:00Z array 7 \n2026-01-01T00:00:00Z merge 8 --dependency=afterok:7\n2026-01-01T00:01:00Z array 9 --array=2\n"
	if err := os.WriteFile(filepath.Join(j.Results, Dir, JobsFile), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	if ids, _ := j.Jobs("array"); strings.Join(ids, ",") != "7,9" {
		t.Errorf("array jobs %v, want 7, 9", ids)
	}
	if got := Tasks([]int{2, 3}); got != "2,3" {
		t.Errorf("Tasks: %q", got)
	}
}

// The script of task I runs shard I/N of the config into the shard's own folder.
func ExampleJob_Array() {
	j := &Job{Name: "nagc-quick", Nagc: "/opt/bin/nagc", Config: "/home/me/quick.yaml", Results: "/scratch/me/quick", Tasks: 3, CPUsPerTask: 2, Time: "1:00:00"}
	fmt.Print(j.Array())
	// Output:
	// #!/bin/bash
	// # Written by `nagc slurm`: task I of this array runs shard I/3 of
	// # /home/me/quick.yaml
	// # into /scratch/me/quick/shards/I-of-3.
	// # Submit: sbatch /scratch/me/quick/slurm/array.sh (then the merge job with --dependency=afterany:JOBID).
	// #SBATCH --job-name=nagc-quick
	// #SBATCH --output=/scratch/me/quick/slurm/logs/task-%a-of-3-job-%A.out
	// #SBATCH --time=1:00:00
	// #SBATCH --array=1-3
	// #SBATCH --cpus-per-task=2
	//
	// # SIGTERM (the time limit, scancel) reaches nagc too, which stops cleanly: the trap only
	// # keeps this script alive until nagc has exited, to report it.
	// trap 'echo "task ${SLURM_ARRAY_TASK_ID}: SIGTERM (time limit or scancel): waiting for nagc to stop" >&2' TERM
	// /opt/bin/nagc run /home/me/quick.yaml --shard "${SLURM_ARRAY_TASK_ID}/3" --results "/scratch/me/quick/shards/${SLURM_ARRAY_TASK_ID}-of-3" --workers "${SLURM_CPUS_PER_TASK:-1}"
	// code=$?
	// # 4: every run finished, some recorded as failed: they are results, the merge goes on.
	// if [ "$code" -eq 4 ]; then exit 0; fi
	// # 3: stopped (time limit, scancel): the finished runs are recorded, the rest resumable.
	// if [ "$code" -eq 3 ]; then
	// 	echo "task ${SLURM_ARRAY_TASK_ID}: stopped; its finished runs are recorded. Finish the sweep with:" >&2
	// 	echo "  /opt/bin/nagc slurm /home/me/quick.yaml --results /scratch/me/quick --tasks 3 --resubmit" >&2
	// fi
	// exit "$code"
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/internal/runbar"
	"github.com/nagc-harness/nagc/internal/testenv"
	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/slurm"
)

// TestSlurmLocalCluster starts a real one-node Slurm cluster with scripts/slurm-local.sh
// (installing slurm-wlm and munge with apt-get when missing) and runs configs/quick.yaml
// on it twice at once (cancelledTask and timeLimit), each time checking that after
// `nagc slurm --resubmit` the merged records equal a one-process run of the config,
// record for record. It needs root (packages, daemons) and Linux; elsewhere it is
// skipped, saying why. Everything it waits for has a deadline (4 minutes in all), and it
// stops the cluster it started.
func TestSlurmLocalCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Slurm cluster")
	}
	switch {
	case runtime.GOOS != "linux":
		t.Skip("the local Slurm cluster runs on Linux only")
	case os.Geteuid() != 0:
		t.Skip("needs root, to install Slurm and start its daemons (CI runs ./test.sh as root)")
	}
	if _, err := exec.LookPath("slurmctld"); err != nil {
		if _, err := exec.LookPath("apt-get"); err != nil {
			t.Skip("Slurm is not installed and there is no apt-get to install it")
		}
	}
	if b, err := os.ReadFile("/etc/slurm/slurm.conf"); err == nil && !bytes.Contains(b, []byte("nagc scripts/slurm-local.sh")) {
		t.Skip("this machine has its own Slurm configuration: the test does not touch it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	script, err := filepath.Abs("../../scripts/slurm-local.sh")
	if err != nil {
		t.Fatal(err)
	}
	config, err := filepath.Abs("../../configs/quick.yaml")
	if err != nil {
		t.Fatal(err)
	}

	// One such test per machine at a time: the cluster's configuration and ports are the
	// machine's.
	guard, err := results.LockAppend(filepath.Join(os.TempDir(), "nagc-slurm-test"))
	if err != nil {
		t.Skipf("another local-cluster test runs on this machine: %v", err)
	}
	defer guard.Unlock()
	start := time.Now()
	state := t.TempDir()
	t.Setenv("NAGC_SLURM_DIR", state) // the daemons' state and logs
	if exec.CommandContext(ctx, "scontrol", "ping").Run() == nil {
		t.Skip("a Slurm controller already answers on this machine: stop it first (scripts/slurm-local.sh stop)")
	}
	defer func() {
		stop, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if out, err := exec.CommandContext(stop, script, "stop").CombinedOutput(); err != nil && !t.Skipped() {
			t.Errorf("stopping the cluster: %v\n%s", err, out)
		}
		if t.Failed() {
			for _, f := range []string{"slurmctld.log", "slurmd.log"} {
				if b, err := os.ReadFile(filepath.Join(state, f)); err == nil {
					t.Logf("%s (end):\n%s", f, b[max(0, len(b)-3000):])
				}
			}
		}
	}()
	if out, err := exec.CommandContext(ctx, script, "start").CombinedOutput(); err != nil {
		// Installing or starting Slurm failed (no network for apt-get, no munge, …): the
		// machine cannot run the test, unless NAGC_REQUIRE_DATA=1 says it must.
		testenv.Missing(t, "a local Slurm cluster", fmt.Sprintf("scripts/slurm-local.sh start failed (%v): %s", err, out[max(0, len(out)-2000):]))
	}
	c := &localCluster{ctx: ctx, config: config}
	t.Logf("cluster up in %s", time.Since(start).Round(100*time.Millisecond))

	c.bin = buildNagc(t)
	ref := filepath.Join(t.TempDir(), "one-process")
	c.sh(t, c.bin, "run", config, "--results", ref, "--workers", "2")
	c.want = readMetricLines(t, ref)

	// All at once: the time-limited tasks wait a minute for their limit, on one CPU.
	t.Run("jobs", func(t *testing.T) {
		t.Run("cancelled-task", func(t *testing.T) { t.Parallel(); c.cancelledTask(t) })
		t.Run("time-limit", func(t *testing.T) { t.Parallel(); c.timeLimit(t) })
		t.Run("search", func(t *testing.T) { t.Parallel(); c.searchTimeLimit(t) })
		t.Run("rungs", func(t *testing.T) { t.Parallel(); c.rungsChain(t) })
	})
	t.Logf("whole test (cluster start, reference run, jobs, resubmissions) %s", time.Since(start).Round(100*time.Millisecond))
}

// localCluster is what the scenarios of TestSlurmLocalCluster share: the deadline, the
// nagc program, the config and the records of a one-process run of it.
type localCluster struct {
	ctx         context.Context
	bin, config string
	want        map[string]string
}

// sh runs a command, failing the test if it fails, and returns its output.
func (c *localCluster) sh(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(c.ctx, name, args...)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// nagc runs the nagc program with the extra environment env, failing the test if it fails.
func (c *localCluster) nagc(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(c.ctx, c.bin, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nagc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	t.Logf("nagc %s:\n%s", strings.Join(args, " "), out)
	return string(out)
}

// jobs returns the array and merge jobs recorded in the results folder, oldest first.
func jobs(t *testing.T, resDir string) (arrays, merges []string) {
	t.Helper()
	job := &slurm.Job{Results: resDir}
	arrays, err := job.Jobs("array")
	if err != nil {
		t.Fatal(err)
	}
	if merges, err = job.Jobs("merge"); err != nil {
		t.Fatal(err)
	}
	return arrays, merges
}

// jobLog returns the output of a job of the results folder: a merge job's (task "") or an
// array task's.
func jobLog(t *testing.T, resDir, id, task string) string {
	t.Helper()
	pattern := "merge-job-" + id + ".out"
	if task != "" {
		pattern = "task-" + task + "-of-*-job-" + id + ".out"
	}
	logs, _ := filepath.Glob(filepath.Join(resDir, slurm.Dir, slurm.LogsDir, pattern))
	if len(logs) != 1 {
		t.Fatalf("no log %s of job %s", pattern, id)
	}
	b, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// resubmitted waits for the jobs of the last submission into results, then checks that
// its merge job merged every run of the config and rendered the report, and that the
// merged records equal a one-process run's.
func (c *localCluster) resubmitted(t *testing.T, resDir string) {
	t.Helper()
	arrays, merges := jobs(t, resDir)
	waitQueue(c.ctx, t, arrays[len(arrays)-1])
	waitQueue(c.ctx, t, merges[len(merges)-1])
	mergeLog := jobLog(t, resDir, merges[len(merges)-1], "")
	t.Logf("merge job log:\n%s", mergeLog)
	if want := fmt.Sprintf("merged %d runs", len(c.want)); !strings.Contains(mergeLog, want) {
		t.Errorf("the merge job did not say %q", want)
	}
	if _, err := os.Stat(filepath.Join(resDir, "report", "REPORT.md")); err != nil {
		t.Errorf("the merge job rendered no report: %v", err)
	}
	if d := sameRecords(c.want, readMetricLines(t, resDir)); d != "" {
		t.Errorf("the cluster's merged records differ from a one-process run: %s", d)
	}
}

// notMerged checks that the merge job of the first submission into results, which runs
// once every task has ended however it ended, merged nothing and said how to finish.
func (c *localCluster) notMerged(t *testing.T, resDir, merge string) {
	t.Helper()
	waitQueue(c.ctx, t, merge)
	if _, err := os.Stat(filepath.Join(resDir, "runs.jsonl")); err == nil {
		t.Fatal("the merge job merged an incomplete sweep")
	}
	if log := jobLog(t, resDir, merge, ""); !strings.Contains(log, "refusing to merge an incomplete sweep") || !strings.Contains(log, "--resubmit") {
		t.Errorf("merge job %s: want the missing runs and the --resubmit command; its log:\n%s", merge, log)
	}
}

// cancelledTask submits the config as a 3-task job array with its merge job, cancels
// task 2 before it starts (the jobs are submitted held, so the cancel cannot come too
// late), lets the rest run, and resubmits with --resubmit.
func (c *localCluster) cancelledTask(t *testing.T) {
	resDir := filepath.Join(t.TempDir(), "cluster")
	// Submitted held (--hold), so that task 2 is cancelled before it can start, whatever
	// the timing. (Slurm 22.05's sbatch ignores the SBATCH_HOLD variable.)
	c.nagc(t, nil, "slurm", c.config, "--results", resDir, "--tasks", "3", "--submit", "--hold")
	arrays, merges := jobs(t, resDir)
	if len(arrays) != 1 || len(merges) != 1 {
		t.Fatalf("jobs recorded: arrays %v, merges %v", arrays, merges)
	}
	c.sh(t, "scancel", arrays[0]+"_2")
	c.sh(t, "scontrol", "release", arrays[0])
	c.sh(t, "scontrol", "release", merges[0])
	waitQueue(c.ctx, t, arrays[0])
	c.notMerged(t, resDir, merges[0])
	out := c.nagc(t, nil, "status", c.config, "--results", resDir)
	if !strings.Contains(out, "not started") || !strings.Contains(out, "--resubmit") {
		t.Errorf("status with task 2 cancelled: want shard 2 not started and the --resubmit command")
	}
	out = c.nagc(t, nil, "slurm", c.config, "--results", resDir, "--resubmit", "--time", "5:00")
	if !strings.Contains(out, "resubmitted tasks 2 of 3") {
		t.Errorf("--resubmit: want task 2 resubmitted")
	}
	c.resubmitted(t, resDir)
}

// timeLimit submits the config as a one-task job array with a time limit of a minute,
// its task pausing after 10 records (runbar.PauseEnv) so that the limit is sure to stop it
// mid-sweep: Slurm's SIGTERM must stop it cleanly (exit 3, its records whole), the merge
// job must run and refuse the incomplete sweep, nagc status must count the shard's
// records, and --resubmit must finish the sweep to the records of a one-process run and
// then say there is nothing left to do.
func (c *localCluster) timeLimit(t *testing.T) {
	const paused = 10
	resDir := filepath.Join(t.TempDir(), "time-limit")
	c.nagc(t, []string{fmt.Sprintf("%s=%d", runbar.PauseEnv, paused)}, "slurm", c.config, "--results", resDir, "--tasks", "1", "--time", "1", "--submit")
	arrays, merges := jobs(t, resDir)
	waitQueue(c.ctx, t, arrays[0])
	task := jobLog(t, resDir, arrays[0], "1")
	t.Logf("task log:\n%s", task)
	for _, want := range []string{"DUE TO TIME LIMIT", "nagc run: interrupted: finished runs are recorded", "stopped; its finished runs are recorded", "--resubmit"} {
		if !strings.Contains(task, want) {
			t.Errorf("the task's log does not say %q", want)
		}
	}
	c.notMerged(t, resDir, merges[0])
	shard := readMetricLines(t, results.ShardDir(resDir, 1, 1))
	if len(shard) < paused || len(shard) >= len(c.want) {
		t.Fatalf("%d runs recorded by the stopped task, want %d to %d", len(shard), paused, len(c.want)-1)
	}
	for id, line := range shard {
		if c.want[id] != line {
			t.Errorf("run %s recorded before the time limit differs from the one-process run", id)
		}
	}
	out := c.nagc(t, nil, "status", c.config, "--results", resDir)
	if want := fmt.Sprintf("%d runs: %d done, 0 failed, %d missing", len(c.want), len(shard), len(c.want)-len(shard)); !strings.Contains(out, want) || !strings.Contains(out, "stopped") {
		t.Errorf("status after the time limit: want %q and the shard stopped", want)
	}
	// Resubmitted without the pause: the tasks' environment is the submitter's.
	out = c.nagc(t, nil, "slurm", c.config, "--results", resDir, "--resubmit")
	if want := fmt.Sprintf("%d missing: resubmitted tasks 1 of 1", len(c.want)-len(shard)); !strings.Contains(out, want) {
		t.Errorf("--resubmit: want %q", want)
	}
	c.resubmitted(t, resDir)
	out = c.nagc(t, nil, "slurm", c.config, "--results", resDir, "--resubmit")
	if want := fmt.Sprintf("nothing to resubmit: all %d runs are recorded (%d done, 0 failed) and merged", len(c.want), len(c.want)); !strings.Contains(out, want) {
		t.Errorf("--resubmit of a merged sweep: want %q", want)
	}
}

// waitQueue waits until Slurm no longer lists job id (or any of its array tasks).
func waitQueue(ctx context.Context, t *testing.T, id string) {
	t.Helper()
	for {
		q, err := slurm.Queued(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(q) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			out, _ := exec.Command("squeue").CombinedOutput()
			t.Fatalf("job %s still queued at the deadline: %s\n%s", id, strings.Join(q, ", "), out)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

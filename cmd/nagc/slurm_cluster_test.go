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

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/testenv"
	"github.com/nagc-harness/nagc/slurm"
)

// TestSlurmLocalCluster starts a real one-node Slurm cluster with scripts/slurm-local.sh
// (installing slurm-wlm and munge with apt-get when missing), submits configs/quick.yaml
// as a 3-task job array with its merge job, cancels one task before it starts (the jobs
// are submitted held, so the cancel cannot come too late), lets the rest run, resubmits
// with --resubmit, and checks that the merged records equal a one-process run of the
// config, record for record. It needs root (packages, daemons) and Linux; elsewhere it is
// skipped, saying why. Everything it waits for has a deadline (3 minutes in all), and it
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
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	script, err := filepath.Abs("../../scripts/slurm-local.sh")
	if err != nil {
		t.Fatal(err)
	}
	config, err := filepath.Abs("../../configs/quick.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sh := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.WaitDelay = 5 * time.Second
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	// One such test per machine at a time: the cluster's configuration and ports are the
	// machine's.
	guard, err := experiments.LockAppend(filepath.Join(os.TempDir(), "nagc-slurm-test"))
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
	t.Logf("cluster up in %s", time.Since(start).Round(100*time.Millisecond))

	bin := buildNagc(t)
	dir := t.TempDir()
	ref := filepath.Join(dir, "one-process")
	sh(bin, "run", config, "--results", ref, "--workers", "2")
	want := readMetricLines(t, ref)

	results := filepath.Join(dir, "cluster")
	nagc := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("nagc %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("nagc %s:\n%s", strings.Join(args, " "), out)
		return string(out)
	}
	// Submitted held (--hold), so that task 2 is cancelled before it can start, whatever
	// the timing. (Slurm 22.05's sbatch ignores the SBATCH_HOLD variable.)
	nagc(nil, "slurm", config, "--results", results, "--tasks", "3", "--submit", "--hold")
	job := &slurm.Job{Results: results}
	arrays, _ := job.Jobs("array")
	merges, _ := job.Jobs("merge")
	if len(arrays) != 1 || len(merges) != 1 {
		t.Fatalf("jobs recorded: arrays %v, merges %v", arrays, merges)
	}
	sh("scancel", arrays[0]+"_2")
	sh("scontrol", "release", arrays[0])
	sh("scontrol", "release", merges[0])
	waitQueue(ctx, t, arrays[0])
	if _, err := os.Stat(filepath.Join(results, "runs.jsonl")); err == nil {
		t.Fatal("the merge ran although task 2 was cancelled")
	}
	out := nagc(nil, "status", config, "--results", results)
	if !strings.Contains(out, "not started") || !strings.Contains(out, "--resubmit") {
		t.Errorf("status with task 2 cancelled: want shard 2 not started and the --resubmit command")
	}

	out = nagc(nil, "slurm", config, "--results", results, "--resubmit", "--time", "5:00")
	if !strings.Contains(out, "resubmitted tasks 2 of 3") || !strings.Contains(out, "cancelled merge job "+merges[0]) {
		t.Errorf("--resubmit: want task 2 resubmitted and merge job %s cancelled", merges[0])
	}
	arrays, _ = job.Jobs("array")
	merges, _ = job.Jobs("merge")
	waitQueue(ctx, t, arrays[len(arrays)-1])
	waitQueue(ctx, t, merges[len(merges)-1])
	logs, _ := filepath.Glob(filepath.Join(results, slurm.Dir, slurm.LogsDir, "merge-job-"+merges[len(merges)-1]+".out"))
	if len(logs) != 1 {
		t.Fatalf("no log of merge job %s", merges[len(merges)-1])
	}
	mergeLog, _ := os.ReadFile(logs[0])
	t.Logf("merge job log:\n%s", mergeLog)
	if !bytes.Contains(mergeLog, []byte("merged 66 runs")) {
		t.Errorf("the merge job did not merge the 66 runs")
	}
	if _, err := os.Stat(filepath.Join(results, "report", "REPORT.md")); err != nil {
		t.Errorf("the merge job rendered no report: %v", err)
	}
	if d := sameRecords(want, readMetricLines(t, results)); d != "" {
		t.Errorf("the cluster's merged records differ from a one-process run: %s", d)
	}
	t.Logf("whole test (cluster start, reference run, jobs, resubmission) %s", time.Since(start).Round(100*time.Millisecond))
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

package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestRunReportsFailedRuns checks that a sweep whose runs fail exits 4, saying how
// many failed and why, and that a bad value is refused before anything runs.
func TestRunReportsFailedRuns(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg := "name: f\nseed: 1\nrestarts: 2\niterations: 2\ndatasets: [synthetic]\nmethods:\n" +
		"  - {name: Big, algorithm: nagc, options: {k2: 5000, init: random}}\n" +
		"  - {name: KM, algorithm: kmeans}\n"
	if err := os.WriteFile("f.yaml", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "run", "f.yaml", "--results", "r", "--workers", "1")
	if code != exitFailedRuns {
		t.Fatalf("exit %d, want %d; stdout %q, stderr %q", code, exitFailedRuns, stdout, stderr)
	}
	for _, want := range []string{"2 of 4 runs failed", "2× nagc: k2 = 5000, need 1 ≤ k2 ≤ n = 600", "e.g. synthetic, Big", "retries them"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}

	bad := strings.Replace(cfg, "k2: 5000, init: random", "init: kmean", 1)
	if err := os.WriteFile("bad.yaml", []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = cli(t, "run", "bad.yaml", "--results", "b")
	if code != 1 || !strings.Contains(stderr, "bad.yaml:7: init:") || !strings.Contains(stderr, "did you mean 'kmeans'") {
		t.Errorf("init kmean: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat("b"); err == nil {
		t.Error("a refused config created its results folder")
	}
}

// TestCPUProfile checks that --cpuprofile of `nagc run` and `nagc cluster` writes a
// profile that go tool pprof reads (a gzipped protocol buffer), and that an unwritable
// path is refused in plain words.
func TestCPUProfile(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		args []string
	}{
		{"run", []string{"quick", "--results", "r", "--workers", "1"}},
		{"cluster", []string{"--data", "synthetic", "--method", "nagc", "--iterations", "5"}},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			if tc.cmd == "run" {
				requireGPMetis(t) // quick has METIS rows
			}
			t.Chdir(t.TempDir())
			args := append([]string{tc.cmd}, tc.args...)
			code, stdout, stderr := cli(t, append(args, "--cpuprofile", "cpu.prof")...)
			if code != 0 {
				t.Fatalf("exit %d; stdout %q, stderr %q", code, stdout, stderr)
			}
			b, err := os.ReadFile("cpu.prof")
			if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
				t.Errorf("cpu.prof is not a gzipped profile (%d bytes, %v)", len(b), err)
			}
			code, _, stderr = cli(t, append(args, "--cpuprofile", "no/such/folder/cpu.prof")...)
			if code == 0 || !strings.Contains(stderr, "--cpuprofile") {
				t.Errorf("unwritable profile path: exit %d, %q", code, stderr)
			}
			// The help names the flag's argument FILE (a back-quoted word in a flag's
			// usage becomes its argument name: it once read "-cpuprofile go tool pprof").
			_, _, stderr = cli(t, tc.cmd, "-h")
			if !strings.Contains(stderr, "-cpuprofile FILE\n") {
				t.Errorf("%s -h: want \"-cpuprofile FILE\", got %q", tc.cmd, stderr)
			}
		})
	}
}

// TestRunTiming runs a config with timing: true through the command line: it says that its
// runs go one at a time whatever --workers says, records them timed alone, the summary
// says the folder holds only them (and, with a sweep beside them, that it leaves them
// out), the report's runtime table reads them, and timing with --shard (or nagc slurm's
// tasks) or with holdout is refused in plain words before anything runs.
func TestRunTiming(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg := "name: t\nseed: 1\nrestarts: 2\niterations: 5\ntiming: true\ncompare: paper\ndatasets: [synthetic]\nmethods:\n" +
		"  - {name: \"Prop.\", algorithm: nagc, options: {k2: k1, lambda: 0.01, rho: 0.95}}\n" +
		"  - {name: \"Prop. (w/o PU)\", algorithm: nagc, options: {k2: k1, lambda: 0.01, rho: 0.5}}\n"
	if err := os.WriteFile("t.yaml", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "run", "t.yaml", "--results", "r", "--workers", "2")
	if code != 0 || !strings.Contains(stdout, "t.yaml sets timing: true: its runs execute one at a time (whatever --workers and --batch say)") {
		t.Fatalf("exit %d; stdout %q, stderr %q", code, stdout, stderr)
	}
	b, err := os.ReadFile("r/runs.jsonl")
	if err != nil || strings.Count(string(b), `"timed_alone":true`) != 4 {
		t.Fatalf("runs.jsonl: want 4 runs timed alone, %v:\n%s", err, b)
	}
	code, stdout, stderr = cli(t, "results", "summary", "r")
	if code != 0 || !strings.Contains(stdout, "r holds only fits timed alone (4, from a config with timing: true) and no sweep") ||
		strings.Contains(stdout, "dataset  method") {
		t.Errorf("summary of a folder of fits timed alone: exit %d; stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = cli(t, "report", "r", "--out", "rep", "--figures", "none")
	if code != 0 {
		t.Fatalf("report: exit %d; stdout %q, stderr %q", code, stdout, stderr)
	}
	rep, err := os.ReadFile("rep/REPORT.md")
	if err != nil || !strings.Contains(string(rep), "median over the restarts of the fits timed alone (config t, with timing: true)") {
		t.Errorf("REPORT.md has no runtime table read from the fits timed alone (%v)", err)
	}
	// A sweep beside them: the summary selects from the sweep and says the timed fits are out.
	if err := os.WriteFile("s.yaml", []byte(strings.Replace(cfg, "timing: true\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "run", "s.yaml", "--results", "r"); code != 0 {
		t.Fatalf("sweep beside the timed fits: exit %d, %q", code, stderr)
	}
	code, stdout, stderr = cli(t, "results", "summary", "r")
	if code != 0 || !strings.Contains(stdout, "4 fits timed alone (a config with timing: true) are left out: they are timed one at a time, not part of the sweep") ||
		!strings.Contains(stdout, "synthetic") {
		t.Errorf("summary of a sweep beside fits timed alone: exit %d; stdout %q, stderr %q", code, stdout, stderr)
	}

	code, _, stderr = cli(t, "run", "t.yaml", "--results", "s", "--shard", "1/2")
	if code != 1 || !strings.Contains(stderr, "t.yaml sets timing: true: its fits are timed one at a time on one machine, so it is not split into shards") {
		t.Errorf("timing with --shard: exit %d, %q", code, stderr)
	}
	code, _, stderr = cli(t, "slurm", "t.yaml", "--results", "x", "--tasks", "3")
	if code != 1 || !strings.Contains(stderr, "so it is not split into tasks") {
		t.Errorf("timing with nagc slurm --tasks 3: exit %d, %q", code, stderr)
	}
	if err := os.WriteFile("h.yaml", []byte(strings.Replace(cfg, "timing: true\n", "timing: true\nholdout: 0.2\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = cli(t, "run", "h.yaml", "--results", "h")
	if code != 1 || !strings.Contains(stderr, "h.yaml:6: holdout: a config with timing: true times each fit alone and fits no held-out copy") {
		t.Errorf("timing with holdout: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat("h"); err == nil {
		t.Error("a refused config created its results folder")
	}
}

// TestReportTimingOnly checks the report of a user's own timing config (no compare:
// paper): its introduction says what the folder holds and where the fits timed alone are
// instead of listing no rows ("rows ."), and it has no empty rows table.
func TestReportTimingOnly(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg := "name: mine\nseed: 1\nrestarts: 2\niterations: 5\ntiming: true\ndatasets: [synthetic]\nmethods:\n" +
		"  - {name: NAGC, algorithm: nagc, options: {init: random}}\n"
	if err := os.WriteFile("t.yaml", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "run", "t.yaml", "--results", "res"); code != 0 {
		t.Fatalf("run: exit %d, %q", code, stderr)
	}
	if code, _, stderr := cli(t, "report", "res", "--out", "rep", "--figures", "none"); code != 0 {
		t.Fatalf("report: exit %d, %q", code, stderr)
	}
	b, err := os.ReadFile("rep/REPORT.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if strings.Contains(text, "rows .") || !strings.Contains(text, "2 fits timed alone (2 done, 0 failed) on synthetic; rows NAGC.") ||
		!strings.Contains(text, "res/runs.jsonl") || strings.Contains(text, "0 runs") {
		t.Errorf("introduction of a timing-only report:\n%s", text[:min(len(text), 600)])
	}
	// No section a sweep would fill: no rows table (nor its files), no grid-point section.
	if strings.Contains(text, "## synthetic") || strings.Contains(text, "| Row | Selection") || strings.Contains(text, "## Every grid point") {
		t.Errorf("empty sweep sections in a timing-only report:\n%s", text)
	}
	if _, err := os.Stat("rep/rows_synthetic.md"); err == nil {
		t.Error("rep/rows_synthetic.md written for a folder with no run of a sweep")
	}
	// The times themselves: one row (NAGC), its median fit and init times, no paper column.
	if !strings.Contains(text, "## Fit times (timed alone)") || strings.Contains(text, "| paper") || strings.Contains(text, "not in the paper") {
		t.Errorf("no runtime section, or a paper column, in:\n%s", text)
	}
	csvText, err := os.ReadFile("rep/runtime.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, metric := range []string{"fit_seconds", "init_seconds"} {
		var v float64
		field := rowValue(string(csvText), "runtime,synthetic,NAGC,,"+metric+",alone-median")
		if _, err := fmt.Sscanf(field, "%g,", &v); err != nil || !(v > 0) {
			t.Errorf("runtime.csv: NAGC %s median %q (%v)\n%s", metric, field, err, csvText)
		}
	}
}

// rowValue returns what follows the line of text that starts with prefix and a comma
// ("" if none).
func rowValue(text, name string) string {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, name+","); ok {
			return rest
		}
	}
	return ""
}

package experiments

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/configs"
	"github.com/nagc-harness/nagc/internal/commandtest"
	"github.com/nagc-harness/nagc/results"
)

func TestMain(m *testing.M) {
	commandtest.Main() // returns at once unless this binary plays a command row's program
	os.Exit(m.Run())
}

// commandSweep is a config of a user's program with a 2-point grid beside k-means, and
// four broken programs (one hangs past its time-out, one exits 1, one writes n − 1
// labels, one writes "nan"), on the synthetic graph with 2 restarts; the good program
// logs each start to log.
func commandSweep(log string) string {
	argv := fmt.Sprintf("[%q, %q]", commandtest.Argv()[0], commandtest.Argv()[1])
	return fmt.Sprintf(`seed: 3
restarts: 2
datasets: [synthetic]
methods:
  - name: Mine
    algorithm: command
    command: %[1]s
    options: {log: %[2]q}
    grid: {mode: [good, spread]}
  - {name: Hangs, algorithm: command, command: %[1]s, timeout: 0.2, options: {mode: hang}}
  - {name: Exits, algorithm: command, command: %[1]s, options: {mode: exit1}}
  - {name: Short, algorithm: command, command: %[1]s, options: {mode: short}}
  - {name: NaN, algorithm: command, command: %[1]s, options: {mode: nan}}
  - {name: KM, algorithm: kmeans}
`, argv, log)
}

// TestCommandSweep runs the sweep of commandSweep, killed after 5 records and resumed:
// the good runs are done once each (no program start repeated for a run recorded
// before the kill), each broken run is recorded failed with its reason, every record of
// a program holds its argv and the SHA-256 of the files it names, and the graph is
// written once.
func TestCommandSweep(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "starts.log")
	cfg, err := ParseConfig(filepath.Join(dir, "mine.yaml"), []byte(commandSweep(log)))
	if err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "results")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 5
	first, err := Execute(ctx, cfg, Options{ResultsDir: res, Workers: 1, Progress: cancelAfter{&n, cancel}})
	if err != nil {
		t.Fatal(err)
	}
	if !first.Interrupted || first.Done+first.Failed != 5 {
		t.Fatalf("first execution: %+v; want 5 records, then interrupted", first)
	}
	second, err := Execute(context.Background(), cfg, Options{ResultsDir: res, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if second.Total != 14 || second.Skipped != first.Done || first.Done+second.Done != 6 || second.Failed != 8 {
		t.Fatalf("after the resume: %+v (first %+v); want 14 runs, 6 done once, the 8 broken ones failed", second, first)
	}
	if err := second.Err(); !errors.Is(err, ErrRunsFailed) {
		t.Errorf("Summary.Err() = %v, want ErrRunsFailed (exit 4)", err)
	}
	recs, _, err := results.ReadRecords(filepath.Join(res, results.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Hangs": "timed out after 200ms", "Exits": "ValueError: boom",
		"Short": "wrote 599 labels for 600 vertices", "NaN": `"nan" is not an integer`}
	done := map[string]int{}
	kmSeed := map[int]uint64{}
	for _, r := range recs {
		if r.Methods[0] == "KM" {
			kmSeed[r.Restart] = r.Seed
		}
	}
	for _, r := range recs {
		row := r.Methods[0]
		if row == "KM" {
			if r.Command != nil {
				t.Errorf("k-means record holds a command %v", r.Command)
			}
			continue
		}
		if r.Seed != kmSeed[r.Restart] {
			t.Errorf("%s restart %d: seed %d, want k-means' seed of that restart %d", row, r.Restart, r.Seed, kmSeed[r.Restart])
		}
		if len(r.Command) != 2 || len(r.CommandFiles) != 1 || len(r.CommandFiles[0].SHA256) != 64 {
			t.Errorf("%s: command %v, files %v; want the argv and the program's SHA-256", row, r.Command, r.CommandFiles)
		}
		if w, broken := want[row]; broken {
			if r.Status != results.StatusFailed || !strings.Contains(r.Error, w) {
				t.Errorf("%s: %s, %q; want failed saying %q", row, r.Status, r.Error, w)
			}
			continue
		}
		if r.Status != results.StatusDone {
			t.Errorf("%s %v: %s %s", row, r.Params, r.Status, r.Error)
		}
		done[fmt.Sprintf("%d %s", r.Seed, canonicalParams(r.Params))]++
	}
	starts := map[string]int{}
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		starts[sc.Text()]++
	}
	if len(done) != 4 {
		t.Errorf("%d distinct good runs recorded done, want 4: %v", len(done), done)
	}
	for run, n := range done {
		if n != 1 || starts[run] != 1 {
			t.Errorf("run %s: recorded done %d times, started %d times; want once each", run, n, starts[run])
		}
	}
	graphs, _ := filepath.Glob(filepath.Join(res, graphsDir, "*.npz"))
	if len(graphs) != 1 {
		t.Errorf("graph files %v, want one", graphs)
	}
}

// TestCommandConfigErrors checks that a bad command row is refused when the config is
// read, naming its file, line and key.
func TestCommandConfigErrors(t *testing.T) {
	bin := fmt.Sprintf("%q", os.Args[0])
	head := "datasets: [synthetic]\nmethods:\n"
	for _, c := range []struct{ name, row, want string }{
		{"not a list", "  - {name: M, algorithm: command, command: python3 x.py}", "mine.yaml:3: command: want the program and its arguments as a non-empty list"},
		{"empty list", "  - {name: M, algorithm: command, command: []}", "mine.yaml:3: command: want the program"},
		{"missing", "  - {name: M, algorithm: command}", "mine.yaml:3: command: want the program"},
		{"not found", "  - {name: M, algorithm: command, command: [no-such-program-nagc, x.py]}", "mine.yaml:3: command: program no-such-program-nagc not found on PATH"},
		{"relative not found", "  - {name: M, algorithm: command, command: [./absent.sh]}", "absent.sh not found"},
		{"script not found", "  - {name: M, algorithm: command, command: [" + bin + ", mine.py]}", "mine.yaml:3: command: script mine.py not found"},
		{"zero timeout", "  - {name: M, algorithm: command, command: [" + bin + "], timeout: 0}", "mine.yaml:3: timeout: want a positive number of seconds"},
		{"negative timeout", "  - name: M\n    algorithm: command\n    command: [" + bin + "]\n    timeout: -5s", "mine.yaml:6: timeout: want a positive duration, got -5s"},
		{"bad timeout", "  - {name: M, algorithm: command, command: [" + bin + "], timeout: soon}", "mine.yaml:3: timeout: \"soon\" is neither a number of seconds"},
		{"command on nagc", "  - name: N\n    algorithm: nagc\n    command: [python3, x.py]", "mine.yaml:5: command: only a row with algorithm: command (a program of yours) takes command; nagc is built in"},
		{"timeout on kmeans", "  - {name: K, algorithm: kmeans, timeout: 10}", "mine.yaml:3: timeout: only a row with algorithm: command (a program of yours) takes timeout; kmeans is built in"},
		{"reads_labels on kmeans", "  - {name: K, algorithm: kmeans, reads_labels: true}", "takes reads_labels; kmeans is built in and says itself whether it reads the labels: remove reads_labels"},
		{"nested word", "  - {name: M, algorithm: command, command: [" + bin + ", [a]]}", "command: each word of the command must be a single value"},
		{"empty grid", "  - {name: M, algorithm: command, command: [" + bin + "], grid: {a: []}}", "mine.yaml:3: a: empty grid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig("mine.yaml", []byte(head+c.row+"\n"))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestShippedConfigsStartNoProgram checks that no shipped config names a program.
func TestShippedConfigsStartNoProgram(t *testing.T) {
	for _, name := range configs.Names() {
		cfg, err := OpenConfig(name)
		if err != nil {
			t.Fatal(err)
		}
		if p := cfg.Programs(); len(p) != 0 {
			t.Errorf("%s starts programs %v", name, p[0].Argv)
		}
	}
}

// TestWritePrograms checks the list of programs a config starts, printed before its
// first run: each row's argv and the SHA-256 of the files it names.
func TestWritePrograms(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "mine.py")
	os.WriteFile(script, []byte("print('hello')\n"), 0o644)
	cfg, err := ParseConfig(filepath.Join(dir, "mine.yaml"), []byte(fmt.Sprintf(
		"datasets: [synthetic]\nmethods:\n  - {name: Mine, algorithm: command, command: [%q, mine.py, --flag]}\n", os.Args[0])))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WritePrograms(&b, cfg); err != nil {
		t.Fatal(err)
	}
	// sha256 of "print('hello')\n"
	for _, want := range []string{"starts 1 program(s)", "Mine: " + os.Args[0] + " mine.py --flag",
		"sha256 03e693d9f2f687e0f40e36a8df7fcb4d1c22974012b7c2a55c000eb30f305824  " + script} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("listing lacks %q:\n%s", want, b.String())
		}
	}
}

// TestCommandReadsLabels checks a row with reads_labels: true: its program finds the
// labels in the graph file (and so clusters perfectly here), and its runs are marked as
// reading them, which the same program without the key is not.
func TestCommandReadsLabels(t *testing.T) {
	dir := t.TempDir()
	argv := fmt.Sprintf("[%q, %q]", commandtest.Argv()[0], commandtest.Argv()[1])
	cfg, err := ParseConfig(filepath.Join(dir, "mine.yaml"), []byte(`datasets: [synthetic]
methods:
  - {name: Reads, algorithm: command, command: `+argv+`, reads_labels: true, options: {mode: truth}}
  - {name: Blind, algorithm: command, command: `+argv+`, options: {mode: good}}
`))
	if err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "res")
	if _, err := Execute(context.Background(), cfg, Options{ResultsDir: res, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	recs, err := results.Load(res)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for _, r := range recs {
		reads := algorithms.ReadsLabels(r.Params)
		switch r.Methods[0] {
		case "Reads":
			if r.Status != results.StatusDone || r.Metrics["ari"] != 1 || !reads {
				t.Errorf("Reads: %s %s, ARI %v, reads labels %v; want done, 1, true", r.Status, r.Error, r.Metrics["ari"], reads)
			}
		case "Blind":
			if r.Status != results.StatusDone || reads {
				t.Errorf("Blind: %s %s, reads labels %v; want done, false", r.Status, r.Error, reads)
			}
		}
	}
	graphs, _ := filepath.Glob(filepath.Join(res, graphsDir, "*.npz"))
	if len(graphs) != 2 {
		t.Errorf("graph files %v, want one with labels and one without", graphs)
	}
}

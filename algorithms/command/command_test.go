package command_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/algorithms/command"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/commandtest"
	"github.com/nagc-harness/nagc/metrics"
)

func TestMain(m *testing.M) {
	commandtest.Main() // returns at once unless this binary plays the program
	os.Exit(m.Run())
}

// graph returns the default synthetic graph (600 vertices, 4 classes) as a method's input.
func graph(t *testing.T) (*datasets.Graph, algorithms.Input) {
	t.Helper()
	g, err := datasets.Synthetic(datasets.DefaultSynthetic())
	if err != nil {
		t.Fatal(err)
	}
	return g, algorithms.Input{Adj: g.Adj, X: g.X, Truth: g.Labels, Cache: algorithms.NewCache()}
}

func method(mode string, dir string) *command.Method {
	return &command.Method{Program: command.Program{Argv: commandtest.Argv(), Dir: dir},
		Params: map[string]any{"mode": mode}, GraphDir: filepath.Join(dir, "graphs"), Dataset: "synthetic", Threads: 1}
}

// TestFit runs the program in each of its modes: the good ones give their labels back
// (renumbered 0…k−1 where the ids are not), every broken one is an error naming its fault.
func TestFit(t *testing.T) {
	g, in := graph(t)
	n := g.N()
	cases := []struct {
		mode    string
		timeout time.Duration
		labels  bool   // reads_labels
		want    string // error substring; "" for a fit that succeeds
	}{
		{mode: commandtest.Good},
		{mode: commandtest.Spread},
		{mode: commandtest.Truth, labels: true},
		{mode: commandtest.Truth, want: "has no labels"},
		{mode: commandtest.Hang, timeout: 300 * time.Millisecond, want: "timed out after 300ms"},
		{mode: commandtest.Exit1, want: "exit status 1"},
		{mode: commandtest.Short, want: "wrote 599 labels for 600 vertices"},
		{mode: commandtest.NaN, want: `line 1: "nan" is not an integer cluster id`},
		{mode: commandtest.Big, want: "over the"},
		{mode: commandtest.BadInfo, want: "info file (info_out) is not a JSON object"},
		{mode: commandtest.NoLabels, want: "wrote no labels file"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			m := method(c.mode, t.TempDir())
			m.Timeout, m.Program.ReadsLabels = c.timeout, c.labels
			res, err := m.Fit(context.Background(), in, 4, 7)
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("error %v, want one saying %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Labels) != n {
				t.Fatalf("%d labels for %d vertices", len(res.Labels), n)
			}
			for i, l := range res.Labels {
				want := (i + 7%4) % 4
				if c.mode == commandtest.Spread {
					want = i % 4
				}
				if c.mode == commandtest.Truth {
					want = g.Labels[i]
				}
				if l != want {
					t.Fatalf("label %d = %d, want %d", i, l, want)
				}
			}
			if c.mode == commandtest.Good && (res.Info["mode"] != "good" || res.Info["n"] != "600") {
				t.Errorf("info %v, want the program's {mode: good, n: 600}", res.Info)
			}
		})
	}
}

// TestExitQuotesStderr checks that a failed program's error ends with what it printed.
func TestExitQuotesStderr(t *testing.T) {
	_, in := graph(t)
	_, err := method(commandtest.Exit1, t.TempDir()).Fit(context.Background(), in, 4, 1)
	if err == nil || !strings.Contains(err.Error(), "ValueError: boom") {
		t.Fatalf("error %v, want the program's last line ValueError: boom", err)
	}
}

// TestCancel checks that cancelling a fit kills the program and returns ctx's error.
func TestCancel(t *testing.T) {
	_, in := graph(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := method(commandtest.Hang, t.TempDir()).Fit(ctx, in, 4, 1); err != context.Canceled {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// TestGraphFile checks the graph file: written once per content (the second call finds
// it), read back as the same graph, labels only when asked for, a changed graph a new file.
func TestGraphFile(t *testing.T) {
	g, in := graph(t)
	dir := t.TempDir()
	p1, err := command.GraphFile(in, dir, "syn", false)
	if err != nil {
		t.Fatal(err)
	}
	st1, _ := os.Stat(p1)
	p2, err := command.GraphFile(in, dir, "syn", false)
	if err != nil || p2 != p1 {
		t.Fatalf("second call: %s, %v; want the first file %s", p2, err, p1)
	}
	if st2, _ := os.Stat(p2); !st2.ModTime().Equal(st1.ModTime()) {
		t.Errorf("the file was written again")
	}
	back, _, err := datasets.LoadSpec(datasets.Spec{Path: p1, Format: datasets.FormatNPZ})
	if err != nil {
		t.Fatal(err)
	}
	if back.N() != g.N() || back.Adj.NNZ() != g.Adj.NNZ() || back.X.NNZ() != g.X.NNZ() || back.Labels != nil {
		t.Fatalf("read back n=%d nnz(A)=%d nnz(X)=%d labels=%v; want %d, %d, %d, none",
			back.N(), back.Adj.NNZ(), back.X.NNZ(), back.Labels != nil, g.N(), g.Adj.NNZ(), g.X.NNZ())
	}
	p3, err := command.GraphFile(in, dir, "syn", true)
	if err != nil || p3 == p1 {
		t.Fatalf("with labels: %s, %v; want a file other than %s", p3, err, p1)
	}
	lab, _, err := datasets.LoadSpec(datasets.Spec{Path: p3, Format: datasets.FormatNPZ})
	if err != nil {
		t.Fatal(err)
	}
	if ari, _ := metrics.ARI(g.Labels, lab.Labels); ari != 1 {
		t.Errorf("labels read back with ARI %v against the graph's", ari)
	}
}

func TestParseTimeout(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{in: "90", want: 90 * time.Second}, {in: "1.5", want: 1500 * time.Millisecond},
		{in: "90s", want: 90 * time.Second}, {in: "2h", want: 2 * time.Hour}, {in: "1h30m", want: 90 * time.Minute},
		{in: "0", bad: true}, {in: "-3", bad: true}, {in: "-1s", bad: true}, {in: "0s", bad: true}, {in: "soon", bad: true},
	} {
		got, err := command.ParseTimeout(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("ParseTimeout(%q) = %v, %v; want %v (error: %v)", c.in, got, err, c.want, c.bad)
		}
	}
}

func TestPath(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "run.sh")
	os.WriteFile(script, []byte("#!/bin/sh\n"), 0o644)
	for _, c := range []struct {
		argv []string
		want string
	}{
		{argv: []string{"no-such-program-nagc"}, want: "not found on PATH"},
		{argv: []string{"./missing.py"}, want: "not found"},
		{argv: []string{"./run.sh"}, want: "not an executable file"},
		{argv: nil, want: "non-empty list"},
	} {
		_, err := command.Program{Argv: c.argv, Dir: dir}.Path()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Path of %q: %v, want an error saying %q", c.argv, err, c.want)
		}
	}
	for _, c := range []struct {
		argv []string
		bad  bool
	}{
		{[]string{"python3", "missing.py"}, true},
		{[]string{"python3", filepath.Join(dir, "missing.py")}, true},
		{[]string{"python3", "run.sh"}, false},     // present
		{[]string{"python3", "-m", "mine"}, false}, // a flag first
		{[]string{"mine", "out.txt"}, false},       // not a script's ending
		{[]string{"python3"}, false},
	} {
		err := command.Program{Argv: c.argv, Dir: dir}.CheckScript()
		if (err != nil) != c.bad || c.bad && !strings.Contains(err.Error(), "script "+c.argv[1]+" not found") {
			t.Errorf("CheckScript of %q: %v, want an error: %v", c.argv, err, c.bad)
		}
	}
	files, err := command.Program{Argv: []string{os.Args[0], "run.sh", "--flag", "absent.py"}, Dir: dir}.Files()
	if err != nil || len(files) != 2 || files[1].Path != script || len(files[1].SHA256) != 64 {
		t.Fatalf("Files = %v, %v; want the program and %s with their SHA-256", files, err, script)
	}
}

// TestSameAsCompiledIn checks that nagc's k-means run as a program, reading the graph
// file, gives the clustering of the same method compiled in, with the same seed.
func TestSameAsCompiledIn(t *testing.T) {
	_, in := graph(t)
	want, err := algorithms.KMeans{}.Fit(context.Background(), in, 4, 11)
	if err != nil {
		t.Fatal(err)
	}
	got, err := method(commandtest.KMeans, t.TempDir()).Fit(context.Background(), in, 4, 11)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Labels, want.Labels) {
		t.Fatalf("the program's labels differ from the compiled-in k-means'")
	}
}

// TestCapabilities checks a program's answers to the capability questions a method is
// asked (algorithms.LabelReader and the others): it reads the labels when it is given
// them, and says nothing of its attributes' signs or of an objective.
func TestCapabilities(t *testing.T) {
	for _, labels := range []bool{false, true} {
		m := method(commandtest.Good, t.TempDir())
		m.Program.ReadsLabels = labels
		if got := algorithms.MethodReadsLabels(m); got != labels {
			t.Errorf("given the labels %v: reads them %v", labels, got)
		}
		if algorithms.NeedsNonNegativeAttributes(m) || algorithms.MaximisesObjective(m) {
			t.Errorf("given the labels %v: needs non-negative attributes or maximises an objective", labels)
		}
	}
}

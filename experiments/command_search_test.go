package experiments

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/commandtest"
	"github.com/nagc-harness/nagc/results"
)

// programSearch returns a search over the test program (commandtest) in mode tuned or
// exit1 (a program that fails) and its number of clusters, with the given sampler and
// pruner, on the synthetic graph with 2 restarts; extra is added to the program's argv.
// With pruning, its rungs are at 1, 3 and 9 iterations.
func programSearch(sampler, prune string, extra ...string) string {
	argv := append(commandtest.Argv(), extra...)
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = fmt.Sprintf("%q", a)
	}
	clusters := "{int: [2, 7]}"
	if sampler == SamplerGrid {
		clusters = "[2, 4, 6]"
	}
	return fmt.Sprintf(`name: s
seed: 3
restarts: 2
metrics: [ari, modularity]
datasets: [synthetic]
search: {sampler: %s, trials: 12, batch: 6, rule: modularity, prune: %s, min_iterations: 1, eta: 3, first_restarts: 1}
methods:
  - name: Mine
    algorithm: command
    command: [%s]
    options: {iterations: 9}
    space:
      mode: [%s, %s, %s]
      clusters: %s
`, sampler, prune, strings.Join(words, ", "), commandtest.Tuned, commandtest.Tuned, commandtest.Exit1, clusters)
}

// A search over a program, for every sampler and pruner: every trial's first rung is
// recorded; a program that fails is recorded failed and its trial is cut as the worst
// (the search goes on); every fit is a program start given its rung's iterations
// (iterations_run = iterations = params.iterations: nothing is continued), and records
// the program's argv and SHA-256. The records are the same for 1 and 2 workers.
func TestCommandSearch(t *testing.T) {
	for _, sampler := range []string{SamplerTPE, SamplerRandom, SamplerGrid} {
		for _, prune := range []string{PruneNone, PruneHalving, PruneHyperband} {
			t.Run(sampler+"-"+prune, func(t *testing.T) {
				if testing.Short() && (sampler != SamplerTPE || prune == PruneNone) {
					t.Skip("short: TPE with pruning only")
				}
				testCommandSearch(t, mustLoad(t, programSearch(sampler, prune)), prune)
			})
		}
	}
	// With holdout: the program is also fitted on the graph with edges held out (a
	// graph file of its own), and the search maximises its held-out value.
	t.Run("tpe-halving-heldout", func(t *testing.T) {
		text := strings.Replace(programSearch(SamplerTPE, PruneHalving), "restarts: 2\n", "restarts: 2\nholdout: 0.2\n", 1)
		testCommandSearch(t, mustLoad(t, strings.Replace(text, "rule: modularity", "rule: heldout", 1)), PruneHalving)
	})
}

func testCommandSearch(t *testing.T, cfg *Config, prune string) {
	one, two := t.TempDir(), t.TempDir()
	sum := executeSearch(t, cfg, Options{ResultsDir: one, Workers: 1})
	executeSearch(t, cfg, Options{ResultsDir: two, Workers: 2})
	if a, b := searchRecords(t, one), searchRecords(t, two); !reflect.DeepEqual(a, b) {
		t.Fatalf("1 and 2 workers differ (%d and %d records)", len(a), len(b))
	}
	p, err := planSweep(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := results.Load(one)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != p.searches[0].totalRuns() || sum.Done+sum.Failed != len(recs) || sum.Failed == 0 {
		t.Fatalf("%d records, %+v; want the search's %d fits, some failed", len(recs), sum, p.searches[0].totalRuns())
	}
	rungs := p.searches[0].rungs
	trials := map[int]bool{}
	for _, r := range recs {
		s := r.Search
		if s == nil || s.Row != "Mine" {
			t.Fatalf("record %s without its search", r.RunID)
		}
		trials[s.Trial] = true
		if len(r.Command) != 2 || len(r.CommandFiles) != 1 {
			t.Errorf("trial %d: command %v, files %v; want the argv and the program's SHA-256", s.Trial, r.Command, r.CommandFiles)
		}
		if r.Params["mode"] == commandtest.Exit1 {
			if r.Status != results.StatusFailed || !strings.Contains(r.Error, "ValueError: boom") {
				t.Errorf("trial %d: %s %q, want failed with the program's output", s.Trial, r.Status, r.Error)
			}
			continue
		}
		if r.Status != results.StatusDone {
			t.Fatalf("trial %d: %s %s", s.Trial, r.Status, r.Error)
		}
		if _, ok := r.Metrics[results.MetricHeldOut]; ok != (cfg.Holdout > 0) {
			t.Errorf("trial %d: held-out value recorded %v with holdout %v", s.Trial, ok, cfg.Holdout)
		}
		want := rungs[s.Rung]
		if s.HeldOutOnly { // rule heldout before the last rung: the held-out copy alone, refitted
			if r.Iterations != want || r.IterationsRun != 0 || r.HeldOutIterationsRun != want || r.Labels != "" {
				t.Errorf("trial %d rung %d: iterations %d, run %d, held out %d, labels %q; want %d held out only",
					s.Trial, s.Rung, r.Iterations, r.IterationsRun, r.HeldOutIterationsRun, r.Labels, want)
			}
			continue
		}
		if fmt.Sprint(r.Params["iterations"]) != fmt.Sprint(want) || r.Iterations != want || r.IterationsRun != want || r.Info["iterations"] != fmt.Sprint(want) {
			t.Errorf("trial %d rung %d: params.iterations %v, iterations %d, run %d, the program's %q; want all %d",
				s.Trial, s.Rung, r.Params["iterations"], r.Iterations, r.IterationsRun, r.Info["iterations"], want)
		}
	}
	if len(trials) != 12 {
		t.Errorf("%d trials recorded, want 12", len(trials))
	}
	checkFailedWorst(t, recs)
	if sts := SearchStatusOf(cfg, recs); len(sts) != 1 || sts[0].Finished == 0 {
		t.Errorf("status %+v: want one search with trials through its last rung", sts)
	}
}

// checkFailedWorst checks that the rule ranks a trial whose program failed below every
// trial with a value: at a rung where one of its bracket's trials with a value was cut
// (searchRecords' latest records), no failed trial goes on.
func checkFailedWorst(t *testing.T, recs []results.Record) {
	t.Helper()
	type group struct{ batch, bracket, rung int }
	valueCut, failedOn := map[group]bool{}, map[group]int{}
	for _, r := range results.Latest(recs) {
		s := r.Search
		if s.Rung == s.Rungs-1 {
			continue
		}
		g := group{s.Batch, s.Bracket, s.Rung}
		switch {
		case r.Status == results.StatusDone && s.Cut:
			valueCut[g] = true
		case r.Status == results.StatusFailed && !s.Cut:
			failedOn[g] = s.Trial
		}
	}
	for g, trial := range failedOn {
		if valueCut[g] {
			t.Errorf("batch %d, bracket %d, rung %d: failed trial %d went on, and a trial with a value was cut", g.batch, g.bracket, g.rung, trial)
		}
	}
}

// A search over a program killed mid-fit (the program killed with it) or stopped
// after any number of fits, and run again, ends with the records of one never
// stopped, executing no recorded fit again.
func TestCommandSearchResume(t *testing.T) {
	cfg := mustLoad(t, programSearch(SamplerTPE, PruneHalving))
	whole := t.TempDir()
	executeSearch(t, cfg, Options{ResultsDir: whole, Workers: 2})
	want := searchRecords(t, whole)
	for _, stop := range []int{1, 6, 7, 13} {
		dir := t.TempDir()
		ctx, cancel := context.WithCancel(context.Background())
		n := stop
		s1, err := Execute(ctx, cfg, Options{ResultsDir: dir, Workers: 2, Progress: cancelAfter{&n, cancel}})
		cancel()
		if err != nil || !s1.Interrupted {
			t.Fatalf("killed after %d records: %+v, %v; want interrupted", stop, s1, err)
		}
		s2 := executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 1})
		if got := searchRecords(t, dir); !reflect.DeepEqual(got, want) {
			t.Fatalf("killed after %d records: records differ from one run's", stop)
		}
		// (a fit the other worker finished as the kill came is recorded, not repeated)
		if n1, n2 := s1.Done+s1.Failed, s2.Done+s2.Failed; n1 < stop || n1+n2 != len(want) {
			t.Errorf("killed after %d records: %d + %d fits recorded, want %d in all", stop, n1, n2, len(want))
		}
	}
	dir := t.TempDir()
	executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2, Limit: 5})
	executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2})
	if got := searchRecords(t, dir); !reflect.DeepEqual(got, want) {
		t.Fatal("stopped by --limit 5: records differ from one run's")
	}
}

// results summary of a search over a program: the configuration it chose, a tuned one
// (never the failing program), among the trials that completed the last rung.
func TestCommandSearchSummary(t *testing.T) {
	cfg := mustLoad(t, programSearch(SamplerTPE, PruneHalving))
	b, st := summarizeSearch(t, cfg)
	if len(st) != 1 {
		t.Fatalf("%d searches, want 1", len(st))
	}
	for _, want := range []string{
		fmt.Sprintf("search Mine on synthetic (rule modularity): %d of its 12 trials completed the last rung uncut", st[0].Finished),
		"mode=" + commandtest.Tuned,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "mode="+commandtest.Exit1) {
		t.Errorf("summary chose the failing program:\n%s", b.String())
	}
}

// summarizeSearch runs the searches of cfg on 2 workers into a new folder and returns
// the text of its summary (rule modularity) and the status of each search.
func summarizeSearch(t *testing.T, cfg *Config) (*bytes.Buffer, []SearchStatus) {
	t.Helper()
	dir := t.TempDir()
	executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2})
	s, err := results.SummarizeDir(dir, results.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return &b, SearchStatusOf(cfg, s.Records)
}

// A search over a program whose files changed after runs were recorded (a script
// edited) is refused, naming the change: it is another search.
func TestCommandSearchScriptChangedRefused(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "mine.txt")
	if err := os.WriteFile(script, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := mustLoad(t, programSearch(SamplerRandom, PruneNone, script))
	res := filepath.Join(dir, "res")
	executeSearch(t, cfg, Options{ResultsDir: res, Workers: 1, Limit: 2})
	if err := os.WriteFile(script, []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg = mustLoad(t, programSearch(SamplerRandom, PruneNone, script))
	_, err := Execute(context.Background(), cfg, Options{ResultsDir: res, Workers: 1})
	if err == nil || !strings.Contains(err.Error(), "other settings (command_sha256 [") {
		t.Fatalf("script changed: %v, want the search refused naming command_sha256", err)
	}
}

// A bad space or search on a program row is an error naming its file, line and key
// before anything runs.
func TestCommandSearchConfigErrors(t *testing.T) {
	bin := fmt.Sprintf("%q", os.Args[0])
	head := "datasets: [synthetic]\nrestarts: 2\nmethods:\n  - name: M\n    algorithm: command\n    command: [" + bin + "]\n"
	for _, c := range []struct{ name, row, want string }{
		{"halving without iterations", "    space: {a: [1, 2]}\n    search: {trials: 2, prune: halving}\n",
			"c.yaml:8: prune: a program of yours is not continued from a rung: prune: halving refits it at each rung with params.iterations set to the rung's iterations, and row \"M\" gives no iterations option; give options: {iterations: N}"},
		{"hyperband, iterations not whole", "    options: {iterations: 9.5}\n    space: {a: [1, 2]}\n    search: {trials: 2, prune: hyperband}\n",
			"c.yaml:7: iterations: prune: hyperband gives your program the iterations of each rung as params.iterations: want a whole number of iterations from 2 to 1000000, got 9.5"},
		{"iterations a word", "    options: {iterations: many}\n    space: {a: [1, 2]}\n    search: {trials: 2, prune: halving}\n",
			"c.yaml:7: iterations: prune: halving gives your program"},
		{"min_iterations too high", "    options: {iterations: 9}\n    space: {a: [1, 2]}\n    search: {trials: 2, prune: halving, min_iterations: 9}\n",
			"c.yaml:9: min_iterations: need 1 ≤ min_iterations < the row's 9 iterations, got 9"},
		{"iterations searched", "    space: {iterations: [1, 2]}\n    search: {trials: 2}\n",
			"c.yaml:7: iterations: iterations are a search's resource, not searched"},
		{"fixed and searched", "    options: {a: 1}\n    space: {a: [1, 2]}\n    search: {trials: 2}\n",
			"c.yaml:8: a: set both as a fixed option and in the space"},
		{"reads_labels searched", "    space: {reads_labels: [true, false]}\n    search: {trials: 2}\n",
			"c.yaml:7: reads_labels: reads_labels is a key of the row, not a space"},
		{"grid and space", "    grid: {b: [1, 2]}\n    space: {a: [1, 2]}\n",
			"c.yaml:7: grid: row \"M\" gives both grid and space"},
		{"bad range", "    space: {a: {log: [0, 1]}}\n    search: {trials: 2}\n",
			"c.yaml:7: a: "},
		{"no trials", "    space: {a: {uniform: [0, 1]}}\n", "c.yaml:4: trials: a search needs trials ≥ 1"},
		{"search without space", "    search: {trials: 2}\n", "c.yaml:7: search: row \"M\" has a search block but no space"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig("c.yaml", []byte(head+c.row))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

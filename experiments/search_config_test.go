package experiments

import (
	"strconv"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/search"
)

const searchHead = "restarts: 2\niterations: 30\ndatasets: [synthetic]\n"

func TestSearchConfigParses(t *testing.T) {
	cfg := mustLoad(t, searchHead+`search: {sampler: tpe, trials: 12, rule: ari, prune: halving, min_iterations: 5, first_restarts: 1}
methods:
  - name: P
    algorithm: nagc
    space:
      lambda: {log: [1.0e-10, 100]}
      k2: [k1, 5, 7]
      rho: {uniform: [0.5, 0.995]}
      init_n_init: {int: [1, 16], log: true}
    search: {batch: 4}
`)
	m := cfg.Methods[0]
	s := cfg.searchOf(m)
	if s.Sampler != SamplerTPE || s.Trials != 12 || s.Batch != 4 || s.Eta != 3 || s.MinIterations != 5 || s.FirstRestarts != 1 || s.Rule != results.SelectARI {
		t.Errorf("resolved search %+v", s)
	}
	sp, err := cfg.rowSpace(m)
	if err != nil {
		t.Fatal(err)
	}
	want := search.Space{
		{Name: "init_n_init", Kind: search.Int, Lo: 1, Hi: 16, Log: true},
		{Name: "k2", Kind: search.Choice, Choices: []any{"k1", 5, 7}},
		{Name: "lambda", Kind: search.Float, Lo: 1e-10, Hi: 100, Log: true},
		{Name: "rho", Kind: search.Float, Lo: 0.5, Hi: 0.995},
	}
	if len(sp) != len(want) {
		t.Fatalf("space %+v", sp)
	}
	for i := range want {
		if sp[i].Name != want[i].Name || sp[i].Kind != want[i].Kind || sp[i].Lo != want[i].Lo || sp[i].Hi != want[i].Hi || sp[i].Log != want[i].Log || len(sp[i].Choices) != len(want[i].Choices) {
			t.Errorf("parameter %d: %+v, want %+v", i, sp[i], want[i])
		}
	}
	// A search row plans no grid runs.
	if runs, err := cfg.Expand(map[string]int{"synthetic": 4}); err != nil || len(runs) != 0 {
		t.Errorf("Expand: %d runs, %v", len(runs), err)
	}
}

// Every bad search input is refused before anything runs, naming the file, the line
// and the key.
func TestSearchConfigErrors(t *testing.T) {
	row := func(space, search string) string {
		s := searchHead + "methods:\n  - name: P\n    algorithm: nagc\n    space: " + space + "\n"
		if search != "" {
			s += "    search: " + search + "\n"
		}
		return s
	}
	const ok = "{trials: 5}"
	for _, c := range []struct {
		name, text, want string
		line             int
	}{
		{"lo ≥ hi", row("{lambda: {log: [1, 1]}}", ok), "lambda: need lo < hi", 7},
		{"log bound ≤ 0", row("{lambda: {log: [0, 1]}}", ok), "lambda: a log range needs lo > 0", 7},
		{"int bound not whole", row("{k2: {int: [2.5, 9]}}", ok), "k2: integer bounds must be whole numbers", 7},
		{"unknown parameter", row("{lamda: [1, 2]}", ok), "lamda: nagc has no option lamda", 7},
		{"value the method refuses", row("{rho: {uniform: [0.5, 2]}}", ok), "rho: ρ must be a number in [0, 1]", 7},
		{"iterations searched", row("{iterations: [5, 10]}", ok), "iterations: iterations are a search's resource", 7},
		{"no trials", row("{lambda: [1, 2]}", "{sampler: random}"), "trials: a search needs trials ≥ 1", 8},
		{"too many trials", row("{lambda: {log: [1, 2]}}", "{trials: 900000}"), "trials: 900000 trials × 2 restarts exceed", 8},
		{"eta < 2", row("{lambda: [1, 2]}", "{trials: 5, prune: halving, eta: 1}"), "eta: need eta ≥ 2", 8},
		{"min_iterations too large", row("{lambda: [1, 2]}", "{trials: 5, prune: halving, min_iterations: 30}"), "min_iterations: need 1 ≤ min_iterations < the row's 30 iterations", 8},
		{"first_restarts too large", row("{lambda: [1, 2]}", "{trials: 5, prune: halving, first_restarts: 3}"), "first_restarts: need 1 ≤ first_restarts ≤ restarts (2)", 8},
		{"whole_graph without rule heldout", row("{lambda: [1, 2]}", "{trials: 5, whole_graph: last_rung}"), "whole_graph: whole_graph is a setting of rule heldout only", 8},
		{"unknown whole_graph", "holdout: 0.2\n" + row("{lambda: [1, 2]}", "{trials: 5, rule: heldout, whole_graph: last}"), "whole_graph: unknown whole_graph \"last\" (want last_rung or every_rung)", 9},
		{"hyperband eta < 2", row("{lambda: [1, 2]}", "{trials: 5, prune: hyperband, eta: 1}"), "eta: need eta ≥ 2", 8},
		{"hyperband min_iterations too large", row("{lambda: [1, 2]}", "{trials: 5, prune: hyperband, min_iterations: 30}"), "min_iterations: need 1 ≤ min_iterations < the row's 30 iterations", 8},
		{"misspelt pruner", row("{lambda: [1, 2]}", "{trials: 5, prune: hyperbnd}"), `prune: unknown pruner "hyperbnd" (want none, halving or hyperband) (did you mean 'hyperband'?)`, 8},
		{"unknown sampler", row("{lambda: [1, 2]}", "{trials: 5, sampler: tpf}"), `sampler: unknown sampler "tpf"`, 8},
		{"unknown pruner", row("{lambda: [1, 2]}", "{trials: 5, prune: asha}"), `prune: unknown pruner "asha"`, 8},
		{"heldout without holdout", row("{lambda: [1, 2]}", "{trials: 5, rule: heldout}"), "rule: rule heldout needs holdout", 8},
		{"objective rule", row("{lambda: [1, 2]}", "{trials: 5, rule: objective}"), "rule: a search maximises one of", 8},
		{"unknown search key", row("{lambda: [1, 2]}", "{trials: 5, trails: 4}"), "search: unknown key 'trails'", 8},
		{"grid sampler of a range", row("{lambda: {log: [1, 2]}}", "{sampler: grid}"), "sampler: sampler grid needs a space of lists", 8},
		{"grid and space", searchHead + "methods:\n  - name: P\n    algorithm: nagc\n    grid: {rho: [0.5]}\n    space: {lambda: [1, 2]}\n    search: {trials: 2}\n", "grid: row \"P\" gives both grid and space", 7},
		{"search without space", searchHead + "search: {trials: 3}\nmethods:\n  - {name: P, algorithm: nagc}\n", "search: no method row gives a space", 4},
		{"row search without space", searchHead + "methods:\n  - name: P\n    algorithm: nagc\n    search: {trials: 3}\n", `search: row "P" has a search block but no space`, 7},
		{"bad range kind", row("{lambda: {normal: [1, 2]}}", ok), `lambda: unknown range "normal"`, 7},
		{"no pruning of iterations-free method", searchHead + "methods:\n  - name: P\n    algorithm: kmeans\n    space: {n_init: [1, 2]}\n    search: {trials: 2, prune: halving}\n", "prune: kmeans has no iterations to halve", 8},
		{"no hyperband of iterations-free method", searchHead + "methods:\n  - name: P\n    algorithm: kmeans\n    space: {n_init: [1, 2]}\n    search: {trials: 2, prune: hyperband}\n", "prune: kmeans has no iterations to halve", 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeConfig(t, c.text)
			_, err := LoadConfig(path)
			if err == nil {
				t.Fatalf("accepted:\n%s", c.text)
			}
			want := path + ":" + strconv.Itoa(c.line) + ": " + c.want
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q\nwant prefix %q", err, want)
			}
		})
	}
}

// TestSearchConfigErrorsAllAtOnce checks that the faults of a search's space and
// settings are reported together, each once although a top-level search block serves
// two rows, so that a user fixes them in one pass.
func TestSearchConfigErrorsAllAtOnce(t *testing.T) {
	text := searchHead + // lines 1-3
		"search: {trials: 0, prune: halving, eta: 1, min_iterations: 30}\n" + // 4
		"methods:\n" + // 5
		"  - name: P\n" + // 6
		"    algorithm: nagc\n" + // 7
		"    space:\n" + // 8
		"      lambda: {log: [0, 10]}\n" + // 9
		"      rho: {uniform: [0.9, 0.5]}\n" + // 10
		"      k2: {int: [2.5, 6]}\n" + // 11
		"      gamma: [1, 2]\n" + // 12
		"  - name: Q\n" + // 13
		"    algorithm: nagc\n" + // 14
		"    grid: {rho: [0.5]}\n" + // 15
		"    space: {lambda: {log: [1.0e-3, 1]}}\n" // 16
	path := writeConfig(t, text)
	_, err := LoadConfig(path)
	if err == nil {
		t.Fatal("accepted")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		":12: gamma: nagc has no option gamma",
		":11: k2: integer bounds must be whole numbers",
		":9: lambda: a log range needs lo > 0",
		":10: rho: need lo < hi",
		":4: trials: a search needs trials ≥ 1",
		":4: eta: need eta ≥ 2",
		":4: min_iterations: need 1 ≤ min_iterations < the row's 30 iterations",
		":15: grid: row \"Q\" gives both grid and space",
	}
	for _, w := range want {
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, path+w) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d lines starting %q, want 1, in:\n%s", n, path+w, err)
		}
	}
	if len(lines) != len(want) {
		t.Errorf("%d lines, want the %d faults:\n%s", len(lines), len(want), err)
	}
}

// A fault is reported once, where it is: sampler grid on a range has no trials to count
// (no second fault at trials), and trials above the run cap are refused at trials, not
// again as a grid's "more than … runs".
func TestSearchConfigFaultOnce(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"grid sampler on a range", searchHead + "methods:\n  - name: P\n    algorithm: nagc\n    space: {lambda: {log: [1, 2]}}\n    search: {sampler: grid}\n",
			":8: sampler: sampler grid needs a space of lists only"},
		{"trials above the cap", searchHead + "methods:\n  - name: P\n    algorithm: nagc\n    space: {lambda: {log: [1, 2]}}\n    search: {trials: 900000}\n",
			":8: trials: 900000 trials × 2 restarts exceed the cap"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeConfig(t, c.text)
			_, err := LoadConfig(path)
			if err == nil {
				t.Fatal("accepted")
			}
			if lines := strings.Split(err.Error(), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], path+c.want) {
				t.Errorf("error:\n%v\nwant one line starting %s", err, path+c.want)
			}
		})
	}
}

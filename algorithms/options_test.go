package algorithms

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/testenv"
	"github.com/nagc-harness/nagc/metrics"
)

// goWords are fragments of Go type names and YAML internals that must never reach a user.
var goWords = []string{"algorithms.", "float64", "int64", "!!", "unmarshal", "struct", "yaml:"}

func TestNewErrorsInUsersWords(t *testing.T) {
	for _, c := range []struct {
		method string
		params map[string]any
		want   []string
	}{
		{"snmf", map[string]any{"k2": 5}, []string{"snmf has no option k2 (its options: iterations, normalize, self_loops)"}},
		{"kmeans", map[string]any{"k2": 5}, []string{"kmeans has no option k2", "n_init"}},
		{"nagc", map[string]any{"rho": "abc"}, []string{"rho must be a number (got abc)"}},
		{"nagc", map[string]any{"k2": 2.5}, []string{"k2 must be a whole number (got 2.5)"}},
		{"nagc", map[string]any{"lamda": 0.1}, []string{"nagc has no option lamda (did you mean 'lambda'?)"}},
		{"nagc", map[string]any{"init": "kmean"}, []string{`init "kmean" is not one of random, kmeans, kmeans-median-ari, sgc (did you mean 'kmeans'?)`}},
		{"nagc", map[string]any{"rho": 0}, []string{"rho = 0 gives the graph's edges no weight", "every vertex ends in one cluster"}},
		{"nagc", map[string]any{"rho": 1.5}, []string{"need 0 < rho ≤ 1"}},
		{"nagc", map[string]any{"lambda": -1}, []string{"lambda = -1, need a finite value ≥ 0"}},
		{"jwnmf", map[string]any{"init": "nndsvda"}, []string{`init "nndsvda" is not one of kmeans, random`}},
		{"nmf", map[string]any{"solver": "als"}, []string{`solver "als" is not one of mu, hals`}},
		{"metis", map[string]any{"ptype": "kwy"}, []string{`ptype "kwy" is not one of kway, rb (did you mean 'kway'?)`}},
		{"sgc-kmeans", map[string]any{"norm_after": "maybe"}, []string{"norm_after must be true or false (got maybe)"}},
		{"nagc", map[string]any{"init": 5}, []string{"init must be a word (got 5)"}},
		{"sgc-kmeans", map[string]any{"p": -2}, []string{"p = -2, need 0 or more"}},
		{"bagc", map[string]any{"tol": -1}, []string{"tol = -1"}},
		{"ngac", nil, []string{`unknown method "ngac" (did you mean 'nagc'?)`}},
	} {
		_, err := New(c.method, c.params)
		if err == nil {
			t.Errorf("New(%s, %v): no error", c.method, c.params)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("New(%s, %v) = %q, want it to say %q", c.method, c.params, err, w)
			}
		}
		for _, w := range goWords {
			if strings.Contains(err.Error(), w) {
				t.Errorf("New(%s, %v) = %q speaks Go or YAML (%q)", c.method, c.params, err, w)
			}
		}
		var oe *OptionError
		if c.params != nil && (!errors.As(err, &oe) || oe.Method != c.method) {
			t.Errorf("New(%s, %v) = %v is not an OptionError of %s", c.method, c.params, err, c.method)
		}
	}
}

func TestDefaultsAndSettings(t *testing.T) {
	m, err := New("nagc", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(Settings(m))
	for _, w := range []string{"{lambda 0.01}", "{rho 0.75}", "{k2 0}", "{iterations 0}", "{init }", "{p 0}"} {
		if !strings.Contains(got, w) {
			t.Errorf("Settings(nagc defaults) = %s, lacks %s", got, w)
		}
	}
	m, _ = New("nagc", map[string]any{"rho": 0.5, "init": "random"})
	if a := m.(NAGC); a.Rho != 0.5 || a.Lambda != DefaultNAGCLambda || a.Init != InitRandom {
		t.Errorf("options over defaults: %+v", a)
	}
	m, _ = New("sgc-kmeans", nil)
	if a := m.(SGCKMeans); a.P != DefaultSGCOrder {
		t.Errorf("sgc-kmeans default p = %d, want %d", a.P, DefaultSGCOrder)
	}
	m, _ = New("sgc-kmeans", map[string]any{"p": 0})
	if a := m.(SGCKMeans); a.P != 0 {
		t.Errorf("sgc-kmeans p = 0 given, got %d", a.P)
	}
}

// TestEffectiveKMeansStarts checks that Effective shows the k-means starts a fit uses,
// not the 0 that stands for the default: 10 below SGCLargeN vertices and 1 from there
// (the rule TestNAGCStartsAtLargeN checks of the fits), the given count wherever given,
// for NAGC's init_n_init and sgc-kmeans' n_init alike; and that the method is not changed.
func TestEffectiveKMeansStarts(t *testing.T) {
	for _, c := range []struct {
		method, key string
		params      map[string]any
		n, want     int
	}{
		{"nagc", "init_n_init", nil, 600, 10},
		{"nagc", "init_n_init", nil, SGCLargeN - 1, 10},
		{"nagc", "init_n_init", nil, SGCLargeN, 1},
		{"nagc", "init_n_init", map[string]any{"init_n_init": 3}, SGCLargeN, 3},
		{"nagc", "init_n_init", map[string]any{"init": "kmeans-median-ari"}, 600, 10},
		{"sgc-kmeans", "n_init", nil, 600, 10},
		{"sgc-kmeans", "n_init", nil, SGCLargeN, 1},
		{"sgc-kmeans", "n_init", map[string]any{"n_init": 10}, SGCLargeN, 10},
		{"sgc-kmeans", "n_init", map[string]any{"n_init": 2}, 600, 2},
	} {
		m, err := New(c.method, c.params)
		if err != nil {
			t.Fatal(err)
		}
		before := fmt.Sprint(Settings(m))
		got := -1
		for _, st := range Effective(m, 4, c.n) {
			if st.Key == c.key {
				got, _ = st.Value.(int)
			}
		}
		if got != c.want {
			t.Errorf("%s %v at n = %d: effective %s = %d, want %d", c.method, c.params, c.n, c.key, got, c.want)
		}
		if after := fmt.Sprint(Settings(m)); after != before {
			t.Errorf("%s %v: Effective changed the method's settings from %s to %s", c.method, c.params, before, after)
		}
	}
}

// meanARIAtDefaults fits method at its defaults with seeds 1…5 and returns the mean ARI.
func meanARIAtDefaults(t *testing.T, method string, g *datasets.Graph) float64 {
	t.Helper()
	m, err := New(method, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Adj: g.Adj, X: g.X, Cache: NewCache()}
	sum := 0.0
	for seed := uint64(1); seed <= 5; seed++ {
		res, err := m.Fit(context.Background(), in, g.K(), seed)
		if err != nil {
			t.Fatal(err)
		}
		ari, _ := metrics.ARI(g.Labels, res.Labels)
		sum += ari
	}
	return sum / 5
}

// TestDefaultsClusterWell checks that every method at its defaults clusters the synthetic
// graph well (ARI ≥ 0.8, mean over five seeds) and Cora well above chance: NAGC and
// sgc-kmeans ≥ 0.2, every baseline at least the paper's published mean less 0.03 (the
// paper's JWNMF is the best of a 12-value λ grid chosen by the labels; at its default λ
// ours reaches 0.206 against the paper's 0.230); and on polblog, whose 7 attributes say
// little, every method that reads the graph and beats chance in the paper (NAGC, JWNMF,
// METIS, SNMF) ≥ 0.45.
func TestDefaultsClusterWell(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every method 10 times on Cora")
	}
	syn, err := datasets.Synthetic(datasets.DefaultSynthetic())
	if err != nil {
		t.Fatal(err)
	}
	load := func(name string) *datasets.Graph {
		g, err := datasets.Load(name)
		if errors.Is(err, datasets.ErrNotFound) {
			testenv.Missing(t, "the "+name+" dataset", testenv.FetchHint)
		}
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	cora, polblog := load("cora"), load("polblog")
	// The paper's Table of ARI on Cora (shared/paper/published-results.yaml).
	paper := map[string]float64{"nagc": 0.2, "sgc-kmeans": 0.2 + 0.03, "jwnmf": 0.230, "bagc": 0.016,
		"metis": 0.283, "snmf": 0.211, "nmf": 0.115, "kmeans": 0.093}
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			if name == "metis" {
				requireGPMetis(t)
			}
			if name == "sa-cluster" || name == "inc-cluster" {
				// Deterministic and dense in n: one fit says all, and ten on Cora would
				// take minutes; TestSAClusterCora and the planted-graph tests check them.
				t.Skip("checked by TestSAClusterCora")
			}
			if ari := meanARIAtDefaults(t, name, syn); ari < 0.8 {
				t.Errorf("synthetic: mean ARI %.3f < 0.8", ari)
			}
			want := paper[name] - 0.03
			if name == "nagc" || name == "sgc-kmeans" {
				want = 0.2
			}
			if ari := meanARIAtDefaults(t, name, cora); ari < want {
				t.Errorf("cora: mean ARI %.3f < %.3f", ari, want)
			}
			switch name {
			case "nagc", "jwnmf", "metis", "snmf":
				if ari := meanARIAtDefaults(t, name, polblog); ari < 0.45 {
					t.Errorf("polblog: mean ARI %.3f < 0.45", ari)
				}
			}
		})
	}
}

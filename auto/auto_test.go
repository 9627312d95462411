package auto

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/sparse"
)

// synthetic returns a small planted graph with k clusters.
func synthetic(t *testing.T, k int, seed uint64) *datasets.Graph {
	t.Helper()
	cfg := datasets.DefaultSynthetic()
	cfg.N, cfg.K1, cfg.K2, cfg.Seed = 240, k, k, seed
	cfg.M = 40 * k
	g, err := datasets.Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestChooseKRecoversPlanted: without k1, auto finds the planted number of clusters of
// synthetic graphs with several planted k.
func TestChooseKRecoversPlanted(t *testing.T) {
	for _, k := range []int{2, 3, 5, 8} {
		g := synthetic(t, k, uint64(10+k))
		res, err := Run(context.Background(), Options{Graph: g, Budget: "quick", OutDir: t.TempDir(), Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.K1 != k || !res.KChosen {
			t.Errorf("planted k = %d: chose k1 = %d (curve %+v)", k, res.K1, res.KCurve)
		}
		if *res.ARI < 0.9 {
			t.Errorf("planted k = %d: ARI %.3f", k, *res.ARI)
		}
	}
}

// TestChoiceIgnoresLabels: the graph with its labels, with them permuted over the
// vertices, and without them gives the same k1, the same scores of every candidate, the
// same choice and the same clustering; only the ARI reported after the choice differs.
func TestChoiceIgnoresLabels(t *testing.T) {
	for _, k1 := range []int{0, 3} {
		g := synthetic(t, 3, 7)
		permuted, dropped := *g, *g
		rng := rand.New(rand.NewPCG(1, 2))
		permuted.Labels = slices.Clone(g.Labels)
		rng.Shuffle(len(permuted.Labels), func(i, j int) {
			permuted.Labels[i], permuted.Labels[j] = permuted.Labels[j], permuted.Labels[i]
		})
		dropped.Labels, dropped.ClassNames = nil, nil
		var fits []*Result
		for _, graph := range []*datasets.Graph{g, &permuted, &dropped} {
			res, err := Run(context.Background(), Options{Graph: graph, K1: k1, Budget: "quick", OutDir: t.TempDir(), Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			fits = append(fits, res)
		}
		want := fits[0]
		if want.ARI == nil || fits[1].ARI == nil || fits[2].ARI != nil {
			t.Fatalf("k1 %d: ARI reported %v %v %v, want with labels only", k1, want.ARI, fits[1].ARI, fits[2].ARI)
		}
		if *want.ARI < 0.9 || *fits[1].ARI > 0.1 {
			t.Errorf("k1 %d: ARI %.3f with the labels, %.3f permuted", k1, *want.ARI, *fits[1].ARI)
		}
		for i, got := range fits[1:] {
			if got.K1 != want.K1 || !reflect.DeepEqual(got.KCurve, want.KCurve) {
				t.Errorf("k1 %d, graph %d: k1 %d curve %v, want %d %v", k1, i+1, got.K1, got.KCurve, want.K1, want.KCurve)
			}
			if len(got.Candidates) != len(want.Candidates) {
				t.Fatalf("k1 %d, graph %d: %d candidates, want %d", k1, i+1, len(got.Candidates), len(want.Candidates))
			}
			for j := range want.Candidates {
				a, b := got.Candidates[j], want.Candidates[j]
				if a.Method != b.Method || results.FormatParams(a.Params) != results.FormatParams(b.Params) || a.Score != b.Score {
					t.Errorf("k1 %d, graph %d, rank %d: %s %s %v, want %s %s %v", k1, i+1, j,
						a.Method, results.FormatParams(a.Params), a.Score, b.Method, results.FormatParams(b.Params), b.Score)
				}
			}
			if got.Restart != want.Restart || !slices.Equal(got.Clusters, want.Clusters) {
				t.Errorf("k1 %d, graph %d: a different clustering", k1, i+1)
			}
		}
	}
}

// TestChooseKOneSE checks the one-standard-error rule on hand-made curves.
func TestChooseKOneSE(t *testing.T) {
	for _, tc := range []struct {
		curve []KPoint
		want  int
	}{
		{[]KPoint{{K: 2, Score: 0.3}, {K: 3, Score: 0.5}, {K: 4, Score: 0.4}}, 3},
		// 4 is best but 3 is within its standard error: the fewer clusters.
		{[]KPoint{{K: 2, Score: 0.3}, {K: 3, Score: 0.49}, {K: 4, Score: 0.5, SE: 0.02}}, 3},
		// 2 is within one SE too: the smallest such k.
		{[]KPoint{{K: 2, Score: 0.45}, {K: 3, Score: 0.3}, {K: 4, Score: 0.5, SE: 0.05}}, 2},
		{[]KPoint{{K: 5, Score: -0.1}}, 5},
	} {
		if got := ChooseK(tc.curve); got != tc.want {
			t.Errorf("ChooseK(%v) = %d, want %d", tc.curve, got, tc.want)
		}
	}
}

// TestAgreement checks the mean pairwise ARI and the medoid on hand-made clusterings.
func TestAgreement(t *testing.T) {
	a := []int{0, 0, 1, 1}
	b := []int{1, 1, 0, 0} // a relabelled: ARI 1 with a
	c := []int{0, 1, 0, 1} // ARI(a, c) = −0.5
	mean, medoid, err := Agreement([][]int{c, a, b})
	if err != nil {
		t.Fatal(err)
	}
	// Pairs: (c,a) −0.5, (c,b) −0.5, (a,b) 1 → mean 0; a and b each average 0.25, c −0.5.
	if math.Abs(mean) > 1e-12 || medoid != 1 {
		t.Errorf("Agreement = %v, %d; want 0, 1", mean, medoid)
	}
	if mean, medoid, _ := Agreement([][]int{a}); mean != 1 || medoid != 0 {
		t.Errorf("one clustering: %v, %d", mean, medoid)
	}
	if _, _, err := Agreement(nil); err == nil {
		t.Error("no clusterings: no error")
	}
}

// TestPlaceIsolated: isolated vertices go to the cluster whose attribute centroid is
// most cosine-similar; one without attributes goes to the largest cluster.
func TestPlaceIsolated(t *testing.T) {
	// Vertices 0–2 form cluster 0 (attribute 0), 3–4 cluster 1 (attribute 1); 5 is
	// isolated with attribute 1, 6 isolated with a self-loop and attribute 0, 7 isolated
	// without attributes.
	adj := csr(t, 8, 8, [][3]float64{{0, 1, 1}, {1, 0, 1}, {1, 2, 1}, {2, 1, 1}, {3, 4, 1}, {4, 3, 1}, {6, 6, 1}})
	x := csr(t, 8, 2, [][3]float64{{0, 0, 1}, {1, 0, 2}, {2, 0, 1}, {3, 1, 1}, {4, 1, 3}, {5, 1, 0.5}, {5, 0, 0.1}, {6, 0, 1}})
	g := &datasets.Graph{IDs: make([]string, 8), Adj: adj, X: x}
	got, n, err := PlaceIsolated(g, []int{0, 0, 0, 1, 1, 0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 0, 0, 1, 1, 1, 0, 0}; n != 3 || !slices.Equal(got, want) {
		t.Errorf("PlaceIsolated = %v, %d isolated; want %v, 3", got, n, want)
	}
}

func csr(t *testing.T, r, c int, entries [][3]float64) *sparse.CSR {
	t.Helper()
	b := sparse.NewBuilder(r, c)
	for _, e := range entries {
		if err := b.Add(int(e[0]), int(e[1]), e[2]); err != nil {
			t.Fatal(err)
		}
	}
	return b.CSR(sparse.SumDuplicates)
}

// TestWrite checks the output files: one id<TAB>cluster line per vertex, the choice as
// JSON with the version, method and settings, and the report naming the version.
func TestWrite(t *testing.T) {
	g := synthetic(t, 3, 3)
	dir := t.TempDir()
	res, err := Run(context.Background(), Options{Graph: g, K1: 3, Budget: "quick", OutDir: dir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Write(dir, g); err != nil {
		t.Fatal(err)
	}
	tsv, err := os.ReadFile(filepath.Join(dir, ClustersFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(tsv), "\n"), "\n")
	if len(lines) != g.N() {
		t.Fatalf("%d lines, want %d", len(lines), g.N())
	}
	for i, l := range lines {
		if want := g.IDs[i] + "\t" + strconv.Itoa(res.Clusters[i]); l != want {
			t.Fatalf("line %d = %q, want %q", i+1, l, want)
		}
	}
	js, err := os.ReadFile(filepath.Join(dir, ChoiceFile))
	if err != nil {
		t.Fatal(err)
	}
	var choice struct {
		Version, Method, Settings string
		K1                        int
		Candidates                []Candidate
		RunnerUp                  *Candidate `json:"runner_up"`
		ARI                       *float64
	}
	if err := json.Unmarshal(js, &choice); err != nil {
		t.Fatal(err)
	}
	if choice.Version != Version || choice.Method != res.Chosen().Method || choice.Settings != results.FormatParams(res.Chosen().Params) ||
		choice.K1 != 3 || len(choice.Candidates) != len(res.Candidates) || choice.RunnerUp == nil || choice.ARI == nil {
		t.Errorf("choice.json: %s", js)
	}
	report, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{Version, "runner-up", "mean pairwise ARI", "computed after the choice", "label-selected: reads the labels"} {
		if !bytes.Contains(report, []byte(want)) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	// Run again: every run is recorded, so nothing is fitted and the choice is the same.
	again, err := Run(context.Background(), Options{Graph: g, K1: 3, Budget: "quick", OutDir: dir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Clusters, res.Clusters) || again.Chosen().Score != res.Chosen().Score {
		t.Error("a resumed run chose differently")
	}
	// Another k1 and another seed in the same folder: their own runs, not these.
	for _, opt := range []Options{{K1: 2}, {K1: 3, Seed: 2}} {
		opt.Graph, opt.Budget, opt.OutDir, opt.Workers = g, "quick", dir, 2
		other, err := Run(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := Run(context.Background(), Options{Graph: g, K1: opt.K1, Seed: opt.Seed, Budget: "quick", OutDir: t.TempDir(), Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(scores(other), scores(fresh)) || !slices.Equal(other.Clusters, fresh.Clusters) {
			t.Errorf("k1 %d seed %d in a used folder: a different choice than in a new one", opt.K1, opt.Seed)
		}
	}
}

// TestErrors: bad options are refused in the user's words.
// noAttributes returns g with its attributes dropped (m = 0).
func noAttributes(g *datasets.Graph) *datasets.Graph {
	h := *g
	h.X, _ = sparse.NewCSR(g.N(), 0, make([]int, g.N()+1), nil, nil)
	return &h
}

func TestErrors(t *testing.T) {
	g := synthetic(t, 2, 1)
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{Graph: g, Budget: "huge"}, `unknown budget "huge" (known: quick, standard, thorough)`},
		{Options{Graph: g, K1: 1000}, "k1 = 1000 clusters for a graph of 240 vertices"},
		{Options{Graph: &datasets.Graph{}}, "the graph has no vertices"},
		{Options{Graph: noAttributes(g)}, "the graph has no attributes, and every candidate of auto reads them (NAGC, SGC k-means on filtered attributes); cluster it with nagc cluster --method metis or snmf"},
	} {
		tc.opt.OutDir = t.TempDir()
		_, err := Run(context.Background(), tc.opt)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Run(%+v): %v, want %q", tc.opt, err, tc.want)
		}
	}
}

// TestBudgets: every budget's shipped config loads, with k1-selection rows, candidate
// rows and a hold-out, and the budgets grow.
func TestBudgets(t *testing.T) {
	prev := 0
	for _, b := range Budgets {
		cfg, krows, err := LoadBudget(b)
		if err != nil {
			t.Fatal(err)
		}
		if len(krows) != 2 || cfg.Holdout != 0.2 {
			t.Errorf("budget %s: %d k1 rows, holdout %v", b, len(krows), cfg.Holdout)
		}
		trials := 0
		for _, m := range cfg.Methods {
			s := m.Search
			if len(m.Grid) > 0 || len(m.Space) == 0 || s == nil || s.Sampler != experiments.SamplerGrid || s.Rule != results.SelectHeldOut {
				t.Errorf("budget %s: row %q is not a grid-sampled search under rule heldout (grid %d keys, space %d, search %+v)",
					b, m.Name.Value, len(m.Grid), len(m.Space), s)
				continue
			}
			trials += s.Batch
		}
		if trials <= prev {
			t.Errorf("budget %s: %d trials after %d", b, trials, prev)
		}
		prev = trials
	}
}

// TestWorkersSameChoice: one worker (runs in plan order) and two or three (runs handed out
// longest first) give the same choice.json, candidates' scores and clustering, with k1
// given and chosen.
func TestWorkersSameChoice(t *testing.T) {
	g := synthetic(t, 3, 5)
	for _, k1 := range []int{3, 0} {
		var want []byte
		var clusters []int
		for _, w := range []int{1, 2, 3} {
			res, err := Run(context.Background(), Options{Graph: g, K1: k1, Budget: "quick", OutDir: t.TempDir(), Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			res.Seconds = 0
			got, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			if w == 1 {
				want, clusters = got, res.Clusters
				continue
			}
			if !bytes.Equal(got, want) || !slices.Equal(res.Clusters, clusters) {
				t.Errorf("k1 %d: %d workers chose differently from one:\n%s\n%s", k1, w, got, want)
			}
		}
	}
}

// scores lists the candidates of r as "method settings score runs", best first.
func scores(r *Result) []string {
	var out []string
	for _, c := range r.Candidates {
		out = append(out, fmt.Sprintf("%s %s %v %d", c.Method, results.FormatParams(c.Params), c.Score, c.Runs))
	}
	return out
}

// TestBudgetRestarts: the quick budget fits one restart from QuickOneRestartN vertices and
// its config's restarts below; the other budgets keep theirs at any size.
func TestBudgetRestarts(t *testing.T) {
	for _, tc := range []struct {
		budget      string
		restarts, n int
		want        int
	}{
		{"quick", 2, QuickOneRestartN - 1, 2},
		{"quick", 2, QuickOneRestartN, 1},
		{"quick", 2, 169_343, 1},
		{"standard", 3, 169_343, 3},
		{"thorough", 5, 2_449_029, 5},
	} {
		if got := budgetRestarts(tc.budget, tc.restarts, tc.n); got != tc.want {
			t.Errorf("budgetRestarts(%q, %d, %d) = %d, want %d", tc.budget, tc.restarts, tc.n, got, tc.want)
		}
	}
}

// TestQuickOneRestartLarge runs the quick budget on a graph at the one-restart size (the
// size lowered for the test): every candidate is fitted once, the first restart's runs
// are the same records as with two restarts, and the report says no agreement was
// measured.
func TestQuickOneRestartLarge(t *testing.T) {
	g := synthetic(t, 3, 5)
	twoDir := t.TempDir()
	two, err := Run(context.Background(), Options{Graph: g, K1: 3, Budget: "quick", OutDir: twoDir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { QuickOneRestartN = n }(QuickOneRestartN)
	QuickOneRestartN = g.N()
	dir := t.TempDir()
	one, err := Run(context.Background(), Options{Graph: g, K1: 3, Budget: "quick", OutDir: dir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if two.Restarts != 2 || one.Restarts != 1 {
		t.Fatalf("restarts %d and %d, want 2 below the size and 1 at it", two.Restarts, one.Restarts)
	}
	if len(one.Candidates) != len(two.Candidates) {
		t.Fatalf("%d candidates with one restart, %d with two", len(one.Candidates), len(two.Candidates))
	}
	twoRecs, err := results.Load(CandidatesDir(twoDir, "quick", 1, 3))
	if err != nil {
		t.Fatal(err)
	}
	first := map[string]float64{} // held-out modularity of restart 0, by row and settings
	for _, r := range twoRecs {
		if r.Restart == 0 && r.K1 == 3 {
			first[r.Methods[0]+" "+results.FormatParams(r.Params)] = r.Metrics[results.MetricHeldOut]
		}
	}
	for _, c := range one.Candidates {
		key := c.Method + " " + results.FormatParams(c.Params)
		if c.Runs != 1 || c.Score != first[key] {
			t.Errorf("%s: %d runs scoring %v, want 1 run scoring %v (restart 0 of two)", key, c.Runs, c.Score, first[key])
		}
	}
	recs, err := results.Load(CandidatesDir(dir, "quick", 1, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Restart != 0 {
			t.Fatalf("a run of restart %d recorded", r.Restart)
		}
	}
	var rep bytes.Buffer
	one.Report(&rep)
	if !strings.Contains(rep.String(), "1 restart each") || !strings.Contains(rep.String(), "no agreement between restarts measured") {
		t.Errorf("the report does not say it fitted one restart:\n%s", rep.String())
	}
}

// TestSignedAttributes: a graph whose dense attributes hold negative values (centred,
// as embeddings are) is clustered from the candidates that take them, the NAGC rows
// (which refuse such attributes) left out with a warning, with k1 chosen or given.
func TestSignedAttributes(t *testing.T) {
	g := synthetic(t, 3, 5)
	n, m := g.X.Dims()
	data := make([]float64, n*m)
	for i := 0; i < n; i++ {
		cols, vals := attrtest.Sparse(g.X).Row(i)
		for k, j := range cols {
			data[i*m+j] = vals[k]
		}
	}
	for j := 0; j < m; j++ { // centre every column
		mean := 0.0
		for i := 0; i < n; i++ {
			mean += data[i*m+j] / float64(n)
		}
		for i := 0; i < n; i++ {
			data[i*m+j] -= mean
		}
	}
	g.X = dense.NewMatrix64(n, m, data)
	for _, k1 := range []int{0, 3} {
		res, err := Run(context.Background(), Options{Graph: g, K1: k1, Budget: "quick", OutDir: t.TempDir(), Workers: 2})
		if err != nil {
			t.Fatalf("k1 %d: %v", k1, err)
		}
		if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, "negative values") || !strings.Contains(w, "Prop.") {
			t.Errorf("k1 %d: warnings %q, want the left-out NAGC rows named", k1, res.Warnings)
		}
		for _, c := range res.Candidates {
			if strings.HasPrefix(c.Method, "Prop.") {
				t.Errorf("k1 %d: candidate %s ran on negative attributes", k1, c.Method)
			}
		}
		if res.K1 != 3 || *res.ARI < 0.9 {
			t.Errorf("k1 %d: chose k1 = %d, ARI %.3f; want 3 and the planted clusters", k1, res.K1, *res.ARI)
		}
	}
}

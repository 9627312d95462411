package auto

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/results"
)

// Version names the rule and candidate sets of this package. Any change to the rule, to
// the k1 range, to the budgets' restarts or to a shipped configs/auto-*.yaml is a new
// version. auto v2 is auto v1 with the quick budget's restarts cut to one from
// QuickOneRestartN vertices (below, the same runs and choices as v1). auto v3 runs the
// candidates as searches (presetConfig): quick's choices are v2's; standard and thorough
// continue only the best third of their t = 10 points to t = 30.
const Version = "auto v3"

// QuickOneRestartN is the number of vertices from which the quick budget fits every
// candidate with one restart instead of its config's restarts, so that quick stays within
// minutes at the size of ogbn-arxiv (docs/auto.md). A variable so that tests can lower it.
var QuickOneRestartN = 100_000

// budgetRestarts returns the restarts of budget b for a graph of n vertices, whose config
// declares restarts.
func budgetRestarts(b string, restarts, n int) int {
	if b == "quick" && n >= QuickOneRestartN {
		return 1
	}
	return restarts
}

// Budgets lists the budgets, cheapest first; each names the shipped config
// "auto-BUDGET".
var Budgets = []string{"quick", "standard", "thorough"}

// KSelectionRow begins the names of the rows of an auto config that are run over the k1
// range when the number of clusters is not given; the config's other rows are the
// candidates.
const KSelectionRow = "k1 selection"

// K1Min and K1Max bound the number of clusters chosen when none is given.
const (
	K1Min = 2
	K1Max = 30
)

// coarseK are the values of k1 tried first; the integers between the neighbours of the
// best of them are tried next (coarse to fine).
var coarseK = []int{2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30}

// UnstableAgreement is the mean pairwise ARI between the restarts of the chosen point
// below which the report warns that the clustering is unstable.
const UnstableAgreement = 0.8

// Options configure Run.
type Options struct {
	// Graph is the graph to cluster. Its labels, if any, are read only after the choice.
	Graph *datasets.Graph
	// Name is the graph's name in the report (default Graph.Name).
	Name string
	// K1 is the number of clusters; 0 chooses it from K1Min…K1Max.
	K1 int
	// Budget is one of Budgets (default "standard").
	Budget string
	// OutDir is the folder written: the label-free copy of the graph, the recorded runs
	// (resumable) and the outputs (see Result.Write).
	OutDir string
	// Seed is the base seed of every run (default 1).
	Seed uint64
	// Workers is the number of runs executed at once (< 1: all cores).
	Workers int
	// Progress, when set, is told about each sweep (the k1 range, then the candidates).
	Progress experiments.Progress
}

// Candidate is one grid point of the candidate set, scored over its restarts.
type Candidate struct {
	Method string         `json:"method"`
	Params map[string]any `json:"params"`
	// Score is the mean held-out modularity over Runs restarts, SD its population std.
	Score float64 `json:"heldout_modularity"`
	SD    float64 `json:"heldout_modularity_sd"`
	Runs  int     `json:"runs"`

	records []results.Record
}

// KPoint is one point of the k1 curve: the best mean held-out modularity of the
// k1-selection rows with K clusters, the row that has it, and that row's population std
// and standard error over Runs restarts.
type KPoint struct {
	K     int     `json:"k"`
	Row   string  `json:"row"`
	Score float64 `json:"heldout_modularity"`
	SD    float64 `json:"sd"`
	SE    float64 `json:"se"`
	Runs  int     `json:"runs"`
}

// Result is what Run chose and why.
type Result struct {
	Version string `json:"version"`
	Budget  string `json:"budget"`
	Graph   string `json:"graph"`
	Seed    uint64 `json:"seed"`
	// Holdout is the fraction of edges each run's second fit holds out.
	Holdout float64 `json:"holdout"`
	// Restarts is the number of restarts of every candidate (the budget's, or one for the
	// quick budget from QuickOneRestartN vertices).
	Restarts int `json:"restarts"`
	// K1 is the number of clusters; KChosen whether Run chose it (KCurve then holds the
	// curve it chose from, in increasing k).
	K1      int      `json:"k1"`
	KChosen bool     `json:"k1_chosen"`
	KCurve  []KPoint `json:"k1_curve,omitempty"`
	// Candidates are every scored grid point, best first; Candidates[0] is the choice.
	Candidates []Candidate `json:"candidates"`
	// Restart is the restart of the chosen point whose clustering is returned: the one
	// agreeing most with the others (highest mean ARI to them; the first on a tie).
	Restart int `json:"restart"`
	// Agreement is the mean pairwise ARI between the restarts of the chosen point.
	Agreement float64 `json:"restart_agreement"`
	// Warnings say where the choice is unstable or close.
	Warnings []string `json:"warnings,omitempty"`
	// Clusters is the clustering, one cluster per vertex in the graph's order, isolated
	// vertices placed by PlaceIsolated; Isolated counts them.
	Clusters []int `json:"-"`
	Isolated int   `json:"isolated"`
	// ARI and ARIConnected (over the vertices with an edge) are computed after the choice
	// where the graph has labels; nil otherwise.
	ARI          *float64 `json:"ari,omitempty"`
	ARIConnected *float64 `json:"ari_connected,omitempty"`
	// Scored is the number of labelled vertices, the ones ARI scores (fewer than n for
	// a partly labelled graph).
	Scored int `json:"scored,omitempty"`
	// ChosenLabels scores every restart of the chosen point against the labels, and
	// LabelSelected is the candidate with the best mean ARI: the label-selected point of
	// the same candidate set, for comparison only (it reads the labels). Both are
	// computed after the choice, where the graph has labels; nil otherwise.
	ChosenLabels  *LabelScore `json:"chosen_label_scores,omitempty"`
	LabelSelected *LabelScore `json:"label_selected,omitempty"`
	// Seconds is the wall time of Run.
	Seconds float64 `json:"seconds"`
}

// Chosen returns the chosen candidate.
func (r *Result) Chosen() *Candidate { return &r.Candidates[0] }

// RunnerUp returns the second-best candidate, or nil when there is only one.
func (r *Result) RunnerUp() *Candidate {
	if len(r.Candidates) < 2 {
		return nil
	}
	return &r.Candidates[1]
}

// LoadBudget returns the config of budget b, the shipped config made a preset of the
// search engine (presetConfig: each candidate row a search of its grid under rule
// heldout), and its k1-selection rows, split from the candidate rows (which the
// returned config keeps).
func LoadBudget(b string) (*experiments.Config, []experiments.MethodSpec, error) {
	if !slices.Contains(Budgets, b) {
		return nil, nil, fmt.Errorf("unknown budget %q (known: %s)", b, strings.Join(Budgets, ", "))
	}
	cfg, err := presetConfig(b)
	if err != nil {
		return nil, nil, err
	}
	var krows, cands []experiments.MethodSpec
	for _, m := range cfg.Methods {
		if strings.HasPrefix(m.Name.Value, KSelectionRow) {
			krows = append(krows, m)
		} else {
			cands = append(cands, m)
		}
	}
	if len(krows) == 0 || len(cands) == 0 || cfg.Holdout <= 0 {
		return nil, nil, fmt.Errorf("config auto-%s needs rows named %q…, candidate rows and holdout", b, KSelectionRow)
	}
	cfg.Methods = cands
	return cfg, krows, nil
}

// Run clusters opt.Graph: it writes a label-free copy of the graph into opt.OutDir,
// chooses k1 when it is not given, runs the budget's candidates with held-out fits
// (experiments.Execute, resumable in opt.OutDir/runs), picks the best mean held-out
// modularity, places isolated vertices by their attributes, and only then, where the
// graph has labels, computes the ARI. Cost: the budget's runs, two fits each.
func Run(ctx context.Context, opt Options) (*Result, error) {
	start := time.Now()
	g := opt.Graph
	if err := opt.setDefaults(); err != nil {
		return nil, err
	}
	cfg, krows, err := LoadBudget(opt.Budget)
	if err != nil {
		return nil, err
	}
	res := &Result{Version: Version, Budget: opt.Budget, Graph: opt.Name, Seed: opt.Seed, K1: opt.K1}
	if cfg.Methods, krows, err = res.forSignedAttributes(g, cfg.Methods, krows); err != nil {
		return nil, err
	}
	graphDir := filepath.Join(opt.OutDir, "graph")
	if err := WriteUnlabeled(graphDir, g); err != nil {
		return nil, err
	}
	if graphDir, err = filepath.Abs(graphDir); err != nil {
		return nil, err
	}
	// One results folder per budget and seed: run ids do not hold the base seed, and a
	// folder holds only its budget's grid points and restarts. The candidates' searches
	// go into one per k1 as well (CandidatesDir): a folder holds one search of a row on
	// a graph.
	runsDir := filepath.Join(opt.OutDir, "runs", fmt.Sprintf("%s-seed%d", opt.Budget, opt.Seed))
	exec := experiments.Options{ResultsDir: runsDir, Workers: opt.Workers, Progress: opt.Progress, SeveralK1: true}
	entry := func(name string, k int) experiments.DatasetEntry {
		return experiments.DatasetEntry{Name: name, Path: graphDir, Format: UnlabeledFormat(g), Labels: "none", K1: k}
	}
	cfg.Seed, res.Holdout = opt.Seed, cfg.Holdout
	cfg.Restarts = budgetRestarts(opt.Budget, cfg.Restarts, g.N())
	res.Restarts = cfg.Restarts

	if res.K1 == 0 {
		res.KChosen = true
		kcfg := *cfg
		kcfg.Methods = krows
		res.K1, res.KCurve, err = chooseK(ctx, &kcfg, exec, g.N(), entry)
		if err != nil {
			return nil, err
		}
	}
	cfg.Datasets = []experiments.DatasetEntry{entry("graph", res.K1)}
	exec.ResultsDir = CandidatesDir(opt.OutDir, opt.Budget, opt.Seed, res.K1)
	if err := execute(ctx, cfg, exec); err != nil {
		return nil, err
	}
	recs, err := results.Load(exec.ResultsDir)
	if err != nil {
		return nil, err
	}
	res.Candidates = candidates(recs, "graph", res.K1, cfg)
	if len(res.Candidates) == 0 {
		return nil, errors.New("no candidate finished with a held-out score")
	}
	if err := res.settle(g); err != nil {
		return nil, err
	}
	// Labels are read here, after the choice, and only to report.
	if g.Labeled() {
		if err := res.scoreChoice(g); err != nil {
			return nil, err
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// CandidatesDir returns the results folder, under the output folder out, of the
// candidates' searches of budget b with base seed s and k1 clusters:
// out/runs/b-seeds-kk1 (such as auto-cora/runs/quick-seed1-k7).
func CandidatesDir(out, b string, s uint64, k1 int) string {
	return filepath.Join(out, "runs", fmt.Sprintf("%s-seed%d-k%d", b, s, k1))
}

// forSignedAttributes returns the candidate and k1-selection rows that can fit g: all of
// them, unless g's (dense) attributes hold a negative value (embeddings), which the rows
// of the methods that factorise the attributes (NAGC, NMF:
// algorithms.NeedsNonNegativeAttributes) refuse; those rows are then left out, with a
// warning in res, rather than run to fail. Either set left empty is an error.
func (res *Result) forSignedAttributes(g *datasets.Graph, cands, krows []experiments.MethodSpec) ([]experiments.MethodSpec, []experiments.MethodSpec, error) {
	_, d := g.StoredX()
	if d == nil {
		return cands, krows, nil
	}
	i, j, negative := d.FirstNegative()
	if !negative {
		return cands, krows, nil
	}
	var left []string
	keep := func(rows []experiments.MethodSpec) []experiments.MethodSpec {
		return slices.DeleteFunc(slices.Clone(rows), func(r experiments.MethodSpec) bool {
			m, err := algorithms.New(r.Algorithm.Value, nil)
			if err != nil || !algorithms.NeedsNonNegativeAttributes(m) {
				return false
			}
			left = append(left, r.Name.Value)
			return true
		})
	}
	cands, krows = keep(cands), keep(krows)
	if len(cands) == 0 || len(krows) == 0 {
		return nil, nil, fmt.Errorf("the attributes have negative values (the first at vertex %d, column %d), which every candidate of budget %s refuses", i, j, res.Budget)
	}
	res.Warnings = append(res.Warnings, fmt.Sprintf("the attributes have negative values (the first at vertex %d, column %d), which NAGC and NMF refuse: the rows %s are left out, and auto chooses among the others",
		i, j, strings.Join(left, ", ")))
	return cands, krows, nil
}

// setDefaults checks the options' graph and k1 and fills the defaults: budget
// standard, seed 1, the graph's name.
func (opt *Options) setDefaults() error {
	g := opt.Graph
	if g == nil || g.N() == 0 {
		return errors.New("the graph has no vertices")
	}
	if g.M() == 0 {
		return errors.New("the graph has no attributes, and every candidate of auto reads them (NAGC, SGC k-means on filtered attributes); cluster it with nagc cluster --method metis or snmf")
	}
	if opt.Budget == "" {
		opt.Budget = "standard"
	}
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	if opt.Name == "" {
		opt.Name = g.Name
	}
	if opt.K1 < 0 || opt.K1 > g.N() {
		return fmt.Errorf("k1 = %d clusters for a graph of %d vertices", opt.K1, g.N())
	}
	return nil
}

// scoreChoice scores the chosen clustering against g's labels (ARI, ARI over connected
// pairs, the vertices scored, and labelScores), for the report only.
func (res *Result) scoreChoice(g *datasets.Graph) error {
	ari, err := metrics.ARI(g.Labels, res.Clusters)
	if err != nil {
		return err
	}
	ariC, err := metrics.ARIConnected(g.Labels, res.Clusters, g.Adj)
	if err != nil {
		return err
	}
	res.ARI, res.ARIConnected = &ari, &ariC
	res.Scored = metrics.Scored(g.Labels)
	return res.labelScores(g)
}

// execute runs cfg and turns an interrupted or partly failed sweep into an error.
func execute(ctx context.Context, cfg *experiments.Config, opt experiments.Options) error {
	sum, err := experiments.Execute(ctx, cfg, opt)
	if err != nil {
		return err
	}
	if sum.Interrupted || ctx.Err() != nil {
		return experiments.ErrInterrupted
	}
	return sum.Err()
}

// candidates scores every point the searches of cfg's rows fitted on dataset d with k1
// clusters, at every rung (a point fitted to 10 iterations and continued to 30 is two
// candidates, as the grid's t ∈ {10, 30} was), best mean held-out modularity first;
// ties keep the config's order of rows and trials. Points without a held-out score are
// left out.
func candidates(recs []results.Record, d string, k1 int, cfg *experiments.Config) []Candidate {
	recs = slices.DeleteFunc(slices.Clone(recs), func(r results.Record) bool { return r.K1 != k1 })
	for i := range recs {
		recs[i].Search = nil // every rung a point of its own for Aggregate, cut or not
	}
	rowOrder := map[string]int{}
	for i, m := range cfg.Methods {
		rowOrder[m.Name.Value] = i
	}
	var out []Candidate
	for _, ps := range results.Aggregate(recs) {
		if ps.Dataset != d || ps.Runs == 0 {
			continue
		}
		if _, ok := rowOrder[ps.Method]; !ok {
			continue
		}
		score, ok := ps.Mean[results.MetricHeldOut]
		if !ok || math.IsNaN(score) {
			continue
		}
		out = append(out, Candidate{Method: ps.Method, Params: ps.Params, Score: score,
			SD: ps.Std[results.MetricHeldOut], Runs: ps.Runs, records: ps.Records})
	}
	slices.SortStableFunc(out, func(a, b Candidate) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(rowOrder[a.Method], rowOrder[b.Method])
	})
	return out
}

// settle computes, for the chosen candidate, its restarts' clusterings with isolated
// vertices placed by PlaceIsolated, their agreement, the clustering returned (the
// medoid restart's) and the warnings.
func (r *Result) settle(g *datasets.Graph) error {
	c := r.Chosen()
	parts := make([][]int, len(c.records))
	for i, rec := range c.records {
		p, err := results.DecodeLabels(rec.Labels)
		if err != nil {
			return err
		}
		if len(p) != g.N() {
			return fmt.Errorf("a recorded clustering has %d vertices, the graph %d", len(p), g.N())
		}
		if parts[i], r.Isolated, err = PlaceIsolated(g, p); err != nil {
			return err
		}
	}
	agree, medoid, err := Agreement(parts)
	if err != nil {
		return err
	}
	r.Agreement, r.Restart, r.Clusters = agree, c.records[medoid].Restart, parts[medoid]
	if len(parts) > 1 && agree < UnstableAgreement {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"unstable: the restarts of the chosen point agree only %.2f (mean pairwise ARI < %.2f); another seed may give a different clustering", agree, UnstableAgreement))
	}
	if ru := r.RunnerUp(); ru != nil {
		se := c.SD / math.Sqrt(float64(max(c.Runs, 1)))
		if c.Score-ru.Score <= se {
			r.Warnings = append(r.Warnings, fmt.Sprintf(
				"close call: the runner-up (%s %s) scores within one standard error of the choice (%.4f vs %.4f, SE %.4f)",
				ru.Method, results.FormatParams(ru.Params), ru.Score, c.Score, se))
		}
	}
	if r.KChosen {
		for _, p := range r.KCurve {
			if p.K == r.K1 && (p.K == K1Max || p.K == K1Min) {
				r.Warnings = append(r.Warnings, fmt.Sprintf("k1 = %d is at the end of the range %d…%d: the graph may want a k1 outside it (give --k1)", p.K, K1Min, K1Max))
			}
		}
	}
	return nil
}

// Agreement returns the mean ARI over pairs of the clusterings parts (1 for a single
// one) and the index of the medoid: the clustering with the highest mean ARI to the
// others (the first on a tie). Cost O(len(parts)² · n).
func Agreement(parts [][]int) (mean float64, medoid int, err error) {
	if len(parts) == 0 {
		return 0, 0, errors.New("no clusterings")
	}
	if len(parts) == 1 {
		return 1, 0, nil
	}
	row := make([]float64, len(parts))
	pairs := 0
	for i := range parts {
		for j := i + 1; j < len(parts); j++ {
			a, err := metrics.ARI(parts[i], parts[j])
			if err != nil {
				return 0, 0, err
			}
			mean += a
			row[i] += a
			row[j] += a
			pairs++
		}
	}
	for i := range row {
		if row[i] > row[medoid] {
			medoid = i
		}
	}
	return mean / float64(pairs), medoid, nil
}

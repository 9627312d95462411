package experiments

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/algorithms/command"
	"github.com/nagc-harness/nagc/internal/suggest"
	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/search"
)

// SearchSpec says how the rows of a config that give a space (MethodSpec.Space) are
// searched: a top-level `search:` block for every such row, which a row's own block
// overrides key by key.
//
//	search: {sampler: tpe, trials: 60, batch: 10, rule: ari, prune: halving,
//	         min_iterations: 10, eta: 3, first_restarts: 2}
type SearchSpec struct {
	// Sampler proposes the configurations: tpe (the default), random, or grid (every
	// combination of a space of lists, in order).
	Sampler string `yaml:"sampler"`
	// Trials is the number of configurations tried per dataset and row (required; for
	// sampler grid, the number of combinations when not given).
	Trials int `yaml:"trials"`
	// Batch is the number of configurations proposed at once (default 10): each batch
	// is proposed from the results of the batches before it, and is one bracket of
	// successive halving. A config value, never the number of workers, so that the
	// trials are the same on any machine.
	Batch int `yaml:"batch"`
	// Rule is the selection rule the search maximises: modularity (the default),
	// two-view, heldout (with holdout > 0) or ari (which reads the labels).
	Rule string `yaml:"rule"`
	// Prune is none (the default: every trial runs all iterations and restarts),
	// halving (successive halving; see searchTask.execute) or hyperband (brackets of
	// successive halving starting at each rung in turn, Li et al. 2018).
	Prune string `yaml:"prune"`
	// MinIterations is the iterations of the first rung of halving (default: the row's
	// iterations / eta² rounded up); rungs follow at MinIterations·etaᵏ up to the row's
	// iterations.
	MinIterations int `yaml:"min_iterations"`
	// Eta is the reduction factor of halving (default 3): the best 1/Eta of a rung go on.
	Eta int `yaml:"eta"`
	// FirstRestarts is the restarts a trial gets at the first rung of halving (default:
	// all the config's restarts); the survivors get all restarts.
	FirstRestarts int `yaml:"first_restarts"`
	// WholeGraph is when a search with rule heldout fits the whole graph: last_rung (the
	// default: the rungs before the last fit only the held-out copy the rule reads, so a
	// cut trial costs no whole-graph fit) or every_rung (a whole-graph fit beside every
	// held-out one, as a grid has). Only with rule heldout: the other rules read the
	// whole-graph fit.
	WholeGraph string `yaml:"whole_graph"`

	// line is the block's line and lines the line of each key given.
	line  int
	lines map[string]int
}

// Samplers and pruners of a search.
const (
	SamplerTPE     = "tpe"
	SamplerRandom  = "random"
	SamplerGrid    = "grid"
	PruneNone      = "none"
	PruneHalving   = "halving"
	PruneHyperband = "hyperband"
	// WholeGraphLastRung and WholeGraphEveryRung are the values of SearchSpec.WholeGraph.
	WholeGraphLastRung  = "last_rung"
	WholeGraphEveryRung = "every_rung"
)

// reflectSearchSpec is the type of a search block, for its keys.
var reflectSearchSpec = reflect.TypeOf(SearchSpec{})

// searchRules are the rules a search can maximise (all higher-is-better).
var searchRules = []string{results.SelectModularity, results.SelectTwoView, results.SelectHeldOut, results.SelectARI}

// UnmarshalYAML decodes a search block, remembering the line of each key and refusing
// unknown keys.
func (s *SearchSpec) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: search: want a mapping (sampler: …, trials: …)", n.Line)
	}
	keys := yamlFieldNames(reflectSearchSpec)
	lines := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !contains(keys, k.Value) {
			return fmt.Errorf("line %d: search: unknown key '%s'%s (keys here: %s)", k.Line, k.Value,
				suggest.DidYouMean(k.Value, keys), strings.Join(keys, ", "))
		}
		lines[k.Value] = k.Line
	}
	type plain SearchSpec
	var p plain
	if err := n.Decode(&p); err != nil {
		return err
	}
	*s = SearchSpec(p)
	s.line, s.lines = n.Line, lines
	return nil
}

// searchOf returns the search settings of row m: the config's block overridden key by
// key by the row's, with the defaults filled in.
func (c *Config) searchOf(m MethodSpec) *SearchSpec {
	out := &SearchSpec{lines: map[string]int{}}
	for _, s := range []*SearchSpec{c.Search, m.Search} {
		if s == nil {
			continue
		}
		out.line = s.line
		for k, l := range s.lines {
			out.lines[k] = l
		}
		set := func(dst *string, v string) {
			if v != "" {
				*dst = v
			}
		}
		setInt := func(dst *int, key string, v int) {
			if _, given := s.lines[key]; given {
				*dst = v
			}
		}
		set(&out.Sampler, s.Sampler)
		set(&out.Rule, s.Rule)
		set(&out.Prune, s.Prune)
		set(&out.WholeGraph, s.WholeGraph)
		setInt(&out.Trials, "trials", s.Trials)
		setInt(&out.Batch, "batch", s.Batch)
		setInt(&out.MinIterations, "min_iterations", s.MinIterations)
		setInt(&out.Eta, "eta", s.Eta)
		setInt(&out.FirstRestarts, "first_restarts", s.FirstRestarts)
	}
	if out.line == 0 {
		out.line = m.Name.Line
	}
	if out.Sampler == "" {
		out.Sampler = SamplerTPE
	}
	if out.Rule == "" {
		out.Rule = results.SelectModularity
	}
	if out.Prune == "" {
		out.Prune = PruneNone
	}
	if out.WholeGraph == "" && out.Rule == results.SelectHeldOut {
		out.WholeGraph = WholeGraphLastRung
	}
	if _, given := out.lines["batch"]; !given {
		out.Batch = 10
	}
	if _, given := out.lines["eta"]; !given {
		out.Eta = 3
	}
	if _, given := out.lines["first_restarts"]; !given {
		out.FirstRestarts = c.Restarts
	}
	if _, given := out.lines["trials"]; !given && out.Sampler == SamplerGrid {
		if sp, err := c.rowSpace(m); err == nil {
			out.Trials = gridSize(sp)
		}
	}
	if _, given := out.lines["min_iterations"]; !given {
		e := max(out.Eta, 2)
		out.MinIterations = max(1, (c.rowIterations(m)+e*e-1)/(e*e))
	}
	return out
}

// lineOf returns the line of key in the search block, else the block's line.
func (s *SearchSpec) lineOf(key string) int {
	if l, ok := s.lines[key]; ok {
		return l
	}
	return s.line
}

// gridSize returns the number of combinations of a space of lists (0 if a parameter is
// a range), capped above MaxRuns.
func gridSize(sp search.Space) int {
	n := 1
	for _, p := range sp {
		if p.Kind != search.Choice {
			return 0
		}
		n = min(n*len(p.Choices), MaxRuns+1)
	}
	return n
}

// rowIterations returns the iterations of a fit of row m: its iterations option, else
// the config's iterations, else the method's default (100).
func (c *Config) rowIterations(m MethodSpec) int {
	if n, ok := m.Options["iterations"]; ok {
		if v, err := scalar(&n); err == nil {
			if f, ok := toFloat(v); ok {
				return int(f)
			}
		}
	}
	if c.Iterations > 0 {
		return c.Iterations
	}
	return 100
}

// rowSpace returns the search space of row m, its parameters in sorted order.
// Choices keep "k1" as given (resolveK1 replaces it per dataset).
func (c *Config) rowSpace(m MethodSpec) (search.Space, error) {
	var sp search.Space
	var errs []error
	for _, key := range sortedKeys(m.Space) {
		n := m.Space[key]
		p, err := spaceParam(key, &n)
		if err != nil {
			errs = append(errs, c.errf(n.Line, key, "%v", err))
			continue
		}
		sp = append(sp, p)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return sp, nil
}

// spaceParam decodes one entry of a space: a list of values, or a mapping {log: [lo,
// hi]}, {uniform: [lo, hi]}, {int: [lo, hi]} or {int: [lo, hi], log: true}.
func spaceParam(key string, n *yaml.Node) (search.Param, error) {
	p := search.Param{Name: key}
	switch n.Kind {
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return p, fmt.Errorf("empty list of values")
		}
		p.Kind = search.Choice
		for _, v := range n.Content {
			val, err := scalar(v)
			if err != nil {
				return p, err
			}
			p.Choices = append(p.Choices, val)
		}
		return p, nil
	case yaml.MappingNode:
	default:
		return p, fmt.Errorf("want a list of values, {log: [lo, hi]}, {uniform: [lo, hi]}, {int: [lo, hi]} or {int: [lo, hi], log: true}")
	}
	entries := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if k != "log" && k != "uniform" && k != "int" {
			return p, fmt.Errorf("unknown range %q (want log, uniform or int)", k)
		}
		entries[k] = n.Content[i+1]
	}
	var bounds *yaml.Node
	switch {
	case entries["int"] != nil:
		p.Kind, bounds = search.Int, entries["int"]
		if lg := entries["log"]; lg != nil {
			if lg.Kind != yaml.ScalarNode || lg.Tag != "!!bool" {
				return p, fmt.Errorf("with int, log is true or false")
			}
			p.Log = lg.Value == "true"
		}
		if entries["uniform"] != nil {
			return p, fmt.Errorf("give one of int, log and uniform")
		}
	case entries["log"] != nil && entries["uniform"] != nil:
		return p, fmt.Errorf("give one of int, log and uniform")
	case entries["log"] != nil:
		p.Kind, p.Log, bounds = search.Float, true, entries["log"]
	case entries["uniform"] != nil:
		p.Kind, bounds = search.Float, entries["uniform"]
	default:
		return p, fmt.Errorf("empty range")
	}
	if bounds.Kind != yaml.SequenceNode || len(bounds.Content) != 2 {
		return p, fmt.Errorf("a range is [lo, hi]")
	}
	var lh [2]float64
	for i, b := range bounds.Content {
		v, err := scalar(b)
		f, isNum := toFloat(v)
		if err != nil || !isNum || math.IsNaN(f) {
			return p, fmt.Errorf("range bound %q is not a number", b.Value)
		}
		lh[i] = f
	}
	p.Lo, p.Hi = lh[0], lh[1]
	if err := (search.Space{p}).Check(); err != nil {
		return p, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), key+": "))
	}
	return p, nil
}

// validateSpace checks the space of row m (whose algorithm takes params; nil for a
// program of the user's, which takes any key): not with a grid, each key an option of
// the method and not a fixed option, every value or bound one the method accepts
// (check), and the row's search settings. It returns every fault it finds, joined.
func (c *Config) validateSpace(m MethodSpec, params []string, check func(key string, v *yaml.Node) error) error {
	if m.Search != nil && len(m.Space) == 0 {
		return c.errf(m.Search.line, "search", "row %q has a search block but no space", m.Name.Value)
	}
	if len(m.Space) == 0 {
		return nil
	}
	var errs []error
	if len(m.Grid) > 0 {
		n := m.Grid[sortedKeys(m.Grid)[0]]
		errs = append(errs, c.errf(n.Line, "grid", "row %q gives both grid and space: a row is a grid or a search", m.Name.Value))
	}
	if c.Timing {
		errs = append(errs, c.errf(m.Name.Line, "space", "a config with timing: true times given fits; it does not search"))
	}
	var sp search.Space
	spaceOK := true
	for _, key := range sortedKeys(m.Space) {
		n := m.Space[key]
		p, err := spaceParam(key, &n)
		if err == nil {
			sp = append(sp, p)
		}
		spaceOK = spaceOK && err == nil
		_, fixed := m.Options[key]
		switch {
		case params != nil && !contains(params, key):
			errs = append(errs, c.errf(n.Line, key, "%s has no option %s%s (its options: %s)", m.Algorithm.Value, key,
				suggest.DidYouMean(key, params), strings.Join(params, ", ")))
		case key == "iterations":
			errs = append(errs, c.errf(n.Line, key, "iterations are a search's resource, not searched: set them in options (halving stops fits early)"))
		case fixed:
			errs = append(errs, c.errf(n.Line, key, "set both as a fixed option and in the space"))
		case err != nil:
			errs = append(errs, c.errf(n.Line, key, "%v", err))
		default:
			errs = append(errs, checkSpaceValues(p, &n, check))
		}
	}
	// With faults in the space, the search settings are still checked (sampler grid's
	// need for a space of lists once the space decodes).
	errs = append(errs, c.checkSearch(m, c.searchOf(m), sp, spaceOK))
	return errors.Join(errs...)
}

// checkSpaceValues checks that every value of a list, or both bounds of a range, of
// parameter p (given at node n) is one the method accepts.
func checkSpaceValues(p search.Param, n *yaml.Node, check func(key string, v *yaml.Node) error) error {
	var probes []*yaml.Node
	if p.Kind == search.Choice {
		probes = n.Content
	} else {
		for _, v := range []float64{p.Lo, p.Hi} {
			node := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: fmt.Sprint(v), Line: n.Line}
			if p.Kind == search.Int {
				node.Tag = "!!int"
			}
			probes = append(probes, node)
		}
	}
	for _, v := range probes {
		if err := check(p.Name, v); err != nil {
			return err
		}
	}
	return nil
}

// checkSearch checks the resolved search settings s of row m with space sp (spaceOK
// false when the space has faults of its own, reported elsewhere), returning every
// fault it finds, joined.
func (c *Config) checkSearch(m MethodSpec, s *SearchSpec, sp search.Space, spaceOK bool) error {
	var errs []error
	fault := func(key, format string, args ...any) {
		errs = append(errs, c.errf(s.lineOf(key), key, format, args...))
	}
	switch s.Sampler {
	case SamplerTPE, SamplerRandom:
	case SamplerGrid:
		if spaceOK && gridSize(sp) == 0 {
			fault("sampler", "sampler grid needs a space of lists only (a range has no grid)")
		}
	default:
		fault("sampler", "unknown sampler %q (want tpe, random or grid)%s", s.Sampler,
			suggest.DidYouMean(s.Sampler, []string{SamplerTPE, SamplerRandom, SamplerGrid}))
	}
	_, trialsGiven := s.lines["trials"]
	if s.Trials < 1 && (trialsGiven || s.Sampler != SamplerGrid || gridSize(sp) > 0) {
		// (sampler grid on a space with a range has no trials to count: said above)
		fault("trials", "a search needs trials ≥ 1 (configurations per dataset and row), got %d", s.Trials)
	} else if c.Restarts > 0 && s.Trials > MaxRuns/c.Restarts {
		fault("trials", "%d trials × %d restarts exceed the cap of %d runs", s.Trials, c.Restarts, MaxRuns)
	}
	if s.Batch < 1 {
		fault("batch", "need batch ≥ 1 (configurations proposed at once), got %d", s.Batch)
	}
	switch {
	case !contains(searchRules, s.Rule):
		fault("rule", "a search maximises one of %s; got %q%s", strings.Join(searchRules, ", "), s.Rule,
			suggest.DidYouMean(s.Rule, searchRules))
	case s.Rule == results.SelectHeldOut && c.Holdout <= 0:
		fault("rule", "rule heldout needs holdout: a fraction of edges (such as 0.2) at the top level")
	case (s.Rule == results.SelectARI || s.Rule == results.SelectModularity) && !contains(c.Metrics, s.Rule):
		fault("rule", "rule %s needs the metric %s among metrics", s.Rule, s.Rule)
	case s.Rule == results.SelectTwoView && (!contains(c.Metrics, "modularity") || !contains(c.Metrics, "attr_modularity")):
		fault("rule", "rule two-view needs the metrics modularity and attr_modularity")
	}
	switch {
	case s.WholeGraph == "":
	case s.Rule != results.SelectHeldOut:
		fault("whole_graph", "whole_graph is a setting of rule heldout only (rule %s reads the whole-graph fit at every rung)", s.Rule)
	case s.WholeGraph != WholeGraphLastRung && s.WholeGraph != WholeGraphEveryRung:
		fault("whole_graph", "unknown whole_graph %q (want last_rung or every_rung)%s", s.WholeGraph,
			suggest.DidYouMean(s.WholeGraph, []string{WholeGraphLastRung, WholeGraphEveryRung}))
	}
	switch s.Prune {
	case PruneNone:
		return errors.Join(errs...)
	case PruneHalving, PruneHyperband:
	default:
		fault("prune", "unknown pruner %q (want none, halving or hyperband)%s", s.Prune,
			suggest.DidYouMean(s.Prune, []string{PruneNone, PruneHalving, PruneHyperband}))
		return errors.Join(errs...)
	}
	if m.Algorithm.Value == command.Name {
		if err := c.checkProgramBudget(m, s); err != nil {
			return errors.Join(append(errs, err)...)
		}
	} else if params, _ := algorithms.Params(m.Algorithm.Value); !contains(params, "iterations") {
		fault("prune", "%s has no iterations to halve", m.Algorithm.Value)
		return errors.Join(errs...)
	}
	if s.Eta < 2 {
		fault("eta", "need eta ≥ 2 (the best 1/eta of a rung go on), got %d", s.Eta)
	}
	if it := c.rowIterations(m); s.MinIterations < 1 || s.MinIterations >= it {
		fault("min_iterations", "need 1 ≤ min_iterations < the row's %d iterations, got %d", it, s.MinIterations)
	}
	if s.FirstRestarts < 1 || s.FirstRestarts > c.Restarts {
		fault("first_restarts", "need 1 ≤ first_restarts ≤ restarts (%d), got %d", c.Restarts, s.FirstRestarts)
	}
	return errors.Join(errs...)
}

// validateSearches refuses a top-level search block that no row uses.
func (c *Config) validateSearches() error {
	if c.Search == nil {
		return nil
	}
	for _, m := range c.Methods {
		if len(m.Space) > 0 {
			return nil
		}
	}
	return c.errf(c.keyLines["search"], "search", "no method row gives a space to search (space: beside name and algorithm)")
}

// HasSearch reports whether a row of the config gives a space to search.
func (c *Config) HasSearch() bool {
	for _, m := range c.Methods {
		if len(m.Space) > 0 {
			return true
		}
	}
	return false
}

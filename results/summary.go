package results

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/nagc-harness/nagc/metrics"
)

// Selection rules for the grid point reported per dataset and method.
const (
	// SelectARI is the paper's rule: the grid point with the best mean ARI over restarts.
	// It reads the true labels.
	SelectARI = "ari"
	// SelectModularity is the default label-free rule: the grid point with the best mean
	// modularity of the clustering on the graph. It reads no labels.
	SelectModularity = "modularity"
	// SelectObjective picks the best mean final objective: the lowest, or the highest
	// for a method that maximises it (PointStats.Maximised). It reads no labels, but
	// objectives of different λ, ρ or k2 measure different things, so it is only
	// meaningful within one objective; prefer SelectModularity across a grid.
	SelectObjective = "objective"
	// SelectTwoView is a label-free rule for attributed graphs: the grid point with the
	// best mean modularity + attribute modularity (metrics.AttributeModularity), i.e. the
	// modularity of the clustering on the graph and on the attributes' cosine-similarity
	// graph, each layer weighted equally (a two-layer multiplex modularity). It reads no
	// labels. Only points whose records carry attr_modularity can be chosen; on a graph
	// without attributes it selects nothing.
	SelectTwoView = "two-view"
	// SelectHeldOut is a label-free rule by edge cross-validation: the grid point with the
	// best mean MetricHeldOut, the modularity on held-out edges of the clustering fitted
	// to the graph without them (experiments.Config.Holdout). Modularity on the edges a method was
	// fitted to rewards fitting those edges; on held-out edges it measures how well the
	// clustering predicts edges it has not seen, which attributes help with on homophilous
	// graphs. It reads no labels. Only points whose records carry the metric can be
	// chosen; a method with none gets no selection.
	SelectHeldOut = "heldout"
)

// SelectionRules lists the rules, the paper's first.
var SelectionRules = []string{SelectARI, SelectModularity, SelectObjective, SelectTwoView, SelectHeldOut}

// PointStats aggregates the restarts of one grid point of one method on one dataset.
type PointStats struct {
	Dataset string
	Method  string
	Params  map[string]any
	// Runs is the number of finished restarts aggregated; Failed counts failed ones.
	Runs, Failed int
	// Errors holds the distinct error texts of failed runs.
	Errors []string
	// Mean and Std map each metric to its mean and population standard deviation
	// (ddof = 0, as numpy's std) over finished restarts.
	Mean, Std map[string]float64
	// FitSeconds is the mean fit time; Objective the mean final objective (NaN if none).
	FitSeconds, Objective float64
	// Maximised says the method's objective is maximised, so that SelectObjective picks
	// the largest (SetObjectiveSense; false, the smallest, until it is called).
	Maximised bool
	// Records are the finished restarts, in restart order.
	Records []Record
}

// GridPoint returns the canonical string of the point's parameters.
func (p *PointStats) GridPoint() string { return gridPoint(p.Params) }

// Aggregate groups the latest record of every run by dataset, method display name and
// grid point. A run shared by several rows counts for each. Records timed alone
// (Record.TimedAlone) are left out: they repeat a sweep's fits for their times only, and
// counted here they would add restarts to the sweep's grid points; so are a search's
// records of rungs before its last (fits cut short), so that a search's points are its
// trials that completed the last rung, and its choice under a rule is the best of them.
// The result is ordered
// by dataset and method in the order the records first name them once sorted into their
// configs' order (SortByPlan: the order a config lists datasets and rows, whatever order
// the runs finished in), then by grid point.
func Aggregate(recs []Record) []*PointStats {
	recs = Latest(recs)
	SortByPlan(recs)
	type key struct{ d, m, p string }
	index := map[key]*PointStats{}
	var order []key
	for _, r := range recs {
		if r.TimedAlone || !r.searchFinal() {
			continue
		}
		for _, m := range r.Methods {
			k := key{r.Dataset, m, r.GridPoint()}
			ps, ok := index[k]
			if !ok {
				ps = &PointStats{Dataset: r.Dataset, Method: m, Params: r.Params}
				index[k] = ps
				order = append(order, k)
			}
			if r.Status != StatusDone {
				ps.Failed++
				if !slices.Contains(ps.Errors, r.Error) {
					ps.Errors = append(ps.Errors, r.Error)
				}
				continue
			}
			ps.Records = append(ps.Records, r)
		}
	}
	dsOrder, mOrder := map[string]int{}, map[string]int{}
	for _, k := range order {
		if _, ok := dsOrder[k.d]; !ok {
			dsOrder[k.d] = len(dsOrder)
		}
		if _, ok := mOrder[k.m]; !ok {
			mOrder[k.m] = len(mOrder)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := order[a], order[b]
		if x.d != y.d {
			return dsOrder[x.d] < dsOrder[y.d]
		}
		if x.m != y.m {
			return mOrder[x.m] < mOrder[y.m]
		}
		return x.p < y.p
	})
	out := make([]*PointStats, len(order))
	for i, k := range order {
		ps := index[k]
		ps.finish()
		out[i] = ps
	}
	return out
}

func (ps *PointStats) finish() {
	sort.SliceStable(ps.Records, func(a, b int) bool { return ps.Records[a].Restart < ps.Records[b].Restart })
	ps.Runs = len(ps.Records)
	ps.Mean, ps.Std = map[string]float64{}, map[string]float64{}
	ps.Objective = math.NaN()
	if ps.Runs == 0 {
		return
	}
	sums := map[string][]float64{}
	var fit, obj float64
	nObj := 0
	for _, r := range ps.Records {
		for m, v := range r.Metrics {
			sums[m] = append(sums[m], v)
		}
		fit += r.FitSeconds
		if r.FinalObjective != nil {
			obj += *r.FinalObjective
			nObj++
		}
	}
	for m, vs := range sums {
		ps.Mean[m], ps.Std[m] = MeanStd(vs)
	}
	ps.FitSeconds = fit / float64(ps.Runs)
	if nObj > 0 {
		ps.Objective = obj / float64(nObj)
	}
}

// MeanStd returns the mean and population standard deviation (ddof = 0) of xs.
func MeanStd(xs []float64) (mean, std float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}

// Best returns, for each dataset and method, the grid point chosen by rule among points
// with at least one finished run (nil entries are never returned; a dataset/method whose
// runs all failed gets the point with its errors and Runs = 0; under SelectHeldOut a
// dataset/method none of whose points has the held-out score is left out, and likewise
// under SelectTwoView one without attribute modularity). Ties keep the
// first point in canonical order.
func Best(points []*PointStats, rule string) ([]*PointStats, error) {
	better, err := ruleOrder(rule)
	if err != nil {
		return nil, err
	}
	type key struct{ d, m string }
	index := map[key]int{}
	var out []*PointStats
	if need := ruleNeeds(rule); need != "" { // a point without the rule's score cannot be chosen
		var with []*PointStats
		for _, p := range points {
			if _, ok := p.Mean[need]; ok || p.Runs == 0 {
				with = append(with, p)
			}
		}
		points = with
	}
	for _, p := range points {
		k := key{p.Dataset, p.Method}
		i, ok := index[k]
		if !ok {
			index[k] = len(out)
			out = append(out, p)
			continue
		}
		cur := out[i]
		switch {
		case p.Runs == 0:
		case cur.Runs == 0 || better(p, cur):
			out[i] = p
		}
	}
	return out, nil
}

// ruleNeeds returns the metric a rule's score needs beyond those every run records
// (MetricHeldOut for SelectHeldOut, attr_modularity for SelectTwoView), or "".
func ruleNeeds(rule string) string {
	switch rule {
	case SelectHeldOut:
		return MetricHeldOut
	case SelectTwoView:
		return "attr_modularity"
	}
	return ""
}

// ruleOrder returns "a is strictly better than b" for a selection rule.
func ruleOrder(rule string) (func(a, b *PointStats) bool, error) {
	switch rule {
	case SelectObjective:
		return func(a, b *PointStats) bool {
			if math.IsNaN(a.Objective) {
				return false
			}
			if a.Maximised {
				return math.IsNaN(b.Objective) || a.Objective > b.Objective
			}
			return math.IsNaN(b.Objective) || a.Objective < b.Objective
		}, nil
	case SelectARI, SelectModularity, SelectTwoView, SelectHeldOut:
		// RuleValue is higher-is-better (the catalogue's direction of every measure
		// these rules read); a missing or NaN mean is never better.
		return func(a, b *PointStats) bool {
			va, _ := RuleValue(rule, a.Mean)
			vb, _ := RuleValue(rule, b.Mean)
			return va > vb
		}, nil
	}
	return nil, fmt.Errorf("unknown selection rule %q (known: ari, modularity, objective, two-view, heldout)", rule)
}

// ReadsLabels reports whether a selection rule reads the ground-truth labels: a rule
// that is a label-reading measure of the metrics catalogue (only SelectARI is). A rule
// that reads them is never called label-free.
func ReadsLabels(rule string) bool {
	m, ok := metrics.Lookup(rule)
	return ok && m.ReadsLabels
}

// ReadsLabels reports whether the point's runs read the ground-truth labels to cluster,
// as their recorded parameters say (NAGC's init: kmeans-median-ari, a command row's
// reads_labels: true), or the point is a trial kept by a search whose rule reads them
// (SearchReadsLabels), so that no rule selecting it is label-free.
func (p *PointStats) ReadsLabels() bool {
	return paramsReadLabels(p.Params) || p.SearchReadsLabels()
}

// labelReadingParams lists the recorded parameter values that mark a run that read the
// ground-truth labels to cluster: parameter → value (algorithms.ReadsLabels asks the
// same of a fit's options).
var labelReadingParams = map[string]any{"init": "kmeans-median-ari", "reads_labels": true}

// paramsReadLabels reports whether a run recorded with params read the labels.
func paramsReadLabels(params map[string]any) bool {
	for k, v := range labelReadingParams {
		if params[k] == v {
			return true
		}
	}
	return false
}

// Labeled returns the datasets on which some finished run recorded ARI, i.e. whose
// ground-truth labels were available; only there can SelectARI choose a grid point.
func Labeled(points []*PointStats) map[string]bool {
	out := map[string]bool{}
	for _, p := range points {
		if _, ok := p.Mean["ari"]; ok && p.Runs > 0 {
			out[p.Dataset] = true
		}
	}
	return out
}

// Selection is the grid point a rule chose for one dataset and method, or why it chose
// none (Point nil, Missing set).
type Selection struct {
	Dataset, Method, Rule string
	Point                 *PointStats
	Missing               string
	// Scored is the number of the dataset's vertices the label-reading metrics (ARI, NMI,
	// accuracy, matching) score, those with a label, and Vertices its number of vertices;
	// both 0 where the results folder does not record them (see SetCoverage).
	Scored, Vertices int
}

// Coverage says how many of a dataset's vertices have a label (the ones ARI, NMI,
// accuracy and matching score) out of how many.
type Coverage struct{ Labeled, N int }

// partial reports whether some vertices but not all have a label.
func (c Coverage) partial() bool { return c.Labeled > 0 && c.Labeled < c.N }

// LabelCoverage returns each dataset's Coverage as recorded by the sweep starts provs
// (SweepsFile), the latest start that recorded the dataset winning.
func LabelCoverage(provs []Provenance) map[string]Coverage {
	cov := map[string]Coverage{}
	for _, p := range provs {
		for _, st := range p.Datasets {
			cov[st.Name] = Coverage{Labeled: st.Labeled, N: st.N}
		}
	}
	return cov
}

// SetCoverage fills Scored and Vertices of each selection from cov.
func SetCoverage(sel []Selection, cov map[string]Coverage) {
	for i := range sel {
		if c, ok := cov[sel[i].Dataset]; ok {
			sel[i].Scored, sel[i].Vertices = c.Labeled, c.N
		}
	}
}

// Summarize returns, for each dataset and method in the order of points, the grid point
// chosen by each rule in turn. A label-reading rule chooses nothing on datasets without
// labels (see Labeled), and SelectHeldOut nothing for a method without held-out scores;
// their entries say so in Missing.
func Summarize(points []*PointStats, rules []string) ([]Selection, error) {
	labeled := Labeled(points)
	type key struct{ d, m, rule string }
	chosen := map[key]*PointStats{}
	for _, rule := range rules {
		best, err := Best(points, rule)
		if err != nil {
			return nil, err
		}
		for _, p := range best {
			if ReadsLabels(rule) && !labeled[p.Dataset] {
				continue
			}
			chosen[key{p.Dataset, p.Method, rule}] = p
		}
	}
	var out []Selection
	seen := map[key]bool{}
	for _, p := range points {
		cell := key{p.Dataset, p.Method, ""}
		if seen[cell] {
			continue
		}
		seen[cell] = true
		for _, rule := range rules {
			s := Selection{Dataset: p.Dataset, Method: p.Method, Rule: rule, Point: chosen[key{p.Dataset, p.Method, rule}]}
			switch {
			case s.Point != nil:
			case ReadsLabels(rule):
				s.Missing = "no labels: no ARI recorded"
			case rule == SelectHeldOut:
				s.Missing = "no " + MetricHeldOut + " recorded (the config sets no holdout)"
			case rule == SelectTwoView:
				s.Missing = "no attr_modularity recorded (the graph has no attributes)"
			default:
				s.Missing = "no grid point selected"
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// FormatParams formats a grid point's parameters as "key=value …" in sorted key order,
// values as fmt's %v prints them: how summaries name a point.
func FormatParams(params map[string]any) string {
	keys := slices.Sorted(maps.Keys(params))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, params[k])
	}
	return strings.Join(parts, " ")
}

package render

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/report/paper"
	recorded "github.com/nagc-harness/nagc/results"
)

// PaperRule is the paper's selection rule: the grid point with the best mean ARI over
// restarts. It reads the ground-truth labels.
const PaperRule = recorded.SelectARI

// Results is what a report is built from: the recorded runs of a results folder,
// aggregated per grid point, with the grid point selected per dataset and method by the
// paper's rule and by a label-free rule.
type Results struct {
	// Records are the latest record of every run, but for those timed alone, in the
	// order of the configs that planned them (recorded.SortByPlan).
	Records []recorded.Record
	// Timed are the latest records of the runs timed alone (a config with timing: true,
	// recorded.Record.TimedAlone): repeated fits of the sweep, read by the runtime
	// table only, and by no other table, figure, count or selection.
	Timed []recorded.Record
	// Points aggregate the records per dataset, method and grid point.
	Points []*recorded.PointStats
	// Provenance lists every start of `nagc run` on the folder.
	Provenance []recorded.Provenance
	// Paper holds the paper's published numbers.
	Paper *paper.Published
	// Spec is how the results are set beside the paper: its rows and datasets, in their
	// order, its stated facts and claims (default: the NAGC paper's, paper.DefaultSpec).
	Spec *paper.Spec
	// FreeRule is the label-free selection rule (recorded.SelectModularity or
	// recorded.SelectObjective).
	FreeRule string
	// Datasets lists the datasets of the results (records or provenance): the paper's
	// first in its order, then the others in the configs' order.
	Datasets []string
	// Methods lists the display names of the recorded methods: the paper's first in its
	// order, then the others in the configs' order.
	Methods []string
	// Name is the configs' names as recorded in the provenance, joined by " + " when
	// several configs ran into the folder, "" if none.
	Name string
	// Compare is whether the report sets the rows beside the NAGC paper's published
	// numbers: recorded by a config with compare: paper (recorded.Config.Compare),
	// or asked for by Options.Compare. It needs Paper.
	Compare bool
	// Comparison is the comparison with the paper that Compare makes (set by Generate
	// from its cmp argument).
	Comparison Comparer

	sel         map[string]map[cellKey]*recorded.PointStats // rule → selection
	byCell      map[cellKey][]*recorded.PointStats
	failed      map[cellKey]int
	errText     map[cellKey]string
	labeled     map[string]bool
	slugs       map[string]string
	methodSlugs map[string]string
	// sweepDatasets and sweepMethods are in the sweep's order: first seen in the configs'
	// order (recorded.SortByPlan).
	sweepDatasets, sweepMethods []string
}

// SweepOrder lists datasets and methods in the order the sweep recorded them (the
// config's) instead of the paper's: for a report of the sweep alone.
func (r *Results) SweepOrder() {
	r.Datasets, r.Methods = r.sweepDatasets, r.sweepMethods
}

// cellKey names one dataset × method cell.
type cellKey struct{ dataset, method string }

// NewResults aggregates records and selects grid points by the paper's rule and by
// freeRule. paper may be nil (no paper values are then shown).
func NewResults(recs []recorded.Record, prov []recorded.Provenance, pub *paper.Published, freeRule string) (*Results, error) {
	return newResults(recs, prov, pub, defaultSpec(), freeRule)
}

// newResults is NewResults with the comparison spec spec.
func newResults(recs []recorded.Record, prov []recorded.Provenance, pub *paper.Published, spec *paper.Spec, freeRule string) (*Results, error) {
	if freeRule == PaperRule {
		return nil, fmt.Errorf("label-free rule: %q reads the labels; use %q, %q, %q or %q", freeRule,
			recorded.SelectModularity, recorded.SelectTwoView, recorded.SelectHeldOut, recorded.SelectObjective)
	}
	var sweep, timed []recorded.Record
	recs = recorded.Latest(recs)
	recorded.SortByPlan(recs) // the configs' order, not the order runs finished in
	for _, rec := range recs {
		if rec.TimedAlone {
			timed = append(timed, rec)
		} else {
			sweep = append(sweep, rec)
		}
	}
	recs = sweep
	r := &Results{
		Records: recs, Timed: timed, Provenance: prov, Paper: pub, FreeRule: freeRule, Spec: spec,
		Points: aggregate(recs, prov),
		sel:    map[string]map[cellKey]*recorded.PointStats{},
		byCell: map[cellKey][]*recorded.PointStats{}, failed: map[cellKey]int{}, errText: map[cellKey]string{},
	}
	r.labeled = recorded.Labeled(r.Points)
	for _, rule := range []string{PaperRule, freeRule} {
		best, err := recorded.Best(r.Points, rule)
		if err != nil {
			return nil, err
		}
		m := map[cellKey]*recorded.PointStats{}
		for _, p := range best {
			if recorded.ReadsLabels(rule) && !r.labeled[p.Dataset] {
				continue // no labels: a label-reading rule cannot choose
			}
			m[cellKey{p.Dataset, p.Method}] = p
		}
		r.sel[rule] = m
	}
	var names []string
	for _, p := range prov {
		if p.Name != "" {
			names = appendNew(names, p.Name)
		}
		if p.Compare == recorded.ComparePaper {
			r.Compare = pub != nil
		}
	}
	r.Name = strings.Join(names, " + ")
	var ds, ms []string
	for _, p := range prov {
		for _, s := range p.Datasets {
			ds = appendNew(ds, s.Name)
		}
	}
	for _, p := range r.Points {
		k := cellKey{p.Dataset, p.Method}
		r.byCell[k] = append(r.byCell[k], p)
		r.failed[k] += p.Failed
		if len(p.Errors) > 0 && r.errText[k] == "" {
			r.errText[k] = p.Errors[0]
		}
		ds = appendNew(ds, p.Dataset)
		ms = appendNew(ms, p.Method)
	}
	r.Datasets = paperOrder(ds, r.Spec.Datasets, strings.ToLower)
	r.Methods = paperOrder(ms, r.Spec.Rows, func(s string) string { return s })
	// A report of the sweep alone lists the datasets of fits timed alone too (their
	// provenance names them, unless it was not recorded); the paper's tables do not.
	for _, rec := range timed {
		ds = appendNew(ds, rec.Dataset)
	}
	r.sweepDatasets, r.sweepMethods = ds, ms
	r.slugs = map[string]string{}
	used := map[string]bool{}
	for _, d := range append(append([]string{}, r.Datasets...), ds...) {
		if _, ok := r.slugs[d]; !ok {
			r.slugs[d] = uniqueSlug(d, used)
		}
	}
	r.methodSlugs = map[string]string{}
	usedM := map[string]bool{}
	for _, m := range r.Methods {
		r.methodSlugs[m] = uniqueSlug(m, usedM)
	}
	return r, nil
}

// Labeled reports whether some finished run on a dataset recorded ARI, i.e. the
// dataset's labels were available; without them only the label-free rule selects.
func (r *Results) Labeled(dataset string) bool { return r.labeled[dataset] }

// Rules returns the selection rules of a dataset: the paper's (which reads the labels)
// where the dataset has labels, then the label-free rule.
func (r *Results) Rules(dataset string) []string {
	if r.labeled[dataset] {
		return []string{PaperRule, r.FreeRule}
	}
	return []string{r.FreeRule}
}

// AnyLabeled reports whether some dataset of the results has labels.
func (r *Results) AnyLabeled() bool { return len(r.labeled) > 0 }

// Slug returns the file-name form of a dataset name: unique among the datasets of the
// results, made of lower-case letters, digits, '-' and '_' only (a dataset given as a
// path such as "../own/x" becomes "own-x").
func (r *Results) slug(dataset string) string {
	if s, ok := r.slugs[dataset]; ok {
		return s
	}
	return slug(dataset)
}

// MethodSlug returns the file-name form of a row's name, unique among the rows.
func (r *Results) MethodSlug(method string) string {
	if s, ok := r.methodSlugs[method]; ok {
		return s
	}
	return slug(method)
}

// Slug returns a file-name-safe form of a name: lower-case ASCII letters and digits, runs
// of anything else turned into one '-' ('*' and '+' spelt "star" and "plus"), no leading or
// trailing '-'; "x" if nothing is left. "JWNMF*" → "jwnmf-star", "../own/x" → "own-x".
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
		case c == '*' || c == '+':
			if b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			b.WriteString(map[rune]string{'*': "star", '+': "plus"}[c])
		default:
			dash = true
		}
	}
	if b.Len() == 0 {
		return "x"
	}
	return b.String()
}

// uniqueSlug returns Slug(name), suffixed "-2", "-3", … if used already, and marks it used.
func uniqueSlug(name string, used map[string]bool) string {
	base := slug(name)
	s := base
	for i := 2; used[s]; i++ {
		s = fmt.Sprintf("%s-%d", base, i)
	}
	used[s] = true
	return s
}

// loadResults reads a results folder (runs.jsonl and sweeps.jsonl) into Results, set
// beside the paper pub by spec.
func loadResults(dir string, pub *paper.Published, spec *paper.Spec, freeRule string) (*Results, error) {
	recs, err := recorded.Load(dir)
	if err != nil {
		return nil, err
	}
	prov, err := recorded.ReadProvenance(dir)
	if err != nil {
		return nil, err
	}
	return newResults(recs, prov, pub, spec, freeRule)
}

// Selected returns the grid point selected by rule (PaperRule or the label-free rule)
// for a dataset and method, or nil if the method has no recorded run on the dataset. The
// point has Runs == 0 when every run of the method failed.
func (r *Results) Selected(rule, dataset, method string) *recorded.PointStats {
	return r.sel[rule][cellKey{dataset, method}]
}

// Unselected returns why rule selects no grid point of a method that has finished runs on
// a dataset (under recorded.SelectHeldOut: none has the held-out score), or "".
func (r *Results) Unselected(rule, dataset, method string) string {
	if r.Missing(dataset, method) != "" || r.Selected(rule, dataset, method) != nil {
		return ""
	}
	if rule == recorded.SelectHeldOut {
		return "no held-out fit recorded (the config sets no holdout)"
	}
	if recorded.ReadsLabels(rule) && !r.labeled[dataset] {
		return "no labels: the paper's rule cannot choose"
	}
	return "no grid point selected"
}

// PointsOf returns the grid points of a method on a dataset, in canonical order.
func (r *Results) PointsOf(dataset, method string) []*recorded.PointStats {
	return r.byCell[cellKey{dataset, method}]
}

// Missing returns why a method has no result on a dataset ("not run", "all 5 runs
// failed: …"), or "" if it has at least one finished run.
func (r *Results) Missing(dataset, method string) string {
	k := cellKey{dataset, method}
	pts := r.byCell[k]
	if len(pts) == 0 {
		return "not run"
	}
	for _, p := range pts {
		if p.Runs > 0 {
			return ""
		}
	}
	return fmt.Sprintf("all %d runs failed: %s", r.failed[k], shorten(r.errText[k], 120))
}

// FailedNote returns a note on failed restarts of a selected point ("2 of 5 restarts
// failed: …"), or "" if none failed.
func failedNote(p *recorded.PointStats) string {
	if p == nil || p.Failed == 0 || p.Runs == 0 {
		return ""
	}
	e := ""
	if len(p.Errors) > 0 {
		e = ": " + shorten(p.Errors[0], 120)
	}
	return fmt.Sprintf("%d of %d restarts failed%s", p.Failed, p.Failed+p.Runs, e)
}

// DatasetStats returns the loader's statistics of a dataset as recorded in the
// provenance (the latest sweep that has them).
func (r *Results) DatasetStats(dataset string) (datasets.Stats, bool) {
	for i := len(r.Provenance) - 1; i >= 0; i-- {
		for _, s := range r.Provenance[i].Datasets {
			if s.Name == dataset {
				return s, true
			}
		}
	}
	return datasets.Stats{}, false
}

// K1 returns the number of classes of a dataset as recorded in its runs (else in the
// provenance), 0 if unknown.
func (r *Results) K1(dataset string) int {
	for _, rec := range r.Records {
		if rec.Dataset == dataset && rec.K1 > 0 {
			return rec.K1
		}
	}
	if s, ok := r.DatasetStats(dataset); ok {
		return s.K
	}
	return 0
}

// HasDataset reports whether the results contain a dataset.
func (r *Results) HasDataset(dataset string) bool {
	for _, d := range r.Datasets {
		if d == dataset {
			return true
		}
	}
	return false
}

// Counts returns the number of runs recorded, finished and failed.
func (r *Results) Counts() (total, done, failed int) {
	for _, rec := range r.Records {
		total++
		if rec.Status == recorded.StatusDone {
			done++
		} else {
			failed++
		}
	}
	return total, done, failed
}

// RuleText describes a selection rule for captions: recorded.RuleText, the words the
// results summary uses too.
func ruleText(rule string) string { return recorded.RuleText(rule) }

// RuleShort names a selection rule in table headers.
func ruleShort(rule string) string {
	switch rule {
	case recorded.SelectARI:
		return "paper's rule (best mean ARI)"
	case recorded.SelectModularity:
		return "label-free rule (best mean modularity)"
	case recorded.SelectObjective:
		return "label-free rule (best mean objective: lowest, or highest where maximised)"
	case recorded.SelectTwoView:
		return "label-free rule (best mean graph + attribute modularity)"
	case recorded.SelectHeldOut:
		return "label-free rule (best mean held-out modularity)"
	}
	return rule
}

// DatasetTitle returns the paper's spelling of a dataset name (WebKB, Citeseer, Cora,
// polblog); other names are returned as they are.
func DatasetTitle(d string) string {
	switch strings.ToLower(d) {
	case "webkb":
		return "WebKB"
	case "citeseer":
		return "Citeseer"
	case "cora":
		return "Cora"
	case "polblog":
		return "polblog"
	}
	return d
}

// Title returns the report's title: the config's name (as recorded), or "Sweep report"
// when none was recorded; with the paper's comparison, "Reproduction report: " and the
// paper's name (paper.Spec.Name).
func (r *Results) Title() string {
	switch {
	case r.Compare && r.Name != "":
		return "Reproduction report: " + r.Spec.Name + " (" + r.Name + ")"
	case r.Compare:
		return "Reproduction report: " + r.Spec.Name
	case r.Name != "":
		return "Sweep report: " + r.Name
	}
	return "Sweep report"
}

// defaultSpec returns the shipped comparison spec (paper.DefaultSpec), parsed once; a
// test checks that it parses.
var defaultSpec = sync.OnceValue(func() *paper.Spec {
	s, err := paper.DefaultSpec()
	if err != nil {
		panic(err) // the embedded file is checked by TestDefaultSpec
	}
	return s
})

// ReadsLabels reports whether some recorded run of a method read the ground-truth labels
// to cluster (NAGC's kmeans-median-ari initialisation): whatever rule then selects its
// grid point, its numbers are not label-free.
func (r *Results) ReadsLabels(method string) bool {
	for _, d := range r.Datasets {
		for _, p := range r.PointsOf(d, method) {
			if p.ReadsLabels() {
				return true
			}
		}
	}
	return false
}

// readsLabelsHow says how a method's runs read the labels (ReadsLabels): "the row's
// initialisation reads the labels", or, for the trials of a search by a label-reading
// rule, "a search by the labels kept its trials".
func (r *Results) readsLabelsHow(method string) string {
	for _, d := range r.Datasets {
		for _, p := range r.PointsOf(d, method) {
			if p.SearchReadsLabels() {
				return "a search by the labels kept its trials"
			}
		}
	}
	return "the row's initialisation reads the labels"
}

// ParamFloat returns a numeric parameter of a grid point, NaN if absent or not a number.
func paramFloat(params map[string]any, key string) float64 {
	switch v := params[key].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	case int64:
		return float64(v)
	case uint64:
		return float64(v)
	}
	return math.NaN()
}

// ParamString prints every parameter of a grid point (swept and fixed, "init" and
// "iterations" included) compactly in sorted order, e.g. "init=kmeans iterations=100
// k2=20 lambda=1e-4 rho=0.95".
func ParamString(params map[string]any) string {
	keys := slices.Sorted(maps.Keys(params))
	parts := make([]string, len(keys))
	for i, k := range keys {
		if v := paramFloat(params, k); !math.IsNaN(v) {
			parts[i] = k + "=" + fmtParam(v)
		} else {
			parts[i] = fmt.Sprintf("%s=%v", k, params[k])
		}
	}
	return strings.Join(parts, " ")
}

// PaperOrder puts the elements of s that are in ref first, in ref's order (compared by
// key), then the others in their order.
func paperOrder(s, ref []string, key func(string) string) []string {
	var out []string
	used := map[string]bool{}
	for _, r := range ref {
		for _, x := range s {
			if key(x) == r && !used[x] {
				out = append(out, x)
				used[x] = true
			}
		}
	}
	for _, x := range s {
		if !used[x] {
			out = append(out, x)
			used[x] = true
		}
	}
	return out
}

// AppendNew appends x to s unless s holds it already.
func appendNew(s []string, x string) []string {
	for _, y := range s {
		if y == x {
			return s
		}
	}
	return append(s, x)
}

// aggregate is recorded.Aggregate with each point's objective sense set from prov.
func aggregate(recs []recorded.Record, prov []recorded.Provenance) []*recorded.PointStats {
	points := recorded.Aggregate(recs)
	recorded.SetObjectiveSense(points, prov)
	return points
}

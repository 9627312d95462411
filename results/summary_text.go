package results

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
)

// Summary is what `nagc results summary` shows of a results folder: its records, their
// grid points, and the point each rule chose per dataset and method.
type Summary struct {
	Dir     string
	Records []Record
	Points  []*PointStats
	// Labeled holds the datasets where some run recorded ARI (see Labeled), Coverage each
	// dataset's labelled share as its sweeps recorded it (see LabelCoverage).
	Labeled  map[string]bool
	Coverage map[string]Coverage
	// Rules are the rules shown: SelectARI first when some dataset has labels and rule is
	// another, then rule.
	Rules      []string
	Selections []Selection
}

// SummarizeDir reads the records of the results folder dir (under a read lock: see
// LockRead) and selects, for each dataset and method, the grid point of rule and, where
// the datasets have labels and rule is another, of the paper's SelectARI. rule SelectARI
// on a folder without labels is an error. Cost: reading the runs and sweeps files once.
func SummarizeDir(dir, rule string) (*Summary, error) {
	lock, err := LockRead(dir)
	if err != nil {
		return nil, err
	}
	recs, err := Load(dir)
	lock.Unlock()
	if err != nil {
		return nil, err
	}
	provs, err := ReadProvenance(dir)
	if err != nil {
		return nil, err
	}
	s := &Summary{Dir: dir, Records: recs, Points: Aggregate(recs)}
	SetObjectiveSense(s.Points, provs)
	s.Labeled = Labeled(s.Points)
	if len(s.Labeled) > 0 && rule != SelectARI {
		s.Rules = append(s.Rules, SelectARI)
	}
	if rule == SelectARI && len(s.Labeled) == 0 {
		return nil, fmt.Errorf("--rule ari: no run in %s recorded ARI (the datasets have no labels); use a label-free rule: modularity, two-view, heldout or objective", dir)
	}
	s.Rules = append(s.Rules, rule)
	if s.Selections, err = Summarize(s.Points, s.Rules); err != nil {
		return nil, err
	}
	s.Coverage = LabelCoverage(provs)
	SetCoverage(s.Selections, s.Coverage)
	return s, nil
}

// RuleText describes a selection rule in a sentence: what it maximises and whether it
// reads the labels.
func RuleText(rule string) string {
	switch rule {
	case SelectARI:
		return "best mean ARI over restarts (the paper's rule; reads the ground-truth labels)"
	case SelectModularity:
		return "best mean modularity over restarts (label-free: reads no labels)"
	case SelectObjective:
		return "best mean final objective: lowest, or highest where the method maximises it (label-free: reads no labels)"
	case SelectTwoView:
		return "best mean modularity + attribute modularity over restarts (modularity on the graph plus modularity on the attributes' cosine-similarity graph; label-free: reads no labels)"
	case SelectHeldOut:
		return "best mean held-out modularity over restarts (each run fitted again with a fraction of the edges held out, and its clustering scored by modularity on the held-out edges alone: edge cross-validation; label-free: reads no labels; only rows whose config sets holdout are selected)"
	}
	return rule
}

// WriteText writes the summary for people: the rules, the datasets without labels or
// with some, the fits timed alone left out, then a table of one line per dataset,
// method and rule (ARI and modularity as mean ± population std over restarts, the
// restarts, the grid point, and the ARI over unflagged vertices where a method flags
// vertices).
func (s *Summary) WriteText(w io.Writer) error {
	timed := 0
	for _, r := range s.Records {
		if r.TimedAlone {
			timed++
		}
	}
	if len(s.Points) == 0 && timed > 0 {
		_, err := fmt.Fprintf(w, "%s holds only fits timed alone (%d, from a config with timing: true) and no sweep, so there is no grid point to select. Their median fit and initialisation times are in the report: nagc report %s\n", s.Dir, timed, s.Dir)
		return err
	}
	s.writeNotes(w, timed)
	return s.writeTable(w)
}

// writeNotes writes the lines above the summary's table: the rules, what each search
// leaves them to choose among, the datasets without labels or with some, and the timed
// fits left out.
func (s *Summary) writeNotes(w io.Writer, timed int) {
	for _, r := range s.Rules {
		fmt.Fprintf(w, "rule %s: %s\n", r, RuleText(r))
	}
	for _, n := range searchNotes(s.Records) {
		fmt.Fprintln(w, n)
	}
	var unlabeled []string
	for _, p := range s.Points {
		if !s.Labeled[p.Dataset] && !slices.Contains(unlabeled, p.Dataset) {
			unlabeled = append(unlabeled, p.Dataset)
		}
	}
	if len(unlabeled) > 0 {
		fmt.Fprintf(w, "no labels on %s (no ARI recorded): only label-free rules select there\n", strings.Join(unlabeled, ", "))
	}
	var partial []string
	for _, p := range s.Points {
		if c := s.Coverage[p.Dataset]; c.partial() && !slices.Contains(partial, p.Dataset) {
			partial = append(partial, p.Dataset)
			fmt.Fprintf(w, "%s labels %d of its %d vertices: ARI, NMI, accuracy and matching score those %d; modularity scores all\n",
				p.Dataset, c.Labeled, c.N, c.Labeled)
		}
	}
	if timed > 0 {
		fmt.Fprintf(w, "%d fits timed alone (a config with timing: true) are left out: they are timed one at a time, not part of the sweep; the report's table of fit times reads them (nagc report %s).\n", timed, s.Dir)
	}
	fmt.Fprintf(w, "Mean ± population std over restarts.\n\n")
}

// writeTable writes the summary's table, with a column of the ARI over unflagged
// vertices (and a line explaining it) when a selected point has one.
func (s *Summary) writeTable(w io.Writer) error {
	flagged := false
	for _, sel := range s.Selections {
		if sel.Point != nil {
			_, ok := sel.Point.Mean[MetricUnflaggedShare]
			flagged = flagged || ok
		}
	}
	if flagged {
		fmt.Fprintf(w, "ARI unflagged: the ARI over the vertices the method does not flag as anomalous (PAICAN's protocol), with their mean share; ARI is over all vertices.\n\n")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "dataset\tmethod\trule\tARI\tmodularity\trestarts\tparams\t"
	if flagged {
		head += "ARI unflagged (share)\t"
	}
	fmt.Fprintln(tw, head)
	for _, sel := range s.Selections {
		p := sel.Point
		if p == nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t— (%s)\t\t\t\t\n", sel.Dataset, sel.Method, ruleLabel(sel.Rule, nil), sel.Missing)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t", p.Dataset, p.Method, ruleLabel(sel.Rule, p), p.meanStd("ari"),
			p.meanStd("modularity"), p.restarts(), FormatParams(p.Params))
		if share, ok := p.Mean[MetricUnflaggedShare]; ok {
			fmt.Fprintf(tw, "%s (%.1f%%)\t", p.meanStd(MetricARIUnflagged), 100*share)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// ruleLabel names a rule in a summary's rows, saying whether it, or the point it chose
// (nil: none), reads the labels.
func ruleLabel(rule string, p *PointStats) string {
	switch {
	case ReadsLabels(rule):
		return rule + " (reads labels)"
	case p != nil && p.SearchReadsLabels():
		return rule + " (among the trials a label-reading search kept)"
	case p != nil && p.ReadsLabels():
		return rule + " (the row's initialisation reads labels)"
	}
	return rule + " (label-free)"
}

// meanStd formats the point's metric as "mean ± std" (3 decimals), "—" where it is not
// recorded.
func (p *PointStats) meanStd(metric string) string {
	if p.Runs == 0 {
		return "— (all failed)"
	}
	m, ok := p.Mean[metric]
	if !ok || math.IsNaN(m) {
		return "—"
	}
	return fmt.Sprintf("%.3f ± %.3f", m, p.Std[metric])
}

// restarts formats the point's finished restarts, with the failed ones.
func (p *PointStats) restarts() string {
	if p.Failed > 0 {
		return fmt.Sprintf("%d (+%d failed)", p.Runs, p.Failed)
	}
	return fmt.Sprint(p.Runs)
}

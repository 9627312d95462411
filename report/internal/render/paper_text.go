package render

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/nagc-harness/nagc/report/paper"
)

// agreeTolerance is the distance from the paper's value within which a reproduced cell counts
// as agreeing in the report's paragraphs.
const agreeTolerance = 0.05

// agreement counts the tidy rows of a selection with both a mean and a paper value, and
// how many of them are within agreeTolerance of the paper.
func agreement(rows []TidyRow, selection string) (within, compared int) {
	for _, tr := range rows {
		if tr.Selection != selection || math.IsNaN(tr.Mean) || math.IsNaN(tr.Paper) {
			continue
		}
		compared++
		if math.Abs(tr.Mean-tr.Paper) <= agreeTolerance+1e-12 {
			within++
		}
	}
	return within, compared
}

// datasetsParagraph says where the loader's statistics agree with the paper's.
func datasetsParagraph(t *Table) string {
	var diffs []string
	compared := 0
	for _, tr := range t.Tidy {
		if math.IsNaN(tr.Mean) || math.IsNaN(tr.Paper) {
			continue
		}
		compared++
		if math.Abs(tr.Diff) > 1e-9 {
			if tr.Metric == "density_percent" {
				diffs = append(diffs, fmt.Sprintf("%s %s: %.2f vs the paper's %.2f", DatasetTitle(tr.Dataset), tr.Metric, tr.Mean, tr.Paper))
			} else {
				diffs = append(diffs, fmt.Sprintf("%s %s: %g vs the paper's %g", DatasetTitle(tr.Dataset), tr.Metric, tr.Mean, tr.Paper))
			}
		}
	}
	switch {
	case compared == 0:
		return "No dataset of these results is in the paper's table (or no loader statistics were recorded)."
	case len(diffs) == 0:
		return fmt.Sprintf("All %d compared values equal the paper's.", compared)
	}
	return fmt.Sprintf("%d of %d compared values equal the paper's; they differ in: %s.", compared-len(diffs), compared, strings.Join(diffs, "; "))
}

// ariParagraph summarises the ARI table: cells within agreeTolerance of the paper under both
// rules, Prop. per dataset against the paper, the best method per dataset, the largest
// differences and the cells without results.
func ariParagraph(t *Table, r results) string {
	var b strings.Builder
	w, c := agreement(t.Tidy, PaperRule)
	wf, cf := agreement(t.Tidy, r.FreeRule)
	if c+cf == 0 {
		b.WriteString("No cell has both a result and a paper value (the datasets or methods run are not in the paper's table).")
	} else {
		fmt.Fprintf(&b, "Under the paper's rule %d of %d cells that have a paper value are within %.2f of it; "+
			"under the label-free rule (%s) %d of %d.", w, c, agreeTolerance, r.FreeRule, wf, cf)
	}
	var props []string
	for _, tr := range t.Tidy {
		if tr.Selection == PaperRule && tr.Method == r.Spec.Proposed && !math.IsNaN(tr.Mean) && !math.IsNaN(tr.Paper) {
			props = append(props, fmt.Sprintf("%s on %s: %s vs the paper's %s (%s)", tr.Method, DatasetTitle(tr.Dataset),
				fmtMeanStd(tr.Mean, tr.Std), fmt3(tr.Paper), fmtDiff(tr.Diff)))
		}
	}
	if len(props) > 0 {
		b.WriteString(" " + strings.Join(props, "; ") + ".")
	}
	var bests []string
	for _, d := range r.Datasets {
		om, ov := bestOf(t.Tidy, PaperRule, d, false)
		pm, pv := "", math.Inf(-1)
		for _, m := range r.Spec.Rows {
			if v, _, ok := r.Paper.ARIOf(m, d); ok && v > pv {
				pm, pv = m, v
			}
		}
		switch {
		case om == "":
		case pm == "":
			bests = append(bests, fmt.Sprintf("%s: %s (%s)", DatasetTitle(d), om, fmt3(ov)))
		case om == pm:
			bests = append(bests, fmt.Sprintf("%s: %s (%s), as in the paper (%s)", DatasetTitle(d), om, fmt3(ov), fmt3(pv)))
		default:
			bests = append(bests, fmt.Sprintf("%s: %s (%s) here, %s (%s) in the paper", DatasetTitle(d), om, fmt3(ov), pm, fmt3(pv)))
		}
	}
	if len(bests) > 0 {
		b.WriteString(" Best method per dataset under the paper's rule — " + strings.Join(bests, "; ") + ".")
	}
	if big := largestDiffs(t.Tidy, PaperRule, 3); len(big) > 0 {
		b.WriteString(" Largest differences: " + strings.Join(big, ", ") + ".")
	}
	b.WriteString(missingSentence(t.Tidy, PaperRule))
	return b.String()
}

// modularityParagraph summarises the WebKB modularity table per measure.
func modularityParagraph(t *Table, r results) string {
	var parts []string
	for _, metric := range []string{"modularity", "entropy", "ari"} {
		var rows []TidyRow
		for _, tr := range t.Tidy {
			if tr.Metric == metric {
				rows = append(rows, tr)
			}
		}
		w, c := agreement(rows, PaperRule)
		s := fmt.Sprintf("%s: %d of %d within %.2f", metric, w, c, agreeTolerance)
		for _, tr := range rows {
			if tr.Selection == PaperRule && tr.Method == r.Spec.Proposed && !math.IsNaN(tr.Mean) && !math.IsNaN(tr.Paper) {
				s += fmt.Sprintf(" (Prop. %s vs %s)", fmt3(tr.Mean), fmt3(tr.Paper))
			}
		}
		parts = append(parts, s)
	}
	out := "Under the paper's rule — " + strings.Join(parts, "; ") + "."
	if !r.HasDataset("webkb") {
		out = "WebKB is not in these results, so this table has no reproduced value."
	}
	if m, v := bestOf(t.Tidy, PaperRule, "", false, "modularity"); m != "" {
		out += fmt.Sprintf(" Highest modularity here: %s (%s)", m, fmt3(v))
		pm, pv := "", math.Inf(-1)
		if r.Paper != nil {
			for _, name := range r.Spec.Rows {
				if x, ok := r.Paper.ModularityEntropy[name]; ok && x[0] > pv {
					pm, pv = name, x[0]
				}
			}
		}
		if pm != "" {
			out += fmt.Sprintf("; in the paper: %s (%s)", pm, fmt3(pv))
		}
		out += "."
	}
	return out + missingSentence(t.Tidy, PaperRule)
}

// rhoParagraph compares the best ρ per dataset with the paper's.
func rhoParagraph(t *Table, r results) string {
	w, c := agreement(t.Tidy, PaperRule)
	out := fmt.Sprintf("Under the paper's rule %d of %d cells with a paper value are within %.2f of it.", w, c, agreeTolerance)
	if c == 0 {
		out = "No cell has both a result and a paper value."
	}
	var parts []string
	for _, d := range r.Datasets {
		bestRho, bestV := math.NaN(), math.Inf(-1)
		for _, tr := range t.Tidy {
			if tr.Dataset == d && tr.Selection == PaperRule && !math.IsNaN(tr.Mean) && tr.Mean > bestV {
				bestRho, bestV = tr.Rho, tr.Mean
			}
		}
		if math.IsNaN(bestRho) {
			continue
		}
		s := fmt.Sprintf("%s: best ρ = %s (%s)", DatasetTitle(d), fmtParam(bestRho), fmt3(bestV))
		pRho, pV := math.NaN(), math.Inf(-1)
		for _, rho := range r.Paper.Rhos() {
			if v, ok := r.Paper.RhoOf(rho, d); ok && v > pV {
				pRho, pV = rho, v
			}
		}
		if !math.IsNaN(pRho) {
			s += fmt.Sprintf(", the paper's ρ = %s (%s)", fmtParam(pRho), fmt3(pV))
		}
		parts = append(parts, s)
	}
	if len(parts) > 0 {
		out += " " + strings.Join(parts, "; ") + "."
	}
	var absent []string
	for _, rho := range r.rhoValues() {
		found := false
		for _, tr := range t.Tidy {
			if paper.SameFloat(tr.Rho, rho) && !math.IsNaN(tr.Mean) {
				found = true
			}
		}
		if !found {
			absent = append(absent, fmtParam(rho))
		}
	}
	if len(absent) > 0 {
		out += " ρ not in the recorded grid: " + strings.Join(absent, ", ") + "."
	}
	return out
}

// runtimeParagraph checks the paper's speed claims (paper.Spec.SpeedClaims) against the
// table's times at the paper's timing setting (k2 = k1), each with the paper's times, ours,
// the ratio and the reason it holds here or not. The times are those of the fits timed
// alone (column "alone") where the results hold them for both rows of a claim on a
// dataset, else the means over the sweep's runs at k2 = k1, timed concurrently.
func runtimeParagraph(t *Table, r results) string {
	alone := len(r.Timed) > 0
	var out []string
	fromSweep := false
	for _, c := range r.Spec.SpeedClaims {
		ds := c.Datasets
		if len(ds) == 0 {
			ds = r.Datasets
		}
		var cells []string
		var ratios, paperRatios []float64
		holds := 0
		for _, d := range ds {
			fast, slow, sel := claimPair(t.Tidy, d, c)
			if fast == nil {
				continue
			}
			ratio := slow.Mean / fast.Mean
			ratios = append(ratios, ratio)
			if ratio > 1 {
				holds++
			}
			cell := fmt.Sprintf("%s %s vs %s s, %.2f×", DatasetTitle(d), fmtSec3(fast.Mean), fmtSec3(slow.Mean), ratio)
			if !math.IsNaN(fast.Paper) && !math.IsNaN(slow.Paper) && fast.Paper > 0 {
				pr := slow.Paper / fast.Paper
				paperRatios = append(paperRatios, pr)
				cell += fmt.Sprintf(" (paper %s vs %s s, %.2f×)", FmtSeconds(fast.Paper), FmtSeconds(slow.Paper), pr)
			}
			if alone && sel == SelTimingSet {
				cell += " (sweep)"
				fromSweep = true
			}
			cells = append(cells, cell)
		}
		s := fmt.Sprintf("*Paper: \"%s\"* ", c.Claim)
		if len(cells) == 0 {
			s += fmt.Sprintf("Not checked here: %s or %s has no time at k2 = k1.", c.Faster, c.Slower)
			out = append(out, s)
			continue
		}
		s += fmt.Sprintf("Here, %s then %s: %s — the claim holds on %d of %d (%s takes %s× the time of %s",
			c.Faster, c.Slower, strings.Join(cells, "; "), holds, len(cells), c.Slower, ratioRange(ratios), c.Faster)
		if len(paperRatios) > 0 {
			s += fmt.Sprintf("; in the paper %s×", ratioRange(paperRatios))
		}
		s += ")."
		if len(c.Datasets) > 0 {
			var others []string
			for _, d := range r.Datasets {
				if containsFold(c.Datasets, d) {
					continue
				}
				if fast, slow, _ := claimPair(t.Tidy, d, c); fast != nil {
					others = append(others, fmt.Sprintf("%s %.2f×", DatasetTitle(d), slow.Mean/fast.Mean))
				}
			}
			if len(others) > 0 {
				s += " On the graphs the claim leaves out: " + strings.Join(others, ", ") + "."
			}
		}
		out = append(out, s+" "+c.Why)
	}
	head := "The paper's speed claims (its section \"Efficiency\", timed at k2 = k1) against our fit times at k2 = k1: "
	if alone {
		head += "the medians of the fits timed alone (column \"alone\"; the iterations without the initialisation, " +
			"which column \"init\" gives)"
		if fromSweep {
			head += "; marked (sweep) where a pair has no fits timed alone, the means over the sweep's runs at k2 = k1, " +
				"timed concurrently"
		}
	} else {
		head += "the means over the sweep's runs at k2 = k1 (column \"k2 = k1\"), " + r.SweepTiming() + " and with " +
			"k-means starts shared between grid points, not alone by the paper's protocol (`nagc run timing --results DIR`, " +
			"DIR this results folder, times them so)"
	}
	head += ". Each pair gives the time of the row the paper calls faster, then of the one it calls slower, and how " +
		"many times longer the second took: above 1× the claim holds here."
	return head + "\n\n- " + strings.Join(out, "\n- ")
}

// claimPair returns the tidy rows of a claim's faster and slower rows on a dataset and
// their selection: the fits timed alone (selAlone) where both rows have them, else the
// sweep's runs at k2 = k1 (selTimingSet); nil where no selection has both.
func claimPair(rows []TidyRow, dataset string, c paper.SpeedClaim) (fast, slow *TidyRow, sel string) {
	for _, sel := range []string{SelAlone, SelTimingSet} {
		f, s := lookupSel(rows, dataset, c.Faster, sel), lookupSel(rows, dataset, c.Slower, sel)
		if f != nil && s != nil && !math.IsNaN(f.Mean) && !math.IsNaN(s.Mean) && f.Mean > 0 && s.Mean > 0 {
			return f, s, sel
		}
	}
	return nil, nil, ""
}

// ratioRange prints the range of ratios ("0.80–1.40", or "1.05" for one value).
func ratioRange(xs []float64) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	a, b := fmt.Sprintf("%.2f", lo), fmt.Sprintf("%.2f", hi)
	if a == b {
		return a
	}
	return a + "–" + b
}

// containsFold reports whether list holds s, ignoring case.
func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// lookupSel returns the tidy row of a method on a dataset with a selection, or nil.
func lookupSel(rows []TidyRow, dataset, method, selection string) *TidyRow {
	for i := range rows {
		if strings.EqualFold(rows[i].Dataset, dataset) && rows[i].Method == method && rows[i].Selection == selection &&
			rows[i].Metric == MetricFitTime {
			return &rows[i]
		}
	}
	return nil
}

// bestOf returns the method with the highest (lowest if low) mean of a selection's tidy
// rows on a dataset ("" = any dataset), optionally restricted to a metric.
func bestOf(rows []TidyRow, selection, dataset string, low bool, metric ...string) (string, float64) {
	name, best := "", math.NaN()
	for _, tr := range rows {
		if tr.Selection != selection || (dataset != "" && tr.Dataset != dataset) || math.IsNaN(tr.Mean) {
			continue
		}
		if len(metric) > 0 && tr.Metric != metric[0] {
			continue
		}
		if math.IsNaN(best) || (low && tr.Mean < best) || (!low && tr.Mean > best) {
			name, best = tr.Method, tr.Mean
		}
	}
	return name, best
}

// largestDiffs lists the n largest |diff| cells of a selection.
func largestDiffs(rows []TidyRow, selection string, n int) []string {
	var cand []TidyRow
	for _, tr := range rows {
		if tr.Selection == selection && !math.IsNaN(tr.Diff) {
			cand = append(cand, tr)
		}
	}
	sort.SliceStable(cand, func(a, b int) bool { return math.Abs(cand[a].Diff) > math.Abs(cand[b].Diff) })
	var out []string
	for i := 0; i < len(cand) && i < n; i++ {
		if math.Abs(cand[i].Diff) <= agreeTolerance {
			break
		}
		out = append(out, fmt.Sprintf("%s on %s (%s vs %s, %s)", cand[i].Method, DatasetTitle(cand[i].Dataset),
			fmt3(cand[i].Mean), fmt3(cand[i].Paper), fmtDiff(cand[i].Diff)))
	}
	return out
}

// missingSentence counts the cells of a selection without a result, by reason.
func missingSentence(rows []TidyRow, selection string) string {
	reasons := map[string]int{}
	var order []string
	for _, tr := range rows {
		if tr.Selection != selection || !math.IsNaN(tr.Mean) {
			continue
		}
		why := tr.Note
		if why == "" {
			why = "no value"
		}
		if strings.HasPrefix(why, "all ") && strings.Contains(why, "runs failed") {
			why = "all runs failed"
		}
		if reasons[why] == 0 {
			order = append(order, why)
		}
		reasons[why]++
	}
	if len(order) == 0 {
		return ""
	}
	var parts []string
	for _, w := range order {
		parts = append(parts, fmt.Sprintf("%d %s", reasons[w], w))
	}
	return " Cells without a result: " + strings.Join(parts, ", ") + " (see the table's notes)."
}

func lookupTidy(rows []TidyRow, dataset, method, selection string) *TidyRow {
	for i := range rows {
		if rows[i].Dataset == dataset && rows[i].Method == method && rows[i].Selection == selection {
			return &rows[i]
		}
	}
	return nil
}

// ariConnectedParagraph says, from the table built by ariConnectedTable, on which
// datasets leaving the isolated vertices out moves a method's ARI by more than agreeTolerance
// under the paper's rule, and by how much at most.
func ariConnectedParagraph(t *Table, r results) string {
	// The table's tidy rows come in pairs: "ari", then "ari_connected" of the same cell.
	worst := map[string][2]TidyRow{} // by dataset: the pair that moves most
	for i := 0; i+1 < len(t.Tidy); i += 2 {
		all, conn := t.Tidy[i], t.Tidy[i+1]
		if all.Selection != PaperRule || math.IsNaN(all.Mean) || math.IsNaN(conn.Mean) {
			continue
		}
		if w, ok := worst[all.Dataset]; !ok || math.Abs(conn.Mean-all.Mean) > math.Abs(w[1].Mean-w[0].Mean) {
			worst[all.Dataset] = [2]TidyRow{all, conn}
		}
	}
	var moved, same []string
	for _, d := range r.Datasets {
		w, ok := worst[d]
		switch {
		case !ok:
		case math.Abs(w[1].Mean-w[0].Mean) > agreeTolerance:
			moved = append(moved, fmt.Sprintf("%s (at most %s, %s: %s over all vertices, %s over those with an edge)",
				DatasetTitle(d), fmtDiff(w[1].Mean-w[0].Mean), w[0].Method, fmt3(w[0].Mean), fmt3(w[1].Mean)))
		default:
			same = append(same, DatasetTitle(d))
		}
	}
	var b strings.Builder
	b.WriteString("Isolated vertices have no edge to inform their cluster: a method places them by their attributes " +
		"or by how it breaks ties, and a label-free method cannot know which side is right.")
	if len(moved) > 0 {
		fmt.Fprintf(&b, " Under the paper's rule, leaving them out moves the ARI by more than %.2f on %s.",
			agreeTolerance, strings.Join(moved, "; "))
	}
	if len(same) > 0 {
		fmt.Fprintf(&b, " It moves no method's ARI by more than %.2f on %s.", agreeTolerance, strings.Join(same, ", "))
	}
	if len(moved)+len(same) == 0 {
		b.WriteString(" No recorded run has ari_connected (records made before it existed gain it with `nagc results rescore`).")
	}
	return b.String()
}

package experiments

import (
	"fmt"
	"io"
	"maps"
	"sort"

	"github.com/nagc-harness/nagc/results"
)

// SearchStatus is the progress of one search (a row with a space on one dataset), read
// from its records.
type SearchStatus struct {
	Dataset, Row, Rule string
	// Trials is the number the config asks for; Proposed those with a record, Finished
	// those that completed the last rung with all restarts, Cut those cut at a rung, and
	// Running the rest of the proposed.
	Trials, Proposed, Finished, Cut, Running int
	// Best is the best finished trial under Rule (nil before the first finishes).
	Best *SearchTrial
}

// SearchTrial is one trial of a search at the rung it reached.
type SearchTrial struct {
	Trial, Rung, Restarts int
	Params                map[string]any // without iterations
	Value                 float64        // mean of the rule's value over its restarts
	Iterations            int
}

// SearchStatusOf returns the progress of every search of cfg with a record among recs
// (any order, superseded records included), in the order the records first name them.
func SearchStatusOf(cfg *Config, recs []results.Record) []SearchStatus {
	type key struct{ d, row string }
	type trialAcc struct {
		rung, n  int
		sum      float64
		bad, cut bool
		params   map[string]any
		iters    int
		point    string // the grid point its records aggregate to (Aggregate)
	}
	trials := map[key]map[int]*trialAcc{}
	rules := map[key]string{}
	var order []key
	for _, r := range results.Latest(recs) {
		if r.Search == nil {
			continue
		}
		k := key{r.Dataset, r.Search.Row}
		if trials[k] == nil {
			trials[k] = map[int]*trialAcc{}
			order = append(order, k)
		}
		rules[k] = r.Search.Rule
		t := trials[k][r.Search.Trial]
		if t == nil || r.Search.Rung > t.rung {
			t = &trialAcc{rung: r.Search.Rung, params: withoutIterations(r.Params), iters: r.Iterations, point: r.GridPoint()}
			trials[k][r.Search.Trial] = t
		}
		if r.Search.Rung < t.rung {
			continue
		}
		t.cut = t.cut || r.Search.Cut
		v, ok := ruleValue(r.Search.Rule, &r)
		t.n++
		t.sum += v
		t.bad = t.bad || !ok
	}
	lastRung := map[key]int{}
	for _, r := range recs {
		if r.Search != nil {
			lastRung[key{r.Dataset, r.Search.Row}] = r.Search.Rungs - 1
		}
	}
	var out []SearchStatus
	for _, k := range order {
		st := SearchStatus{Dataset: k.d, Row: k.row, Rule: rules[k], Proposed: len(trials[k])}
		for _, m := range cfg.Methods {
			if m.Name.Value == k.row && len(m.Space) > 0 {
				st.Trials = cfg.searchOf(m).Trials
			}
		}
		ids := make([]int, 0, len(trials[k]))
		for id := range trials[k] {
			ids = append(ids, id)
		}
		sort.Ints(ids)
		bestPoint := ""
		for _, id := range ids {
			t := trials[k][id]
			switch {
			case t.cut:
				st.Cut++
			case t.rung == lastRung[k] && t.n == cfg.Restarts:
				st.Finished++
				if t.bad {
					continue
				}
				v := t.sum / float64(t.n)
				// Ties go to the first grid point in canonical order, as Best's do: the
				// status's best is the summary's choice.
				if st.Best == nil || v > st.Best.Value || v == st.Best.Value && t.point < bestPoint {
					bestPoint = t.point
					st.Best = &SearchTrial{Trial: id, Rung: t.rung, Restarts: t.n, Params: t.params, Value: v, Iterations: t.iters}
				}
			default:
				st.Running++
			}
		}
		out = append(out, st)
	}
	return out
}

// withoutIterations returns a copy of params without iterations.
func withoutIterations(params map[string]any) map[string]any {
	p := maps.Clone(params)
	delete(p, "iterations")
	return p
}

// Complete reports whether every trial of the search is finished or cut.
func (s SearchStatus) Complete() bool { return s.Trials > 0 && s.Finished+s.Cut == s.Trials }

// WriteText writes one line for the search: its trials done, cut and running, and the
// best so far.
func (s SearchStatus) WriteText(w io.Writer) error {
	label := s.Rule
	if results.ReadsLabels(s.Rule) {
		label += " (reads the labels)"
	}
	_, err := fmt.Fprintf(w, "search %s on %s (rule %s): %d of %d trials: %d done, %d cut, %d running", s.Row, s.Dataset, label,
		s.Proposed, s.Trials, s.Finished, s.Cut, s.Running)
	if err != nil {
		return err
	}
	if s.Best != nil {
		_, err = fmt.Fprintf(w, "; best so far %.4f (trial %d: %s)", s.Best.Value, s.Best.Trial, results.FormatParams(s.Best.Params))
	}
	if err == nil {
		_, err = fmt.Fprintln(w)
	}
	return err
}

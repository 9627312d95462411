package results

import (
	"fmt"
	"math"
)

// SearchInfo is what a record of a search says of its run: the row searched, the trial
// (from 1) and the batch it was proposed in (from 0), the rung of successive halving
// (from 0, of Rungs; 0 of 1 without pruning), the bracket of Hyperband the trial is in
// (the rung it started at: 0, omitted, for halving's one bracket), and whether the
// trial was cut at this rung (its value there was not in the best 1/eta of its
// bracket's trials at the rung). Rule is the rule the search maximises.
type SearchInfo struct {
	Row     string `json:"row"`
	Rule    string `json:"rule"`
	Trial   int    `json:"trial"`
	Batch   int    `json:"batch"`
	Rung    int    `json:"rung"`
	Rungs   int    `json:"rungs"`
	Bracket int    `json:"bracket,omitempty"`
	Cut     bool   `json:"cut,omitempty"`
	// HeldOutOnly says that the rung fitted only the held-out copy the rule reads (a
	// search with rule heldout and whole_graph last_rung, before its last rung): the
	// record has its held-out score and labels, no whole-graph fit.
	HeldOutOnly bool `json:"heldout_only,omitempty"`
}

// RuleValue returns the value a search's rule gives a run's metrics (higher is
// better: modularity, two-view's modularity + attribute modularity, heldout's
// held-out modularity, ari), false where a metric it reads is missing or NaN.
func RuleValue(rule string, metrics map[string]float64) (float64, bool) {
	var v float64
	var ok bool
	switch rule {
	case SelectTwoView:
		a, okA := metrics["modularity"]
		b, okB := metrics["attr_modularity"]
		v, ok = a+b, okA && okB
	case SelectHeldOut:
		v, ok = metrics[MetricHeldOut]
	default:
		v, ok = metrics[rule]
	}
	return v, ok && !math.IsNaN(v)
}

// SearchBest follows the best trial seen at the last rung of any search, record by
// record, for a progress line. The zero value is ready to use.
type SearchBest struct {
	acc  map[string]*searchMean // dataset, row, trial → its records at the last rung
	best string                 // the key of the best trial
	text string
}

// searchMean is the sum and count of a trial's values at the last rung, and what the
// progress line says of it.
type searchMean struct {
	sum, n             float64
	rule, dataset, row string
	trial              int
}

func (m *searchMean) mean() float64 { return m.sum / m.n }

// above reports whether m ranks above o: a larger mean, or on a tie the earlier dataset,
// row and trial, as a search's status and summary choose.
func (m *searchMean) above(o *searchMean) bool {
	if m.mean() != o.mean() {
		return m.mean() > o.mean()
	}
	if m.dataset != o.dataset {
		return m.dataset < o.dataset
	}
	if m.row != o.row {
		return m.row < o.row
	}
	return m.trial < o.trial
}

// Add counts record r and returns the best so far ("" before any trial reached its
// last rung): the largest mean of a rule's value over the restarts of a trial recorded
// so far (a later restart that lowers the best trial's mean lowers what it says). It
// costs O(1), or O(trials) when the best trial's mean falls.
func (b *SearchBest) Add(r *Record) string {
	if r.Search == nil || r.Search.Rung != r.Search.Rungs-1 {
		return b.text
	}
	v, ok := RuleValue(r.Search.Rule, r.Metrics)
	if !ok || r.Status != StatusDone {
		return b.text
	}
	if b.acc == nil {
		b.acc = map[string]*searchMean{}
	}
	k := fmt.Sprintf("%s\x00%s\x00%d", r.Dataset, r.Search.Row, r.Search.Trial)
	a := b.acc[k]
	if a == nil {
		a = &searchMean{rule: r.Search.Rule, dataset: r.Dataset, row: r.Search.Row, trial: r.Search.Trial}
		b.acc[k] = a
	}
	a.sum += v
	a.n++
	switch cur := b.acc[b.best]; {
	case cur == nil || a.above(cur):
		b.best = k
	case k == b.best: // the best may have fallen below another trial
		for key, m := range b.acc {
			if m.above(b.acc[b.best]) {
				b.best = key
			}
		}
	}
	m := b.acc[b.best]
	b.text = fmt.Sprintf("best %s %.4f (%s, %s trial %d)", m.rule, m.mean(), m.dataset, m.row, m.trial)
	return b.text
}

// searchFinal reports whether r is a grid's record or a search's record of its last
// rung: the records summaries read. A search's lower rungs are fits cut short, which
// no selection compares with full ones.
func (r *Record) searchFinal() bool { return r.Search == nil || r.Search.Rung == r.Search.Rungs-1 }

package results

import (
	"fmt"
	"math"
)

// SearchInfo is what a record of a search says of its run: the row searched, the trial
// (from 1) and the batch it was proposed in (from 0), the rung of successive halving
// (from 0, of Rungs; 0 of 1 without pruning), and whether the trial was cut at this
// rung (its value there was not in the best 1/eta of the rung). Rule is the rule the
// search maximises.
type SearchInfo struct {
	Row   string `json:"row"`
	Rule  string `json:"rule"`
	Trial int    `json:"trial"`
	Batch int    `json:"batch"`
	Rung  int    `json:"rung"`
	Rungs int    `json:"rungs"`
	Cut   bool   `json:"cut,omitempty"`
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
	acc  map[string]*[2]float64 // dataset, row, trial → sum, n at the last rung
	best float64
	text string
}

// Add counts record r and returns the best so far ("" before any trial reached its
// last rung): the mean of its rule's value over its restarts recorded so far.
func (b *SearchBest) Add(r *Record) string {
	if r.Search == nil || r.Search.Rung != r.Search.Rungs-1 {
		return b.text
	}
	v, ok := RuleValue(r.Search.Rule, r.Metrics)
	if !ok || r.Status != StatusDone {
		return b.text
	}
	if b.acc == nil {
		b.acc, b.best = map[string]*[2]float64{}, math.Inf(-1)
	}
	k := fmt.Sprintf("%s\x00%s\x00%d", r.Dataset, r.Search.Row, r.Search.Trial)
	a := b.acc[k]
	if a == nil {
		a = &[2]float64{}
		b.acc[k] = a
	}
	a[0] += v
	a[1]++
	if m := a[0] / a[1]; m > b.best {
		b.best = m
		b.text = fmt.Sprintf("best %s %.4f (%s, %s trial %d)", r.Search.Rule, m, r.Dataset, r.Search.Row, r.Search.Trial)
	}
	return b.text
}

// searchFinal reports whether r is a grid's record or a search's record of its last
// rung: the records summaries read. A search's lower rungs are fits cut short, which
// no selection compares with full ones.
func (r *Record) searchFinal() bool { return r.Search == nil || r.Search.Rung == r.Search.Rungs-1 }

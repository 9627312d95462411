package results

import "fmt"

// searchNotes returns one line per search among recs (any order, superseded records
// included), in the order the records first name them, saying what a summary's rules
// choose among: "search NAGC on big (rule modularity): 4 of its 20 trials completed the
// last rung uncut; each rule chooses among those 4".
func searchNotes(recs []Record) []string {
	type key struct{ d, row string }
	type acc struct {
		rule     string
		trials   map[int]bool // every trial recorded → completed the last rung uncut
		finished int
	}
	searches := map[key]*acc{}
	var order []key
	for _, r := range Latest(recs) {
		if r.Search == nil {
			continue
		}
		k := key{r.Dataset, r.Search.Row}
		a := searches[k]
		if a == nil {
			a = &acc{rule: r.Search.Rule, trials: map[int]bool{}}
			searches[k] = a
			order = append(order, k)
		}
		done := r.searchFinal() && !r.Search.Cut && r.Status == StatusDone
		if done && !a.trials[r.Search.Trial] {
			a.finished++
		}
		a.trials[r.Search.Trial] = a.trials[r.Search.Trial] || done
	}
	var out []string
	for _, k := range order {
		a := searches[k]
		rule := a.rule
		if ReadsLabels(rule) {
			rule += ", which reads the labels"
		}
		out = append(out, fmt.Sprintf("search %s on %s (rule %s): %d of its %d trials completed the last rung uncut; each rule chooses among those %d",
			k.row, k.d, rule, a.finished, len(a.trials), a.finished))
	}
	return out
}

// SearchReadsLabels reports whether the point is a trial of a search whose rule reads the
// labels (rule ari): the search kept it by them, so any rule choosing among its trials
// reads them too.
func (p *PointStats) SearchReadsLabels() bool {
	for _, r := range p.Records {
		if r.Search != nil && ReadsLabels(r.Search.Rule) {
			return true
		}
	}
	return false
}

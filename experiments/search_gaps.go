package experiments

import (
	"fmt"
	"slices"
)

// SearchGap is a search of a config that some results folders do not hold complete
// (SearchStatus.Complete): its dataset and row, the shard (1-based, of the count asked
// for; 0 unsharded) that runs it whole, and its progress there (Proposed 0: no record).
type SearchGap struct {
	Shard  int
	Status SearchStatus
}

// String says which search is incomplete and how far it came.
func (g SearchGap) String() string {
	s := g.Status
	return fmt.Sprintf("search %s on %s has %d of %d trials finished or cut (%d proposed)", s.Row, s.Dataset, s.Finished+s.Cut, s.Trials, s.Proposed)
}

// SearchGaps returns the searches of cfg that the results folders dirs together do not
// hold complete, in config order, each with the shard of n (n ≤ 1: none) that runs it.
// A search's runs are planned as it goes, so Plan does not list them and a sweep whose
// planned runs are all recorded may still hold an unfinished search: SearchGaps is the
// rest of the test that it is complete. It loads cfg's datasets only when cfg has a
// search; it reads every runs file once.
func SearchGaps(cfg *Config, dirs []string, n int) ([]SearchGap, error) {
	if !slices.ContainsFunc(cfg.Methods, func(m MethodSpec) bool { return len(m.Space) > 0 }) {
		return nil, nil
	}
	loaded, err := loadDatasets(cfg)
	if err != nil {
		return nil, err
	}
	tasks, err := cfg.searchTasks(loaded, 0)
	if err != nil {
		return nil, err
	}
	recs, err := readRecordsIn(dirs)
	if err != nil {
		return nil, err
	}
	progress := map[[2]string]SearchStatus{}
	for _, s := range SearchStatusOf(cfg, recs) {
		progress[[2]string{s.Dataset, s.Row}] = s
	}
	var gaps []SearchGap
	for _, t := range tasks {
		s, ok := progress[[2]string{t.ds.Name, t.row.Name.Value}]
		if !ok {
			s = SearchStatus{Dataset: t.ds.Name, Row: t.row.Name.Value, Rule: t.spec.Rule, Trials: t.spec.Trials}
		}
		if s.Complete() {
			continue
		}
		g := SearchGap{Status: s}
		if n > 1 {
			g.Shard = t.shardOf(n) + 1
		} else if n == 1 {
			g.Shard = 1
		}
		gaps = append(gaps, g)
	}
	return gaps, nil
}

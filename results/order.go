package results

import "slices"

// SortByPlan sorts recs in place into the order of the configs that planned them, so
// that everything read from them (Aggregate's datasets and rows, a report's tables and
// figures) comes in the order the configs list datasets, rows, grid points and
// restarts, never in the order the runs finished: the same for any number of workers,
// any batch size, a sweep resumed or cut short by --limit, and shards merged in any
// order.
//
// The records of one config (Record.Config) go together, ordered by their position in
// its plan (Record.Plan); the configs come in the order of their first record in recs
// (the order they were run into the folder). Records without a position, written
// before nagc recorded it, form one group that keeps its order, so a results folder
// holding only such records reads as it always did. The sort is stable and applying it
// twice changes nothing. Cost O(r log r) for r records.
func SortByPlan(recs []Record) {
	type group struct {
		config  string
		planned bool
	}
	rank := map[group]int{}
	for i := range recs {
		g := group{recs[i].Config, recs[i].Plan > 0}
		if _, ok := rank[g]; !ok {
			rank[g] = len(rank)
		}
	}
	if len(rank) == 1 && recs[0].Plan == 0 {
		return // records of before: the file's order
	}
	slices.SortStableFunc(recs, func(a, b Record) int {
		ga, gb := rank[group{a.Config, a.Plan > 0}], rank[group{b.Config, b.Plan > 0}]
		if ga != gb {
			return ga - gb
		}
		return a.Plan - b.Plan
	})
}

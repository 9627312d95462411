package results

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// planned returns records named "config:plan" ("x" alone: written before positions were
// recorded, Plan 0), in the order given.
func planned(names ...string) []Record {
	out := make([]Record, len(names))
	for i, n := range names {
		out[i].RunID = n
		if c, p, ok := strings.Cut(n, ":"); ok {
			out[i].Config = c
			fmt.Sscan(p, &out[i].Plan)
		}
	}
	return out
}

func runIDs(recs []Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.RunID
	}
	return out
}

func TestSortByPlan(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in, want []string
	}{
		{"no records", nil, nil},
		{"records of before keep the file's order", []string{"x", "b", "a"}, []string{"x", "b", "a"}},
		{"one config: its plan's order", []string{"A:3", "A:1", "A:4", "A:2"}, []string{"A:1", "A:2", "A:3", "A:4"}},
		{"configs in the order first recorded", []string{"B:5", "A:1", "B:2", "A:7", "A:3"}, []string{"B:2", "B:5", "A:1", "A:3", "A:7"}},
		{"records of before as one group", []string{"x", "A:2", "y", "A:1", "z"}, []string{"x", "y", "z", "A:1", "A:2"}},
		{"resumed after records of before", []string{"A:2", "x", "A:1"}, []string{"A:1", "A:2", "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := planned(tc.in...)
			SortByPlan(recs)
			if got := runIDs(recs); !slices.Equal(got, tc.want) {
				t.Fatalf("SortByPlan(%v) = %v, want %v", tc.in, got, tc.want)
			}
			SortByPlan(recs)
			if got := runIDs(recs); !slices.Equal(got, tc.want) {
				t.Errorf("sorted twice: %v, want %v", got, tc.want)
			}
		})
	}
}

// TestAggregateInPlanOrder checks that Aggregate lists datasets and rows in the plan's
// order whatever the records' order, and in the records' order for records without
// positions (as results written before them always were).
func TestAggregateInPlanOrder(t *testing.T) {
	rec := func(ds, method string, plan int) Record {
		return Record{RunID: fmt.Sprint(ds, method), Dataset: ds, Methods: []string{method}, Status: StatusDone,
			Params: map[string]any{}, Config: "c", Plan: plan}
	}
	finished := []Record{rec("d2", "M2", 4), rec("d1", "M2", 2), rec("d2", "M1", 3), rec("d1", "M1", 1)}
	cells := func(recs []Record) []string {
		var out []string
		for _, p := range Aggregate(recs) {
			out = append(out, p.Dataset+"/"+p.Method)
		}
		return out
	}
	if got, want := cells(finished), []string{"d1/M1", "d1/M2", "d2/M1", "d2/M2"}; !slices.Equal(got, want) {
		t.Errorf("with plan positions: %v, want %v", got, want)
	}
	for i := range finished {
		finished[i].Config, finished[i].Plan = "", 0
	}
	if got, want := cells(finished), []string{"d2/M2", "d2/M1", "d1/M2", "d1/M1"}; !slices.Equal(got, want) {
		t.Errorf("without plan positions: %v, want the records' order %v", got, want)
	}
}

// ExampleSortByPlan orders records that finished out of order (as with several workers)
// into their config's plan.
func ExampleSortByPlan() {
	recs := []Record{
		{RunID: "c", Dataset: "cora", Methods: []string{"NAGC"}, Config: "paper", Plan: 3},
		{RunID: "a", Dataset: "cora", Methods: []string{"METIS"}, Config: "paper", Plan: 1},
		{RunID: "b", Dataset: "cora", Methods: []string{"SGC"}, Config: "paper", Plan: 2},
	}
	SortByPlan(recs)
	for _, r := range recs {
		fmt.Println(r.Plan, r.Dataset, r.Methods[0])
	}
	// Output:
	// 1 cora METIS
	// 2 cora SGC
	// 3 cora NAGC
}

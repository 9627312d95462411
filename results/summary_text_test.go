package results

import (
	"bytes"
	"strings"
	"testing"
)

// TestResultsSummaryText checks the text summary: the rules, a dataset without labels,
// a partly labelled one, a timed fit left out, a failed restart, and the rows of both
// rules (a rule choosing nothing says why).
func TestResultsSummaryText(t *testing.T) {
	rec := func(id, dataset string, lambda float64, restart int, m map[string]float64) Record {
		return Record{RunID: id, Dataset: dataset, Methods: []string{"Prop."}, Algorithm: "nagc",
			Params: map[string]any{"lambda": lambda}, Restart: restart, Status: StatusDone, Metrics: m}
	}
	recs := []Record{
		rec("a0", "cora", 0.01, 0, map[string]float64{"ari": 0.5, "modularity": 0.6}),
		rec("a1", "cora", 0.01, 1, map[string]float64{"ari": 0.7, "modularity": 0.6}),
		rec("b0", "cora", 1, 0, map[string]float64{"ari": 0.4, "modularity": 0.7}),
		{RunID: "b1", Dataset: "cora", Methods: []string{"Prop."}, Algorithm: "nagc", Params: map[string]any{"lambda": 1.0},
			Restart: 1, Status: StatusFailed, Error: "boom"},
		rec("c0", "mine", 1, 0, map[string]float64{"modularity": 0.3}),
		{RunID: "t0", Dataset: "cora", Algorithm: "nagc", Status: StatusDone, TimedAlone: true},
	}
	var sweep []Record
	for _, r := range recs {
		if !r.TimedAlone {
			sweep = append(sweep, r)
		}
	}
	s := &Summary{Dir: "res", Records: recs, Points: Aggregate(sweep),
		Coverage: map[string]Coverage{"cora": {Labeled: 140, N: 2708}}, Rules: []string{SelectARI, SelectModularity}}
	s.Labeled = Labeled(s.Points)
	var err error
	if s.Selections, err = Summarize(s.Points, s.Rules); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"rule ari: " + RuleText(SelectARI) + "\n",
		"rule modularity: " + RuleText(SelectModularity) + "\n",
		"no labels on mine (no ARI recorded)",
		"cora labels 140 of its 2708 vertices",
		"1 fits timed alone",
		"Mean ± population std over restarts.\n\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	rows := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) > 2 && (f[0] == "cora" || f[0] == "mine") {
			rows[f[0]+" "+f[2]] = l
		}
	}
	for key, want := range map[string][]string{
		"cora ari":        {"(reads labels)", "0.600 ± 0.100", "0.600 ± 0.000", "lambda=0.01", " 2 "},
		"cora modularity": {"(label-free)", "0.400 ± 0.000", "0.700 ± 0.000", "1 (+1 failed)", "lambda=1"},
		"mine ari":        {"— (no labels: no ARI recorded)"},
		"mine modularity": {"—", "0.300 ± 0.000", "lambda=1"},
	} {
		for _, w := range want {
			if !strings.Contains(rows[key], w) {
				t.Errorf("row %s = %q lacks %q", key, rows[key], w)
			}
		}
	}
}

// TestResultsSummaryTimedOnly checks that a folder of fits timed alone says where their
// times are instead of an empty table.
func TestResultsSummaryTimedOnly(t *testing.T) {
	s := &Summary{Dir: "res", Records: []Record{{RunID: "t", Status: StatusDone, TimedAlone: true}}}
	var b bytes.Buffer
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "res holds only fits timed alone (1, from a config with timing: true)"; !strings.HasPrefix(b.String(), want) {
		t.Errorf("got %q, want it to start %q", b.String(), want)
	}
}

// TestRuleText checks the words of the rules that nagc results and the report's captions
// print.
func TestRuleText(t *testing.T) {
	for _, tc := range []struct{ rule, want string }{
		{SelectARI, "best mean ARI over restarts (the paper's rule; reads the ground-truth labels)"},
		{SelectModularity, "best mean modularity over restarts (label-free: reads no labels)"},
		{"no-such-rule", "no-such-rule"},
	} {
		if got := RuleText(tc.rule); got != tc.want {
			t.Errorf("RuleText(%q) = %q, want %q", tc.rule, got, tc.want)
		}
	}
}

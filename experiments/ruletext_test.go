package experiments_test

import (
	"testing"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/report"
)

// TestRuleTextMatchesReport checks that the summary and the report describe each rule in
// the same words.
func TestRuleTextMatchesReport(t *testing.T) {
	for _, r := range []string{experiments.SelectARI, experiments.SelectModularity, experiments.SelectObjective,
		experiments.SelectTwoView, experiments.SelectHeldOut, "other"} {
		if got, want := experiments.RuleText(r), report.RuleText(r); got != want {
			t.Errorf("rule %s: experiments says %q, the report %q", r, got, want)
		}
	}
}

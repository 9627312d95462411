package experiments

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// The summary of a search says, per search, how many of its trials its rules choose
// among (those that completed the last rung), as nagc status counts them.
func TestSummaryNamesTheSearchesTrials(t *testing.T) {
	b, statuses := summarizeSearch(t, mustLoad(t, searchConfig))
	if len(statuses) != 2 {
		t.Fatalf("%d searches, want 2", len(statuses))
	}
	for _, st := range statuses {
		if st.Finished == 0 || st.Finished > st.Proposed {
			t.Fatalf("status %+v", st)
		}
		want := fmt.Sprintf("search %s on %s (rule %s): %d of its %d trials completed the last rung uncut; each rule chooses among those %d\n",
			st.Row, st.Dataset, st.Rule, st.Finished, st.Proposed, st.Finished)
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

// A label-free rule choosing among the trials a search by ARI kept reads the labels
// through that search: the summary never calls it label-free; among the trials of a
// search by modularity it is label-free.
func TestSummaryOfLabelReadingSearch(t *testing.T) {
	for _, c := range []struct {
		searchRule string
		reads      bool
		label      string
	}{
		{"ari", true, "modularity (among the trials a label-reading search kept)"},
		{"modularity", false, "modularity (label-free)"},
	} {
		t.Run(c.searchRule, func(t *testing.T) {
			text := strings.Replace(searchConfig, "rule: modularity,", "rule: "+c.searchRule+",", 1)
			dir := t.TempDir()
			executeSearch(t, mustLoad(t, text), Options{ResultsDir: dir, Workers: 2})
			s, err := results.SummarizeDir(dir, results.SelectModularity)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, sel := range s.Selections {
				if sel.Rule != results.SelectModularity || sel.Point == nil {
					continue
				}
				n++
				if sel.ReadsLabels() != c.reads {
					t.Errorf("%s: reads labels %v, want %v", sel.Method, sel.ReadsLabels(), c.reads)
				}
			}
			if n != 2 {
				t.Errorf("%d modularity selections, want one per row (2)", n)
			}
			var b bytes.Buffer
			if err := s.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(b.String(), c.label); got != 2 {
				t.Errorf("the summary labels %d rows %q, want both rows:\n%s", got, c.label, b.String())
			}
		})
	}
}

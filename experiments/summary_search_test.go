package experiments

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// The summary of a search says, per search, how many of its trials its rules choose
// among (those that completed the last rung), as nagc status counts them.
func TestSummaryNamesTheSearchesTrials(t *testing.T) {
	cfg := mustLoad(t, searchConfig)
	dir := t.TempDir()
	executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2})
	s, err := SummarizeResults(dir, SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	statuses := SearchStatusOf(cfg, s.Records)
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

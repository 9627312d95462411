package experiments

import (
	"bytes"
	"strings"
	"testing"
)

// TestWriteSearchStatus checks the status of searchConfig's two searches on the
// synthetic graph: not started, stopped part way (a line of progress per search and the
// command that finishes them), in shards (the command of each shard running a search),
// and complete (progress with the best so far, no command). Each line is checked up to
// the best value.
func TestWriteSearchStatus(t *testing.T) {
	cfg := mustLoad(t, searchConfig)
	for _, tc := range []struct {
		name   string
		limit  int // runs recorded before the status; -1 none, 0 all
		shards int
		want   []string // the lines, up to the best so far
	}{
		{"not started", -1, 0, []string{
			"search P on synthetic: not started",
			"search Q on synthetic: not started",
			"  nagc run c.yaml --results DIR   # finishes the searches (resumes where they stopped)",
		}},
		{"stopped", 7, 0, []string{
			"search P on synthetic (rule modularity): 6 of 18 trials: 0 done, 4 cut, 2 running",
			"search Q on synthetic: not started",
			"  nagc run c.yaml --results DIR   # finishes the searches (resumes where they stopped)",
		}},
		{"sharded, not started", -1, 2, []string{
			"search P on synthetic: not started",
			"search Q on synthetic: not started",
			"  nagc run c.yaml --shard 1/2 --results DIR/shards/1-of-2   # finishes search P on synthetic (resumes where it stopped)",
			"  nagc run c.yaml --shard 2/2 --results DIR/shards/2-of-2   # finishes search Q on synthetic (resumes where it stopped)",
		}},
		{"complete", 0, 0, []string{
			"search P on synthetic (rule modularity): 18 of 18 trials: 3 done, 15 cut, 0 running; best so far ",
			"search Q on synthetic (rule modularity): 5 of 5 trials: 1 done, 4 cut, 0 running; best so far ",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.limit >= 0 {
				executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 2, Limit: tc.limit})
			}
			var b bytes.Buffer
			if err := WriteSearchStatus(&b, cfg, "c.yaml", dir, tc.shards); err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimSuffix(strings.ReplaceAll(b.String(), dir, "DIR"), "\n"), "\n")
			if len(got) != len(tc.want) {
				t.Fatalf("status:\n%s", b.String())
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("line %d: %q, want it to start %q", i+1, got[i], w)
				}
			}
		})
	}
}

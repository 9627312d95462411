package experiments

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// TestNextCommands checks what the status tells to type in each state of a sweep.
func TestNextCommands(t *testing.T) {
	shards := func(missing ...int) []ShardStatus {
		out := make([]ShardStatus, len(missing))
		for i, m := range missing {
			out[i] = ShardStatus{Shard: i + 1, Shards: len(missing), Dir: results.ShardDir("res", i+1, len(missing)), Missing: m}
		}
		return out
	}
	running := shards(3, 2)
	running[1].Holder = &results.LockHolder{PID: 7, Host: "h"}
	merge := "  nagc merge --out res --config c.yaml res/shards/1-of-2 res/shards/2-of-2"
	for _, tc := range []struct {
		name    string
		st      SweepStatus
		onSlurm bool
		want    []string
	}{
		{"complete", SweepStatus{Expected: 4, Done: 4}, false, []string{"Complete. The report: nagc report res"}},
		{"complete with failures", SweepStatus{Expected: 4, Done: 3, Failed: 1}, false,
			[]string{"Complete. The report: nagc report res", "1 runs failed (their errors are recorded); running the sweep again retries them, which helps only where the machine failed them (runs are deterministic)."}},
		{"merged", SweepStatus{Expected: 4, Done: 4, Merged: 4, Shards: shards(0, 0)}, false, []string{"Complete. The report: nagc report res"}},
		{"shards finished", SweepStatus{Expected: 4, Done: 4, Shards: shards(0, 0)}, false, []string{"Every shard is finished. To merge them:", merge}},
		{"not sharded", SweepStatus{Expected: 4, Done: 1, Missing: 3}, true, []string{"To finish the rest:", "  nagc run c.yaml --results res"}},
		{"on slurm", SweepStatus{Expected: 4, Missing: 4, Shards: shards(2, 2)}, true,
			[]string{"To finish the rest (resubmits only the unfinished tasks, then the merge):", "  nagc slurm c.yaml --results res --tasks 2 --resubmit"}},
		{"shards by hand", SweepStatus{Expected: 5, Missing: 5, Shards: running}, false,
			[]string{"To finish the rest, run the unfinished shards, then merge:", "  nagc run c.yaml --results res/shards/1-of-2 --shard 1/2", merge}},
	} {
		if got := tc.st.nextCommands("c.yaml", "res", tc.onSlurm); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestStatusText checks the status's totals, shard table and failures.
func TestStatusText(t *testing.T) {
	st := SweepStatus{Expected: 8, Done: 1, Failed: 6, Missing: 1, Merged: 0, Shards: []ShardStatus{
		{Shard: 1, Shards: 1, Dir: "res/shards/1-of-1", Started: true, Expected: 8, Done: 1, Failed: 6, Missing: 1}}}
	for i := 0; i < 6; i++ {
		st.FailedRuns = append(st.FailedRuns, results.Record{RunID: "r" + string(rune('0'+i)), Dataset: "cora", Algorithm: "nagc",
			Params: map[string]any{"k2": 700}, Restart: i, Error: "k2 700 > n\nstack"})
	}
	var b bytes.Buffer
	if err := st.WriteText(&b, "c.yaml", "res", false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"c.yaml into res: 8 runs: 1 done, 6 failed, 1 missing; 0 merged into res\n",
		"1/1    8     1     6       1        stopped  res/shards/1-of-1\n",
		"failed: run r4 (cora, nagc {\"k2\":700}, restart 4): k2 700 > n\n",
		"  … and 1 more failed runs (nagc results summary res lists them by grid point)\n",
		"  nagc run c.yaml --results res/shards/1-of-1 --shard 1/1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	st.FailedRuns = []results.Record{{RunID: "p0", Dataset: "cora", Algorithm: "command", Methods: []string{"Spectral"}, Params: map[string]any{}, Restart: 1,
		Error: "the program failed (exit status 1); the last lines it printed:\nTraceback (most recent call last):\nModuleNotFoundError: No module named 'numpy'"}}
	b.Reset()
	if err := st.WriteText(&b, "c.yaml", "res", false); err != nil {
		t.Fatal(err)
	}
	if want := "failed: run p0 (cora, Spectral {}, restart 1): the program failed (exit status 1); the last lines it printed: … ModuleNotFoundError: No module named 'numpy'\n"; !strings.Contains(b.String(), want) {
		t.Errorf("status lacks %q:\n%s", want, b.String())
	}
	if strings.Contains(out, "r5") {
		t.Errorf("status lists more than 5 failures:\n%s", out)
	}
}

// TestShardCount checks the shard count found under a results folder.
func TestShardCount(t *testing.T) {
	dir := t.TempDir()
	if n, err := results.ShardCount(dir); n != 0 || err != nil {
		t.Errorf("no shards: %d, %v", n, err)
	}
	for _, d := range []string{results.ShardDir(dir, 1, 3), results.ShardDir(dir, 3, 3)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := results.ShardCount(dir); n != 3 || err != nil {
		t.Errorf("shards of 3: %d, %v", n, err)
	}
	if err := os.MkdirAll(results.ShardDir(dir, 1, 2), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := results.ShardCount(dir); err == nil || !strings.Contains(err.Error(), "split 2, 3 ways") {
		t.Errorf("shards of 2 and 3: %v, want an error naming both", err)
	}
}

// TestWriteSweepStatus checks that the status of a sweep is its planned runs' status
// and its searches', that a config of searches alone gets no grid status, and that a
// grid alone gets no search lines.
func TestWriteSweepStatus(t *testing.T) {
	const grid = "name: g\nseed: 1\nrestarts: 2\ndatasets: [synthetic]\nmethods:\n  - {name: k-means, algorithm: kmeans}\n"
	for _, tc := range []struct {
		name, text string
		limit      int
		grid       bool // the planned runs' status comes first
		searches   bool
	}{
		{"grid", grid, 1, true, false},
		{"searches alone", searchConfig, 7, false, true},
		{"grid and search", searchConfig + "  - {name: K, algorithm: kmeans}\n", 3, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := mustLoad(t, tc.text)
			dir := t.TempDir()
			executeSearch(t, cfg, Options{ResultsDir: dir, Workers: 1, Limit: tc.limit})
			var got, want bytes.Buffer
			if err := WriteSweepStatus(&got, cfg, "c.yaml", dir, 0, false); err != nil {
				t.Fatal(err)
			}
			runs, err := Plan(cfg)
			if err != nil {
				t.Fatal(err)
			}
			st, err := StatusOf(cfg, runs, dir, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tc.grid {
				st.WriteText(&want, "c.yaml", dir, false)
			}
			var search bytes.Buffer
			if err := WriteSearchStatus(&search, cfg, "c.yaml", dir, 0); err != nil {
				t.Fatal(err)
			}
			if (search.Len() > 0) != tc.searches {
				t.Errorf("search lines %q", search.String())
			}
			want.Write(search.Bytes())
			if got.String() != want.String() {
				t.Errorf("status:\n%s\nwant:\n%s", got.String(), want.String())
			}
		})
	}
}

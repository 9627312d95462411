package experiments

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/results"
)

const scoreConfig = `seed: 5
restarts: 2
datasets: [synthetic]
methods:
  - {name: KM, algorithm: kmeans}
`

// writeClusterings writes each k-means record of dir as the file gnn/synthetic-R.tsv
// (id<TAB>cluster, in reverse vertex order, cluster ids shifted by 10) and returns the
// records by restart.
func writeClusterings(t *testing.T, dir string, ids []string) map[int]results.Record {
	t.Helper()
	recs, err := results.Load(filepath.Join(dir, "res"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "gnn"), 0o755)
	byRestart := map[int]results.Record{}
	for _, r := range recs {
		labels, err := results.DecodeLabels(r.Labels)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i := len(labels) - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "%s\t%d\n", ids[i], labels[i]+10)
		}
		os.WriteFile(filepath.Join(dir, "gnn", fmt.Sprintf("synthetic-%d.tsv", r.Restart)), []byte(b.String()), 0o644)
		byRestart[r.Restart] = r
	}
	return byRestart
}

// TestScore records k-means' clusterings, written out as files, as runs of a row "GNN":
// each gets the metrics, labels and seed of the run it came from.
func TestScore(t *testing.T) {
	dir := t.TempDir()
	cfg := mustLoad(t, scoreConfig)
	res := filepath.Join(dir, "res")
	if _, err := Execute(context.Background(), cfg, Options{ResultsDir: res, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	g, err := datasets.Load("synthetic")
	if err != nil {
		t.Fatal(err)
	}
	km := writeClusterings(t, dir, g.IDs)
	sum, err := Score(cfg, ScoreOptions{ResultsDir: res, Row: "GNN", Files: filepath.Join(dir, "gnn", "{dataset}-{restart}.tsv")})
	if err != nil || sum.Done != 2 {
		t.Fatalf("Score: %+v, %v; want 2 clusterings recorded", sum, err)
	}
	recs, err := results.Load(res)
	if err != nil {
		t.Fatal(err)
	}
	scored := 0
	for _, r := range recs {
		if r.Methods[0] != "GNN" {
			continue
		}
		scored++
		want := km[r.Restart]
		if r.Status != results.StatusDone || r.Algorithm != algorithmExternal || r.Seed != want.Seed || r.Labels != want.Labels ||
			!reflect.DeepEqual(r.Metrics, want.Metrics) || r.RunID == want.RunID {
			t.Errorf("restart %d: recorded %+v\nwant the metrics, labels and seed of %+v under an id of its own", r.Restart, r, want)
		}
	}
	if scored != 2 {
		t.Errorf("%d GNN records, want 2", scored)
	}
	points := results.Aggregate(recs)
	if len(points) != 2 {
		t.Errorf("%d grid points, want KM's and GNN's", len(points))
	}
	// A row name the config or the folder's records already give another algorithm is
	// refused: its runs would be averaged with the clusterings.
	files := filepath.Join(dir, "gnn", "{dataset}-{restart}.tsv")
	other := mustLoad(t, strings.Replace(scoreConfig, "name: KM", "name: KM2", 1))
	for _, c := range []struct {
		cfg  *Config
		want string
	}{{cfg, "config.yaml:5 names a row KM (algorithm: kmeans)"}, {other, "already holds runs of a row KM (algorithm: kmeans)"}} {
		if _, err := Score(c.cfg, ScoreOptions{ResultsDir: res, Row: "KM", Files: files}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--row KM: error %v, want %q", err, c.want)
		}
	}
	if again, err := results.Load(res); err != nil || len(again) != len(recs) {
		t.Errorf("a refused score recorded runs: %d records, want %d (%v)", len(again), len(recs), err)
	}
}

// TestScoreRefuses checks the faults of a clustering file, each named with its file and
// line, and that nothing is recorded then.
func TestScoreRefuses(t *testing.T) {
	g, err := datasets.Load("synthetic")
	if err != nil {
		t.Fatal(err)
	}
	good := func() []string {
		lines := make([]string, g.N())
		for i, id := range g.IDs {
			lines[i] = id + "\t" + fmt.Sprint(i%4)
		}
		return lines
	}
	for _, c := range []struct {
		name  string
		lines func() []string
		want  string
	}{
		{"missing vertex", func() []string { return good()[1:] }, "1 of 600 vertices have no cluster"},
		{"unknown id", func() []string { l := good(); l[3] = "nosuch\t1"; return l }, `:4: "nosuch" is not a vertex`},
		{"twice", func() []string { l := good(); l[5] = l[4]; return l }, ":6: vertex"},
		{"nan", func() []string { l := good(); l[0] = g.IDs[0] + "\tnan"; return l }, `:1: cluster "nan" is not an integer`},
		{"no tab", func() []string { l := good(); l[0] = g.IDs[0] + " 1"; return l }, ":1: want id<TAB>cluster"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "synthetic.tsv")
			os.WriteFile(path, []byte(strings.Join(c.lines(), "\n")+"\n"), 0o644)
			_, err := Score(mustLoad(t, scoreConfig), ScoreOptions{ResultsDir: filepath.Join(dir, "res"), Row: "GNN", Files: filepath.Join(dir, "{dataset}.tsv")})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "res", results.RunsFile)); err == nil {
				t.Error("records were written")
			}
		})
	}
	_, err = Score(mustLoad(t, scoreConfig), ScoreOptions{ResultsDir: t.TempDir(), Row: "GNN", Files: "/nonexistent/{dataset}.tsv"})
	if err == nil || !strings.Contains(err.Error(), "no file matches") {
		t.Errorf("no files: %v", err)
	}
}

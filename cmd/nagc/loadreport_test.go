package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/memory"
)

// twoTriangles writes a 6-vertex graph (two triangles joined by one edge) with features
// and labels into dir, its edge file with one line naming an unknown id when dangling,
// and returns dir.
func twoTriangles(t *testing.T, dangling bool) string {
	t.Helper()
	dir := t.TempDir()
	edges := "0 1\n1 2\n0 2\n3 4\n4 5\n3 5\n2 3\n"
	if dangling {
		edges += "5 99\n"
	}
	files := map[string]string{
		"edges.txt":    edges,
		"features.csv": ",0,1\n0,1,0\n1,1,0\n2,1,0\n3,0,1\n4,0,1\n5,0,1\n", // pandas' to_csv()
		"labels.txt":   "0 a\n1 a\n2 a\n3 b\n4 b\n",                        // vertex 5 unlabelled
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLoadReportEverywhere checks that cluster and datasets stats print the reader's
// report on stderr (not with --quiet) and put it in their --json output, that datasets
// stats takes cluster's graph flags with --data naming the graph, that --allow-dropped
// accepts what the 1 % rule refuses, that a partly labelled graph is scored on its
// labelled vertices with the count shown, and that --max-memory refuses a size over it.
func TestLoadReportEverywhere(t *testing.T) {
	clean, dangling := twoTriangles(t, false), twoTriangles(t, true)

	code, stdout, stderr := cli(t, "cluster", "--data", clean, "--method", "kmeans", "--k1", "2")
	if code != 0 {
		t.Fatalf("cluster: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"load: " + filepath.Base(clean) + " (edgelist): n=6 edges=7", "read as a pandas header row", "labels 5 of 6 vertices"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("cluster stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, "5 of 6 vertices (those with a label") {
		t.Errorf("cluster output does not say how many vertices were scored:\n%s", stdout)
	}
	code, stdout, stderr = cli(t, "cluster", "--data", clean, "--method", "kmeans", "--k1", "2", "--json", "--quiet")
	if code != 0 || stderr != "" {
		t.Fatalf("cluster --quiet: exit %d, stderr %q", code, stderr)
	}
	var out struct {
		Scored int `json:"scored"`
		Load   *struct {
			N     int      `json:"n"`
			Notes []string `json:"notes"`
		} `json:"load_report"`
		Metrics map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || out.Load == nil || out.Load.N != 6 || len(out.Load.Notes) == 0 || out.Scored != 5 {
		t.Fatalf("cluster --json: %v %+v\n%s", err, out, stdout)
	}
	if out.Metrics["ari"] != 1 {
		t.Errorf("ARI on the labelled vertices %v, want 1 (two triangles)", out.Metrics["ari"])
	}

	// The 1 % rule, in cluster and datasets stats, and --allow-dropped.
	for _, cmd := range [][]string{{"cluster", "--method", "kmeans", "--k1", "2"}, {"datasets", "stats"}} {
		code, _, stderr = cli(t, append(cmd, "--data", dangling)...)
		if code != 1 || !strings.Contains(stderr, "1 of 8 edge lines (12.5%) name an id that is not a vertex") || !strings.Contains(stderr, "edges.txt:8: 5 99") || !strings.Contains(stderr, "--allow-dropped") {
			t.Errorf("%s on a dangling edge: exit %d, stderr %q", cmd[0], code, stderr)
		}
		code, _, stderr = cli(t, append(cmd, "--data", dangling, "--allow-dropped")...)
		if code != 0 || !strings.Contains(stderr, "dropped 1 line: edge names an id with no feature line") {
			t.Errorf("%s --allow-dropped: exit %d, stderr %q", cmd[0], code, stderr)
		}
	}

	// datasets stats: cluster's graph flags, --data naming the graph, the report in JSON.
	code, stdout, stderr = cli(t, "datasets", "stats", "--data", filepath.Join(clean, "edges.txt"),
		"--features", filepath.Join(clean, "features.csv"), "--labels", "none", "--json")
	if code != 0 {
		t.Fatalf("datasets stats: exit %d: %s", code, stderr)
	}
	var st struct {
		N, K, Labeled int
		Load          *struct{ Notes []string } `json:"load_report"`
	}
	if err := json.Unmarshal([]byte(stdout), &st); err != nil || st.N != 6 || st.K != 0 || st.Load == nil || len(st.Load.Notes) == 0 {
		t.Errorf("datasets stats --json: %v %+v\n%s", err, st, stdout)
	}
	if !strings.Contains(stderr, "load: edges (edgelist)") {
		t.Errorf("datasets stats stderr %q", stderr)
	}

	// --max-memory: a size read from a file over the budget is refused before allocating.
	big := filepath.Join(t.TempDir(), "adj.mtx")
	os.WriteFile(big, []byte("%%MatrixMarket matrix coordinate pattern symmetric\n2000000000 2000000000 0\n"), 0o644)
	defer memory.SetLimit(0)
	code, _, stderr = cli(t, "datasets", "stats", "--data", big, "--max-memory", "1GB")
	if code != 1 || !strings.Contains(stderr, "a graph of n = 2000000000 vertices") || !strings.Contains(stderr, "1.0 GB budget") {
		t.Errorf("--max-memory: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = cli(t, "cluster", "--data", big, "--max-memory", "lots")
	if code == 0 || !strings.Contains(stderr, fmt.Sprintf("--max-memory: %q is not a size", "lots")) {
		t.Errorf("--max-memory lots: exit %d, stderr %q", code, stderr)
	}
}

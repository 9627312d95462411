package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeOwnGraph writes a small edge-list graph of two dense groups with string ids, a
// header row, weights and real-valued features, and no labels, into dir.
func writeOwnGraph(t *testing.T, dir string) {
	t.Helper()
	var edges, feats strings.Builder
	edges.WriteString("source,target,weight\n")
	feats.WriteString("id,w0,w1,w2,w3\n")
	for g := 0; g < 2; g++ {
		for i := 0; i < 10; i++ {
			for j := i + 1; j < 10; j++ {
				if (i+j)%3 != 0 {
					fmt.Fprintf(&edges, "n%d_%d,n%d_%d,%d\n", g, i, g, j, 1+(i+j)%2)
				}
			}
			v := []float64{0.1, 0.1, 0.1, 0.1}
			v[2*g] += 0.8
			v[2*g+1] += 0.5 * float64(i%2)
			fmt.Fprintf(&feats, "n%d_%d,%g,%g,%g,%g\n", g, i, v[0], v[1], v[2], v[3])
		}
	}
	edges.WriteString("n0_0,n1_0,1\n")
	for name, text := range map[string]string{"edges.csv": edges.String(), "features.csv": feats.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// chdirOwnGraph writes the graph of writeOwnGraph into the folder "mine" of a new
// temporary folder and makes that the working folder.
func chdirOwnGraph(t *testing.T) {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "mine"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeOwnGraph(t, filepath.Join(root, "mine"))
	t.Chdir(root)
}

// TestUnlabeledGraphEndToEnd takes a graph of one's own without labels through cluster,
// run, results summary and report, as a user would type them.
func TestUnlabeledGraphEndToEnd(t *testing.T) {
	chdirOwnGraph(t)

	code, _, stderr := cli(t, "cluster", "--data", "mine", "--method", "nagc")
	if code != 1 || !strings.Contains(stderr, "--k1 is required: mine has no labels") {
		t.Errorf("cluster without --k1: exit %d, %q", code, stderr)
	}
	code, stdout, stderr := cli(t, "cluster", "--data", "mine", "--method", "nagc", "--k1", "2", "--json")
	if code != 0 {
		t.Fatalf("cluster: exit %d, %s", code, stderr)
	}
	var out struct {
		Metrics  map[string]float64 `json:"metrics"`
		Settings map[string]any     `json:"settings"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if _, ok := out.Metrics["ari"]; ok || out.Metrics["modularity"] < 0.3 {
		t.Errorf("cluster metrics %v: want no ARI and the two groups found (modularity ≥ 0.3)", out.Metrics)
	}
	if out.Settings["lambda"] != 0.01 || out.Settings["rho"] != 0.75 || out.Settings["k2"] != float64(2) {
		t.Errorf("settings %v: want every option used, defaults included", out.Settings)
	}
	code, _, stderr = cli(t, "cluster", "--data", "mine", "--k1", "2", "--opt", "rho=abc")
	if code != 1 || !strings.Contains(stderr, "--opt rho=abc: rho must be a number") {
		t.Errorf("--opt rho=abc: exit %d, %q", code, stderr)
	}
	for _, w := range []string{"float64", "!!str", "unmarshal", "algorithms."} {
		if strings.Contains(stderr, w) {
			t.Errorf("error %q speaks Go (%q)", stderr, w)
		}
	}

	cfg := "name: mine-sweep\nseed: 3\nrestarts: 2\ndatasets:\n  - {path: mine, k1: 2}\nmethods:\n" +
		"  - name: NAGC\n    algorithm: nagc\n    options: {iterations: 20}\n    grid:\n      lambda: [0.01, 1]\n      rho: [0.55, 0.95]\n" +
		"  - {name: SGC, algorithm: sgc-kmeans}\n"
	if err := os.WriteFile("sweep.yaml", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "run", "sweep.yaml", "--results", "res", "--workers", "1"); code != 0 {
		t.Fatalf("run: exit %d, %s", code, stderr)
	}
	code, stdout, stderr = cli(t, "results", "summary", "res")
	if code != 0 || !strings.Contains(stdout, "label-free") || strings.Contains(stdout, "reads labels") ||
		!strings.Contains(stdout, "no labels on mine (no ARI recorded): only label-free rules select there") {
		t.Errorf("summary: exit %d, %q, %q", code, stdout, stderr)
	}
	if code, _, stderr := cli(t, "report", "res", "--out", "rep"); code != 0 {
		t.Fatalf("report: exit %d, %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join("rep", "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mine-sweep", "NAGC", "SGC", "label-free"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	if strings.Contains(string(md), "Prop.") {
		t.Error("REPORT.md of a user's sweep speaks of Prop.")
	}
}

// TestClusterSparseFeatureFlag checks that an edge list with (id, column, value) feature
// triplets is read with --feature-layout sparse, and that without it the error says so.
func TestClusterSparseFeatureFlag(t *testing.T) {
	t.Chdir(t.TempDir())
	files := map[string]string{
		"g.edges":   "a\tb\nb\tc\na\tc\nd\te\ne\tf\nd\tf\nc\td\n",
		"feats.tsv": "a\t0\t1\na\t1\t1\nb\t0\t1\nc\t1\t1\nd\t2\t1\ne\t3\t1\nf\t2\t1\nf\t3\t1\n",
	}
	for name, text := range files {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := cli(t, "cluster", "--data", "g.edges", "--features", "feats.tsv", "--k1", "2")
	if code != 1 || !strings.Contains(stderr, "--feature-layout sparse") {
		t.Errorf("dense reading of triplets: exit %d, %q", code, stderr)
	}
	code, stdout, stderr := cli(t, "cluster", "--data", "g.edges", "--features", "feats.tsv", "--feature-layout", "sparse", "--k1", "2", "--method", "kmeans")
	if code != 0 || !strings.Contains(stdout, "g (n=6, k1=2)") {
		t.Errorf("--feature-layout sparse: exit %d, %q, %q", code, stdout, stderr)
	}
}

// TestPartlyLabelledSummary labels 6 of the 20 vertices of a graph of one's own, sweeps
// it, and checks that the results summary says in every format how many vertices the
// label-reading metrics scored.
func TestPartlyLabelledSummary(t *testing.T) {
	chdirOwnGraph(t)
	labels := "id,label\nn0_0,a\nn0_3,a\nn0_6,a\nn1_1,b\nn1_4,b\nn1_7,b\n"
	if err := os.WriteFile(filepath.Join("mine", "labels.csv"), []byte(labels), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := "name: partly\nseed: 3\nrestarts: 1\ndatasets:\n  - {path: mine, labels: file, label_file: mine/labels.csv}\nmethods:\n" +
		"  - {name: SGC, algorithm: sgc-kmeans}\n"
	if err := os.WriteFile("sweep.yaml", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "run", "sweep.yaml", "--results", "res", "--workers", "1"); code != 0 {
		t.Fatalf("run: exit %d, %s", code, stderr)
	}
	code, stdout, stderr := cli(t, "results", "summary", "res")
	if want := "mine labels 6 of its 20 vertices: ARI, NMI, accuracy and matching score those 6"; code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("summary: exit %d, want %q in\n%s%s", code, want, stdout, stderr)
	}
	code, stdout, _ = cli(t, "results", "summary", "res", "--format", "csv")
	rows := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || len(rows) < 2 || !strings.HasSuffix(rows[0], ",scored,vertices") || !strings.HasSuffix(rows[1], ",6,20") {
		t.Errorf("summary --format csv: exit %d, want scored 6 of 20 vertices:\n%s", code, stdout)
	}
	code, stdout, _ = cli(t, "results", "summary", "res", "--format", "json")
	var sel []struct{ Scored, Vertices int }
	if err := json.Unmarshal([]byte(stdout), &sel); code != 0 || err != nil || len(sel) == 0 || sel[0].Scored != 6 || sel[0].Vertices != 20 {
		t.Errorf("summary --format json: exit %d, %v, want scored 6 of 20 vertices:\n%s", code, err, stdout)
	}
}

// TestBenchOwnGraphFiles times a graph of one's own given as files, read as cluster reads
// them (--features, --labels), at two thread settings in turn; the read flags with more
// than one graph are refused.
func TestBenchOwnGraphFiles(t *testing.T) {
	dir := t.TempDir()
	writeOwnGraph(t, dir)
	feats := filepath.Join(dir, "attributes.csv") // not a name the folder default picks up
	if err := os.Rename(filepath.Join(dir, "features.csv"), feats); err != nil {
		t.Fatal(err)
	}
	var labels strings.Builder
	for g := 0; g < 2; g++ {
		for i := 0; i < 10; i++ {
			fmt.Fprintf(&labels, "n%d_%d %d\n", g, i, g)
		}
	}
	labelFile := filepath.Join(dir, "classes.txt")
	if err := os.WriteFile(labelFile, []byte(labels.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	edges := filepath.Join(dir, "edges.csv")
	code, stdout, stderr := cli(t, "bench", "--data", edges, "--features", feats, "--labels", labelFile,
		"--sizes", "none", "--iterations", "5", "--repeats", "2", "--threads", "1,2", "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"nagc          1        20", "nagc          2        20", "edges nagc: 2 threads against 1: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	code, _, stderr = cli(t, "bench", "--data", edges+","+edges, "--features", feats, "--sizes", "none")
	if code != 1 || !strings.Contains(stderr, "name it alone with --data") {
		t.Errorf("--features with two graphs: exit %d, %q", code, stderr)
	}
	code, _, stderr = cli(t, "bench", "--threads", "1,two", "--sizes", "none")
	if code != 1 || !strings.Contains(stderr, `--threads: "two" is not a thread count`) {
		t.Errorf("--threads 1,two: exit %d, %q", code, stderr)
	}
}

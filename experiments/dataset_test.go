package experiments

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/internal/testenv"
	"github.com/nagc-harness/nagc/results"
)

// ownGraph writes a small labelled LINQS graph (two triangles joined by an edge) into a
// new folder dir/name and returns its path.
func ownGraph(t *testing.T, dir, name string, labels bool) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
	var content strings.Builder
	for i, row := range []string{"1 1 0 0", "1 0 1 0", "0 1 1 0", "0 0 1 1", "0 1 0 1", "1 0 0 1"} {
		content.WriteString("v" + string(rune('a'+i)) + " " + row)
		if labels {
			content.WriteString([]string{" A", " A", " A", " B", " B", " B"}[i])
		}
		content.WriteString("\n")
	}
	cites := "va vb\nvb vc\nva vc\nvd ve\nve vf\nvd vf\nvc vd\n"
	if err := os.WriteFile(filepath.Join(path, "g.content"), []byte(content.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "g.cites"), []byte(cites), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runConfig(t *testing.T, path, resDir string) *Summary {
	t.Helper()
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Execute(context.Background(), cfg, Options{ResultsDir: resDir, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestDatasetIdentity checks that a dataset's runs follow its content, not the path
// naming it: the same folder named two ways is one set of runs, a moved or renamed
// folder resumes, a changed graph runs anew; and rescore reads config-relative paths as
// the sweep did, from any working folder.
func TestDatasetIdentity(t *testing.T) {
	root := t.TempDir()
	ownGraph(t, filepath.Join(root, "data"), "mine", true)
	write := func(name, datasets string) string {
		p := filepath.Join(root, name)
		text := "name: own\nseed: 7\nrestarts: 2\ndatasets: " + datasets + "\nmethods:\n  - {name: KM, algorithm: kmeans}\n  - {name: SNMF, algorithm: snmf}\n"
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	resDir := filepath.Join(root, "results")
	t.Chdir(t.TempDir()) // paths resolve against the config, not the working folder
	sum := runConfig(t, write("a.yaml", "[data/mine]"), resDir)
	if sum.Done != 4 || sum.Skipped != 0 {
		t.Fatalf("first sweep: %+v", sum)
	}
	// The same folder named another way, then moved and renamed: nothing re-runs.
	if sum := runConfig(t, write("b.yaml", "[./data/../data/mine]"), resDir); sum.Done != 0 || sum.Skipped != 4 {
		t.Errorf("same folder, other path: %+v", sum)
	}
	if err := os.Rename(filepath.Join(root, "data", "mine"), filepath.Join(root, "moved")); err != nil {
		t.Fatal(err)
	}
	if sum := runConfig(t, write("c.yaml", "["+filepath.Join(root, "moved")+"]"), resDir); sum.Done != 0 || sum.Skipped != 4 {
		t.Errorf("moved and renamed folder: %+v", sum)
	}
	// Rescore reads the moved folder as the last sweep recorded it.
	if n, err := Rescore(resDir, nil); err != nil || n != 4 {
		t.Errorf("rescore: %d, %v", n, err)
	}
	// A changed graph is another dataset: its runs run.
	cites := filepath.Join(root, "moved", "g.cites")
	if err := os.WriteFile(cites, []byte("va vb\nvb vc\nva vc\nvd ve\nve vf\nvd vf\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum := runConfig(t, write("d.yaml", "["+filepath.Join(root, "moved")+"]"), resDir); sum.Done != 4 {
		t.Errorf("changed graph: %+v", sum)
	}
}

// TestUnlabeledDataset checks that a graph without labels needs k1, records no
// label-reading metric, and runs.
func TestUnlabeledDataset(t *testing.T) {
	root := t.TempDir()
	ownGraph(t, root, "plain", false)
	cfgPath := filepath.Join(root, "u.yaml")
	text := "name: u\nseed: 1\ndatasets: [{path: plain, labels: none}]\nmethods:\n  - {name: KM, algorithm: kmeans}\n"
	if err := os.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Execute(context.Background(), cfg, Options{ResultsDir: filepath.Join(root, "r0"), Workers: 1})
	if want := cfgPath + ":3: k1: dataset plain has no labels to count its classes from: give its number of clusters in its entry, as {path: plain, k1: 5}"; err == nil || err.Error() != want {
		t.Errorf("no k1: %v\nwant %s", err, want)
	}
	text = strings.Replace(text, "labels: none}", "labels: none, k1: 2}", 1)
	if err := os.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	resDir := filepath.Join(root, "r")
	if sum := runConfig(t, cfgPath, resDir); sum.Done != 1 || sum.Failed != 0 {
		t.Fatalf("unlabelled sweep: %+v", sum)
	}
	recs, _, err := results.ReadRecords(filepath.Join(resDir, results.RunsFile))
	if err != nil || len(recs) != 1 {
		t.Fatal(recs, err)
	}
	if recs[0].Dataset != "plain" || recs[0].K1 != 2 {
		t.Errorf("record: dataset %q, k1 %d", recs[0].Dataset, recs[0].K1)
	}
	for _, m := range []string{"ari", "nmi", "acc", "ari_connected"} {
		if _, ok := recs[0].Metrics[m]; ok {
			t.Errorf("an unlabelled run recorded %s", m)
		}
	}
	if _, ok := recs[0].Metrics["modularity"]; !ok {
		t.Errorf("no modularity recorded: %v", recs[0].Metrics)
	}
}

func TestDatasetEntryErrors(t *testing.T) {
	base := "methods:\n  - {name: KM, algorithm: kmeans}\n"
	for _, c := range []struct{ text, want string }{
		{"datasets: [{path: x, fromat: npz}]\n" + base, "unknown dataset key 'fromat' (did you mean 'format'?)"},
		{"datasets: [{path: x, format: npy}]\n" + base, `format "npy": want linqs, edgelist, mtx, npz or ogb (did you mean 'npz'?)`},
		{"datasets: [{path: x, labels: some}]\n" + base, `labels "some": want none, column or file`},
		{"datasets: [{path: own, labels: labels.csv}]\n" + base, `labels "labels.csv": want none, column or file; to read the labels from own/labels.csv, write labels: file and label_file: own/labels.csv`},
		{"datasets: [a/x, b/x]\n" + base, `dataset "x" listed twice`},
	} {
		_, err := LoadConfig(writeConfig(t, c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// TestExecuteWarns checks that Execute tells Options.Warn what the readers warn about a
// user's graph (here a label column holding fractions), once per dataset and warning,
// before any run, and nothing about the paper's graphs (polblog's 0/1 labels are a note,
// not a warning, and would repeat at every sweep).
func TestExecuteWarns(t *testing.T) {
	root := t.TempDir()
	path := ownGraph(t, root, "numeric", true)
	content, err := os.ReadFile(filepath.Join(path, "g.content"))
	if err != nil {
		t.Fatal(err)
	}
	content = []byte(strings.NewReplacer(" A\n", " 0.5\n", " B\n", " 1.5\n").Replace(string(content)))
	if err := os.WriteFile(filepath.Join(path, "g.content"), content, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(dataset string) []string {
		cfgPath := filepath.Join(root, "c.yaml")
		text := "name: w\nseed: 1\nrestarts: 2\ndatasets: [" + dataset + "]\nmethods:\n  - {name: KM, algorithm: kmeans}\n"
		if err := os.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := LoadConfig(cfgPath)
		if err != nil {
			t.Fatal(err)
		}
		var warned []string
		resDir := filepath.Join(t.TempDir(), "r")
		_, err = Execute(context.Background(), cfg, Options{ResultsDir: resDir, Workers: 1, Limit: 1,
			Warn: func(d, w string) {
				if _, err := os.Stat(filepath.Join(resDir, results.RunsFile)); err == nil {
					t.Errorf("warning %q told after a run was recorded", w)
				}
				warned = append(warned, d+": "+w)
			}})
		if err != nil {
			t.Fatal(err)
		}
		return warned
	}
	if w := run(path); len(w) != 1 || !strings.HasPrefix(w[0], "numeric: ") || !strings.Contains(w[0], "are fractional numbers") {
		t.Errorf("warnings %q, want one about the fractional labels of dataset numeric", w)
	}
	if w := run("synthetic"); len(w) != 0 {
		t.Errorf("synthetic: warnings %q", w)
	}
	if _, _, err := datasets.LoadSpec(datasets.Spec{Path: "polblog"}); err != nil {
		testenv.Missing(t, "the polblog dataset", testenv.FetchHint)
	}
	if w := run("polblog"); len(w) != 0 {
		t.Errorf("polblog: warnings %q, want none for a paper graph", w)
	}
}

func TestDisplayName(t *testing.T) {
	for _, test := range []struct {
		entry DatasetEntry
		want  string
	}{
		{DatasetEntry{Path: "cora"}, "cora"},
		{DatasetEntry{Path: "graphs/mine/"}, "mine"},
		{DatasetEntry{Path: "graphs/g.npz"}, "g"},
		{DatasetEntry{Path: "snap/ca-GrQc.txt.gz"}, "ca-GrQc"},
		{DatasetEntry{Path: "v1.2/graph"}, "graph"},
		{DatasetEntry{Name: "x", Path: "g.npz"}, "x"},
	} {
		if got := test.entry.displayName(); got != test.want {
			t.Errorf("DisplayName(%+v) = %q, want %q", test.entry, got, test.want)
		}
	}
}

func TestDatasetSyntheticShape(t *testing.T) {
	var entries []DatasetEntry
	src := "- synthetic:tiny\n- {synthetic: {shape: tiny, n: 600, attributes: sparse, seed: 2}}\n- {name: mine, synthetic: {n: 300, edges: 900, m: 5, k: 3, homophily: 0.9}}\n"
	if err := yaml.Unmarshal([]byte(src), &entries); err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		name    string
		n, m, k int
		dense   bool
	}{{"synthetic:tiny", 1000, 8, 4, true}, {"synthetic:tiny", 600, 8, 4, false}, {"mine", 300, 5, 3, true}} {
		d, err := loadDataset(entries[i], filepath.Join(t.TempDir(), "c.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		g := d.Graph
		if d.Name != want.name || g.N() != want.n || g.M() != want.m || d.K1 != want.k || (attrtest.Dense(g.X) != nil) != want.dense {
			t.Errorf("entry %d: name %q n %d m %d k1 %d dense %v; want %+v", i, d.Name, g.N(), g.M(), d.K1, attrtest.Dense(g.X) != nil, want)
		}
	}
	var bad []DatasetEntry
	if err := yaml.Unmarshal([]byte("- {path: x.npz, synthetic: {shape: tiny}}\n"), &bad); err == nil {
		t.Error("path and synthetic together accepted")
	}
	if err := yaml.Unmarshal([]byte("- {synthetic: {shape: huge}}\n"), &bad); err == nil || !strings.Contains(err.Error(), "arxiv") {
		t.Errorf("unknown shape: error %v, want the known shapes listed", err)
	}
}

// TestLoadDatasetsAllFaults checks that every dataset of a config that cannot be used is
// reported in one error, each with its file, line and key, the first fault stopping
// nothing.
func TestLoadDatasetsAllFaults(t *testing.T) {
	root := t.TempDir()
	ownGraph(t, root, "plain", false)
	ownGraph(t, root, "lab", true)
	cfgPath := filepath.Join(root, "u.yaml")
	text := "name: u\nseed: 1\ndatasets:\n" + // 1-3
		"  - {path: lab, k1: 9}\n" + // 4: 9 clusters for 6 vertices
		"  - {path: plain, labels: none}\n" + // 5: no labels, no k1
		"methods:\n  - {name: KM, algorithm: kmeans}\n"
	if err := os.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	_, err = loadDatasets(cfg)
	if err == nil {
		t.Fatal("accepted")
	}
	want := cfgPath + ":4: k1: dataset lab: k1 = 9 clusters for its 6 vertices: the number of clusters must be at most the number of vertices\n" +
		cfgPath + ":5: k1: dataset plain has no labels to count its classes from: give its number of clusters in its entry, as {path: plain, k1: 5}"
	if err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

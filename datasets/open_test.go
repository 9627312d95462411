package datasets

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npz"

	"github.com/nagc-harness/nagc/internal/attrtest"
)

// testGraph is a small graph written out in every format by the tests.
type testGraph struct {
	ids    []string
	edges  [][3]float64 // i, j, weight (0-based vertices)
	x      [][]float64  // dense n×m attributes
	labels []string     // nil for unlabeled
}

// crossGraph has real-valued attributes, a self-loop, a duplicate and a reversed edge,
// an isolated vertex and an all-zero attribute row.
func crossGraph(weighted bool) testGraph {
	w := func(v float64) float64 {
		if weighted {
			return v
		}
		return 1
	}
	return testGraph{
		ids: []string{"1", "2", "3", "4", "5", "6"},
		edges: [][3]float64{
			{0, 1, w(2)}, {1, 2, w(0.5)}, {2, 0, w(1)}, {3, 4, w(3)}, {1, 0, w(2)}, {3, 3, w(1.5)}, {2, 4, w(1)},
		},
		x: [][]float64{
			{0.25, 0, 1}, {0, 0, 0}, {1.5, 2, 0}, {0, 0.125, 0}, {3, 0, 0}, {0, 1, 1},
		},
		labels: []string{"B", "A", "B", "C", "A", "C"},
	}
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// writeLINQS writes g as a LINQS folder (unweighted only).
func (g testGraph) writeLINQS(t testing.TB, dir string) {
	t.Helper()
	var c, e strings.Builder
	for i, id := range g.ids {
		c.WriteString(id)
		for _, v := range g.x[i] {
			c.WriteString("\t" + fmtNum(v))
		}
		if g.labels != nil {
			c.WriteString("\t" + g.labels[i])
		}
		c.WriteString("\n")
	}
	for _, ed := range g.edges {
		fmt.Fprintf(&e, "%s %s\n", g.ids[int(ed[0])], g.ids[int(ed[1])])
	}
	writeFiles(t, dir, map[string]string{"g.content": c.String(), "g.cites": e.String()})
}

// writeEdgeList writes g as a folder holding edges.csv, features.csv (with a header)
// and labels.tsv.
func (g testGraph) writeEdgeList(t testing.TB, dir string) {
	t.Helper()
	var f, e, l strings.Builder
	f.WriteString("id")
	for j := range g.x[0] {
		fmt.Fprintf(&f, ",w%d", j)
	}
	f.WriteString("\n")
	for i, id := range g.ids {
		f.WriteString(id)
		for _, v := range g.x[i] {
			f.WriteString("," + fmtNum(v))
		}
		f.WriteString("\n")
	}
	e.WriteString("source,target,weight\n")
	for _, ed := range g.edges {
		fmt.Fprintf(&e, "%s,%s,%s\n", g.ids[int(ed[0])], g.ids[int(ed[1])], fmtNum(ed[2]))
	}
	files := map[string]string{"edges.csv": e.String(), "features.csv": f.String()}
	if g.labels != nil {
		for i, id := range g.ids {
			fmt.Fprintf(&l, "%s\t%s\n", id, g.labels[i])
		}
		files["labels.tsv"] = l.String()
	}
	writeFiles(t, dir, files)
}

// writeMTX writes g as a folder holding adj.mtx (symmetric, lower triangle),
// features.mtx and labels.txt (one label a line).
func (g testGraph) writeMTX(t testing.TB, dir string) {
	t.Helper()
	n, m := len(g.ids), len(g.x[0])
	var a, f, l strings.Builder
	a.WriteString("%%MatrixMarket matrix coordinate real symmetric\n% written by a test\n")
	fmt.Fprintf(&a, "%d %d %d\n", n, n, len(g.edges))
	for _, ed := range g.edges {
		i, j := int(ed[0]), int(ed[1])
		fmt.Fprintf(&a, "%d %d %s\n", max(i, j)+1, min(i, j)+1, fmtNum(ed[2]))
	}
	nnz := 0
	for _, row := range g.x {
		for _, v := range row {
			if v != 0 {
				nnz++
			}
		}
	}
	fmt.Fprintf(&f, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", n, m, nnz)
	for i, row := range g.x {
		for j, v := range row {
			if v != 0 {
				fmt.Fprintf(&f, "%d %d %s\n", i+1, j+1, fmtNum(v))
			}
		}
	}
	files := map[string]string{"adj.mtx": a.String(), "features.mtx": f.String()}
	if g.labels != nil {
		for _, lab := range g.labels {
			l.WriteString(lab + "\n")
		}
		files["labels.txt"] = l.String()
	}
	writeFiles(t, dir, files)
}

// writeNPZ writes g as an .npz archive in the scipy-CSR layout: int32 indices, float32
// attribute values, unsorted columns within adjacency rows, node_names and, when
// labelled, labels and class_names.
func (g testGraph) writeNPZ(t testing.TB, path string) {
	t.Helper()
	n, m := len(g.ids), len(g.x[0])
	rows := make([][]int32, n)
	vals := make([][]float64, n)
	for _, ed := range g.edges {
		i, j := int32(ed[0]), int32(ed[1])
		rows[i] = append(rows[i], j)
		vals[i] = append(vals[i], ed[2])
		if i != j {
			rows[j] = append(rows[j], i)
			vals[j] = append(vals[j], ed[2])
		}
	}
	var adjPtr = []int64{0}
	var adjInd []int32
	var adjVal []float64
	for i := range rows {
		// Reverse each row so that columns are not sorted, as scipy allows.
		for k := len(rows[i]) - 1; k >= 0; k-- {
			adjInd = append(adjInd, rows[i][k])
			adjVal = append(adjVal, vals[i][k])
		}
		adjPtr = append(adjPtr, int64(len(adjInd)))
	}
	attrPtr := []int32{0}
	var attrInd []int32
	var attrVal []float32
	for _, row := range g.x {
		for j, v := range row {
			if v != 0 {
				attrInd = append(attrInd, int32(j))
				attrVal = append(attrVal, float32(v))
			}
		}
		attrPtr = append(attrPtr, int32(len(attrInd)))
	}
	arrays := map[string]any{
		"adj_data.npy": adjVal, "adj_indices.npy": adjInd, "adj_indptr.npy": adjPtr,
		"adj_shape.npy": []int64{int64(n), int64(n)},
		"attr_data.npy": attrVal, "attr_indices.npy": attrInd, "attr_indptr.npy": attrPtr,
		"attr_shape.npy": []int64{int64(n), int64(m)},
		"node_names.npy": g.ids,
	}
	if g.labels != nil {
		_, names := classIndex(g.labels)
		// class_names in reverse order, so that the archive's class numbers differ
		// from the reader's: only the partition must come out the same.
		slices.Reverse(names)
		lab := make([]int64, n)
		for i, l := range g.labels {
			lab[i] = int64(slices.Index(names, l))
		}
		arrays["labels.npy"] = lab
		arrays["class_names.npy"] = names
	}
	if err := npz.Write(path, arrays); err != nil {
		t.Fatal(err)
	}
}

// writeFiles writes the given files into dir, creating it.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// specInDir writes files into a new temporary folder and returns it with spec's paths
// (Path, Features, LabelFile, those that are set) made relative to it.
func specInDir(t testing.TB, files map[string]string, spec Spec) (string, Spec) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	spec.Path = filepath.Join(dir, spec.Path)
	for _, p := range []*string{&spec.Features, &spec.LabelFile} {
		if *p != "" {
			*p = filepath.Join(dir, *p)
		}
	}
	return dir, spec
}

// mustOpen opens spec or fails the test.
func mustOpen(t *testing.T, spec Spec) (*Graph, *LoadReport) {
	t.Helper()
	g, rep, err := Open(spec)
	if err != nil {
		t.Fatalf("Open(%+v): %v", spec, err)
	}
	return g, rep
}

// sameContent reports the first difference between what a and b hold for a method:
// ids, labels, class names, Adj and X.
func sameContent(a, b *Graph) string {
	c := *b
	c.Name, c.Dangling = a.Name, a.Dangling
	return graphsEqual(a, &c)
}

func TestOpenCrossFormat(t *testing.T) {
	root := t.TempDir()
	g := crossGraph(false)
	g.writeLINQS(t, filepath.Join(root, "linqs"))
	g.writeEdgeList(t, filepath.Join(root, "edgelist"))
	g.writeMTX(t, filepath.Join(root, "mtx"))
	g.writeNPZ(t, filepath.Join(root, "g.npz"))

	want, rep := mustOpen(t, Spec{Path: filepath.Join(root, "linqs")})
	if rep.Format != FormatLINQS || want.K() != 3 || want.N() != 6 || want.Edges() != 6 {
		t.Fatalf("LINQS read as %s", rep)
	}
	if attrtest.Sparse(want.X).At(2, 0) != 1.5 || attrtest.Sparse(want.X).At(3, 1) != 0.125 {
		t.Errorf("real-valued attributes not kept: X[2,0] = %v, X[3,1] = %v", attrtest.Sparse(want.X).At(2, 0), attrtest.Sparse(want.X).At(3, 1))
	}
	fp := want.Fingerprint()
	// gzip-compressed files (SNAP's .txt.gz, .mtx.gz) read the same.
	gzipFolder(t, filepath.Join(root, "edgelist"), filepath.Join(root, "edgelist-gz"))
	gzipFolder(t, filepath.Join(root, "mtx"), filepath.Join(root, "mtx-gz"))
	gz := func(f string) string { return filepath.Join(root, "edgelist-gz", f+".gz") }
	for _, spec := range []Spec{
		{Path: filepath.Join(root, "edgelist")},
		{Path: filepath.Join(root, "edgelist-gz")},
		{Path: gz("edges.csv"), Features: gz("features.csv"), LabelFile: gz("labels.tsv"), Name: "edges"},
		{Path: filepath.Join(root, "mtx")},
		{Path: filepath.Join(root, "mtx-gz")},
		{Path: filepath.Join(root, "g.npz")},
		{Path: filepath.Join(root, "g.npz"), Format: FormatNPZ, Name: "renamed"},
	} {
		t.Run(filepath.Base(spec.Path), func(t *testing.T) {
			got, rep := mustOpen(t, spec)
			if d := sameContent(want, got); d != "" {
				t.Errorf("differs from the LINQS graph: %s\n%s", d, rep)
			}
			if got.Fingerprint() != fp {
				t.Errorf("fingerprint %s, LINQS gives %s", got.Fingerprint(), fp)
			}
			if len(rep.Warnings) > 0 {
				t.Errorf("unexpected warnings: %q", rep.Warnings)
			}
		})
	}

	// Weighted: edge list, Matrix Market and npz agree, weights kept.
	root2 := t.TempDir()
	gw := crossGraph(true)
	gw.writeEdgeList(t, filepath.Join(root2, "edgelist"))
	gw.writeMTX(t, filepath.Join(root2, "mtx"))
	gw.writeNPZ(t, filepath.Join(root2, "g.npz"))
	wantW, repW := mustOpen(t, Spec{Path: filepath.Join(root2, "edgelist")})
	if !wantW.Weighted() || !repW.Weighted || wantW.Adj.At(0, 1) != 2 || wantW.Adj.At(1, 0) != 2 || wantW.Adj.At(3, 3) != 1.5 {
		t.Errorf("weights not read: A[0,1] = %v, A[3,3] = %v", wantW.Adj.At(0, 1), wantW.Adj.At(3, 3))
	}
	if wantW.Fingerprint() == fp {
		t.Error("weighted and unweighted graphs share a fingerprint")
	}
	for _, p := range []string{"mtx", "g.npz"} {
		got, _ := mustOpen(t, Spec{Path: filepath.Join(root2, p)})
		if d := sameContent(wantW, got); d != "" {
			t.Errorf("%s differs from the weighted edge list: %s", p, d)
		}
		if got.Fingerprint() != wantW.Fingerprint() {
			t.Errorf("%s: fingerprint differs from the weighted edge list", p)
		}
	}
}

// gzipFolder writes a gzip-compressed copy of every file of src into dst, named FILE.gz.
func gzipFolder(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()+".gz"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFingerprint(t *testing.T) {
	root := t.TempDir()
	g := crossGraph(false)
	g.writeLINQS(t, filepath.Join(root, "a"))
	a, _ := mustOpen(t, Spec{Path: filepath.Join(root, "a")})
	if err := os.Rename(filepath.Join(root, "a"), filepath.Join(root, "b")); err != nil {
		t.Fatal(err)
	}
	b, _ := mustOpen(t, Spec{Path: filepath.Join(root, "b"), Name: "other"})
	if a.Fingerprint() != b.Fingerprint() {
		t.Error("renaming the folder changed the fingerprint")
	}
	if len(a.Fingerprint()) != 64 {
		t.Errorf("fingerprint %q is not 64 hex digits", a.Fingerprint())
	}
	// Every change to what a method sees changes it.
	mutate := map[string]func(*testGraph){
		"attribute value": func(g *testGraph) { g.x[0][0] = 0.5 },
		"edge":            func(g *testGraph) { g.edges = append(g.edges[:1:1], g.edges[2:]...) },
		"labels":          func(g *testGraph) { g.labels[0] = "A" },
		"unlabeled":       func(g *testGraph) { g.labels = nil },
		"vertex order": func(g *testGraph) { // swap vertices 0 and 1, ids kept in place
			g.x[0], g.x[1] = g.x[1], g.x[0]
			g.labels[0], g.labels[1] = g.labels[1], g.labels[0]
			for k := range g.edges {
				for e := 0; e < 2; e++ {
					if g.edges[k][e] < 2 {
						g.edges[k][e] = 1 - g.edges[k][e]
					}
				}
			}
		},
	}
	for name, f := range mutate {
		h := crossGraph(false)
		f(&h)
		dir := filepath.Join(root, strings.ReplaceAll(name, " ", "_"))
		h.writeLINQS(t, dir)
		c, _ := mustOpen(t, Spec{Path: dir})
		if c.Fingerprint() == a.Fingerprint() {
			t.Errorf("%s changed, fingerprint did not", name)
		}
	}
	// Renaming classes keeps it: only the partition counts.
	h := crossGraph(false)
	for i, l := range h.labels {
		h.labels[i] = "class_" + strings.ToLower(l)
	}
	h.writeLINQS(t, filepath.Join(root, "renamed_classes"))
	c, _ := mustOpen(t, Spec{Path: filepath.Join(root, "renamed_classes")})
	if c.Fingerprint() != a.Fingerprint() {
		t.Error("renaming the classes changed the fingerprint")
	}
}

func TestOpenFormatInference(t *testing.T) {
	root := t.TempDir()
	g := crossGraph(false)
	g.writeLINQS(t, filepath.Join(root, "lq"))
	g.writeEdgeList(t, filepath.Join(root, "el"))
	g.writeMTX(t, filepath.Join(root, "mm"))
	writeFiles(t, filepath.Join(root, "npzdir"), nil)
	g.writeNPZ(t, filepath.Join(root, "npzdir", "x.npz"))
	writeFiles(t, filepath.Join(root, "twonpz"), nil)
	g.writeNPZ(t, filepath.Join(root, "twonpz", "a.npz"))
	g.writeNPZ(t, filepath.Join(root, "twonpz", "b.npz"))
	for _, test := range []struct {
		spec         Spec
		format, name string
	}{
		{Spec{Path: filepath.Join(root, "lq")}, FormatLINQS, "lq"},
		{Spec{Path: filepath.Join(root, "lq", "g.content")}, FormatLINQS, "lq"},
		{Spec{Path: filepath.Join(root, "el")}, FormatEdgeList, "el"},
		{Spec{Path: filepath.Join(root, "el", "edges.csv"), Features: filepath.Join(root, "el", "features.csv")}, FormatEdgeList, "edges"},
		{Spec{Path: filepath.Join(root, "mm")}, FormatMTX, "mm"},
		{Spec{Path: filepath.Join(root, "mm", "adj.mtx")}, FormatMTX, "adj"},
		{Spec{Path: filepath.Join(root, "npzdir")}, FormatNPZ, "npzdir"},
		{Spec{Path: filepath.Join(root, "npzdir", "x.npz"), Name: "mine"}, FormatNPZ, "mine"},
	} {
		_, rep := mustOpen(t, test.spec)
		if rep.Format != test.format || rep.Name != test.name {
			t.Errorf("%+v: read as %s named %q, want %s named %q", test.spec, rep.Format, rep.Name, test.format, test.name)
		}
	}
	for _, test := range []struct {
		spec Spec
		msg  string
	}{
		{Spec{}, "no dataset path"},
		{Spec{Path: filepath.Join(root, "nope")}, "nope"},
		{Spec{Path: root}, "cannot tell the format of this folder"},
		{Spec{Path: root}, "set the format (--format on the command line, format: in a config)"},
		{Spec{Path: filepath.Join(root, "twonpz")}, "the folder holds 2 .npz files (a.npz, b.npz): name the one to read, e.g. " + filepath.Join(root, "twonpz", "a.npz")},
		{Spec{Path: filepath.Join(root, "lq"), Format: "parquet"}, `unknown format "parquet"`},
		{Spec{Path: filepath.Join(root, "lq"), Labels: "yes"}, `labels "yes": want none, column or file`},
		{Spec{Path: filepath.Join(root, "mm"), Labels: LabelsColumn}, "use a label file"},
		{Spec{Path: filepath.Join(root, "lq"), Labels: LabelsFile}, "needs a label file"},
	} {
		_, _, err := Open(test.spec)
		if err == nil || !strings.Contains(err.Error(), test.msg) {
			t.Errorf("Open(%+v) error %v, want one mentioning %q", test.spec, err, test.msg)
		}
		if err != nil && strings.Contains(err.Error(), "datasets.") {
			t.Errorf("error %q names a Go type", err)
		}
	}
	writeFiles(t, filepath.Join(root, "odd"), map[string]string{"g.dat": "1 2\n"})
	if _, _, err := Open(Spec{Path: filepath.Join(root, "odd", "g.dat")}); err == nil || !strings.Contains(err.Error(), "set it to linqs, edgelist, mtx or npz (--format on the command line, format: in a config)") {
		t.Errorf("unknown extension: error %v", err)
	}
	if _, _, err := Open(Spec{Path: filepath.Join(root, "odd", "g.dat"), Format: FormatEdgeList}); err != nil {
		t.Errorf("explicit format: %v", err)
	}
}

func TestOpenUnlabeled(t *testing.T) {
	root := t.TempDir()
	g := crossGraph(false)
	g.labels = nil
	g.writeEdgeList(t, filepath.Join(root, "el"))
	g.writeMTX(t, filepath.Join(root, "mm"))
	g.writeNPZ(t, filepath.Join(root, "g.npz"))
	g.writeLINQS(t, filepath.Join(root, "lq"))
	var fp string
	for _, spec := range []Spec{
		{Path: filepath.Join(root, "el")},
		{Path: filepath.Join(root, "mm")},
		{Path: filepath.Join(root, "g.npz")},
		{Path: filepath.Join(root, "lq"), Labels: LabelsNone},
	} {
		h, rep := mustOpen(t, spec)
		if h.Labels != nil || h.ClassNames != nil || h.K() != 0 || h.Labeled() || rep.K != 0 {
			t.Errorf("%s: labels %v, classes %v", spec.Path, h.Labels, h.ClassNames)
		}
		if h.M() != 3 || attrtest.Sparse(h.X).At(2, 0) != 1.5 {
			t.Errorf("%s: m = %d, X[2,0] = %v", spec.Path, h.M(), attrtest.Sparse(h.X).At(2, 0))
		}
		if !strings.Contains(rep.String(), "k=none (unlabeled)") {
			t.Errorf("report %q does not say unlabeled", rep)
		}
		if fp == "" {
			fp = h.Fingerprint()
		} else if h.Fingerprint() != fp {
			t.Errorf("%s: fingerprint differs", spec.Path)
		}
		// The rest of the package copes with an unlabeled graph.
		if s := h.Stats(); s.K != 0 || s.N != 6 {
			t.Errorf("stats %+v", s)
		}
		if len(h.ClassSizes()) != 0 {
			t.Errorf("class sizes %v", h.ClassSizes())
		}
		if _, _, err := HoldOutEdges(h.Adj, 0.4, 1); err != nil {
			t.Error(err)
		}
	}
	// Labels "none" on labelled data ignores the labels.
	lab := crossGraph(false)
	lab.writeNPZ(t, filepath.Join(root, "lab.npz"))
	h, _ := mustOpen(t, Spec{Path: filepath.Join(root, "lab.npz"), Labels: LabelsNone})
	if h.Labels != nil {
		t.Error("labels: none kept the npz labels")
	}
}

func TestLoadReportString(t *testing.T) {
	rep := &LoadReport{Name: "g", Format: "edgelist", N: 5, Edges: 4, M: 3, NNZ: 7, K: 2, SelfLoops: 1, Isolated: 1, Weighted: true}
	rep.drop("edge names an id with no feature line", "e.csv", 3)
	rep.drop("edge names an id with no feature line", "e.csv", 9)
	rep.drop("explicit zero entry of the adjacency", "g.npz adj_data", 0)
	rep.note("e.csv:1 read as a header row")
	rep.warn("labels look odd")
	want := "g (edgelist): n=5 edges=4 m=3 nnz=7 k=2 self-loops=1 isolated=1 weighted\n" +
		"  dropped 2 lines: edge names an id with no feature line (first at e.csv:3)\n" +
		"  dropped 1 entry: explicit zero entry of the adjacency (first at g.npz adj_data)\n" +
		"  note: e.csv:1 read as a header row\n" +
		"  warning: labels look odd"
	if got := rep.String(); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "load: "+strings.ReplaceAll(want, "\n", "\nload: ")+"\n"; got != want {
		t.Errorf("report text:\n%s\nwant:\n%s", got, want)
	}
	if rep.DroppedTotal() != 3 {
		t.Errorf("dropped total %d, want 3", rep.DroppedTotal())
	}
}

// checkParseError checks that err is a *ParseError at file:line whose message mentions
// every string of msg and no Go type name.
func checkParseError(t *testing.T, err error, file string, line int, msg ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one at %s:%d", file, line)
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v is not a *ParseError", err)
	}
	if pe.File != file || pe.Line != line {
		t.Errorf("error at %s:%d, want %s:%d (%v)", pe.File, pe.Line, file, line, err)
	}
	for _, s := range msg {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %q", err, s)
		}
	}
	for _, s := range []string{"strconv.", "sparse.", "datasets.", "npy.", "*"} {
		if strings.Contains(err.Error(), s) {
			t.Errorf("error %q names Go internals (%q)", err, s)
		}
	}
}

// asParseError is errors.As for a *ParseError.
func asParseError(err error, pe **ParseError) bool { return errors.As(err, pe) }

func TestNewLoadReport(t *testing.T) {
	g, err := Synthetic(DefaultSynthetic())
	if err != nil {
		t.Fatal(err)
	}
	r := NewLoadReport(g, "synthetic")
	if r.N != 600 || r.K != 4 || r.M != 300 || r.Edges != g.Edges() || r.Isolated != g.Isolated() || r.DroppedTotal() != 0 {
		t.Errorf("report %s", r)
	}
	g.Dangling = 3
	if r := NewLoadReport(g, "linqs"); r.DroppedTotal() != 3 || !strings.HasSuffix(r.String(), "\n  dropped 3 entries: edge names an unknown id") {
		t.Errorf("report %s", r)
	}
}

// TestLabelsNPYNotRead checks that a labels.npy beside an edge list (numpy.save(y), which
// the readers do not read) is named in a warning that says how to write the labels, and
// that nothing is said when the labels are read from a text file or declared absent.
func TestLabelsNPYNotRead(t *testing.T) {
	files := map[string]string{
		"edges.csv":  "0,1\n1,2\n2,0\n",
		"labels.npy": "\x93NUMPY",
	}
	for _, test := range []struct {
		name  string
		extra map[string]string
		spec  Spec
		warn  bool
	}{
		{"folder", nil, Spec{Path: "."}, true},
		{"edge file", nil, Spec{Path: "edges.csv"}, true},
		{"labels none", nil, Spec{Path: ".", Labels: LabelsNone}, false},
		{"labels.txt beside", map[string]string{"labels.txt": "0\n1\n1\n"}, Spec{Path: "."}, false},
	} {
		t.Run(test.name, func(t *testing.T) {
			all := maps.Clone(files)
			maps.Copy(all, test.extra)
			_, spec := specInDir(t, all, test.spec)
			_, rep := mustOpen(t, spec)
			got := strings.Contains(rep.String(), "labels.npy is not read") && strings.Contains(rep.String(), `np.savetxt("labels.txt", y, fmt="%d")`)
			if got != test.warn {
				t.Errorf("warning about labels.npy: %v, want %v; report:\n%s", got, test.warn, rep)
			}
		})
	}
}

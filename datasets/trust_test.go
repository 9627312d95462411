package datasets

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/memory"
)

// coraTables holds Cora as a researcher would hold it in Python: a dense 0/1 matrix,
// an edge array of vertex positions, a class name per vertex, and the paper ids.
type coraTables struct {
	ids    []string
	x      [][]int
	edges  [][2]int
	labels []string
}

func loadCoraTables(t *testing.T) (*Graph, coraTables) {
	t.Helper()
	g, err := LoadLINQS(paperDir(t, "cora"))
	if err != nil {
		t.Fatal(err)
	}
	var c coraTables
	c.ids = g.IDs
	for i := 0; i < g.N(); i++ {
		row := make([]int, g.M())
		cols, vals := attrtest.Sparse(g.X).Row(i)
		for k, j := range cols {
			row[j] = int(vals[k])
		}
		c.x = append(c.x, row)
		acols, _ := g.Adj.Row(i)
		for _, j := range acols {
			if j > i {
				c.edges = append(c.edges, [2]int{i, j})
			}
		}
		c.labels = append(c.labels, g.ClassNames[g.Labels[i]])
	}
	return g, c
}

// savetxt formats a float as np.savetxt does by default ('%.18e').
func savetxt(v float64) string {
	if v == 0 || v == 1 {
		return savetxtBits[int(v)]
	}
	return strconv.FormatFloat(v, 'e', 18, 64)
}

// savetxtBits holds savetxt(0) and savetxt(1), the values of a 0/1 matrix.
var savetxtBits = [2]string{strconv.FormatFloat(0, 'e', 18, 64), strconv.FormatFloat(1, 'e', 18, 64)}

// writeInt writes v as fmt's %d does, without fmt's cost per value.
func writeInt(b *strings.Builder, v int) {
	var buf [20]byte
	b.Write(strconv.AppendInt(buf[:0], int64(v), 10))
}

// The writers below produce the bytes pandas and NumPy write (compared byte for byte
// with the files pandas 1.5.3 and NumPy 1.24.2 write for Cora: df.to_csv(),
// pd.Series(labels).to_csv(), np.savetxt(A) and np.savetxt(A, fmt='%d')).

// pandasMatrix is pd.DataFrame(X, index=index).to_csv(): the header ",0,1,…,m−1" (the
// index has no name), then "index,v0,…".
func pandasMatrix(index []string, x [][]int) string {
	var b strings.Builder
	for j := range x[0] {
		fmt.Fprintf(&b, ",%d", j)
	}
	b.WriteByte('\n')
	for i, row := range x {
		b.WriteString(index[i])
		for _, v := range row {
			b.WriteByte(',')
			writeInt(&b, v)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// pandasWithID is pd.DataFrame({'id': ids, 0: …, m−1: …}).to_csv(): a RangeIndex first.
func pandasWithID(ids []string, x [][]int) string {
	var b strings.Builder
	b.WriteString(",id")
	for j := range x[0] {
		fmt.Fprintf(&b, ",%d", j)
	}
	b.WriteByte('\n')
	for i, row := range x {
		fmt.Fprintf(&b, "%d,%s", i, ids[i])
		for _, v := range row {
			b.WriteByte(',')
			writeInt(&b, v)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// pandasEdges is pd.DataFrame(E, columns=['source', 'target']).to_csv() of the edges
// named by name.
func pandasEdges(edges [][2]int, name func(int) string) string {
	var b strings.Builder
	b.WriteString(",source,target\n")
	for k, e := range edges {
		fmt.Fprintf(&b, "%d,%s,%s\n", k, name(e[0]), name(e[1]))
	}
	return b.String()
}

// pandasLabels is pd.Series(labels, index=index).to_csv(): header ",0".
func pandasLabels(index []string, labels []string) string {
	var b strings.Builder
	b.WriteString(",0\n")
	for i, l := range labels {
		fmt.Fprintf(&b, "%s,%s\n", index[i], l)
	}
	return b.String()
}

// savetxtEdges is np.savetxt(E + shift) (floats) or np.savetxt(E + shift, fmt='%d').
func savetxtEdges(edges [][2]int, shift int, floats bool) string {
	var b strings.Builder
	for _, e := range edges {
		a, c := e[0]+shift, e[1]+shift
		if floats {
			fmt.Fprintf(&b, "%s %s\n", savetxt(float64(a)), savetxt(float64(c)))
		} else {
			fmt.Fprintf(&b, "%d %d\n", a, c)
		}
	}
	return b.String()
}

// savetxtMatrix is np.savetxt(X), or np.savetxt(np.hstack([ids[:, None], X])) with ids.
func savetxtMatrix(withIDs bool, x [][]int) string {
	var b strings.Builder
	for i, row := range x {
		sep := ""
		if withIDs {
			b.WriteString(savetxt(float64(i)))
			sep = " "
		}
		for _, v := range row {
			b.WriteString(sep)
			b.WriteString(savetxt(float64(v)))
			sep = " "
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestEverydayMistakesCora writes Cora the ways researchers write graphs with pandas and
// NumPy, with the three mistakes that once loaded into another graph with exit 0 (a
// pandas header and index, edge ids counted from 1 beside feature ids from 0, ids written
// as floats) and a feature file without an id column: each must read as Cora itself (the
// same fingerprint: adjacency, attributes and classes) with a warning or note saying what
// was done.
func TestEverydayMistakesCora(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads Cora six times")
	}
	cora, c := loadCoraTables(t)
	want := cora.Fingerprint()
	n := len(c.ids)
	pos := make([]string, n) // 0 … n−1
	pos1 := make([]string, n)
	for i := range pos {
		pos[i], pos1[i] = strconv.Itoa(i), strconv.Itoa(i+1)
	}
	byPos := func(i int) string { return pos[i] }
	byPaperID := func(i int) string { return c.ids[i] }
	for _, test := range []struct {
		name  string
		files map[string]string
		say   []string // in the report's notes and warnings
	}{
		{"pandas to_csv with its index as the id", map[string]string{
			"features.csv": pandasMatrix(pos, c.x),
			"edges.csv":    pandasEdges(c.edges, byPos),
			"labels.csv":   pandasLabels(pos, c.labels),
		}, []string{"features.csv:1 read as a pandas header row", "edges.csv:1 read as a pandas header row", "unnamed index, is skipped"}},
		{"pandas to_csv with an id column and a RangeIndex", map[string]string{
			"features.csv": pandasWithID(c.ids, c.x),
			"edges.csv":    pandasEdges(c.edges, byPaperID),
			"labels.csv":   pandasLabels(c.ids, c.labels),
		}, []string{`the ids are the column "id"`}},
		{"edge ids from 1, feature ids from 0", map[string]string{
			"features.csv": pandasMatrix(pos, c.x),
			"edges.txt":    savetxtEdges(c.edges, 1, false),
			"labels.csv":   pandasLabels(pos, c.labels),
		}, []string{"edges.txt: its ids are one more than those of features.csv", "read with every id minus 1, so id 1 is vertex \"0\""}},
		{"edge ids from 0, feature ids from 1", map[string]string{
			"features.csv": pandasMatrix(pos1, c.x),
			"edges.txt":    savetxtEdges(c.edges, 0, false),
			"labels.csv":   pandasLabels(pos1, c.labels),
		}, []string{"its ids are one less than those of features.csv", "read with every id plus 1, so id 0 is vertex \"1\""}},
		{"paper ids, edges one off", map[string]string{
			"features.csv": pandasMatrix(c.ids, c.x),
			"edges.csv":    pandasEdges(c.edges, func(i int) string { v, _ := strconv.Atoi(c.ids[i]); return strconv.Itoa(v + 1) }),
			"labels.csv":   pandasLabels(c.ids, c.labels),
		}, []string{"one more than those of features.csv"}},
		{"ids written as floats by np.savetxt", map[string]string{
			"features.txt": savetxtMatrix(true, c.x),
			"edges.txt":    savetxtEdges(c.edges, 0, true),
			"labels.csv":   pandasLabels(pos, c.labels),
		}, nil},
		{"np.savetxt(X): no id column", map[string]string{
			"features.txt": savetxtMatrix(false, c.x),
			"edges.txt":    savetxtEdges(c.edges, 0, false),
			"labels.csv":   pandasLabels(pos, c.labels),
		}, []string{"features.txt has no id column", "read by position", "set the feature layout to rows (feature_layout: rows in a config, --feature-layout rows on the command line)"}},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, test.files)
			g, rep, err := Open(Spec{Path: dir})
			if err != nil {
				t.Fatal(err)
			}
			if g.N() != n || g.Edges() != cora.Edges() || g.Fingerprint() != want {
				t.Fatalf("read n=%d edges=%d, not Cora (n=%d edges=%d):\n%s", g.N(), g.Edges(), n, cora.Edges(), rep)
			}
			said := strings.Join(append(append([]string(nil), rep.Notes...), rep.Warnings...), "\n")
			for _, s := range test.say {
				if !strings.Contains(said, s) {
					t.Errorf("report does not say %q:\n%s", s, rep)
				}
			}
			if len(rep.Dropped) != 0 {
				t.Errorf("dropped %+v", rep.Dropped)
			}
		})
	}
}

// TestDroppedShare checks the 1 % rule: an edge file dropping more than 1 % of its
// lines for unknown ids fails with the counts, the first lines and the flag; at most 1 %
// is read with a report; AllowDropped accepts any share.
func TestDroppedShare(t *testing.T) {
	feat := strings.Builder{}
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&feat, "v%d,1\n", i)
	}
	edges := func(unknown int) string {
		var b strings.Builder
		for i := 0; i < 200-unknown; i++ {
			fmt.Fprintf(&b, "v%d,v%d\n", i, i+1)
		}
		for i := 0; i < unknown; i++ {
			fmt.Fprintf(&b, "v%d,w%d\n", i, i)
		}
		return b.String()
	}
	for _, test := range []struct {
		name    string
		unknown int
		allow   bool
		err     []string
	}{
		{"none", 0, false, nil},
		{"1 %", 2, false, nil},
		{"1.5 %", 3, false, []string{"e.csv: 3 of 200 edge lines (1.5%) name an id that is not a vertex, more than the 1% nagc drops without asking",
			"(the first: e.csv:198: v0,w0; e.csv:199: v1,w1; e.csv:200: v2,w2)", "check that e.csv and f.csv name the vertices the same way", "--allow-dropped", "allow_dropped: true"}},
		{"half, allowed", 100, true, nil},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, s := specInDir(t, map[string]string{"e.csv": edges(test.unknown), "f.csv": feat.String()},
				Spec{Path: "e.csv", Features: "f.csv", AllowDropped: test.allow})
			g, rep, err := Open(s)
			if test.err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.File != s.Path {
					t.Fatalf("error %v, want a *ParseError naming %s", err, s.Path)
				}
				for _, m := range test.err {
					if !strings.Contains(err.Error(), m) {
						t.Errorf("error %q does not say %q", err, m)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.Dangling != test.unknown || rep.DroppedTotal() != test.unknown {
				t.Errorf("dangling %d, dropped %d, want %d", g.Dangling, rep.DroppedTotal(), test.unknown)
			}
			if test.unknown > 0 && (len(rep.Dropped[0].Examples) != min(test.unknown, maxExamples) || !strings.Contains(rep.String(), "e.csv:"+strconv.Itoa(201-test.unknown)+": v0,w0")) {
				t.Errorf("report quotes %q:\n%s", rep.Dropped[0].Examples, rep)
			}
		})
	}
}

// TestCanonicalID checks how ids are read: integers written as floats are the integers,
// fractions are refused, anything else is an ordinary name kept as written.
func TestCanonicalID(t *testing.T) {
	for _, test := range []struct{ in, want, err string }{
		{"12", "12", ""}, {"007", "007", ""}, {"-3", "-3", ""}, {"+4", "+4", ""},
		{"12.0", "12", ""}, {"1.2e1", "12", ""}, {"1.200000000000000000e+01", "12", ""}, {"0.000000000000000000e+00", "0", ""},
		{"-0.0", "0", ""}, {"1e3", "1000", ""},
		{"abc", "abc", ""}, {"1-a", "1-a", ""}, {"a1.5", "a1.5", ""}, {"inf", "inf", ""}, {"NaN", "NaN", ""}, {"", "", ""},
		{"12.5", "", "id \"12.5\" is a number with a fractional part"},
		{"1e300", "", "too large"},
	} {
		got, err := canonicalID([]byte(test.in))
		switch {
		case test.err != "" && (err == nil || !strings.Contains(err.Error(), test.err)):
			t.Errorf("canonicalID(%q) = %q, %v; want error %q", test.in, got, err, test.err)
		case test.err == "" && (err != nil || string(got) != test.want):
			t.Errorf("canonicalID(%q) = %q, %v; want %q", test.in, got, err, test.want)
		}
	}
}

// TestReaderRefusals checks refusals that name the file, the line and the fault: a
// fractional id, control characters inside ids, an ambiguous feature file without ids.
func TestReaderRefusals(t *testing.T) {
	for _, test := range []struct {
		name  string
		files map[string]string
		spec  Spec
		file  string
		line  int
		msg   []string
	}{
		{"fractional edge id", map[string]string{"e.txt": "1 2\n2.5 3\n"}, Spec{Path: "e.txt"}, "e.txt", 2,
			[]string{`id "2.5" is a number with a fractional part`}},
		{"fractional feature id with a word", map[string]string{"e.txt": "1 2\n", "f.txt": "1 0 x\n1.5 1 y\n"}, Spec{Path: "e.txt", Features: "f.txt", Labels: LabelsColumn}, "f.txt", 2,
			[]string{`id "1.5"`}},
		{"NUL inside an edge id", map[string]string{"e.txt": "a b\nc\x00d e\n"}, Spec{Path: "e.txt"}, "e.txt", 2,
			[]string{"control character 0x00 at byte 2 of the line"}},
		{"escape inside a label", map[string]string{"e.txt": "a b\n", "l.txt": "a x\nb \x1b[31my\n"}, Spec{Path: "e.txt", LabelFile: "l.txt"}, "l.txt", 2,
			[]string{"control character 0x1B"}},
		{"NUL in a Matrix Market file", map[string]string{"a.mtx": "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\x00\n"}, Spec{Path: "a.mtx"}, "a.mtx", 3,
			[]string{"control character 0x00"}},
		{"np.savetxt of a 2-column X with fractions", map[string]string{"e.txt": "0 1\n", "f.txt": "0.5 1 1\n0.25 0 1\n"}, Spec{Path: "e.txt", Features: "f.txt"}, "f.txt", 1,
			[]string{`id "0.5" is a number with a fractional part`, "set the feature layout to rows", "--feature-layout rows"}},
		{"np.savetxt of a 2-column X: ambiguous", map[string]string{"e.txt": "0 1\n", "f.txt": "0 1 1\n0 0 1\n"}, Spec{Path: "e.txt", Features: "f.txt"}, "f.txt", 2,
			[]string{`duplicate vertex id "0"`, "set the feature layout to sparse", "set it to rows"}},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir, s := specInDir(t, test.files, test.spec)
			_, _, err := Open(s)
			checkParseError(t, err, filepath.Join(dir, test.file), test.line, test.msg...)
		})
	}
}

// TestFeatureLayoutRows checks feature_layout: rows, and that a numeric feature file
// whose first column repeats is read by position with a warning.
func TestFeatureLayoutRows(t *testing.T) {
	files := map[string]string{"e.txt": "0 1\n1 2\n", "f.txt": "1 0 0 2\n1 0 1 0\n0 3 0 0\n"}
	for _, layout := range []string{"", LayoutRows} {
		_, s := specInDir(t, files, Spec{Path: "e.txt", Features: "f.txt", FeatureLayout: layout})
		g, rep := mustOpen(t, s)
		if g.N() != 3 || g.M() != 4 || attrtest.Sparse(g.X).At(0, 0) != 1 || attrtest.Sparse(g.X).At(2, 1) != 3 || attrtest.Sparse(g.X).At(0, 3) != 2 || g.Edges() != 2 {
			t.Fatalf("layout %q: n=%d m=%d X=%v", layout, g.N(), g.M(), g.X)
		}
		warned := strings.Contains(strings.Join(rep.Warnings, "\n"), "no id column")
		if warned != (layout == "") {
			t.Errorf("layout %q: warnings %q", layout, rep.Warnings)
		}
	}
}

// TestNumberedHeader checks pandas' header of a matrix, "0 1 … m−1": with as many
// fields on the lines below, the file has no id column (read by position); with one more,
// the first is the id (to_csv(sep=' ') of a frame with an index, whose empty name the
// spaces lose).
func TestNumberedHeader(t *testing.T) {
	for _, test := range []struct {
		name, features string
		ids            []string
	}{
		{"no id column", "0,1,2\n1,0,0\n0,1,0\n0,0,1\n", []string{"0", "1", "2"}},
		{"index, space-separated", "0 1 2\n10 1 0 0\n11 0 1 0\n12 0 0 1\n", []string{"10", "11", "12"}},
	} {
		t.Run(test.name, func(t *testing.T) {
			edges := "0 1\n1 2\n"
			if test.ids[0] == "10" {
				edges = "10 11\n11 12\n"
			}
			_, s := specInDir(t, map[string]string{"e.txt": edges, "f.txt": test.features}, Spec{Path: "e.txt", Features: "f.txt"})
			g, rep := mustOpen(t, s)
			if fmt.Sprint(g.IDs) != fmt.Sprint(test.ids) || g.M() != 3 || attrtest.Sparse(g.X).At(2, 2) != 1 || attrtest.Sparse(g.X).At(0, 0) != 1 || g.Edges() != 2 {
				t.Fatalf("ids %q, m=%d, X=%v\n%s", g.IDs, g.M(), g.X, rep)
			}
		})
	}
}

// TestSpaceSeparatedPandasEdges checks df.to_csv(sep=' ') of an edge frame: the header
// "source target" (the index's empty name lost) over lines "row source target" is not
// read as weighted edges.
func TestSpaceSeparatedPandasEdges(t *testing.T) {
	_, s := specInDir(t, map[string]string{"e.txt": "source target\n0 a b\n1 b c\n2 c a\n"}, Spec{Path: "e.txt"})
	g, rep := mustOpen(t, s)
	if fmt.Sprint(g.IDs) != "[a b c]" || g.Edges() != 3 || g.Weighted() {
		t.Fatalf("ids %q, edges %d, weighted %v\n%s", g.IDs, g.Edges(), g.Weighted(), rep)
	}
}

// TestEdgeHeaderOfNames checks a first edge line of two names that are not header words
// ("a,b") above numeric ids: a header, noted, not an edge dropped (or, without a feature
// file, two extra vertices).
func TestEdgeHeaderOfNames(t *testing.T) {
	for _, features := range []bool{false, true} {
		files := map[string]string{"e.csv": "a,b\n1,2\n2,3\n"}
		spec := Spec{Path: "e.csv"}
		if features {
			files["f.csv"] = "1,1\n2,0\n3,1\n"
			spec.Features = "f.csv"
		}
		_, s := specInDir(t, files, spec)
		g, rep := mustOpen(t, s)
		if g.N() != 3 || g.Edges() != 2 || rep.DroppedTotal() != 0 || !strings.Contains(strings.Join(rep.Notes, "\n"), `e.csv:1 read as a header row ("a,b")`) {
			t.Errorf("features %v: n=%d edges=%d\n%s", features, g.N(), g.Edges(), rep)
		}
	}
}

// TestNPZNodeNamesControl checks that node names holding a control character are not
// used as ids (they would be written into every file naming vertices).
func TestNPZNodeNamesControl(t *testing.T) {
	p := filepath.Join(t.TempDir(), "g.npz")
	a := smallNPZ()
	a["node_names"] = []string{"a", "b\x1bc", "d"}
	writeNPZArrays(t, p, a, nil)
	g, rep, err := Open(Spec{Path: p})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(g.IDs) != "[0 1 2]" || !strings.Contains(strings.Join(rep.Warnings, "\n"), "holds a control character") {
		t.Errorf("ids %q, warnings %q", g.IDs, rep.Warnings)
	}
}

// TestLabelShift checks a label file whose ids are one more than the vertices' (here of
// an edge list without features, whose vertices come in edge order): read shifted, with a
// warning, rather than labelling every vertex with its neighbour's class.
func TestLabelShift(t *testing.T) {
	var edges, labels strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&edges, "%d %d\n", (i*7)%200, (i*7+1)%200)
		fmt.Fprintf(&labels, "%d c%d\n", i+1, i%3)
	}
	_, s := specInDir(t, map[string]string{"e.txt": edges.String(), "l.txt": labels.String()}, Spec{Path: "e.txt", LabelFile: "l.txt"})
	g, rep := mustOpen(t, s)
	for i, id := range g.IDs {
		v, _ := strconv.Atoi(id)
		if want := fmt.Sprintf("c%d", v%3); g.ClassNames[g.Labels[i]] != want {
			t.Fatalf("vertex %s has class %s, want %s\n%s", id, g.ClassNames[g.Labels[i]], want, rep)
		}
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "its ids are one more than the vertices'") {
		t.Errorf("warnings %q", rep.Warnings)
	}
}

// TestPartialLabels checks a label file naming some vertices, or giving some an empty or
// NaN label: the others get Unlabeled, with a warning; a file labelling none is an error.
func TestPartialLabels(t *testing.T) {
	_, s := specInDir(t, map[string]string{"e.txt": "a b\nb c\nc d\n", "l.txt": "b x\nd y\n"}, Spec{Path: "e.txt", LabelFile: "l.txt"})
	g, rep := mustOpen(t, s)
	if want := []int{Unlabeled, 0, Unlabeled, 1}; fmt.Sprint(g.Labels) != fmt.Sprint(want) || g.K() != 2 || g.LabeledCount() != 2 {
		t.Fatalf("labels %v (k=%d), want %v", g.Labels, g.K(), want)
	}
	if w := strings.Join(rep.Warnings, "\n"); !strings.Contains(w, "labels 2 of 4 vertices") || !strings.Contains(w, "the metrics score the 2 labelled vertices") {
		t.Errorf("warnings %q", rep.Warnings)
	}
	if st := g.Stats(); st.Labeled != 2 {
		t.Errorf("Stats.Labeled = %d", st.Labeled)
	}
	// pandas' missing values (an empty field, NaN) label no vertex, in a label file and in
	// the label column of a feature file (labels: column); a file of only those labels
	// none.
	fileSpec := Spec{Path: "e.csv", LabelFile: "l.csv"}
	columnSpec := Spec{Path: "e.csv", Features: "f.csv", Labels: LabelsColumn}
	for _, c := range []struct {
		file, text string
		spec       Spec
		want       string   // the labels read; "" when the file is refused
		errs       string   // in the refusal
		note, warn []string // in the notes and warnings
		k          int      // classes read (0: not checked)
	}{
		{"l.csv", ",label\n0,1.0\n1,\n2,2.0\n3,NaN\n", fileSpec, "[0 -1 1 -1]", "", []string{"2 labels are empty or NaN"}, []string{"labels 2 of 4 vertices"}, 2},
		{"l.csv", "1.0\n\"\"\nnan\n2.0\n", fileSpec, "[0 -1 -1 1]", "", []string{"2 labels are empty or NaN"}, []string{"labels 2 of 4 vertices"}, 2},
		{"l.csv", "0,\n1,\n2,NaN\n3,\n", fileSpec, "", "labels none of the 4 vertices", nil, nil, 0},
		{"f.csv", "id,a,label\n0,1,x\n1,0,\n2,1,y\n3,0,NaN\n", columnSpec, "[0 -1 1 -1]", "", nil, []string{"2 of 4 vertices have no label (empty or NaN"}, 0},
		{"f.csv", "id,a,label\n0,1,\n1,0,\n2,1,nan\n3,0,\n", columnSpec, "", "every value of the last column is empty or NaN", nil, nil, 0},
	} {
		_, s := specInDir(t, map[string]string{"e.csv": "0,1\n1,2\n2,3\n", c.file: c.text}, c.spec)
		g, rep, err := Open(s)
		if c.want == "" {
			if err == nil || !strings.Contains(err.Error(), c.errs) {
				t.Errorf("%q, only missing labels: error %v, want one saying %q", c.text, err, c.errs)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		said := func(msgs, want []string) bool {
			for _, w := range want {
				if !strings.Contains(strings.Join(msgs, "\n"), w) {
					return false
				}
			}
			return true
		}
		if fmt.Sprint(g.Labels) != c.want || c.k != 0 && g.K() != c.k || !said(rep.Notes, c.note) || !said(rep.Warnings, c.warn) {
			t.Errorf("%q: labels %v (k=%d), notes %q, warnings %q; want %s", c.text, g.Labels, g.K(), rep.Notes, rep.Warnings, c.want)
		}
	}
	// npz: negative labels mark unlabelled vertices.
	p := filepath.Join(t.TempDir(), "g.npz")
	a := smallNPZ()
	a["labels"] = []int64{1, -1, 0}
	writeNPZArrays(t, p, a, nil)
	g, rep, err := Open(Spec{Path: p})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(g.Labels) != "[1 -1 0]" || !strings.Contains(strings.Join(rep.Warnings, "\n"), "1 of 3 vertices have no label (negative or NaN)") {
		t.Errorf("npz labels %v, warnings %q", g.Labels, rep.Warnings)
	}
}

// lowBudget sets the memory budget to b for the test.
func lowBudget(t *testing.T, b uint64) {
	t.Helper()
	memory.SetLimit(b)
	t.Cleanup(func() { memory.SetLimit(0) })
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDeclaredSizes checks that no size a file declares is trusted: each bomb is refused
// with a message naming the file and the size, having allocated next to nothing, under a
// 64 MB budget (the sizes declared would need gigabytes).
func TestDeclaredSizes(t *testing.T) {
	lowBudget(t, 64<<20)
	mtx := func(head, size string, lines ...string) string {
		return "%%MatrixMarket matrix " + head + "\n" + size + "\n" + strings.Join(lines, "\n") + "\n"
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	line := []byte("1 2\n")
	for k := 0; k < (20<<20)/len(line); k++ { // 20 MB of text: more than a quarter of the budget
		zw.Write(line)
	}
	zw.Close()
	for _, test := range []struct {
		name  string
		files map[string]string
		spec  Spec
		msg   []string
		parse bool // a *ParseError (else a memory refusal)
	}{
		{"mtx size line n = 2·10⁹", map[string]string{"adj.mtx": mtx("coordinate pattern symmetric", "2000000000 2000000000 0")},
			Spec{Path: "adj.mtx"}, []string{"a graph of n = 2000000000 vertices", "adj.mtx:2, the size line", "budget"}, false},
		{"mtx announcing 2³¹−1 entries", map[string]string{"adj.mtx": mtx("coordinate pattern symmetric", "3 3 2147483647", "2 1")},
			Spec{Path: "adj.mtx"}, []string{"1 entries, but the size line (line 2) announces 2147483647"}, true},
		{"features.mtx 6 × 2³¹−1", map[string]string{"adj.mtx": mtx("coordinate pattern symmetric", "6 6 1", "2 1"), "features.mtx": mtx("coordinate real general", "6 2147483647 1", "1 1 1")},
			Spec{Path: "."}, []string{"attributes with m = 2147483647 columns", "features.mtx:2, the size line"}, false},
		{"sparse triplet b,2147483646,1", map[string]string{"e.csv": "a,b\n", "f.csv": "a,0,1\nb,2147483646,1\n"},
			Spec{Path: "e.csv", Features: "f.csv", FeatureLayout: LayoutSparse}, []string{"m = 2147483647 columns", "f.csv:2 names column 2147483646"}, false},
		{"gzip expanding past a quarter of the budget", map[string]string{"edges.txt.gz": gz.String()},
			Spec{Path: "edges.txt.gz"}, []string{"decompressing", "edges.txt.gz", "it expands to more than 16.8 MB"}, false},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, s := specInDir(t, test.files, test.spec)
			var err error
			bytes := allocated(func() { _, _, err = Open(s) })
			if err == nil {
				t.Fatal("accepted")
			}
			var pe *ParseError
			if test.parse != errors.As(err, &pe) || !test.parse && !errors.Is(err, memory.ErrTooLarge) {
				t.Errorf("error %v (%T)", err, err)
			}
			for _, m := range test.msg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not say %q", err, m)
				}
			}
			if bytes > 48<<20 {
				t.Errorf("allocated %s before refusing", memory.Format(bytes))
			}
		})
	}
}

// TestNPZDeclaredSizes checks that an npz archive's array headers are checked against
// its shape and the budget before any array is read: an indptr of 10⁷ int8 zeros beside a
// 3×3 shape (a few kB compressed) is refused by length, and a consistent 10⁷-vertex
// archive by the budget, without converting 10⁷ int8 to int64.
func TestNPZDeclaredSizes(t *testing.T) {
	lowBudget(t, 32<<20)
	const big = 10_000_000
	dir := t.TempDir()
	for _, test := range []struct {
		name  string
		shape []int64
		msg   string
	}{
		{"indptr longer than the shape says", []int64{3, 3}, "adj_indptr: has 10000000 entries, want rows + 1 = 4"},
		{"a consistent shape over the budget", []int64{big - 1, big - 1}, "a graph of n = 9999999 vertices"},
	} {
		t.Run(test.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(test.name, " ", "_")+".npz")
			a := map[string]any{"adj_data": []float64{1}, "adj_indices": []int32{0}, "adj_shape": test.shape}
			writeNPZArrays(t, p, a, map[string][]byte{"adj_indptr": rawNPY("|i1", fmt.Sprintf("(%d,)", big), make([]byte, big))})
			var err error
			bytes := allocated(func() { _, _, err = Open(Spec{Path: p}) })
			if err == nil || !strings.Contains(err.Error(), test.msg) {
				t.Fatalf("error %v, want %q", err, test.msg)
			}
			if bytes > 8<<20 {
				t.Errorf("allocated %s before refusing", memory.Format(bytes))
			}
		})
	}
	// The int8 → int64 conversion of an nnz-sized array is budgeted too: 4·10⁶ int8
	// column indices of a 10-vertex graph take 36 MB once converted.
	lowBudget(t, 16<<20)
	p := filepath.Join(dir, "conversion.npz")
	const nnz = 4_000_000
	ptr := make([]int64, 11)
	ptr[10] = nnz
	writeNPZArrays(t, p, map[string]any{"adj_shape": []int64{10, 10}, "adj_indptr": ptr},
		map[string][]byte{"adj_indices": rawNPY("|i1", fmt.Sprintf("(%d,)", nnz), make([]byte, nnz)),
			"adj_data": rawNPY("|i1", fmt.Sprintf("(%d,)", nnz), make([]byte, nnz))})
	var err error
	bytes := allocated(func() { _, _, err = Open(Spec{Path: p}) })
	if !errors.Is(err, memory.ErrTooLarge) || !strings.Contains(err.Error(), "reading adj_indices of") {
		t.Fatalf("error %v, want a memory refusal of adj_indices", err)
	}
	if bytes > 8<<20 {
		t.Errorf("allocated %s before refusing", memory.Format(bytes))
	}
}

// TestReadFileCap checks that plain and gzip files are read whole below the cap.
func TestReadFileCap(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("a b\n", 100000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	writeFiles(t, dir, map[string]string{"plain.txt": text, "z.txt.gz": gz.String()})
	for _, name := range []string{"plain.txt", "z.txt.gz"} {
		got, err := readFile(filepath.Join(dir, name))
		if err != nil || string(got) != text {
			t.Errorf("%s: %d bytes, %v", name, len(got), err)
		}
	}
	if _, err := readFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// FuzzCanonicalID checks that reading an id never panics, is idempotent, and turns a
// number into the integer it is when whole.
func FuzzCanonicalID(f *testing.F) {
	for _, s := range []string{"12", "12.0", "1.2e1", "-0.0", "1e300", "12.5", "abc", "0x1p3", "1_0", "+.5e1", "007"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := canonicalID([]byte(s))
		if err != nil {
			return
		}
		again, err := canonicalID(got)
		if err != nil || string(again) != string(got) {
			t.Fatalf("canonicalID(%q) = %q, then %q, %v", s, got, again, err)
		}
		if string(got) != s {
			v, err1 := strconv.ParseFloat(s, 64)
			w, err2 := strconv.ParseInt(string(got), 10, 64)
			if err1 != nil || err2 != nil || float64(w) != v {
				t.Fatalf("canonicalID(%q) = %q: not the same number", s, got)
			}
		}
	})
}

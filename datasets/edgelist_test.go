package datasets

import (
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/memory"
)

func TestOpenEdgeListSmall(t *testing.T) {
	for _, test := range []struct {
		name   string
		files  map[string]string
		spec   Spec // Path, Features and LabelFile relative to the folder
		ids    []string
		edges  map[[2]int]float64 // upper triangle with diagonal
		x      [][]float64
		labels []string // class name per vertex; nil for unlabeled
		drops  int
		notes  int
		warn   string // in the only warning, when set
	}{
		{
			name: "tsv no header string ids",
			files: map[string]string{
				"e.tsv": "alice\tbob\nbob\tcarol\ncarol\talice\nbob\talice\ndave\tdave\n",
			},
			spec:  Spec{Path: "e.tsv"},
			ids:   []string{"alice", "bob", "carol", "dave"},
			edges: map[[2]int]float64{{0, 1}: 1, {1, 2}: 1, {0, 2}: 1, {3, 3}: 1},
			x:     [][]float64{{}, {}, {}, {}},
		},
		{
			name: "space separated comments and weights",
			files: map[string]string{
				"g.edges": "# a SNAP-style comment\n% another\n\nu v 2.5\nv w 1\nv u 4\nw w 0.5\nu w 0\n",
			},
			spec:  Spec{Path: "g.edges"},
			ids:   []string{"u", "v", "w"},
			edges: map[[2]int]float64{{0, 1}: 4, {1, 2}: 1, {2, 2}: 0.5},
			x:     [][]float64{{}, {}, {}},
			drops: 1,
		},
		{
			name: "csv header dense features with label column and dangling",
			files: map[string]string{
				"edges.csv":    "source,target\nb,a\r\nc,zz\r\na,c\r\n",
				"features.csv": "\xEF\xBB\xBFid,f1,f2,label\na,0.5,0,x\nb,0,1e-3,y\nc,2,3,x\n",
			},
			spec:   Spec{Path: ".", Labels: LabelsColumn, AllowDropped: true},
			ids:    []string{"a", "b", "c"},
			edges:  map[[2]int]float64{{0, 1}: 1, {0, 2}: 1},
			x:      [][]float64{{0.5, 0}, {0, 1e-3}, {2, 3}},
			labels: []string{"x", "y", "x"},
			drops:  1,
			notes:  2,
		},
		{
			name: "sparse features and label file with header",
			files: map[string]string{
				"edges.txt":  "1 2\n2 3\n",
				"feat.txt":   "node column value\n3 0 1\n1 4 0.25\n2 2 7\n1 0 2\n4 1 0\n",
				"labels.csv": "id,label\n1,A\n2,B\n3,A\n4,B\n",
			},
			spec:   Spec{Path: "edges.txt", Features: "feat.txt", FeatureLayout: LayoutSparse, LabelFile: "labels.csv"},
			ids:    []string{"3", "1", "2", "4"},
			edges:  map[[2]int]float64{{1, 2}: 1, {0, 2}: 1},
			x:      [][]float64{{1, 0, 0, 0, 0}, {2, 0, 0, 0, 0.25}, {0, 0, 7, 0, 0}, {0, 0, 0, 0, 0}},
			labels: []string{"A", "A", "B", "B"},
			notes:  2,
		},
		{
			// Columns named by words: numbered in sorted name order, whatever the
			// order of the lines; a name that looks like a number is a name too.
			name: "sparse features with named columns",
			files: map[string]string{
				"e.csv": "p1,p2\n",
				"f.csv": "paper,word,count\np2,graph,2\np1,spectral,1\np1,graph,3\np2,2020,1\n",
			},
			spec:  Spec{Path: "e.csv", Features: "f.csv", FeatureLayout: LayoutSparse},
			ids:   []string{"p2", "p1"},
			edges: map[[2]int]float64{{0, 1}: 1},
			x:     [][]float64{{1, 2, 0}, {0, 3, 1}}, // columns "2020", "graph", "spectral"
			notes: 2,
		},
		{
			// networkx's write_edgelist (data=True): a Python dict after the ids, whose
			// weight key (if any) is the weight; the first line is not a header, and a
			// dict holding commas does not make them the separator.
			name: "networkx edge list with data",
			files: map[string]string{
				"g.edgelist": "0 1 {'weight': 2.5, 'note': 'a, b: c', 'pos': (1, 2)}\n1 2 {}\n2 0 {\"weight\": np.float64(3.0)}\n",
			},
			spec:  Spec{Path: "g.edgelist", Format: FormatEdgeList},
			ids:   []string{"0", "1", "2"},
			edges: map[[2]int]float64{{0, 1}: 2.5, {1, 2}: 1, {0, 2}: 3},
			x:     [][]float64{{}, {}, {}},
			notes: 1,
		},
		{
			// A vertex without attributes has no line in a sparse file: the edge file's
			// other ids are vertices, after the feature file's, with a warning.
			name: "sparse features without a line for every vertex",
			files: map[string]string{
				"e.csv":      "a,b\nb,c\nd,a\n",
				"f.csv":      "b,0,1\na,1,2\n",
				"labels.csv": "a,x\nb,y\nc,y\nd,x\n",
			},
			spec:   Spec{Path: "e.csv", Features: "f.csv", FeatureLayout: LayoutSparse, LabelFile: "labels.csv"},
			ids:    []string{"b", "a", "c", "d"},
			edges:  map[[2]int]float64{{0, 1}: 1, {0, 2}: 1, {1, 3}: 1},
			x:      [][]float64{{1, 0}, {0, 2}, {0, 0}, {0, 0}},
			labels: []string{"y", "x", "y", "x"},
			warn:   `2 vertices of e.csv have no line in the sparse feature file f.csv (the first "c")`,
		},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, s := specInDir(t, test.files, test.spec)
			g, rep := mustOpen(t, s)
			if rep.Format != FormatEdgeList {
				t.Errorf("format %q", rep.Format)
			}
			if !slices.Equal(g.IDs, test.ids) {
				t.Fatalf("ids %q, want %q", g.IDs, test.ids)
			}
			n := len(test.ids)
			nnz := 0
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					w := test.edges[[2]int{min(i, j), max(i, j)}]
					if w != 0 {
						nnz++
					}
					if got := g.Adj.At(i, j); got != w {
						t.Errorf("A[%d,%d] = %v, want %v", i, j, got, w)
					}
				}
			}
			if g.Adj.NNZ() != nnz {
				t.Errorf("nnz(A) = %d, want %d", g.Adj.NNZ(), nnz)
			}
			if _, m := g.X.Dims(); m != len(test.x[0]) {
				t.Errorf("m = %d, want %d", m, len(test.x[0]))
			}
			for i, row := range test.x {
				for j, v := range row {
					if got := attrtest.Sparse(g.X).At(i, j); got != v {
						t.Errorf("X[%d,%d] = %v, want %v", i, j, got, v)
					}
				}
			}
			var names []string
			for _, l := range g.Labels {
				names = append(names, g.ClassNames[l])
			}
			if !slices.Equal(names, test.labels) {
				t.Errorf("labels %q, want %q", names, test.labels)
			}
			if test.warn != "" && (len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], test.warn)) {
				t.Errorf("warnings %q, want one containing %q", rep.Warnings, test.warn)
			}
			if rep.DroppedTotal() != test.drops || len(rep.Notes) != test.notes {
				t.Errorf("dropped %d (want %d), notes %q (want %d)", rep.DroppedTotal(), test.drops, rep.Notes, test.notes)
			}
			if rep.N != n || rep.Edges != g.Edges() {
				t.Errorf("report %s", rep)
			}
		})
	}
}

func TestOpenEdgeListErrors(t *testing.T) {
	for _, test := range []struct {
		name  string
		files map[string]string
		spec  Spec
		file  string
		line  int
		msg   []string
	}{
		{
			name:  "one field",
			files: map[string]string{"e.csv": "a,b\nc\n"},
			spec:  Spec{Path: "e.csv"}, file: "e.csv", line: 2,
			msg: []string{"edge line needs 2 fields", "got 1"},
		},
		{
			name:  "mixed widths",
			files: map[string]string{"e.csv": "a,b,1\nc,d\n"},
			spec:  Spec{Path: "e.csv"}, file: "e.csv", line: 2,
			msg: []string{"2 fields where earlier lines have 3"},
		},
		{
			name:  "bad weight",
			files: map[string]string{"e.csv": "a,b,1\nc,d,heavy\n"},
			spec:  Spec{Path: "e.csv"}, file: "e.csv", line: 2,
			msg: []string{"weight", `"heavy" is not a number`},
		},
		{
			name:  "negative weight",
			files: map[string]string{"e.csv": "a b -2\n"},
			spec:  Spec{Path: "e.csv"}, file: "e.csv", line: 1,
			msg: []string{"weight", "negative"},
		},
		{
			name:  "ragged features",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "a,1,2\nb,1\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv"}, file: "f.csv", line: 2,
			msg: []string{"expected 2 values (as at line 1), got 1"},
		},
		{
			name:  "feature not a number",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "a,1,2\nb,1,x\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv"}, file: "f.csv", line: 2,
			msg: []string{"attribute column 2", `"x" is not a number`},
		},
		{
			name:  "empty feature field (pandas' NaN)",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "a,1,2\nb,1,\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv"}, file: "f.csv", line: 2,
			msg: []string{`attribute column 2: "" is not a number: the field is empty, a missing value as pandas writes NaN`, "df.fillna(0)"},
		},
		{
			name:  "nan feature (numpy's savetxt)",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "a,1,2\nb,nan,1\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv"}, file: "f.csv", line: 2,
			msg: []string{`attribute column 1: value "nan" is NaN, a missing value`, "np.nan_to_num(X)"},
		},
		{
			name:  "triplets read as dense",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "a,0,1\nb,1,1\na,2,1\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv"}, file: "f.csv", line: 3,
			msg: []string{`duplicate vertex id "a"`, "set the feature layout to sparse"},
		},
		{
			name:  "sparse duplicate entry",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "a,0,1\nb,1,1\na,0,2\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv", FeatureLayout: LayoutSparse}, file: "f.csv", line: 3,
			msg: []string{`second value for vertex "a", column 0 (first at line 1)`},
		},
		{
			name:  "sparse bad column",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "a,0,1\nb,-1,1\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv", FeatureLayout: LayoutSparse}, file: "f.csv", line: 2,
			msg: []string{`column "-1" is not a whole number`},
		},
		{
			name:  "broken gzip",
			files: map[string]string{"e.csv.gz": "\x1f\x8b\x08\x00 not really compressed"},
			spec:  Spec{Path: "e.csv.gz"}, file: "e.csv.gz", line: 0,
			msg: []string{"not readable gzip data"},
		},
		{
			name:  "named triplets read as dense",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "node,word,count\na,graph,2\nb,kernel,1\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv"}, file: "f.csv", line: 2,
			msg: []string{`attribute column 1: "graph" is not a number; if this file holds one (id, column, value) triplet a line, set the feature layout to sparse`},
		},
		{
			name:  "label column not declared",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "id,f1,label\na,1,x\nb,0,y\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv"}, file: "f.csv", line: 2,
			msg: []string{`attribute column 2: "x" is not a number; if the last column holds the labels, set labels: column`},
		},
		{
			name:  "networkx data without a colon",
			files: map[string]string{"e.txt": "a b {}\nb c {'weight' 2}\n"},
			spec:  Spec{Path: "e.txt"}, file: "e.txt", line: 2,
			msg: []string{"edge data {'weight' 2}: want {'key': value, …} as networkx writes it"},
		},
		{
			name:  "networkx weight not a number",
			files: map[string]string{"e.txt": "a b {'weight': 'heavy'}\n"},
			spec:  Spec{Path: "e.txt"}, file: "e.txt", line: 1,
			msg: []string{`weight: "'heavy'" is not a number`},
		},
		{
			name:  "sparse numbered then named column",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "a,0,1\nb,w1,1\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv", FeatureLayout: LayoutSparse}, file: "f.csv", line: 2,
			msg: []string{`column "w1" is not a whole number`, "to name them, name every one"},
		},
		{
			name:  "sparse first column too large",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "a,99999999999,1\nb,x,1\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv", FeatureLayout: LayoutSparse}, file: "f.csv", line: 1,
			msg: []string{`column "99999999999" is not a whole number from 0 to`},
		},
		{
			name:  "sparse named duplicate entry",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "a,x,1\nb,y,1\na,x,2\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv", FeatureLayout: LayoutSparse}, file: "f.csv", line: 3,
			msg: []string{`second value for vertex "a", column "x" (first at line 1)`},
		},
		{
			name:  "no vertex labelled",
			files: map[string]string{"e.csv": "a,b\nb,c\n", "l.csv": "z,x\n"},
			spec:  Spec{Path: "e.csv", LabelFile: "l.csv", AllowDropped: true}, file: "l.csv",
			msg: []string{`labels none of the 3 vertices`, "labels: none"},
		},
		{
			name:  "second label",
			files: map[string]string{"e.csv": "a,b\n", "l.csv": "a,x\nb,y\na,z\n"},
			spec:  Spec{Path: "e.csv", LabelFile: "l.csv"}, file: "l.csv", line: 3,
			msg: []string{`second label for vertex "a" (first at line 1)`},
		},
		{
			name:  "empty edge file",
			files: map[string]string{"e.csv": "# nothing\n"},
			spec:  Spec{Path: "e.csv"}, file: "e.csv",
			msg: []string{"no edges"},
		},
		{
			name:  "empty feature file",
			files: map[string]string{"e.csv": "a,b\n", "f.csv": "\n"},
			spec:  Spec{Path: "e.csv", Features: "f.csv"}, file: "f.csv",
			msg: []string{"no vertices"},
		},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir, s := specInDir(t, test.files, test.spec)
			_, _, err := Open(s)
			checkParseError(t, err, filepath.Join(dir, test.file), test.line, test.msg...)
		})
	}
}

// FuzzOpenEdgeList checks that no edge, feature or label file makes the edge-list reader
// panic, that every error is a *ParseError naming one of the files, and that an accepted
// graph is well formed.
//
//	go test ./datasets -run '^$' -fuzz FuzzOpenEdgeList -fuzztime 1m
func FuzzOpenEdgeList(f *testing.F) {
	f.Add("a,b\nb,c,\n", "id,x\na,1\nb,0\nc,2\n", "a 1\nb 2\nc 1\n", false)
	f.Add("source\ttarget\tweight\na\tb\t2\nb\ta\t0\n", "a\t0\t1\nb\t3\t0.5\n", "", true)
	f.Add("\xEF\xBB\xBF\"a\" \"b\"\r\n", "", "label\nx\ny\n", false)
	// pandas and NumPy files: an unnamed index, ids as floats, edges one off, no id column.
	f.Add(",source,target\n0,0,1\n1,1,2\n", ",0,1\n0,1,0\n1,0,1\n2,1,1\n", ",0\n0,a\n1,b\n2,a\n", false)
	f.Add("0.000000000000000000e+00 1.000000000000000000e+00\n", ",id,0\n0,0.0,1\n1,1.0,2\n", ",id,label\n0,0,x\n1,1,y\n", false)
	f.Add("1 2\n2 3\n", "0 1 0 1\n1 0 1 0\n2 1 1 1\n", "0 x\n1 y\n", false)
	f.Add("0 1\n1 2\n", "1.0 0.0 2.0\n1.0 1.0 0.0\n0.5 0.0 0.0\n", "0 x\n2 y\n", false)
	f.Add("a b\nb c\x00\n", "a,2147483646,1\n", "", true)
	f.Fuzz(func(t *testing.T, edges, features, labels string, sparseLayout bool) {
		dir := t.TempDir()
		files := map[string]string{"e.csv": edges}
		s := Spec{Path: filepath.Join(dir, "e.csv")}
		if features != "" {
			files["f.csv"] = features
			s.Features = filepath.Join(dir, "f.csv")
		}
		if labels != "" {
			files["l.csv"] = labels
			s.LabelFile = filepath.Join(dir, "l.csv")
		}
		if sparseLayout {
			s.FeatureLayout = LayoutSparse
		}
		writeFiles(t, dir, files)
		g, rep, err := Open(s)
		if err != nil {
			checkFuzzFileError(t, err, dir)
			return
		}
		checkOpened(t, g, rep)
	})
}

// checkFuzzFileError checks that err is a *ParseError naming a file of dir (or dir) and
// a line no larger than that file's line count.
func checkFuzzFileError(t *testing.T, err error, dir string) {
	t.Helper()
	var pe *ParseError
	if errors.Is(err, memory.ErrTooLarge) {
		return // a size read from the file over the memory budget: refused before allocating
	}
	if !asParseError(err, &pe) {
		if strings.HasPrefix(err.Error(), "datasets: ") && !strings.Contains(err.Error(), "datasets.") {
			return // a plain error about the spec, e.g. labels: column without features
		}
		t.Fatalf("error %v is not a *ParseError", err)
	}
	if pe.File != dir && filepath.Dir(pe.File) != dir {
		t.Fatalf("error names %q, outside %s", pe.File, dir)
	}
}

// checkOpened checks the invariants of a graph Open accepted.
func checkOpened(t *testing.T, g *Graph, rep *LoadReport) {
	t.Helper()
	n := g.N()
	if r, c := g.Adj.Dims(); r != n || c != n {
		t.Fatalf("Adj %d×%d for %d vertices", r, c, n)
	}
	for i := 0; i < n; i++ {
		cols, vals := g.Adj.Row(i)
		for k, j := range cols {
			if !(vals[k] > 0) || g.Adj.At(j, i) != vals[k] {
				t.Fatalf("A[%d,%d] = %v, A[%d,%d] = %v", i, j, vals[k], j, i, g.Adj.At(j, i))
			}
		}
		if attrtest.Dense(g.X) != nil {
			_, m := attrtest.Dense(g.X).Dims()
			for j := 0; j < m; j++ {
				if v := attrtest.Dense(g.X).At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("XDense[%d,%d] = %v", i, j, v)
				}
			}
			continue
		}
		_, xv := attrtest.Sparse(g.X).Row(i)
		for _, v := range xv {
			if !(v > 0) {
				t.Fatalf("X row %d stores %v", i, v)
			}
		}
	}
	if attrtest.Dense(g.X) != nil {
		if r, _ := attrtest.Dense(g.X).Dims(); r != n || attrtest.Sparse(g.X) != nil {
			t.Fatalf("XDense has %d rows for %d vertices (X %v)", r, n, attrtest.Sparse(g.X) != nil)
		}
	} else if r, _ := g.X.Dims(); r != n {
		t.Fatalf("X has %d rows for %d vertices", r, n)
	}
	if g.Labels != nil && len(g.Labels) != n || g.Labels == nil && g.ClassNames != nil {
		t.Fatalf("%d labels, %d classes for %d vertices", len(g.Labels), len(g.ClassNames), n)
	}
	for _, l := range g.Labels {
		if l != Unlabeled && (l < 0 || l >= g.K()) {
			t.Fatalf("label %d of %d classes", l, g.K())
		}
	}
	if g.Labels != nil && g.LabeledCount() == 0 {
		t.Fatalf("a labelled graph with no labelled vertex")
	}
	for _, id := range g.IDs {
		if checkText("id", []byte(id)) != nil {
			t.Fatalf("id %q holds a control character", id)
		}
	}
	if rep.N != n || rep.Edges != g.Edges() || rep.K != g.K() {
		t.Fatalf("report %s disagrees with the graph", rep)
	}
}

// TestTextFileFields checks how a line is split into fields: the separator is the first
// data line's tab, semicolon or comma (else runs of spaces); a field starting with a
// double quote runs to its closing quote, separators included; in a semicolon-separated
// file a number with a decimal comma gets a decimal point.
func TestTextFileFields(t *testing.T) {
	for _, test := range []struct {
		name, data string
		want       [][]string
	}{
		{"spaces", "# c\n a  b \n\"x y\" z\n", [][]string{{"a", "b"}, {"\"x", "y\"", "z"}}},
		{"comma quoted", "\"Smith, J.\",\"Doe, A.\",2.5\nx,\"y\"\n", [][]string{{"Smith, J.", "Doe, A.", "2.5"}, {"x", "y"}}},
		{"escaped quote", "\"a \"\"b\"\", c\",d\n", [][]string{{`a ""b"", c`, "d"}}},
		{"quote inside a field", "12\" pipe,x\n", [][]string{{`12" pipe`, "x"}}},
		{"tab before comma", "a,b\tc\n", [][]string{{"a,b", "c"}}},
		{"semicolon decimal comma", "a;b;0,5\nc;d;-1,25e-3\n1,234,5;x;,5\n", [][]string{{"a", "b", "0.5"}, {"c", "d", "-1.25e-3"}, {"1,234,5", "x", ",5"}}},
		{"comma keeps commas", "a,\"0,5\"\n", [][]string{{"a", "0,5"}}},
		{"semicolon inside quotes", "\"a; b\",c\n", [][]string{{"a; b", "c"}}},
	} {
		tf := newTextFile("f", []byte(test.data))
		var got [][]string
		for nf := tf.next(); nf >= 0; nf = tf.next() {
			var line []string
			for k := 0; k < nf; k++ {
				line = append(line, string(tf.field(k)))
			}
			got = append(got, line)
		}
		if !reflect.DeepEqual(got, test.want) {
			t.Errorf("%s: fields %q, want %q", test.name, got, test.want)
		}
	}
}

// TestTruncate checks the quoting of a file's line in messages: a CRLF ending's carriage
// return is not shown, and a long line is cut on a character boundary.
func TestTruncate(t *testing.T) {
	long := strings.Repeat("a", 59) + "é,b" // é spans bytes 59 and 60
	for _, c := range []struct{ line, want string }{
		{"source,target\r", "source,target"},
		{"a,b", "a,b"},
		{"", ""},
		{strings.Repeat("x", 60) + "\r", strings.Repeat("x", 60)},
		{strings.Repeat("x", 61), strings.Repeat("x", 60) + "…"},
		{long, strings.Repeat("a", 59) + "…"},
	} {
		if got := truncate([]byte(c.line)); got != c.want || !utf8.ValidString(got) {
			t.Errorf("truncate(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// TestMessagesOfCRLFFiles checks that what the reader says of files written with CRLF
// endings and a byte-order mark (pandas' to_csv with encoding="utf-8-sig" and
// lineterminator="\r\n", as Excel users write them) quotes their lines without a
// carriage return, and reads the same graph as from LF files.
func TestMessagesOfCRLFFiles(t *testing.T) {
	files := map[string]string{
		"edges.csv":    "source,target\n0,1\n1,2\n2,0\n3,\n",
		"features.csv": "id,f0,f1\n0,1,0\n1,0,1\n2,1,1\n3,0,0\n",
		"labels.csv":   "id,label\n0,a\n1,b\n2,a\n3,b\n",
	}
	crlf := map[string]string{}
	for name, text := range files {
		crlf[name] = "\xEF\xBB\xBF" + strings.ReplaceAll(text, "\n", "\r\n")
	}
	_, s := specInDir(t, files, Spec{Path: ".", AllowDropped: true})
	want, _ := mustOpen(t, s)
	_, s = specInDir(t, crlf, Spec{Path: ".", AllowDropped: true})
	g, rep := mustOpen(t, s)
	if d := sameContent(want, g); d != "" {
		t.Errorf("CRLF files read differently: %s", d)
	}
	said := slices.Concat(rep.Notes, rep.Warnings)
	for _, d := range rep.Dropped {
		said = append(said, d.Examples...)
	}
	if len(rep.Notes) != 3 || rep.DroppedTotal() != 1 {
		t.Errorf("notes %q, dropped %d: want 3 header notes and the line \"3,\" dropped", rep.Notes, rep.DroppedTotal())
	}
	for _, m := range said {
		if strings.Contains(m, `\r`) || strings.Contains(m, "\r") || strings.Contains(m, "\uFEFF") {
			t.Errorf("message %q shows a carriage return or byte-order mark", m)
		}
	}
}

// TestDenseFeaturesWithNegativeValues checks that a dense feature file holding negative
// values (embeddings, as pandas writes them) is read dense, every value kept, with the
// warning naming the methods that refuse it; that without a negative value it stays
// sparse; and that a negative value in a sparse-layout file is still refused.
func TestDenseFeaturesWithNegativeValues(t *testing.T) {
	files := map[string]string{
		"edges.csv":    "src,dst\n0,1\n1,2\n",
		"features.csv": "id,e0,e1,e2\n0,0.5,-1.25,0\n1,0,0,0\n2,-3e-2,1,2\n",
	}
	_, s := specInDir(t, files, Spec{Path: "."})
	g, rep := mustOpen(t, s)
	if attrtest.Dense(g.X) == nil || attrtest.Sparse(g.X) != nil {
		t.Fatalf("attributes: dense %v, sparse %v; want them dense", attrtest.Dense(g.X) != nil, attrtest.Sparse(g.X) != nil)
	}
	want := [][]float64{{0.5, -1.25, 0}, {0, 0, 0}, {-3e-2, 1, 2}}
	for i, row := range want {
		for j, v := range row {
			if got := attrtest.Dense(g.X).At(i, j); got != v {
				t.Errorf("X[%d,%d] = %v, want %v", i, j, got, v)
			}
		}
	}
	if w := strings.Join(rep.Warnings, "\n"); !strings.Contains(w, "negative values (the first at vertex 0, column 1): nagc and nmf need non-negative attributes") {
		t.Errorf("warnings %q, want the negative values named", w)
	}

	files["features.csv"] = "id,e0,e1,e2\n0,0.5,1.25,0\n1,0,0,0\n2,3e-2,1,2\n"
	_, s = specInDir(t, files, Spec{Path: "."})
	if g, _ = mustOpen(t, s); attrtest.Dense(g.X) != nil || attrtest.Sparse(g.X) == nil || g.X.NNZ() != 5 {
		t.Errorf("non-negative dense file: want sparse attributes of 5 entries")
	}

	files["features.csv"] = "0,0,0.5\n2,1,-1\n"
	_, s = specInDir(t, files, Spec{Path: ".", FeatureLayout: LayoutSparse})
	if _, _, err := Open(s); err == nil || !strings.Contains(err.Error(), `features.csv:2: value: value "-1" is negative`) {
		t.Errorf("sparse layout with a negative value: %v, want it refused with its line", err)
	}
}

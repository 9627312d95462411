package datasets

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/attrtest"
)

func TestOpenMTXSmall(t *testing.T) {
	const adjGeneral = "%%MatrixMarket matrix coordinate integer general\n%comment\n\n3 3 5\n1 2 1\n2 1 1\n2 3 2\n3 3 1\n1 3 0\n"
	for _, test := range []struct {
		name     string
		files    map[string]string
		spec     Spec
		edges    map[[2]int]float64
		x        [][]float64
		labels   []string
		warnings []string
		drops    int
	}{
		{
			name:  "general integer asymmetric",
			files: map[string]string{"a.mtx": adjGeneral},
			spec:  Spec{Path: "a.mtx"},
			edges: map[[2]int]float64{{0, 1}: 1, {1, 2}: 2, {2, 2}: 1},
			x:     [][]float64{{}, {}, {}},
			// A[2,3] = 2 has no mirror entry.
			warnings: []string{"not symmetric (1 entries (i, j) have no equal entry (j, i))", "no attributes"},
			drops:    1,
		},
		{
			name: "pattern symmetric with array features and positional labels",
			files: map[string]string{
				"adj.mtx":      "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n",
				"features.mtx": "%%MatrixMarket matrix array real general\n3 2\n0.5\n0\n2\n0\n1e-2\n0\n",
				"labels.txt":   "x\ny\nx\n",
			},
			spec:   Spec{Path: "."},
			edges:  map[[2]int]float64{{0, 1}: 1, {1, 2}: 1},
			x:      [][]float64{{0.5, 0}, {0, 0.01}, {2, 0}},
			labels: []string{"x", "y", "x"},
		},
		{
			name: "real symmetric weights with id labels",
			files: map[string]string{
				"g.mtx": "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 0.5\n3 1 2.5\n1 1 3\n",
				"f.mtx": "%%MatrixMarket matrix coordinate real general\n3 4 2\n3 4 1.5\n1 1 1\n",
				"l.tsv": "3\tb\n1\ta\n2\ta\n",
			},
			spec:   Spec{Path: "g.mtx", Features: "f.mtx", LabelFile: "l.tsv"},
			edges:  map[[2]int]float64{{0, 1}: 0.5, {0, 2}: 2.5, {0, 0}: 3},
			x:      [][]float64{{1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 1.5}},
			labels: []string{"a", "a", "b"},
		},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, s := specInDir(t, test.files, test.spec)
			g, rep := mustOpen(t, s)
			checkOpened(t, g, rep)
			if !slices.Equal(g.IDs, []string{"1", "2", "3"}) {
				t.Errorf("ids %q", g.IDs)
			}
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					if got, want := g.Adj.At(i, j), test.edges[[2]int{min(i, j), max(i, j)}]; got != want {
						t.Errorf("A[%d,%d] = %v, want %v", i, j, got, want)
					}
				}
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
			if len(rep.Warnings) != len(test.warnings) {
				t.Errorf("warnings %q, want %d", rep.Warnings, len(test.warnings))
			}
			for k, w := range test.warnings {
				if k < len(rep.Warnings) && !strings.Contains(rep.Warnings[k], w) {
					t.Errorf("warning %q does not mention %q", rep.Warnings[k], w)
				}
			}
			if rep.DroppedTotal() != test.drops {
				t.Errorf("dropped %d, want %d", rep.DroppedTotal(), test.drops)
			}
		})
	}
}

func TestOpenMTXErrors(t *testing.T) {
	const head = "%%MatrixMarket matrix coordinate real general\n"
	for _, test := range []struct {
		name  string
		files map[string]string
		spec  Spec
		file  string
		line  int
		msg   []string
	}{
		{"not mtx", map[string]string{"a.mtx": "1 2\n"}, Spec{Path: "a.mtx"}, "a.mtx", 1, []string{"not a Matrix Market file"}},
		{"complex", map[string]string{"a.mtx": "%%MatrixMarket matrix coordinate complex general\n1 1 0\n"}, Spec{Path: "a.mtx"}, "a.mtx", 1, []string{`field "complex"`}},
		{"skew", map[string]string{"a.mtx": "%%MatrixMarket matrix coordinate real skew-symmetric\n1 1 0\n"}, Spec{Path: "a.mtx"}, "a.mtx", 1, []string{`symmetry "skew-symmetric"`}},
		{"no size", map[string]string{"a.mtx": head + "% only comments\n"}, Spec{Path: "a.mtx"}, "a.mtx", 2, []string{"no size line"}},
		{"bad size", map[string]string{"a.mtx": head + "3 x 1\n"}, Spec{Path: "a.mtx"}, "a.mtx", 2, []string{`size "x"`}},
		{"not square", map[string]string{"a.mtx": head + "2 3 0\n"}, Spec{Path: "a.mtx"}, "a.mtx", 2, []string{"adjacency is 2×3"}},
		{"row out of range", map[string]string{"a.mtx": head + "2 2 2\n1 2 1\n3 1 1\n"}, Spec{Path: "a.mtx"}, "a.mtx", 4, []string{`row index "3" is not a whole number from 1 to 2`}},
		{"zero index", map[string]string{"a.mtx": head + "2 2 1\n0 1 1\n"}, Spec{Path: "a.mtx"}, "a.mtx", 3, []string{`row index "0"`}},
		{"negative weight", map[string]string{"a.mtx": head + "2 2 1\n1 2 -1\n"}, Spec{Path: "a.mtx"}, "a.mtx", 3, []string{"edge weight", "negative"}},
		{"missing value", map[string]string{"a.mtx": head + "2 2 1\n1 2\n"}, Spec{Path: "a.mtx"}, "a.mtx", 3, []string{"needs 3 fields"}},
		{
			"negative attribute in an array", map[string]string{"a.mtx": head + "2 2 1\n1 2 1\n", "f.mtx": "%%MatrixMarket matrix array real general\n2 1\n0.5\n-0.25\n"},
			Spec{Path: "a.mtx", Features: "f.mtx"}, "f.mtx", 4, []string{`"-0.25" is negative: sparse attributes are values ≥ 0`, "a .npy file (np.save)"},
		},
		{"too many entries", map[string]string{"a.mtx": head + "2 2 1\n1 2 1\n2 1 1\n"}, Spec{Path: "a.mtx"}, "a.mtx", 4, []string{"more entries than the 1"}},
		{"too few entries", map[string]string{"a.mtx": head + "2 2 3\n1 2 1\n"}, Spec{Path: "a.mtx"}, "a.mtx", 0, []string{"1 entries, but the size line (line 2) announces 3"}},
		{
			"feature rows", map[string]string{"a.mtx": head + "2 2 1\n1 2 1\n", "f.mtx": head + "3 2 0\n"},
			Spec{Path: "a.mtx", Features: "f.mtx"}, "f.mtx", 2, []string{"feature matrix has 3 rows", "has 2 vertices"},
		},
		{
			"feature repeated", map[string]string{"a.mtx": head + "2 2 1\n1 2 1\n", "f.mtx": head + "2 2 2\n1 2 1\n1 2 3\n"},
			Spec{Path: "a.mtx", Features: "f.mtx"}, "f.mtx", 4, []string{"second value for row 1, column 2 (first at line 3)"},
		},
		{
			"array short", map[string]string{"a.mtx": head + "2 2 1\n1 2 1\n", "f.mtx": "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n"},
			Spec{Path: "a.mtx", Features: "f.mtx"}, "f.mtx", 0, []string{"3 values, but a 2×2 array holds 4"},
		},
		{
			"label count", map[string]string{"a.mtx": head + "2 2 1\n1 2 1\n", "l.txt": "a\nb\nc\n"},
			Spec{Path: "a.mtx", LabelFile: "l.txt"}, "l.txt", 3, []string{"more labels than the 2 vertices"},
		},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir, s := specInDir(t, test.files, test.spec)
			_, _, err := Open(s)
			checkParseError(t, err, filepath.Join(dir, test.file), test.line, test.msg...)
		})
	}
}

// FuzzOpenMTX checks that no adjacency or feature file makes the Matrix Market reader
// panic, that every error is a *ParseError naming one of the files, and that an
// accepted graph is well formed.
//
//	go test ./datasets -run '^$' -fuzz FuzzOpenMTX -fuzztime 1m
func FuzzOpenMTX(f *testing.F) {
	f.Add("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n2 2 0.5\n", "%%MatrixMarket matrix array real general\n2 1\n1\n0\n")
	f.Add("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n", "")
	f.Add("%%matrixmarket MATRIX coordinate integer symmetric\r\n1 1 1\r\n1 1 7\r\n", "%%MatrixMarket matrix coordinate real symmetric\n1 1 1\n1 1 1\n")
	f.Fuzz(func(t *testing.T, adj, features string) {
		dir := t.TempDir()
		files := map[string]string{"a.mtx": adj}
		s := Spec{Path: filepath.Join(dir, "a.mtx")}
		if features != "" {
			files["f.mtx"] = features
			s.Features = filepath.Join(dir, "f.mtx")
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

// TestLabelFileIndexBase checks that a label file whose ids count the vertices from the
// other base than the graph's (0…n−1 beside a Matrix Market graph, 1…n beside an npz
// archive without node names) labels vertex i by id i−1 or i+1 with a warning, and that a
// file which is neither base stays an error naming the vertices' numbering.
func TestLabelFileIndexBase(t *testing.T) {
	const adj = "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n"
	npzArchive := func(t *testing.T, dir string) {
		writeNPZArrays(t, filepath.Join(dir, "g.npz"), smallNPZ(), nil)
	}
	for _, test := range []struct {
		name    string
		npz     bool
		labels  string
		want    []string // class of vertex 0, 1, 2
		warning string   // in the only warning, "" for none
		err     string
	}{
		{name: "mtx 1-based", labels: "2,y\n1,x\n3,x\n", want: []string{"x", "y", "x"}},
		{name: "mtx 0-based", labels: "id,label\n1,y\n0,x\n2,x\n", want: []string{"x", "y", "x"},
			warning: "its ids run 0…2, but the vertices are numbered 1…3: read with id 0 as vertex 1"},
		{name: "mtx 0-based, one unknown", labels: "0,x\n1,y\n7,x\n", err: `2 of 3 label lines (66.7%) name an id that is not a vertex`},
		{name: "mtx 0-based, one twice", labels: "0,x\n1,y\n1,x\n", err: `second label for vertex "1"`},
		{name: "mtx ids not numbers", labels: "a,x\nb,y\nc,x\n", err: "3 of 3 label lines (100.0%) name an id that is not a vertex"},
		{name: "npz 0-based", npz: true, labels: "0 x\n2 x\n1 y\n", want: []string{"x", "y", "x"}},
		{name: "npz 1-based", npz: true, labels: "1 x\n2 y\n3 x\n", want: []string{"x", "y", "x"},
			warning: "its ids run 1…3, but the vertices are numbered 0…2: read with id 1 as vertex 0"},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir := t.TempDir()
			s := Spec{Path: filepath.Join(dir, "adj.mtx"), LabelFile: filepath.Join(dir, "labels.csv")}
			if test.npz {
				npzArchive(t, dir)
				s.Path = filepath.Join(dir, "g.npz")
			} else {
				writeFiles(t, dir, map[string]string{"adj.mtx": adj})
			}
			writeFiles(t, dir, map[string]string{"labels.csv": test.labels})
			g, rep, err := Open(s)
			if test.err != "" {
				if err == nil || !strings.Contains(err.Error(), test.err) {
					t.Fatalf("error %v, want one containing %q", err, test.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, l := range g.Labels {
				names = append(names, g.ClassNames[l])
			}
			if !slices.Equal(names, test.want) {
				t.Errorf("labels %q, want %q", names, test.want)
			}
			var warnings []string
			for _, w := range rep.Warnings {
				if !strings.Contains(w, "no attributes") {
					warnings = append(warnings, w)
				}
			}
			switch {
			case test.warning == "" && len(warnings) > 0:
				t.Errorf("warnings %q, want none", warnings)
			case test.warning != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], test.warning)):
				t.Errorf("warnings %q, want one containing %q", warnings, test.warning)
			}
		})
	}
}

func TestIndexBase(t *testing.T) {
	for _, test := range []struct {
		ids  []string
		want int
	}{
		{[]string{"0", "1", "2"}, 0},
		{[]string{"1", "2", "3"}, 1},
		{[]string{"1", "3", "2"}, -1},
		{[]string{"01", "2"}, -1},
		{[]string{"a"}, -1},
		{nil, -1},
	} {
		if got := indexBase(test.ids); got != test.want {
			t.Errorf("indexBase(%q) = %d, want %d", test.ids, got, test.want)
		}
	}
}

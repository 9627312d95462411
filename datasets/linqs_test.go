package datasets

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/internal/testenv"
)

// paperDir returns the folder of a paper dataset, skipping the test when it is missing
// (failing instead under NAGC_REQUIRE_DATA=1, see testenv).
func paperDir(t testing.TB, name string) string {
	t.Helper()
	dir, err := Locate(name)
	if err != nil {
		testenv.Missing(t, "the "+name+" dataset", testenv.FetchHint)
	}
	return dir
}

func TestLoadPaperDatasets(t *testing.T) {
	for _, test := range []struct {
		name       string
		n, edges   int
		m, k, nnzX int
		selfLoops  int
		dangling   int
		isolated   int    // vertices without an edge to another vertex (counted in Python from the files)
		density    string // percent, two decimals, as in the paper's table
		classes    map[string]int
	}{
		{
			name: "webkb", n: 877, edges: 1480, m: 1703, k: 4, nnzX: 79365,
			selfLoops: 92, dangling: 0, isolated: 18, density: "0.18",
			classes: map[string]int{"cornell": 195, "texas": 187, "washington": 230, "wisconsin": 265},
		},
		{
			name: "citeseer", n: 3312, edges: 4660, m: 3703, k: 6, nnzX: 105165,
			selfLoops: 124, dangling: 0, isolated: 48, density: "0.04",
			classes: map[string]int{"DB": 701, "IR": 668, "Agents": 596, "ML": 590, "HCI": 508, "AI": 249},
		},
		{
			name: "cora", n: 2708, edges: 5278, m: 1433, k: 7, nnzX: 49216,
			selfLoops: 0, dangling: 0, isolated: 0, density: "0.07",
			classes: map[string]int{"Neural_Networks": 818, "Probabilistic_Methods": 426,
				"Genetic_Algorithms": 418, "Theory": 351, "Case_Based": 298,
				"Reinforcement_Learning": 217, "Rule_Learning": 180},
		},
		{
			// polblog's 3 self-loops (americablog.org, quimundus.squarespace.com,
			// incite1.blogspot.com) are in the data though the README names only
			// WebKB and Citeseer.
			name: "polblog", n: 1490, edges: 16630, m: 7, k: 2, nnzX: 1798,
			selfLoops: 3, dangling: 88, isolated: 267, density: "0.75",
			classes: map[string]int{"0": 758, "1": 732},
		},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir := paperDir(t, test.name)
			start := time.Now()
			g, err := LoadLINQS(dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s loaded in %v", test.name, time.Since(start))
			want := Stats{Name: test.name, N: test.n, Edges: test.edges, M: test.m, K: test.k,
				NNZX: test.nnzX, SelfLoops: test.selfLoops, Isolated: test.isolated, Dangling: test.dangling, Labeled: test.n}
			got := g.Stats()
			got.Density = 0
			if got != want {
				t.Errorf("stats:\n got %+v\nwant %+v", got, want)
			}
			if d := fmt.Sprintf("%.2f", 100*g.Density()); d != test.density {
				t.Errorf("density = %s %%, paper says %s %%", d, test.density)
			}
			if !slices.IsSorted(g.ClassNames) {
				t.Errorf("class names not sorted: %q", g.ClassNames)
			}
			sizes := g.ClassSizes()
			for c, name := range g.ClassNames {
				if sizes[c] != test.classes[name] {
					t.Errorf("class %q has %d vertices, want %d", name, sizes[c], test.classes[name])
				}
			}
			if len(g.Labels) != g.N() || g.X.NNZ() != test.nnzX {
				t.Errorf("len(Labels) = %d, nnz(X) = %d", len(g.Labels), g.X.NNZ())
			}
			checkAdjacency(t, g)
			checkDiagonal(t, g, dir)
			isolated := 0
			for v := range g.N() {
				cols, _ := g.Adj.Row(v)
				if len(cols) == 0 || len(cols) == 1 && cols[0] == v {
					isolated++
				}
			}
			if isolated != test.isolated {
				t.Errorf("%d isolated vertices, want %d", isolated, test.isolated)
			}
			// The pinned fingerprint recognises the graph wherever it is read from.
			if id := Identity(g, "other"); id != test.name {
				t.Errorf("Identity = %q, want %q (fingerprint %s)", id, test.name, g.Fingerprint())
			}
		})
	}
}

// checkAdjacency checks that Adj is a symmetric n×n 0/1 matrix and X is n×m with
// positive stored values.
func checkAdjacency(t *testing.T, g *Graph) {
	t.Helper()
	n := g.N()
	if r, c := g.Adj.Dims(); r != n || c != n {
		t.Fatalf("Adj is %d×%d, want %d×%d", r, c, n, n)
	}
	for i := 0; i < n; i++ {
		cols, vals := g.Adj.Row(i)
		for k, j := range cols {
			if vals[k] != 1 {
				t.Fatalf("Adj[%d,%d] = %v, want 1", i, j, vals[k])
			}
			if g.Adj.At(j, i) != 1 {
				t.Fatalf("Adj not symmetric: Adj[%d,%d] = 1, Adj[%d,%d] = 0", i, j, j, i)
			}
		}
	}
	if r, _ := g.X.Dims(); r != n {
		t.Fatalf("X has %d rows, want %d", r, n)
	}
	for i := 0; i < n; i++ {
		_, vals := attrtest.Sparse(g.X).Row(i)
		for _, v := range vals {
			if !(v > 0) || math.IsInf(v, 0) {
				t.Fatalf("X row %d stores %v", i, v)
			}
		}
	}
}

// checkDiagonal checks that Adj has a diagonal entry exactly for the vertices with a
// self-loop line in the .cites files of dir, reading them independently of the loader.
func checkDiagonal(t *testing.T, g *Graph, dir string) {
	t.Helper()
	index := make(map[string]int, g.N())
	for i, id := range g.IDs {
		index[id] = i
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.cites"))
	if err != nil {
		t.Fatal(err)
	}
	want := make(map[int]bool)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if fs := strings.Fields(line); len(fs) == 2 && fs[0] == fs[1] {
				if i, ok := index[fs[0]]; ok {
					want[i] = true
				}
			}
		}
	}
	for i := 0; i < g.N(); i++ {
		if got := g.Adj.At(i, i) == 1; got != want[i] {
			t.Errorf("vertex %d (%q): diagonal %v, self-loop line %v", i, g.IDs[i], got, want[i])
		}
	}
}

// writeDir creates a temporary folder holding the given files.
func writeDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadLINQSErrors(t *testing.T) {
	const okCites = "x y\n"
	for _, test := range []struct {
		name  string
		files map[string]string
		file  string // "" for the folder itself
		line  int
		msg   []string
	}{
		{
			name:  "ragged row",
			files: map[string]string{"a.content": "x\t1\t0\tL\ny\t1\tL\n", "a.cites": okCites},
			file:  "a.content", line: 2,
			msg: []string{"expected 2 attributes", "got 1", "a.content:1"},
		},
		{
			name: "ragged across files",
			files: map[string]string{"a.content": "x 1 0 L\n", "b.content": "\n\ny 1 0 1 L\n",
				"a.cites": okCites},
			file: "b.content", line: 3,
			msg: []string{"expected 2 attributes", "got 3"},
		},
		{
			name:  "non-numeric",
			files: map[string]string{"a.content": "x 1 0 L\ny 0 abc L\n", "a.cites": okCites},
			file:  "a.content", line: 2,
			msg: []string{"attribute column 2", `"abc" is not a number`},
		},
		{
			name:  "empty tab field",
			files: map[string]string{"a.content": "x\t1\t\tL\n", "a.cites": okCites},
			file:  "a.content", line: 1,
			msg: []string{"attribute column 2", `"" is not a number`},
		},
		{
			name:  "negative",
			files: map[string]string{"a.content": "x 1 0 L\ny -0.5 0 L\n", "a.cites": okCites},
			file:  "a.content", line: 2,
			msg: []string{"attribute column 1", "negative"},
		},
		{
			name:  "NaN",
			files: map[string]string{"a.content": "x 1 NaN L\n", "a.cites": okCites},
			file:  "a.content", line: 1,
			msg: []string{"attribute column 2", "NaN"},
		},
		{
			name:  "Inf",
			files: map[string]string{"a.content": "x +Inf 0 L\n", "a.cites": okCites},
			file:  "a.content", line: 1,
			msg: []string{"attribute column 1", "infinite"},
		},
		{
			name:  "overflow",
			files: map[string]string{"a.content": "x 0 1e400 L\n", "a.cites": okCites},
			file:  "a.content", line: 1,
			msg: []string{"attribute column 2", "infinite"},
		},
		{
			name:  "duplicate id",
			files: map[string]string{"a.content": "x 1 L\n\ny 0 L\nx 1 L\n", "a.cites": okCites},
			file:  "a.content", line: 4,
			msg: []string{`duplicate vertex id "x"`, "a.content:1"},
		},
		{
			name: "duplicate id across files",
			files: map[string]string{"a.content": "x 1 L\ny 0 L\n", "b.content": "z 1 L\ny 1 M\n",
				"a.cites": okCites},
			file: "b.content", line: 2,
			msg: []string{`duplicate vertex id "y"`, "a.content:2"},
		},
		{
			name:  "one field",
			files: map[string]string{"a.content": "x 1 L\nlonely\n", "a.cites": okCites},
			file:  "a.content", line: 2,
			msg: []string{"at least 2 fields", "got 1"},
		},
		{
			name:  "cites three fields",
			files: map[string]string{"a.content": "x 1 L\ny 0 L\n", "a.cites": "x y\n\nx y x\n"},
			file:  "a.cites", line: 3,
			msg: []string{"exactly 2 fields", "got 3"},
		},
		{
			name:  "cites one field",
			files: map[string]string{"a.content": "x 1 L\ny 0 L\n", "a.cites": "x y\n", "b.cites": "y\n"},
			file:  "b.cites", line: 1,
			msg: []string{"exactly 2 fields", "got 1"},
		},
		{
			name:  "no content file",
			files: map[string]string{"a.cites": okCites, "a.txt": "x 1 L\n"},
			msg:   []string{"no .content file"},
		},
		{
			name:  "no cites file",
			files: map[string]string{"a.content": "x 1 L\n"},
			msg:   []string{"no .cites file"},
		},
		{
			name:  "empty content",
			files: map[string]string{"a.content": "", "a.cites": okCites},
			file:  "a.content",
			msg:   []string{"no vertices"},
		},
		{
			name:  "blank content",
			files: map[string]string{"a.content": "x 1 L\n", "b.content": "\xEF\xBB\xBF\r\n \t\n\n", "a.cites": okCites},
			file:  "b.content",
			msg:   []string{"no vertices"},
		},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir := writeDir(t, test.files)
			g, err := LoadLINQS(dir)
			if err == nil {
				t.Fatalf("no error; loaded %+v", g.Stats())
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *ParseError", err, err)
			}
			wantFile := dir
			if test.file != "" {
				wantFile = filepath.Join(dir, test.file)
			}
			if pe.File != wantFile || pe.Line != test.line {
				t.Errorf("error at %s:%d, want %s:%d (%v)", pe.File, pe.Line, wantFile, test.line, err)
			}
			wantPrefix := wantFile + ": "
			if test.line > 0 {
				wantPrefix = fmt.Sprintf("%s:%d: ", wantFile, test.line)
			}
			if !strings.HasPrefix(err.Error(), wantPrefix) {
				t.Errorf("error %q does not start with %q", err, wantPrefix)
			}
			for _, s := range test.msg {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func TestLoadLINQSMissingFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nope")
	if _, err := LoadLINQS(dir); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("LoadLINQS(%s) error = %v, want one naming the folder", dir, err)
	}
}

// graphsEqual reports the first difference between two graphs, or "".
func graphsEqual(a, b *Graph) string {
	switch {
	case a.Name != b.Name:
		return fmt.Sprintf("names %q, %q", a.Name, b.Name)
	case !slices.Equal(a.IDs, b.IDs):
		return fmt.Sprintf("ids %q, %q", a.IDs, b.IDs)
	case !slices.Equal(a.Labels, b.Labels):
		return fmt.Sprintf("labels %v, %v", a.Labels, b.Labels)
	case !slices.Equal(a.ClassNames, b.ClassNames):
		return fmt.Sprintf("class names %q, %q", a.ClassNames, b.ClassNames)
	case a.Dangling != b.Dangling:
		return fmt.Sprintf("dangling %d, %d", a.Dangling, b.Dangling)
	}
	for _, m := range []struct {
		name string
		x, y interface {
			Dims() (int, int)
			Row(int) ([]int, []float64)
		}
	}{{"Adj", a.Adj, b.Adj}, {"X", attrtest.Sparse(a.X), attrtest.Sparse(b.X)}} {
		r1, c1 := m.x.Dims()
		r2, c2 := m.y.Dims()
		if r1 != r2 || c1 != c2 {
			return fmt.Sprintf("%s is %d×%d and %d×%d", m.name, r1, c1, r2, c2)
		}
		for i := 0; i < r1; i++ {
			j1, v1 := m.x.Row(i)
			j2, v2 := m.y.Row(i)
			if !slices.Equal(j1, j2) || !slices.Equal(v1, v2) {
				return fmt.Sprintf("%s row %d: %v %v, %v %v", m.name, i, j1, v1, j2, v2)
			}
		}
	}
	return ""
}

func TestLoadLINQSSmall(t *testing.T) {
	// Vertex lines in tab and space form, an id with an inner space (tab form only),
	// non-ASCII ids, non-0/1 values, duplicate, reversed and dangling edges, a self-loop.
	content := "a\t1\t0\t0\tbeta\n" +
		"Zürich\t0\t2.5\t0.0\talpha\n" +
		"東京 0 0 -0 beta\n" +
		"naïve café\t1\t1\t1\tgamma\n" +
		"d 0 0 1e-3 alpha\n"
	// "naïve café" cannot be named in an edge line (see the end of the test).
	cites := "a Zürich\nZürich a\na\tZürich\n東京 東京\na nowhere\nd a\n"
	want := struct {
		ids     []string
		labels  []int
		classes []string
		edges   [][2]int
		x       [][]float64
	}{
		ids:     []string{"a", "Zürich", "東京", "naïve café", "d"},
		labels:  []int{1, 0, 1, 2, 0},
		classes: []string{"alpha", "beta", "gamma"},
		edges:   [][2]int{{0, 1}, {2, 2}, {4, 0}},
		x:       [][]float64{{1, 0, 0}, {0, 2.5, 0}, {0, 0, 0}, {1, 1, 1}, {0, 0, 1e-3}},
	}
	clean := writeDir(t, map[string]string{"g.content": content, "g.cites": cites})
	g, err := loadLINQSAllowDropped(clean)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.IDs, want.ids) || !slices.Equal(g.Labels, want.labels) ||
		!slices.Equal(g.ClassNames, want.classes) {
		t.Errorf("ids %q labels %v classes %q", g.IDs, g.Labels, g.ClassNames)
	}
	if g.Dangling != 1 || g.Edges() != 3 || g.SelfLoops() != 1 || g.Adj.NNZ() != 5 {
		t.Errorf("dangling %d, edges %d, self-loops %d, nnz %d; want 1, 3, 1, 5",
			g.Dangling, g.Edges(), g.SelfLoops(), g.Adj.NNZ())
	}
	for _, e := range want.edges {
		if g.Adj.At(e[0], e[1]) != 1 || g.Adj.At(e[1], e[0]) != 1 {
			t.Errorf("edge %v missing", e)
		}
	}
	for i, row := range want.x {
		for j, v := range row {
			if got := attrtest.Sparse(g.X).At(i, j); got != v {
				t.Errorf("X[%d,%d] = %v, want %v", i, j, got, v)
			}
		}
	}
	if g.X.NNZ() != 6 {
		t.Errorf("nnz(X) = %d, want 6 (zeros not stored)", g.X.NNZ())
	}
	checkAdjacency(t, g)
	if got := g.Name; got != filepath.Base(clean) {
		t.Errorf("name %q, want %q", got, filepath.Base(clean))
	}

	// CRLF line endings and a byte-order mark give the same graph.
	crlf := func(s string) string { return "\xEF\xBB\xBF" + strings.ReplaceAll(s, "\n", "\r\n") }
	for _, variant := range []struct {
		name             string
		content, citesOf string
	}{
		{"crlf+bom", crlf(content), crlf(cites)},
		{"no final newline", strings.TrimSuffix(content, "\n"), strings.TrimSuffix(cites, "\n")},
		{"blank lines", "\n\n" + strings.ReplaceAll(content, "\n", "\n \n"), "\r\n" + cites + "\n\n"},
	} {
		t.Run(variant.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), filepath.Base(clean))
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, text := range map[string]string{"g.content": variant.content, "g.cites": variant.citesOf} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			h, err := loadLINQSAllowDropped(dir)
			if err != nil {
				t.Fatal(err)
			}
			if d := graphsEqual(g, h); d != "" {
				t.Errorf("differs from the clean files: %s", d)
			}
		})
	}

	// An edge line naming an id that contains a space has three fields.
	bad := writeDir(t, map[string]string{"g.content": content, "g.cites": "a d\nnaïve café a\n"})
	var pe *ParseError
	if _, err := loadLINQSAllowDropped(bad); !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("edge line with a spaced id: error %v, want a ParseError at line 2", err)
	}
}

// FuzzLoadLINQS checks that no input makes the loader panic, and that a graph it accepts
// has a symmetric 0/1 adjacency.
func FuzzLoadLINQS(f *testing.F) {
	f.Add("a 1 0 L\nb 0 1 M\n", "a b\nb b\n")
	f.Add("\xEF\xBB\xBFa\t1\tL\r\n", "a a\r\n")
	f.Add("a\t\t1\tL\n", "a\n")
	f.Add("a -1 L\n", "x y\n")
	f.Fuzz(func(t *testing.T, content, cites string) {
		dir := writeDir(t, map[string]string{"f.content": content, "f.cites": cites})
		g, err := LoadLINQS(dir)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		checkAdjacency(t, g)
	})
}

// loadLINQSAllowDropped is LoadLINQS accepting any share of dangling edge lines.
func loadLINQSAllowDropped(dir string) (*Graph, error) {
	g, _, err := loadLINQS(dir, false, true)
	return g, err
}

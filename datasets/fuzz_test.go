package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/attrtest"
)

// parseBytes parses in-memory LINQS files: a.content, then b.content when b is not
// empty, then x.cites, as LoadLINQS would read a folder holding them.
func parseBytes(dir string, a, b, cites []byte) (*Graph, error) {
	files := map[string][]byte{
		filepath.Join(dir, "a.content"): a,
		filepath.Join(dir, "x.cites"):   cites,
	}
	contents := []string{filepath.Join(dir, "a.content")}
	if len(b) > 0 {
		files[filepath.Join(dir, "b.content")] = b
		contents = append(contents, filepath.Join(dir, "b.content"))
	}
	read := func(name string) ([]byte, error) {
		data, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("open %s: %w", name, os.ErrNotExist)
		}
		return data, nil
	}
	return parseLINQS(dir, contents, []string{filepath.Join(dir, "x.cites")}, read)
}

// addCorpusSeeds adds every LINQS folder of the bad-input corpus (testdata/linqs) as a
// seed: its first two .content files and its first .cites file.
func addCorpusSeeds(f *testing.F) {
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "linqs", "*"))
	if err != nil || len(dirs) == 0 {
		f.Fatalf("no corpus under ../testdata/linqs: %v", err)
	}
	for _, dir := range dirs {
		contents, _ := filepath.Glob(filepath.Join(dir, "*.content"))
		cites, _ := filepath.Glob(filepath.Join(dir, "*.cites"))
		read := func(list []string, i int) []byte {
			if i >= len(list) {
				return nil
			}
			b, err := os.ReadFile(list[i])
			if err != nil {
				f.Fatal(err)
			}
			return b
		}
		f.Add(read(contents, 0), read(contents, 1), read(cites, 0))
	}
}

// FuzzParseLINQS feeds arbitrary bytes to the LINQS parser (the code behind LoadLINQS)
// and checks that it never panics, that every error is a *ParseError naming one of the
// files and a line inside it, and that every accepted graph is well formed and reads
// back the same when written out again.
//
//	go test ./datasets -run '^$' -fuzz FuzzParseLINQS -fuzztime 3m
func FuzzParseLINQS(f *testing.F) {
	addCorpusSeeds(f)
	f.Add([]byte("a\t1\t0\tL\n"), []byte("b 0 1 M\r\n"), []byte("a b\nb b\nc a\n"))
	f.Add([]byte("\xEF\xBB\xBF\xEF\xBB\xBFa 1 L\n"), []byte(nil), []byte("a a"))
	f.Add([]byte("a \t 1 \t x y \t\n"), []byte("\t\t\n"), []byte("\v\f\n"))
	f.Add([]byte("a 1e308 0x1p-1074 L\n"), []byte("b 1e-400 -0 L\n"), []byte("a\tb\n"))
	f.Fuzz(func(t *testing.T, a, b, cites []byte) {
		const dir = "fz"
		g, err := parseBytes(dir, a, b, cites)
		if err != nil {
			checkFuzzError(t, err, dir, map[string][]byte{"a.content": a, "b.content": b, "x.cites": cites})
			return
		}
		checkFuzzGraph(t, g)
		if g.Name != dir {
			t.Errorf("name %q, want %q", g.Name, dir)
		}
		if rt := roundTrip(t, g); rt != nil {
			if d := graphsEqualNoDangling(g, rt); d != "" {
				t.Errorf("written out and read back, the graph differs: %s", d)
			}
		}
	})
}

// checkFuzzError checks that err is a *ParseError locating a line of one of files (or a
// whole file or the folder).
func checkFuzzError(t *testing.T, err error, dir string, files map[string][]byte) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ParseError", err, err)
	}
	if pe.File == dir {
		if pe.Line != 0 {
			t.Errorf("folder error with a line: %v", err)
		}
		return
	}
	data, ok := files[filepath.Base(pe.File)]
	if !ok || filepath.Dir(pe.File) != dir {
		t.Fatalf("error names %q, not one of the files: %v", pe.File, err)
	}
	if lines := bytes.Count(data, []byte("\n")) + 1; pe.Line < 0 || pe.Line > lines {
		t.Errorf("error at line %d of a %d-line file: %v", pe.Line, lines, err)
	}
	if pe.Msg == "" || !strings.HasPrefix(err.Error(), pe.File) {
		t.Errorf("error %q does not start with its file", err)
	}
}

// checkFuzzGraph checks the invariants LoadLINQS documents for an accepted graph.
func checkFuzzGraph(t *testing.T, g *Graph) {
	t.Helper()
	n := g.N()
	if n == 0 {
		t.Fatal("accepted a graph without vertices")
	}
	if len(g.Labels) != n {
		t.Fatalf("%d labels for %d vertices", len(g.Labels), n)
	}
	seen := map[string]bool{}
	for _, id := range g.IDs {
		if seen[id] {
			t.Errorf("duplicate id %q accepted", id)
		}
		seen[id] = true
	}
	if !classNamesInOrder(g.ClassNames) {
		t.Errorf("class names %q not sorted by name (numerically when every name is an integer)", g.ClassNames)
	}
	used := make([]bool, g.K())
	for i, l := range g.Labels {
		if l < 0 || l >= g.K() {
			t.Fatalf("vertex %d: label %d of %d classes", i, l, g.K())
		}
		used[l] = true
	}
	if slices.Contains(used, false) {
		t.Errorf("a class has no vertex: %q", g.ClassNames)
	}
	if r, _ := g.X.Dims(); r != n {
		t.Fatalf("X has %d rows for %d vertices", r, n)
	}
	_, m := g.X.Dims()
	for i := 0; i < n; i++ {
		cols, vals := attrtest.Sparse(g.X).Row(i)
		for k, j := range cols {
			v := vals[k]
			if j < 0 || j >= m || !(v > 0) || math.IsInf(v, 0) {
				t.Fatalf("X[%d,%d] = %v: want a stored positive finite value", i, j, v)
			}
		}
	}
	checkAdjacency(t, g)
}

// roundTrip writes g in tab-separated LINQS form and reads it back, or returns nil when
// g cannot be written so that it reads back unchanged: an id holding whitespace cannot
// be named in a .cites line, and a leading byte-order mark would be read as one.
func roundTrip(t *testing.T, g *Graph) *Graph {
	t.Helper()
	for _, id := range g.IDs {
		if strings.ContainsAny(id, " \t\r\v\f") {
			return nil
		}
	}
	if strings.HasPrefix(g.IDs[0], string(bom)) {
		return nil
	}
	var content, cites bytes.Buffer
	_, m := g.X.Dims()
	row := make([]string, m)
	for i, id := range g.IDs {
		for j := range row {
			row[j] = "0"
		}
		cols, vals := attrtest.Sparse(g.X).Row(i)
		for k, j := range cols {
			row[j] = strconv.FormatFloat(vals[k], 'g', -1, 64)
		}
		content.WriteString(id)
		for _, v := range row {
			content.WriteString("\t" + v)
		}
		content.WriteString("\t" + g.ClassNames[g.Labels[i]] + "\n")
		nbrs, _ := g.Adj.Row(i)
		for _, j := range nbrs {
			if j >= i {
				cites.WriteString(id + " " + g.IDs[j] + "\n")
			}
		}
	}
	h, err := parseBytes(g.Name, content.Bytes(), nil, cites.Bytes())
	if err != nil {
		t.Fatalf("written out, the graph does not read back: %v\n%q", err, content.String())
	}
	return h
}

// graphsEqualNoDangling is graphsEqual ignoring the dangling count, which writing a
// graph out loses.
func graphsEqualNoDangling(a, b *Graph) string {
	c := *b
	c.Dangling = a.Dangling
	return graphsEqual(a, &c)
}

// TestParseLINQSMatchesLoadLINQS checks that the in-memory entry point the fuzzer uses
// gives what LoadLINQS gives on the same files, on every accepted and rejected folder
// of the corpus.
func TestParseLINQSMatchesLoadLINQS(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "linqs", "*"))
	for _, dir := range dirs {
		contents, _ := filepath.Glob(filepath.Join(dir, "*.content"))
		cites, _ := filepath.Glob(filepath.Join(dir, "*.cites"))
		if len(contents) == 0 || len(cites) == 0 || len(contents) > 2 || len(cites) > 1 {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want, wantErr := LoadLINQS(dir)
			got, gotErr := parseLINQS(dir, contents, cites, os.ReadFile)
			switch {
			case (wantErr == nil) != (gotErr == nil):
				t.Fatalf("errors differ: %v, %v", wantErr, gotErr)
			case wantErr != nil:
				if wantErr.Error() != gotErr.Error() {
					t.Errorf("errors differ: %v, %v", wantErr, gotErr)
				}
			default:
				if d := graphsEqual(want, got); d != "" {
					t.Error(d)
				}
			}
		})
	}
}

// classNamesInOrder reports whether names are in Graph.ClassNames' documented order:
// by value when every name is an integer ("2" before "10"), else as strings.
func classNamesInOrder(names []string) bool {
	values := make([]int64, len(names))
	for k, c := range names {
		v, err := strconv.ParseInt(c, 10, 64)
		if err != nil {
			return sort.StringsAreSorted(names)
		}
		values[k] = v
	}
	return slices.IsSorted(values)
}

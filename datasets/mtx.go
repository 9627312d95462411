package datasets

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// openMTX reads a graph whose adjacency (and optionally attributes) are Matrix Market
// files.
//
// Naming the files: Spec.Path is the adjacency .mtx file, with Spec.Features and
// Spec.LabelFile naming the others, or a folder holding adj.mtx (or adjacency.mtx) and
// optionally features.mtx (or attributes.mtx) and labels.{csv,tsv,txt}.
//
// Accepted headers: "%%MatrixMarket matrix coordinate|array real|integer|pattern
// general|symmetric" (complex, hermitian and skew-symmetric matrices are refused).
// Entries are 1-based; values must be finite and ≥ 0; a pattern matrix has 1 at every
// given entry. Explicit zeros of the adjacency are dropped and counted. The adjacency
// must be square; a general (unsymmetric) one is symmetrised by keeping the larger of
// A[i,j] and A[j,i], with a warning; repeated entries keep the largest value. The
// feature matrix must have one row per vertex; a repeated entry is an error.
//
// Vertex i (0-based) has id "i+1", its 1-based Matrix Market index. A label file holds
// one label a line in vertex order, or "id label" lines with those ids (or with the ids
// 0…n−1, as Python writes them: then read as 0-based, with a warning).
func openMTX(s Spec) (*Graph, *LoadReport, error) {
	adjPath, features, dir := s.Path, s.Features, ""
	if fi, err := os.Stat(s.Path); err == nil && fi.IsDir() {
		dir = s.Path
		if adjPath = findFile(dir, "adj", []string{".mtx"}); adjPath == "" {
			if adjPath = findFile(dir, "adjacency", []string{".mtx"}); adjPath == "" {
				return nil, nil, &ParseError{File: dir, Msg: "no adj.mtx or adjacency.mtx file in folder"}
			}
		}
		if features == "" {
			if features = findFile(dir, "features", []string{".mtx"}); features == "" {
				features = findFile(dir, "attributes", []string{".mtx"})
			}
		}
	}
	if s.Labels == LabelsColumn {
		return nil, nil, fmt.Errorf("%s: labels: column is not available for Matrix Market data; use a label file", s.Path)
	}
	labelFile, err := labelFileFor(s, dir)
	if err != nil {
		return nil, nil, err
	}
	rep := &LoadReport{Format: FormatMTX}
	a, err := readMTX(adjPath, rep, true)
	if err != nil {
		return nil, nil, err
	}
	if a.r != a.c {
		return nil, nil, &ParseError{File: adjPath, Line: a.sizeLine, Msg: fmt.Sprintf("adjacency is %d×%d, want a square matrix", a.r, a.c)}
	}
	n := a.r
	if n > math.MaxInt32 {
		return nil, nil, &ParseError{File: adjPath, Line: a.sizeLine, Msg: fmt.Sprintf("%d vertices exceed the supported 2³¹−1", n)}
	}
	adj, err := a.symmetricAdjacency(rep)
	if err != nil {
		return nil, nil, err
	}
	var x *sparse.CSR
	if features != "" {
		f, err := readMTX(features, rep, false)
		if err != nil {
			return nil, nil, err
		}
		if f.r != n {
			return nil, nil, &ParseError{File: features, Line: f.sizeLine,
				Msg: fmt.Sprintf("feature matrix has %d rows, but the adjacency %s has %d vertices", f.r, adjPath, n)}
		}
		if f.symmetric {
			f.mirror()
		}
		x, err = tripletCSR(features, f.r, f.c, f.rows, f.cols, f.vals, f.lines, func(i, j int) string {
			return fmt.Sprintf("row %d, column %d", i+1, j+1)
		})
		if err != nil {
			return nil, nil, err
		}
	} else {
		x, _ = sparse.NewCSR(n, 0, make([]int, n+1), nil, nil)
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	g := &Graph{IDs: ids, Adj: adj, X: x}
	if labelFile != "" {
		if err := applyLabelFile(g, rep, labelFile, s.AllowDropped); err != nil {
			return nil, nil, err
		}
	}
	return g, rep, nil
}

// mtxMatrix holds the entries of a Matrix Market file, 0-based.
type mtxMatrix struct {
	path      string
	r, c      int
	sizeLine  int
	symmetric bool
	rows      []int32
	cols      []int32
	vals      []float64
	lines     []int32
}

// readMTX reads the Matrix Market file path. Explicit zeros are left out (and counted
// in rep when adjacency). Values must be finite and ≥ 0.
func readMTX(path string, rep *LoadReport, adjacency bool) (*mtxMatrix, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	rep.Files = append(rep.Files, path)
	data = bytes.TrimPrefix(data, bom)
	line, rest := nextLine(data)
	format, field, symmetric, err := mtxHeader(path, line)
	if err != nil {
		return nil, err
	}
	m := &mtxMatrix{path: path, symmetric: symmetric}
	t := newTextFile(path, rest)
	t.ln = 1
	t.sep, t.sepSet = 0, true
	entries, reserve, err := m.readSize(t, format, adjacency)
	if err != nil {
		return nil, err
	}
	what := "value"
	if adjacency {
		what = "edge weight"
	}
	if format == "array" {
		return m, m.readArray(t, what, adjacency, rep)
	}
	if err := m.readCoordinate(t, entries, reserve, field == "pattern", what, adjacency, rep); err != nil {
		return nil, err
	}
	return m, nil
}

// mtxHeader reads the banner line of the Matrix Market file path: its format
// (coordinate or array), field (real, integer, double or pattern) and symmetry.
func mtxHeader(path string, line []byte) (format, field string, symmetric bool, err error) {
	perr := func(format string, args ...any) error {
		return &ParseError{File: path, Line: 1, Msg: fmt.Sprintf(format, args...)}
	}
	head := strings.Fields(strings.ToLower(string(line)))
	if len(head) != 5 || head[0] != "%%matrixmarket" || head[1] != "matrix" {
		return "", "", false, perr("not a Matrix Market file: the first line must be \"%%%%MatrixMarket matrix coordinate real general\" or similar, got %q", truncate(line))
	}
	format, field, symmetry := head[2], head[3], head[4]
	if format != "coordinate" && format != "array" {
		return "", "", false, perr("format %q: want coordinate or array", format)
	}
	switch field {
	case "real", "integer", "double":
	case "pattern":
		if format == "array" {
			return "", "", false, perr("an array matrix cannot be pattern")
		}
	default:
		return "", "", false, perr("field %q: want real, integer or pattern (complex values cannot be clustered)", field)
	}
	switch symmetry {
	case "general":
	case "symmetric":
		symmetric = true
	default:
		return "", "", false, perr("symmetry %q: want general or symmetric", symmetry)
	}
	return format, field, symmetric, nil
}

// readSize reads the size line of t into m (rows, columns, its line) and returns the
// entries it announces (coordinate format) and how many of them to reserve room for:
// no more than the bytes that follow can hold, within the memory budget. The rows
// (vertices) and, for attributes, the columns are checked before anything is sized by
// them.
func (m *mtxMatrix) readSize(t *textFile, format string, adjacency bool) (entries, reserve int, err error) {
	path := m.path
	nf := t.next()
	if nf < 0 {
		return 0, 0, &ParseError{File: path, Line: t.ln, Msg: "no size line"}
	}
	wantSize := 3
	if format == "array" {
		wantSize = 2
	}
	if nf != wantSize {
		return 0, 0, t.errorf("size line needs %d numbers (rows, columns%s), got %d fields", wantSize, map[bool]string{true: ", entries", false: ""}[wantSize == 3], nf)
	}
	var size [3]int
	for k := 0; k < nf; k++ {
		v, err := strconv.ParseInt(string(t.field(k)), 10, 64)
		if err != nil || v < 0 || v > math.MaxInt32 {
			return 0, 0, t.errorf("size %q is not a whole number from 0 to %d", t.field(k), math.MaxInt32)
		}
		size[k] = int(v)
	}
	m.r, m.c, m.sizeLine = size[0], size[1], t.ln
	if m.symmetric && m.r != m.c {
		return 0, 0, t.errorf("a symmetric matrix must be square, this one is %d×%d", m.r, m.c)
	}
	// Never trust a declared size: the rows are vertices and the columns attributes,
	// each with arrays sized by them; the entries must fit in the bytes that follow.
	from := fmt.Sprintf("%s:%d, the size line", path, t.ln)
	if err := checkVertices(int64(m.r), from); err != nil {
		return 0, 0, err
	}
	if !adjacency {
		if err := checkColumns(int64(m.c), from); err != nil {
			return 0, 0, err
		}
	}
	if format == "coordinate" {
		// The entries are reserved up front: no more than the bytes after the size line
		// can hold ("1 1" and a newline at least), so a size line announcing 2³¹ entries
		// in a 60-byte file reserves nothing; a short file is reported once read.
		fit := min(int64(size[2]), (int64(len(t.data))+1)/4)
		if err := memory.Check(fmt.Sprintf("the %d entries %s announces", fit, from), memory.Bytes(fit, 64)); err != nil {
			return 0, 0, err
		}
		reserve = int(fit)
	}
	return size[2], reserve, nil
}

// readCoordinate reads the entries lines of a coordinate-format file (row, column and,
// unless pattern, a value named what), exactly the entries the size line announces. An
// explicit zero is skipped (dropped in rep for an adjacency).
func (m *mtxMatrix) readCoordinate(t *textFile, entries, reserve int, pattern bool, what string, adjacency bool, rep *LoadReport) error {
	wantFields := 3
	if pattern {
		wantFields = 2
	}
	m.rows = make([]int32, 0, reserve)
	m.cols = make([]int32, 0, reserve)
	m.vals = make([]float64, 0, reserve)
	m.lines = make([]int32, 0, reserve)
	got := 0
	for nf := t.next(); nf >= 0; nf = t.next() {
		if got == entries {
			return t.errorf("more entries than the %d the size line announces", entries)
		}
		got++
		if nf != wantFields {
			return t.errorf("entry line needs %d fields (row, column%s), got %d", wantFields, map[bool]string{true: ", value", false: ""}[wantFields == 3], nf)
		}
		i, err := mtxIndex(t.field(0), m.r, "row")
		if err != nil {
			return t.errorf("%v", err)
		}
		j, err := mtxIndex(t.field(1), m.c, "column")
		if err != nil {
			return t.errorf("%v", err)
		}
		v := 1.0
		if wantFields == 3 {
			if v, err = parseValue(t.field(2), what, 0, MaxAttribute); err != nil {
				return t.errorf("%v%s", err, signedHint(t.field(2), adjacency))
			}
		}
		if v == 0 {
			if adjacency {
				rep.drop("explicit zero entry of the adjacency", m.path, t.ln)
			}
			continue
		}
		m.rows = append(m.rows, int32(i))
		m.cols = append(m.cols, int32(j))
		m.vals = append(m.vals, v)
		m.lines = append(m.lines, int32(t.ln))
	}
	if got < entries {
		return &ParseError{File: m.path, Line: 0, Msg: fmt.Sprintf("%d entries, but the size line (line %d) announces %d", got, m.sizeLine, entries)}
	}
	return nil
}

// readArray reads the column-major values of an array-format file.
func (m *mtxMatrix) readArray(t *textFile, what string, adjacency bool, rep *LoadReport) error {
	i, j := 0, 0
	total := m.r * m.c
	if m.symmetric {
		total = m.r * (m.r + 1) / 2
	}
	got := 0
	for nf := t.next(); nf >= 0; nf = t.next() {
		if nf != 1 {
			return t.errorf("array entry line needs 1 value, got %d fields", nf)
		}
		if got == total {
			return t.errorf("more values than the %d a %d×%d array holds", total, m.r, m.c)
		}
		got++
		v, err := parseValue(t.field(0), what, 0, MaxAttribute)
		if err != nil {
			return t.errorf("%v%s", err, signedHint(t.field(0), adjacency))
		}
		if v != 0 {
			m.rows = append(m.rows, int32(i))
			m.cols = append(m.cols, int32(j))
			m.vals = append(m.vals, v)
			m.lines = append(m.lines, int32(t.ln))
		}
		if i++; i == m.r {
			j++
			i = 0
			if m.symmetric {
				i = j
			}
		}
	}
	if got < total {
		return &ParseError{File: m.path, Msg: fmt.Sprintf("%d values, but a %d×%d array holds %d", got, m.r, m.c, total)}
	}
	return nil
}

// mtxIndex parses a 1-based index from 1 to size and returns it 0-based.
func mtxIndex(tok []byte, size int, what string) (int, error) {
	v, err := strconv.ParseInt(string(tok), 10, 64)
	if err != nil || v < 1 || v > int64(size) {
		return 0, fmt.Errorf("%s index %q is not a whole number from 1 to %d", what, tok, size)
	}
	return int(v - 1), nil
}

// mirror adds the mirror image of every off-diagonal entry of a symmetric matrix.
func (m *mtxMatrix) mirror() {
	for k, n := 0, len(m.rows); k < n; k++ {
		if m.rows[k] != m.cols[k] {
			m.rows = append(m.rows, m.cols[k])
			m.cols = append(m.cols, m.rows[k])
			m.vals = append(m.vals, m.vals[k])
			m.lines = append(m.lines, m.lines[k])
		}
	}
}

// symmetricAdjacency returns the symmetric adjacency of m: mirrored when m is declared
// symmetric; else symmetrised by the larger of A[i,j] and A[j,i], with a warning in rep
// when that changed anything.
func (m *mtxMatrix) symmetricAdjacency(rep *LoadReport) (*sparse.CSR, error) {
	var es edgeSet
	for k := range m.rows {
		es.add(int(m.rows[k]), int(m.cols[k]), m.vals[k])
	}
	adj, err := es.csr(m.r)
	if err != nil {
		return nil, fmt.Errorf("%s: adjacency: %w", m.path, err)
	}
	if !m.symmetric {
		directed, err := weightedCSR(m.r, m.c, m.rows, m.cols, m.vals)
		if err != nil {
			return nil, fmt.Errorf("%s: adjacency: %w", m.path, err)
		}
		if d := asymmetry(directed, adj); d > 0 {
			rep.warn("the adjacency in %s is not symmetric (%d entries (i, j) have no equal entry (j, i)); the graph is undirected, so A[i,j] and A[j,i] were both set to the larger of the two", m.path, d)
		}
	}
	return adj, nil
}

// asymmetry returns the number of entries of the symmetric sym that directed does not
// store with the same value. Both have the same dimensions. Cost O(nnz).
func asymmetry(directed, sym *sparse.CSR) int {
	r, _ := sym.Dims()
	d := 0
	for i := 0; i < r; i++ {
		c1, v1 := directed.Row(i)
		c2, v2 := sym.Row(i)
		p := 0
		for q, j := range c2 {
			for p < len(c1) && c1[p] < j {
				p++
			}
			if p == len(c1) || c1[p] != j || v1[p] != v2[q] {
				d++
			}
		}
	}
	return d
}

package datasets

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/sparse"
)

// Feature-file layouts of an edge list, as Spec.FeatureLayout names them.
const (
	LayoutDense  = "dense"  // id, then one value per attribute column
	LayoutSparse = "sparse" // id, column (from 0, or a name), value: one stored value a line
)

// openEdgeList reads an edge list with an optional feature file and label file.
//
// Naming the files: Spec.Path is either the edge file, with Spec.Features and
// Spec.LabelFile naming the others, or a folder holding edges.{csv,tsv,txt,edges,edgelist}
// and optionally features.{csv,tsv,txt} and labels.{csv,tsv,txt}.
//
// Every file is a delimited text file: tab-, comma- or space-separated (fixed per file by
// its first data line), blank lines and lines starting with '#' or '%' skipped, a UTF-8
// byte-order mark and CRLF endings accepted. A first line of column names is recognised
// and skipped (the report notes it): in the edge file when it names a column such as
// "source" or "id", or has a third field that is not a number; in a feature file when its
// id is such a name or a value field is not a number.
//
// Edge file: one edge a line, "a b" or "a b weight"; ids are arbitrary strings without
// the separator. A weight must be a finite number ≥ 0; a zero-weight line is dropped and
// counted. The graph is undirected: an edge given more than once, in either direction,
// keeps its largest weight (so an unweighted list reads as 0/1, and a list holding both
// directions reads as given). Self-loops are kept on the diagonal.
//
// Vertices: the ids of the feature file, in its order; an edge naming an id without a
// feature line is dropped and counted (Graph.Dangling), as a LINQS .cites line naming an
// unknown id is. With no feature file the vertices are the ids of the edge file in order
// of first appearance, and the graph has no attributes.
//
// Feature file, dense layout (the default): "id v1 v2 … vm" a line, every line with the
// same m; with Labels "column" the last field is the label instead. Sparse layout: "id
// column value" a line, columns numbered from 0 (m is the largest column + 1), a vertex
// being every id that has a line. Values are numbers from 0 to MaxAttribute.
func openEdgeList(s Spec) (*Graph, *LoadReport, error) {
	edges, features, dir := s.Path, s.Features, ""
	if fi, err := os.Stat(s.Path); err == nil && fi.IsDir() {
		dir = s.Path
		if edges = findFile(dir, "edges", edgeExts); edges == "" {
			return nil, nil, &ParseError{File: dir, Msg: "no edges.csv, edges.tsv, edges.txt or edges.edges file in folder"}
		}
		if features == "" {
			features = findFile(dir, "features", tableExts)
		}
	}
	labelFile, err := labelFileFor(s, dir)
	if err != nil {
		return nil, nil, err
	}
	rep := &LoadReport{Format: FormatEdgeList}
	e := &edgeListParser{rep: rep, index: make(map[string]int)}
	labelColumn := s.Labels == LabelsColumn
	if features != "" {
		data, err := readFile(features)
		if err != nil {
			return nil, nil, err
		}
		rep.Files = append(rep.Files, features)
		switch s.FeatureLayout {
		case "", LayoutDense:
			err = e.dense(features, data, labelColumn)
		case LayoutSparse:
			if labelColumn {
				return nil, nil, fmt.Errorf("%s: labels: column needs dense features (a sparse feature file has no label column); use a label file", features)
			}
			err = e.sparse(features, data)
		default:
			return nil, nil, fmt.Errorf("%s: feature layout %q: want dense or sparse", features, s.FeatureLayout)
		}
		if err != nil {
			return nil, nil, err
		}
	} else if labelColumn {
		return nil, nil, fmt.Errorf("%s: labels: column needs a feature file whose last column holds the labels", s.Path)
	}
	data, err := readFile(edges)
	if err != nil {
		return nil, nil, err
	}
	rep.Files = append(rep.Files, edges)
	// A sparse feature file has no line for a vertex without attributes: the edge file's
	// other ids are vertices too.
	sparseLayout := features != "" && s.FeatureLayout == LayoutSparse
	withFeatures := len(e.ids)
	if err := e.edges(edges, data, features == "" || sparseLayout); err != nil {
		return nil, nil, err
	}
	if added := len(e.ids) - withFeatures; sparseLayout && added > 0 {
		rep.warn("%d vertices of %s have no line in the sparse feature file %s (the first %q): they are vertices with no attribute",
			added, filepath.Base(edges), filepath.Base(features), e.ids[withFeatures])
	}
	g, err := e.graph()
	if err != nil {
		return nil, nil, err
	}
	if labelColumn {
		g.Labels, g.ClassNames = classIndex(e.labels)
		checkLabels(rep, "the last column of "+filepath.Base(features), g.Labels, g.ClassNames, true)
	}
	if labelFile != "" && s.Labels != LabelsColumn {
		if err := applyLabelFile(g, rep, labelFile); err != nil {
			return nil, nil, err
		}
	}
	return g, rep, nil
}

// edgeListParser accumulates the vertices, attributes and edges of an edge list.
type edgeListParser struct {
	rep   *LoadReport
	ids   []string
	index map[string]int

	m int
	x *sparse.CSR
	// sparseX assembles the attributes of a sparse feature file for n vertices (those
	// after its own have no stored value).
	sparseX func(n int) (*sparse.CSR, error)
	xptr    []int
	xind    []int
	xval    []float64

	labels []string

	es       edgeSet
	dangling int
}

// addVertex records a new vertex id and returns its index.
func (e *edgeListParser) addVertex(id string) int {
	i := len(e.ids)
	e.index[id] = i
	e.ids = append(e.ids, id)
	return i
}

// dense parses a dense feature file.
func (e *edgeListParser) dense(path string, data []byte, labelColumn bool) error {
	t := newTextFile(path, data)
	e.m = -1
	e.xptr = append(e.xptr[:0], 0)
	lines := map[int]int{} // vertex → line, for duplicate errors
	first := true
	mLine := 0
	for nf := t.next(); nf >= 0; nf = t.next() {
		na := nf - 1
		if labelColumn {
			na--
		}
		if first {
			first = false
			if isHeaderWord(t.field(0)) || !allNumbers(t, 1, 1+max(na, 0)) {
				e.rep.note("%s:%d read as a header row (%q)", path, t.ln, truncate(t.line))
				continue
			}
		}
		if na < 0 || na == 0 && labelColumn {
			return t.errorf("feature line needs an id, values and a label, got %d fields", nf)
		}
		if e.m < 0 {
			e.m, mLine = na, t.ln
		} else if na != e.m {
			return t.errorf("ragged feature row: expected %d values (as at line %d), got %d", e.m, mLine, na)
		}
		id := t.field(0)
		if k, dup := e.index[string(id)]; dup {
			return t.errorf("duplicate vertex id %q (first at line %d); if this file holds one (id, column, value) triplet a line, set the feature layout to sparse (feature_layout: sparse in a config, --feature-layout sparse on the command line)", id, lines[k])
		}
		line, f := t.line, t.fields
		for a := 0; a < na; a++ {
			tok := line[f[2+2*a]:f[3+2*a]]
			v := 1.0
			switch {
			case len(tok) == 1 && tok[0] == '0':
				continue
			case len(tok) == 1 && tok[0] == '1':
			default:
				var err error
				if v, err = parseValue(tok, "attribute column", a+1, MaxAttribute); err != nil {
					switch {
					case a == 0 && nf == 3 && !isNumber(tok):
						return t.errorf("%v; if this file holds one (id, column, value) triplet a line, set the feature layout to sparse (feature_layout: sparse in a config, --feature-layout sparse on the command line)", err)
					case a == na-1 && !labelColumn && !isNumber(tok):
						return t.errorf("%v; if the last column holds the labels, set labels: column (--labels column on the command line)", err)
					}
					return t.errorf("%v", err)
				}
				if v == 0 {
					continue
				}
			}
			e.xind = append(e.xind, a)
			e.xval = append(e.xval, v)
		}
		e.xptr = append(e.xptr, len(e.xind))
		lines[e.addVertex(string(id))] = t.ln
		if labelColumn {
			e.labels = append(e.labels, string(t.field(nf-1)))
		}
	}
	if len(e.ids) == 0 {
		return &ParseError{File: path, Msg: "no vertices (no feature lines)"}
	}
	x, err := sparse.NewCSR(len(e.ids), e.m, e.xptr, e.xind, e.xval)
	if err != nil {
		return fmt.Errorf("%s: attributes: %w", path, err)
	}
	e.x = x
	return nil
}

// allNumbers reports whether fields lo to hi−1 of t's line are numbers.
func allNumbers(t *textFile, lo, hi int) bool {
	for k := lo; k < hi && k < len(t.fields)/2; k++ {
		if !isNumber(t.field(k)) {
			return false
		}
	}
	return true
}

// truncate shortens a line for a message.
func truncate(line []byte) string {
	if len(line) > 60 {
		return string(line[:60]) + "…"
	}
	return string(line)
}

// sparse parses a feature file of (id, column, value) triplets. A column is a whole
// number from 0, or, when the first line's column is not one, a name (such as a word):
// then every column is a name, and the attributes are numbered in sorted name order
// (so that the order of the lines does not matter).
func (e *edgeListParser) sparse(path string, data []byte) error {
	var rows, cols, lines []int32
	var vals []float64
	t := newTextFile(path, data)
	first := true
	m := 0
	var names map[string]int32 // column name → index in order of first appearance, when named
	for nf := t.next(); nf >= 0; nf = t.next() {
		if first {
			first = false
			if nf == 3 && (isHeaderWord(t.field(0)) || !isNumber(t.field(2))) {
				e.rep.note("%s:%d read as a header row (%q)", path, t.ln, truncate(t.line))
				continue
			}
		}
		if nf != 3 {
			return t.errorf("sparse feature line needs 3 fields (id, column, value), got %d", nf)
		}
		col, err := strconv.ParseInt(string(t.field(1)), 10, 32)
		if names == nil && m == 0 && err != nil && !isNumber(t.field(1)) {
			names = map[string]int32{}
		}
		if names != nil {
			c, ok := names[string(t.field(1))]
			if !ok {
				c = int32(len(names))
				names[string(t.field(1))] = c
			}
			col, err = int64(c), nil
		}
		if err != nil || col < 0 || col == math.MaxInt32 {
			hint := ""
			if m > 0 && !isNumber(t.field(1)) {
				hint = " (earlier lines number the columns; to name them, name every one)"
			}
			return t.errorf("column %q is not a whole number from 0 to %d%s", t.field(1), math.MaxInt32-1, hint)
		}
		v, err := parseValue(t.field(2), "value", 0, MaxAttribute)
		if err != nil {
			return t.errorf("%v", err)
		}
		i, ok := e.index[string(t.field(0))]
		if !ok {
			i = e.addVertex(string(t.field(0)))
		}
		m = max(m, int(col)+1)
		if v != 0 {
			rows, cols, vals, lines = append(rows, int32(i)), append(cols, int32(col)), append(vals, v), append(lines, int32(t.ln))
		}
	}
	if len(e.ids) == 0 {
		return &ParseError{File: path, Msg: "no vertices (no feature lines)"}
	}
	column := func(j int) string { return strconv.Itoa(j) }
	if names != nil {
		sorted := slices.Sorted(maps.Keys(names))
		rank := make([]int32, len(names))
		for r, name := range sorted {
			rank[names[name]] = int32(r)
		}
		for k, c := range cols {
			cols[k] = rank[c]
		}
		column = func(j int) string { return strconv.Quote(sorted[j]) }
		e.rep.note("%s: %d attributes named in its column field, numbered in sorted name order", path, len(sorted))
	}
	// The matrix is assembled once the edge file has added the vertices without a line.
	e.sparseX = func(n int) (*sparse.CSR, error) {
		return tripletCSR(path, n, m, rows, cols, vals, lines, func(i, j int) string {
			return fmt.Sprintf("vertex %q, column %s", e.ids[i], column(j))
		})
	}
	return nil
}

// dictWeight reads the edge data networkx's write_edgelist writes after the two ids, a
// Python dict such as {} or {'weight': 2.5, 'color': 'red'} (or {'weight':
// np.float64(2.5)}, as NumPy 2 prints its numbers): it returns the weight's
// text (nil without a weight key, for weight 1) and whether the dict holds other keys.
func dictWeight(dict []byte) (weight []byte, others bool, err error) {
	body := strings.TrimSpace(string(dict[1 : len(dict)-1]))
	if body == "" {
		return nil, false, nil
	}
	for _, item := range splitItems(body) {
		key, value, ok := strings.Cut(item, ":")
		if !ok {
			return nil, false, fmt.Errorf("edge data %s: want {'key': value, …} as networkx writes it", dict)
		}
		switch strings.Trim(strings.TrimSpace(key), `'"`) {
		case "weight":
			value = strings.TrimSpace(value)
			// NumPy 2 writes its scalars as np.float64(2.5).
			if inner, ok := strings.CutPrefix(value, "np."); ok {
				if _, num, ok := strings.Cut(inner, "("); ok && strings.HasSuffix(num, ")") {
					value = strings.TrimSuffix(num, ")")
				}
			}
			weight = []byte(value)
		default:
			others = true
		}
	}
	return weight, others, nil
}

// splitItems splits the body of a Python dict at its commas, except those inside quotes,
// parentheses or brackets.
func splitItems(body string) []string {
	var items []string
	depth, quote, start := 0, byte(0), 0
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			items = append(items, body[start:i])
			start = i + 1
		}
	}
	return append(items, body[start:])
}

// edges parses the edge file; with newVertices, ids not seen before become vertices.
func (e *edgeListParser) edges(path string, data []byte, newVertices bool) error {
	t := newTextFile(path, data)
	first := true
	width := 0
	otherKeys := false
	for nf := t.next(); nf >= 0; nf = t.next() {
		var idA, idB, weight []byte
		if nf >= 2 {
			idA, idB = t.field(0), t.field(1)
		}
		if nf >= 3 {
			weight = t.field(2)
		}
		// networkx's write_edgelist: "a b {}" or "a b {'weight': 2.5, …}" (the braces may
		// hold the separator).
		dict := false
		if i := bytes.IndexByte(t.line, '{'); i >= 0 && bytes.HasSuffix(bytes.TrimRight(t.line, " \t\r"), []byte("}")) {
			ids := strings.FieldsFunc(string(t.line[:i]), func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
			if len(ids) == 2 {
				dict, nf = true, 3
				idA, idB = []byte(ids[0]), []byte(ids[1])
				w, others, err := dictWeight(bytes.TrimRight(t.line[i:], " \t\r"))
				if err != nil {
					return t.errorf("%v", err)
				}
				weight, otherKeys = w, otherKeys || others
			}
		}
		if first {
			first = false
			if !dict && (nf == 2 && isHeaderWord(idA) && isHeaderWord(idB) ||
				nf == 3 && !isNumber(weight)) {
				e.rep.note("%s:%d read as a header row (%q)", path, t.ln, truncate(t.line))
				continue
			}
		}
		if nf != 2 && nf != 3 {
			return t.errorf("edge line needs 2 fields (id_a id_b) or 3 (id_a id_b weight), got %d", nf)
		}
		if width == 0 {
			width = nf
		} else if nf != width {
			return t.errorf("edge line has %d fields where earlier lines have %d", nf, width)
		}
		w := 1.0
		if weight != nil {
			var err error
			if w, err = parseValue(weight, "weight", 0, MaxAttribute); err != nil {
				return t.errorf("%v", err)
			}
			if w == 0 {
				e.rep.drop("edge has weight 0", path, t.ln)
				continue
			}
		}
		a, okA := e.index[string(idA)]
		if newVertices && !okA {
			a, okA = e.addVertex(string(idA)), true
		}
		b, okB := e.index[string(idB)]
		if newVertices && !okB {
			b, okB = e.addVertex(string(idB)), true
		}
		if !okA || !okB {
			e.dangling++
			e.rep.drop("edge names an id with no feature line", path, t.ln)
			continue
		}
		e.es.add(a, b, w)
	}
	if otherKeys {
		e.rep.note("%s: edge attributes other than weight are ignored", path)
	}
	if newVertices && len(e.ids) == 0 {
		return &ParseError{File: path, Msg: "no edges (and no feature file to give the vertices)"}
	}
	if len(e.ids) > math.MaxInt32 {
		return &ParseError{File: path, Msg: fmt.Sprintf("%d vertices exceed the supported 2³¹−1", len(e.ids))}
	}
	return nil
}

// graph assembles the Graph.
func (e *edgeListParser) graph() (*Graph, error) {
	n := len(e.ids)
	adj, err := e.es.csr(n)
	if err != nil {
		return nil, fmt.Errorf("adjacency: %w", err)
	}
	x := e.x
	if e.sparseX != nil {
		if x, err = e.sparseX(n); err != nil {
			return nil, err
		}
	}
	if x == nil {
		ptr := make([]int, n+1)
		x, _ = sparse.NewCSR(n, 0, ptr, nil, nil)
	}
	return &Graph{IDs: e.ids, Adj: adj, X: x, Dangling: e.dangling}, nil
}

package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// Feature-file layouts of an edge list, as Spec.FeatureLayout names them.
const (
	LayoutDense  = "dense"  // id, then one value per attribute column
	LayoutSparse = "sparse" // id, column (from 0, or a name), value: one stored value a line
	LayoutRows   = "rows"   // no id column: one value per attribute column, vertex i on line i (np.savetxt(X))
)

// reasonNoFeatureLine is the Dropped reason of an edge naming an id with no feature line.
const reasonNoFeatureLine = "edge names an id with no feature line"

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
// Feature file as a NumPy .npy array (numpy.save of an n×m array; float32 kept as
// float32): row i holds the attributes of vertex i, whose id is "i", so the edge file
// names vertices 0 … n−1, as OGB, PyG and DGL number them; an edge naming another id is
// dropped and counted. The attributes stay dense (Graph.X, a dense.Matrix).
//
// Feature file, dense layout (the default): "id v1 v2 … vm" a line, every line with the
// same m; with Labels "column" the last field is the label instead. Sparse layout: "id
// column value" a line, columns numbered from 0 (m is the largest column + 1), a vertex
// being every id that has a line. Rows layout: "v1 v2 … vm" a line, no id, vertex i−1 on
// line i (ids 0…n−1). Values are numbers from 0 to MaxAttribute; a dense or rows file
// may hold negative values too (embeddings), and is then kept dense (a dense.Matrix X,
// float64), as an .npy file is, with the load's warning about them.
//
// What Python writes is read as meant (docs/your-graph-checks.md): pandas' to_csv()
// header (first cell empty) and unnamed index column; ids written as floats (12.0 is id
// 12; 12.5 is an error); a dense feature file whose first column cannot be ids (a value
// repeats or is a fraction, every field a number) is read in the rows layout, with a
// warning; an edge file whose ids are the feature file's plus or minus one (reading them
// so names every vertex, as written some do not) is read shifted, with a warning. When
// more than MaxDroppedShare of the edge lines name unknown ids, the load fails unless
// Spec.AllowDropped.
func openEdgeList(s Spec) (*Graph, *LoadReport, error) {
	edges, features, dir, err := edgeListFiles(s)
	if err != nil {
		return nil, nil, err
	}
	labelFile, err := labelFileFor(s, dir)
	if err != nil {
		return nil, nil, err
	}
	rep := &LoadReport{Format: FormatEdgeList}
	labelColumn := s.Labels == LabelsColumn
	e, xd, err := readEdgeListFeatures(s, features, labelColumn, rep)
	if err != nil {
		return nil, nil, err
	}
	if err := e.readEdgeFile(s, edges, features); err != nil {
		return nil, nil, err
	}
	g, err := e.graph()
	if err != nil {
		return nil, nil, err
	}
	if xd != nil {
		g.X = xd
		warnEdgelessRows(g, rep, edges, features)
	}
	if labelColumn {
		has := make([]bool, len(e.labels))
		for i, l := range e.labels {
			has[i] = !missingLabel(l)
		}
		if setPartialLabels(g, rep, "the last column of "+filepath.Base(features), e.labels, has, "empty or NaN, a missing value as pandas writes it", true) {
			return nil, nil, &ParseError{File: features, Msg: "labels: column, but every value of the last column is empty or NaN (no vertex is labelled); " + setLabelsNone}
		}
	}
	if labelFile != "" && s.Labels != LabelsColumn {
		if err := applyLabelFile(g, rep, labelFile, s.AllowDropped); err != nil {
			return nil, nil, err
		}
	}
	return g, rep, nil
}

// warnEdgelessRows warns in rep when the last rows of a .npy feature file (features) are
// vertices no edge of the edge file (edges) names: the array has more rows than the
// graph the edges describe, or the ids are not the row numbers.
func warnEdgelessRows(g *Graph, rep *LoadReport, edges, features string) {
	n := g.N()
	last := n - 1
	for last >= 0 && g.Adj.RowNNZ(last) == 0 {
		last--
	}
	if last >= 0 && last < n-1 {
		rep.warn("rows %d…%d of %s (%d vertices) have no edge: %s names vertices up to %d only; check that row i of the array is vertex i of the edge file",
			last+1, n-1, filepath.Base(features), n-1-last, filepath.Base(edges), last)
	}
}

// edgeListFiles returns the edge file and feature file of the edge list s names (for a
// folder, its edges.* and features.* files, the folder returned as dir).
func edgeListFiles(s Spec) (edges, features, dir string, err error) {
	edges, features = s.Path, s.Features
	if fi, err := os.Stat(s.Path); err == nil && fi.IsDir() {
		dir = s.Path
		if edges = findFile(dir, "edges", edgeExts); edges == "" {
			return "", "", "", &ParseError{File: dir, Msg: "no edges.csv, edges.tsv, edges.txt or edges.edges file in folder"}
		}
		if features == "" {
			features = findFile(dir, "features", tableExts)
		}
		if features == "" {
			features = findFile(dir, "features", []string{".npy"})
		}
	}
	return edges, features, dir, nil
}

// readEdgeListFeatures returns a parser holding the vertices of the feature file
// features and their attributes (none without a feature file): a NumPy array, kept
// dense (xd), or a text file in s's feature layout; a dense file without an id column,
// when the layout is not given, is read again by position (warned in rep). labelColumn
// reads the labels from a text file's last column.
func readEdgeListFeatures(s Spec, features string, labelColumn bool, rep *LoadReport) (e *edgeListParser, xd *dense.Matrix, err error) {
	e = &edgeListParser{rep: rep, index: make(map[string]int)}
	switch {
	case isNPY(features):
		if labelColumn {
			return nil, nil, fmt.Errorf("%s: labels: column needs a text feature file; give the labels in a label file", features)
		}
		if xd, err = readNPYMatrix(features); err != nil {
			return nil, nil, err
		}
		rep.Files = append(rep.Files, features)
		n, _ := xd.Dims()
		for i := 0; i < n; i++ {
			e.addVertex(strconv.Itoa(i))
		}
		return e, xd, nil
	case strings.EqualFold(filepath.Ext(features), ".npz"):
		return nil, nil, &ParseError{File: features, Msg: "a NumPy .npz archive (numpy.savez) is not a feature file: save the n×m attribute array alone with numpy.save (x.npy), or give the .npz itself as the graph (adj_* arrays with attr_matrix; see docs/dense-and-ogb.md)"}
	case features == "":
		if labelColumn {
			return nil, nil, fmt.Errorf("%s: labels: column needs a feature file whose last column holds the labels", s.Path)
		}
		return e, nil, nil
	}
	data, err := readFile(features)
	if err != nil {
		return nil, nil, err
	}
	rep.Files = append(rep.Files, features)
	switch s.FeatureLayout {
	case "", LayoutDense, LayoutRows:
		notes := len(rep.Notes)
		err = e.dense(features, data, labelColumn, s.FeatureLayout == LayoutRows)
		var noID *noIDColumn
		if errors.As(err, &noID) && s.FeatureLayout == "" {
			// Read again, by position: vertex i is the i-th line.
			rep.Notes = rep.Notes[:notes]
			e = &edgeListParser{rep: rep, index: make(map[string]int)}
			if err = e.dense(features, data, labelColumn, true); err == nil {
				rep.warn("%s has no id column (%s): read by position, line i as vertex i−1 (ids 0…%d, as the edge file must name them); to say so and silence this, set the feature layout to rows (feature_layout: rows in a config, --feature-layout rows on the command line)",
					filepath.Base(features), noID.why, len(e.ids)-1)
			}
		}
	case LayoutSparse:
		if labelColumn {
			return nil, nil, fmt.Errorf("%s: labels: column needs dense features (a sparse feature file has no label column); use a label file", features)
		}
		err = e.sparse(features, data)
	default:
		return nil, nil, fmt.Errorf("%s: feature layout %q: want dense, sparse or rows", features, s.FeatureLayout)
	}
	if err != nil {
		return nil, nil, err
	}
	return e, nil, nil
}

// readEdgeFile reads the edge file edges into e. Without a feature file, or with a
// sparse one (which has no line for a vertex without attributes), the edge file's new
// ids are vertices too; else an edge naming an id with no feature line is dropped
// (refused past checkDropped's share unless s.AllowDropped), after reading the file
// again shifted by one where its ids are one off from the feature file's (warned).
func (e *edgeListParser) readEdgeFile(s Spec, edges, features string) error {
	rep := e.rep
	data, err := readFile(edges)
	if err != nil {
		return err
	}
	rep.Files = append(rep.Files, edges)
	sparseLayout := features != "" && s.FeatureLayout == LayoutSparse
	newVertices := features == "" || sparseLayout
	withFeatures := len(e.ids)
	mark := e.mark()
	if err := e.edges(edges, data, newVertices); err != nil {
		return err
	}
	if !newVertices && e.dangling > 0 {
		// Ids counted from another base than the feature file's: every edge would land
		// one vertex off, and only the few naming the last id would be dropped.
		if shift := e.detectShift(edges, data); shift != 0 {
			dropped := e.dangling
			e.reset(mark)
			e.shift = shift
			if err := e.edges(edges, data, false); err != nil {
				return err
			}
			more, fix := "one more", "minus 1"
			if shift < 0 {
				more, fix = "one less", "plus 1"
			}
			rep.warn("%s: its ids are %s than those of %s (read as written, %d edge lines would name an id with no feature line and the rest would land one vertex off): read with every id %s, so id %d is vertex %q",
				filepath.Base(edges), more, filepath.Base(features), dropped, fix, e.intID(0)+int64(shift), e.ids[0])
		}
	}
	if !newVertices {
		hint := fmt.Sprintf("check that %s and %s name the vertices the same way", filepath.Base(edges), filepath.Base(features))
		if isNPY(features) {
			hint = fmt.Sprintf("%s has %d rows, so the vertices are 0 … %d: check that row i of the array is vertex i of %s", filepath.Base(features), withFeatures, withFeatures-1, filepath.Base(edges))
		}
		if err := checkDropped(rep, s.AllowDropped, edges, reasonNoFeatureLine, "edge lines", e.edgeLines, hint); err != nil {
			return err
		}
	}
	if added := len(e.ids) - withFeatures; sparseLayout && added > 0 {
		rep.warn("%d vertices of %s have no line in the sparse feature file %s (the first %q): they are vertices with no attribute",
			added, filepath.Base(edges), filepath.Base(features), e.ids[withFeatures])
	}
	return nil
}

// edgeListParser accumulates the vertices, attributes and edges of an edge list.
type edgeListParser struct {
	rep   *LoadReport
	ids   []string
	index map[string]int

	m int
	x *sparse.CSR
	// xDense holds the attributes of a dense feature file with a negative value, kept
	// dense (float64) as an .npy file's would be, instead of x.
	xDense   *dense.Matrix
	negative bool // a dense feature file holds a negative value
	// sparseX assembles the attributes of a sparse feature file for n vertices (those
	// after its own have no stored value).
	sparseX func(n int) (*sparse.CSR, error)
	xptr    []int
	xind    []int
	xval    []float64

	labels []string

	es        edgeSet
	dangling  int
	edgeLines int // edge lines read (weight 0 and unknown ids included)

	shift    int           // added to every integer edge id before lookup (see detectShift)
	intIndex map[int64]int // vertex of each integer id, for shift
}

// parserMark is what the edge pass of an edgeListParser adds, to undo it.
type parserMark struct{ dropped, notes, warnings int }

// mark returns the state to reset to before the edge file is read.
func (e *edgeListParser) mark() parserMark {
	return parserMark{len(e.rep.Dropped), len(e.rep.Notes), len(e.rep.Warnings)}
}

// reset forgets the edges read since mark (with features read first, so that the edge
// pass added no vertex).
func (e *edgeListParser) reset(m parserMark) {
	e.es = edgeSet{}
	e.dangling, e.edgeLines = 0, 0
	e.rep.Dropped, e.rep.Notes, e.rep.Warnings = e.rep.Dropped[:m.dropped], e.rep.Notes[:m.notes], e.rep.Warnings[:m.warnings]
}

// intID returns the integer id of vertex i (0 when it is not an integer).
func (e *edgeListParser) intID(i int) int64 {
	v, _ := strconv.ParseInt(e.ids[i], 10, 64)
	return v
}

// lookup returns the vertex the edge file's id names: the vertex of that id, or, while
// e.shift is set, of the integer id minus the shift.
func (e *edgeListParser) lookup(id []byte) (int, bool) {
	if e.shift == 0 {
		i, ok := e.index[string(id)]
		return i, ok
	}
	v, err := strconv.ParseInt(string(id), 10, 64)
	if err != nil {
		return 0, false
	}
	i, ok := e.intIndex[v-int64(e.shift)]
	return i, ok
}

// detectShift returns s = +1 or −1 when the edge file's ids are the feature file's ids
// plus s (reading every edge id minus s names a vertex, while reading them as written
// drops some), else 0. It costs up to two more passes over the edge file, and is tried
// only when edges were dropped.
func (e *edgeListParser) detectShift(path string, data []byte) int {
	if e.intIndex = shiftedIndex(e.ids); e.intIndex == nil {
		return 0
	}
	defer func() { e.shift = 0 }()
	for _, s := range []int{1, -1} {
		e.shift = s
		if d, err := e.count(path, data); err == nil && d == 0 {
			return s
		}
	}
	return 0
}

// count returns the number of edge lines of the edge file whose ids name no vertex, as
// e.lookup resolves them, without recording anything.
func (e *edgeListParser) count(path string, data []byte) (int, error) {
	saved := *e
	rep := *e.rep
	rep.Dropped = append([]Dropped(nil), e.rep.Dropped...)
	e.rep = &rep
	e.es, e.dangling, e.edgeLines = edgeSet{dry: true}, 0, 0
	err := e.edges(path, data, false)
	d := e.dangling
	*e = saved
	return d, err
}

// addVertex records a new vertex id and returns its index.
func (e *edgeListParser) addVertex(id string) int {
	i := len(e.ids)
	e.index[id] = i
	e.ids = append(e.ids, id)
	return i
}

// dense parses a dense feature file; with positional, the file has no id column and
// vertex i is its i-th line, named "i" (from 0). Without positional, a file whose first
// column cannot be ids (a value repeats, or is a fraction, on lines that are all numbers)
// gives a *noIDColumn error, so that the caller can read it again by position.
func (e *edgeListParser) dense(path string, data []byte, labelColumn, positional bool) error {
	t := newTextFile(path, data)
	e.m = -1
	e.xptr = append(e.xptr[:0], 0)
	lines := map[int]int{} // vertex → line, for duplicate errors
	first := true
	mLine := 0
	numbered := -1 // fields of a header numbering the columns from 0, until the first data line
	skip := 1      // fields before the first value: the id
	if positional {
		skip = 0
	}
	for nf := t.next(); nf >= 0; nf = t.next() {
		na := nf - skip
		if labelColumn {
			na--
		}
		if first {
			first = false
			header := false
			if numbered, header = e.denseHeader(t, nf, na, positional); header {
				continue
			}
		}
		if numbered >= 0 {
			if nf-b2i(labelColumn) == numbered {
				return &noIDColumn{fmt.Sprintf("its header numbers every column from 0 as pandas writes a matrix's, and line %d has as many fields, so none holds ids", t.ln)}
			}
			numbered = -1
		}
		if na < 0 || na == 0 && labelColumn {
			return t.errorf("feature line needs an id, values and a label, got %d fields", nf)
		}
		if e.m < 0 {
			e.m, mLine = na, t.ln
		} else if na != e.m {
			return t.errorf("ragged feature row: expected %d values (as at line %d), got %d", e.m, mLine, na)
		}
		id, err := e.denseID(t, nf, labelColumn, positional, lines)
		if err != nil {
			return err
		}
		if err := e.denseValues(t, nf, na, skip, labelColumn); err != nil {
			return err
		}
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
	if e.negative {
		return e.keepDense(path)
	}
	return nil
}

// keepDense turns the attributes of a dense feature file that holds negative values
// (embeddings, standardised features) into a dense float64 matrix: the sparse
// attributes, whose readers and methods take values ≥ 0 only, would refuse them, while
// k-means and SGC k-means take any values (the load warns which methods refuse them).
// Its memory is checked against the budget first. Cost O(n·m).
func (e *edgeListParser) keepDense(path string) error {
	n, m := e.x.Dims()
	if err := memory.Check(fmt.Sprintf("keeping the %d×%d attributes of %s dense (they hold negative values)", n, m, path), memory.Bytes(int64(n), 8*m)); err != nil {
		return err
	}
	data := make([]float64, n*m)
	for i := 0; i < n; i++ {
		cols, vals := e.x.Row(i)
		for k, j := range cols {
			data[i*m+j] = vals[k]
		}
	}
	e.x, e.xDense = nil, dense.NewMatrix64(n, m, data)
	e.xptr, e.xind, e.xval = nil, nil, nil
	return nil
}

// signedHint returns, for a negative attribute value tok of a sparse feature file (not
// the adjacency), where signed features go instead; else "".
func signedHint(tok []byte, adjacency bool) string {
	if _, negative := negativeValue(tok); !negative || adjacency {
		return ""
	}
	return ": sparse attributes are values ≥ 0 (counts, tf-idf); write signed features such as embeddings as a dense CSV (id,v1,…,vm) or a .npy file (np.save), which are read dense for k-means and SGC k-means"
}

// negativeValue returns the value of tok when it is a finite negative number of
// magnitude at most MaxAttribute, the one kind of attribute parseValue refuses that a
// dense feature file may hold. Only a token starting with '-' is parsed, so that a
// value ≥ 0 is parsed once, by parseValue.
func negativeValue(tok []byte) (float64, bool) {
	if len(tok) < 2 || tok[0] != '-' {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(tok), 64)
	return v, err == nil && v < 0 && v >= -MaxAttribute
}

// denseHeader reports whether the first line of a dense feature file, of nf fields and
// na values, is a header row (noted in the load report), and returns its number of
// fields when it numbers the columns from 0 as pandas writes a matrix's (−1 otherwise).
func (e *edgeListParser) denseHeader(t *textFile, nf, na int, positional bool) (numbered int, header bool) {
	path := t.path
	switch {
	case nf >= 2 && len(t.field(0)) == 0:
		// pandas' df.to_csv(): the index column has no name. When the next
		// column is named as an id column, the index is a row number.
		if !positional && isIDWord(t.field(1)) {
			t.skipFirst = true
			e.rep.note("%s:%d read as a pandas header row (%q): the first column, pandas' unnamed index, is skipped; the ids are the column %q", path, t.ln, truncate(t.line), t.field(1))
		} else {
			e.rep.note("%s:%d read as a pandas header row (%q)", path, t.ln, truncate(t.line))
		}
		return -1, true
	case !positional && columnNumbers(t, nf):
		// pandas' header of a matrix: no id column when the lines below have as
		// many fields; one more is the index (whose empty name a space-separated
		// file loses).
		e.rep.note("%s:%d read as a header row (%q)", path, t.ln, truncate(t.line))
		return nf, true
	case positional && columnNumbers(t, nf), isHeaderWord(t.field(0)), !allNumbers(t, 1, 1+max(na, 0)):
		e.rep.note("%s:%d read as a header row (%q)", path, t.ln, truncate(t.line))
		return -1, true
	}
	return -1, false
}

// denseID returns the id of the feature line of nf fields t holds: its number among the
// lines when positional, else its first field in canonical form. A fraction or a
// repeated id where every field is a number (and the line is not three fields, which
// may be a sparse triplet) is a *noIDColumn: the file may have no id column. lines
// holds the line of each vertex read.
func (e *edgeListParser) denseID(t *textFile, nf int, labelColumn, positional bool, lines map[int]int) ([]byte, error) {
	if positional {
		return strconv.AppendInt(nil, int64(len(e.ids)), 10), nil
	}
	id, err := canonicalID(t.field(0))
	// Only on a fault: whether every field is a number (a matrix without ids),
	// and unambiguously so (three fields a line may be sparse triplets).
	numeric := func() bool { return allNumbers(t, 0, nf-b2i(labelColumn)) }
	if err != nil {
		if numeric() && nf != 3 {
			return nil, &noIDColumn{fmt.Sprintf("line %d starts with %q, a fraction, where an id would be", t.ln, t.field(0))}
		}
		if numeric() {
			return nil, t.errorf("%v; if the file has no id column (as np.savetxt(X) writes), set the feature layout to rows (feature_layout: rows in a config, --feature-layout rows on the command line)", err)
		}
		return nil, t.errorf("%v", err)
	}
	if k, dup := e.index[string(id)]; dup {
		if numeric() && nf != 3 {
			return nil, &noIDColumn{fmt.Sprintf("its first column repeats %q at lines %d and %d", t.field(0), lines[k], t.ln)}
		}
		return nil, t.errorf("duplicate vertex id %q (first at line %d); if this file holds one (id, column, value) triplet a line, set the feature layout to sparse (feature_layout: sparse in a config, --feature-layout sparse on the command line); if it has no id column (as np.savetxt(X) writes), set it to rows", id, lines[k])
	}
	return id, nil
}

// denseValues appends the na values of the feature line t holds (nf fields, the first
// skip of them before the values) to the attributes as a row, zeros left out. A value
// that is not a number is an error that says what the line may be instead.
func (e *edgeListParser) denseValues(t *textFile, nf, na, skip int, labelColumn bool) error {
	line, f := t.line, t.fields
	for a := 0; a < na; a++ {
		tok := line[f[2*(skip+a)]:f[2*(skip+a)+1]]
		v := 1.0
		switch {
		case len(tok) == 1 && tok[0] == '0':
			continue
		case len(tok) == 1 && tok[0] == '1':
		default:
			var err error
			if nv, ok := negativeValue(tok); ok {
				v, e.negative = nv, true // kept: the file is then read dense (see dense)
			} else if v, err = parseValue(tok, "attribute column", a+1, MaxAttribute); err != nil {
				switch {
				case len(tok) == 0 || isMissing(tok): // a missing value, explained by parseValue
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
	return nil
}

// b2i returns 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
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

// truncate shortens a line for a message: without the carriage return of a CRLF ending
// (which %q would show as \r), cut after 60 bytes on a character boundary.
func truncate(line []byte) string {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) <= 60 {
		return string(line)
	}
	cut := 60
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return string(line[:cut]) + "…"
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
			return t.errorf("%v%s", err, signedHint(t.field(2), false))
		}
		id, err := canonicalID(t.field(0))
		if err != nil {
			return t.errorf("%v", err)
		}
		i, ok := e.index[string(id)]
		if !ok {
			i = e.addVertex(string(id))
		}
		if int(col)+1 > m {
			// Every attribute-reading method allocates arrays of m entries.
			if err := checkColumns(col+1, fmt.Sprintf("%s:%d names column %d", path, t.ln, col)); err != nil {
				return err
			}
			m = int(col) + 1
		}
		if v != 0 {
			rows, cols, vals, lines = append(rows, int32(i)), append(cols, int32(col)), append(vals, v), append(lines, int32(t.ln))
		}
	}
	if len(e.ids) == 0 {
		return &ParseError{File: path, Msg: "no vertices (no feature lines)"}
	}
	column := func(j int) string { return strconv.Itoa(j) }
	if names != nil {
		sorted := renumberNamed(names, cols)
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

// renumberNamed renumbers the columns cols, numbered in names by first appearance, in
// sorted name order, and returns the names in that order.
func renumberNamed(names map[string]int32, cols []int32) []string {
	sorted := slices.Sorted(maps.Keys(names))
	rank := make([]int32, len(names))
	for r, name := range sorted {
		rank[names[name]] = int32(r)
	}
	for k, c := range cols {
		cols[k] = rank[c]
	}
	return sorted
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
	width, headerFields := 0, 0
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
		if a, b, w, others, ok, err := edgeDict(t); err != nil {
			return err
		} else if ok {
			dict, nf = true, 3
			idA, idB, weight, otherKeys = a, b, w, otherKeys || others
		}
		if first {
			first = false
			if !dict && nf >= 2 && len(idA) == 0 {
				// pandas' df.to_csv(): the first column is its unnamed index, a row number.
				t.skipFirst = true
				e.note("%s:%d read as a pandas header row (%q): the first column, pandas' unnamed index, is skipped", path, t.ln, truncate(t.line))
				continue
			}
			if !dict && (nf == 2 && isHeaderWord(idA) && isHeaderWord(idB) ||
				nf == 3 && !isNumber(weight) || nf == 2 && e.namesColumns(t, idA, idB, newVertices)) {
				e.note("%s:%d read as a header row (%q)", path, t.ln, truncate(t.line))
				headerFields = nf
				continue
			}
		} else if headerFields == 2 && nf == 3 && !dict && width == 0 {
			// A header naming two columns over lines of three: the first is pandas'
			// index, whose empty name a space-separated file loses.
			t.skipFirst = true
			nf = t.split()
			idA, idB, weight = t.field(0), t.field(1), nil
			e.note("%s: its header names 2 columns and its lines have 3: the first, pandas' unnamed index, is skipped", path)
		}
		if nf != 2 && nf != 3 {
			return t.errorf("edge line needs 2 fields (id_a id_b) or 3 (id_a id_b weight), got %d", nf)
		}
		if width == 0 {
			width = nf
		} else if nf != width {
			return t.errorf("edge line has %d fields where earlier lines have %d", nf, width)
		}
		e.edgeLines++
		if err := e.addEdge(t, idA, idB, weight, newVertices); err != nil {
			return err
		}
	}
	if otherKeys {
		e.note("%s: edge attributes other than weight are ignored", path)
	}
	if newVertices && len(e.ids) == 0 {
		return &ParseError{File: path, Msg: "no edges (and no feature file to give the vertices)"}
	}
	if len(e.ids) > math.MaxInt32 {
		return &ParseError{File: path, Msg: fmt.Sprintf("%d vertices exceed the supported 2³¹−1", len(e.ids))}
	}
	return nil
}

// edgeDict reads the line t holds as networkx's write_edgelist writes it, "a b {}" or
// "a b {'weight': 2.5, …}" (the braces may hold the separator): ok when it is one, with
// its ids, its weight (nil when none) and whether it has keys other than weight.
func edgeDict(t *textFile) (idA, idB, weight []byte, others, ok bool, err error) {
	i := bytes.IndexByte(t.line, '{')
	if i < 0 || !bytes.HasSuffix(bytes.TrimRight(t.line, " \t\r"), []byte("}")) {
		return nil, nil, nil, false, false, nil
	}
	ids := strings.FieldsFunc(string(t.line[:i]), func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
	if len(ids) != 2 {
		return nil, nil, nil, false, false, nil
	}
	w, others, err := dictWeight(bytes.TrimRight(t.line[i:], " \t\r"))
	if err != nil {
		return nil, nil, nil, false, false, t.errorf("%v", err)
	}
	return []byte(ids[0]), []byte(ids[1]), w, others, true, nil
}

// addEdge adds the edge of the line t holds, between ids idA and idB with weight
// (nil: 1): an edge of weight 0 is dropped, and so is one naming an id that is not a
// vertex, unless newVertices makes it one.
func (e *edgeListParser) addEdge(t *textFile, idA, idB, weight []byte, newVertices bool) error {
	var err error
	if idA, err = canonicalID(idA); err != nil {
		return t.errorf("%v", err)
	}
	if idB, err = canonicalID(idB); err != nil {
		return t.errorf("%v", err)
	}
	w := 1.0
	if weight != nil {
		if w, err = parseValue(weight, "weight", 0, MaxAttribute); err != nil {
			return t.errorf("%v", err)
		}
		if w == 0 {
			e.rep.drop("edge has weight 0", t.path, t.ln)
			return nil
		}
	}
	a, okA := e.lookup(idA)
	if newVertices && !okA {
		a, okA = e.addVertex(string(idA)), true
	}
	b, okB := e.lookup(idB)
	if newVertices && !okB {
		b, okB = e.addVertex(string(idB)), true
	}
	if !okA || !okB {
		e.dangling++
		e.rep.dropLine(reasonNoFeatureLine, t.path, t.ln, t.line)
		return nil
	}
	e.es.add(a, b, w)
	return nil
}

// namesColumns reports whether the first line of an edge file, the ids a and b, is a
// header of two column names that are not header words ("a,b", "from_node,to_node"):
// neither is a number, and either the next line's ids are both numbers or, with a
// feature file giving the vertices, neither names a vertex.
func (e *edgeListParser) namesColumns(t *textFile, a, b []byte, newVertices bool) bool {
	if isNumber(a) || isNumber(b) {
		return false
	}
	if !newVertices {
		_, okA := e.lookup(a)
		_, okB := e.lookup(b)
		if !okA && !okB {
			return true
		}
	}
	peek := *t
	peek.fields = nil
	if peek.next() != 2 {
		return false
	}
	return isNumber(peek.field(0)) && isNumber(peek.field(1))
}

// note records a note, except in a counting pass (see count).
func (e *edgeListParser) note(format string, args ...any) {
	if !e.es.dry {
		e.rep.note(format, args...)
	}
}

// graph assembles the Graph.
func (e *edgeListParser) graph() (*Graph, error) {
	n := len(e.ids)
	adj, err := e.es.csr(n)
	if err != nil {
		return nil, fmt.Errorf("adjacency: %w", err)
	}
	if e.xDense != nil {
		return &Graph{IDs: e.ids, Adj: adj, X: e.xDense, Dangling: e.dangling}, nil
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

// isNPY reports whether path names a NumPy .npy file (or a gzipped one, .npy.gz).
func isNPY(path string) bool {
	return strings.EqualFold(filepath.Ext(strings.TrimSuffix(strings.TrimSuffix(path, ".gz"), ".GZ")), ".npy")
}

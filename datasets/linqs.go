package datasets

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/sparse"
)

// ParseError reports a malformed dataset file or folder.
type ParseError struct {
	// File is the path of the offending file, or of the folder for an error
	// about the folder as a whole.
	File string
	// Line is the 1-based line number, or 0 when the error is not about a line.
	Line int
	// Msg describes the problem.
	Msg string
}

// Error returns "file:line: msg", or "file: msg" when Line is 0.
func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// reasonNoVertexLine is the Dropped reason of a .cites line naming an unknown id.
const reasonNoVertexLine = "edge names an id with no vertex line"

// LoadLINQS reads the LINQS-format graph in folder dir: every *.content file (one vertex a
// line: id, attribute values, label) and every *.cites file (one undirected edge a line:
// two ids). Files are read in sorted file-name order. A UTF-8 byte-order mark at the start
// of a file, CRLF line endings and blank lines are accepted.
//
// Fields are split as the NAGC authors' loader splits them. A vertex line holding a tab is
// split at each tab, the id kept verbatim (an id may contain spaces) and the other fields
// trimmed; a vertex line without a tab is split at runs of whitespace. An edge line is
// always split at runs of whitespace, so an id with a space can have no edges (polblog's
// dangling edge lines: see docs/reproduce.md#the-papers-data).
//
// Every attribute line must have as many attribute columns as the first one, and every
// attribute value must be a number from 0 to MaxAttribute (2⁵³, the largest integer a
// float64 holds exactly: larger counts are not exact anyway, and the methods' products
// of such values would overflow to Inf); vertex ids must be unique. An edge
// line naming an unknown id is dropped and counted in Graph.Dangling; when more than
// MaxDroppedShare (1 %) of the edge lines do, the folder is refused (Open with
// Spec.AllowDropped accepts it). Duplicate and
// reversed edges are stored once; self-loops are kept on the diagonal.
//
// Malformed input gives a *ParseError naming the file and line. The cost is linear in the
// total size of the files, plus O(d log d) per vertex of degree d.
//
// LoadLINQS always reads a label column. Open reads LINQS folders too, with Labels
// "none" for files without a label column, and returns a LoadReport that warns about a
// header row or a label column that looks like an attribute.
func LoadLINQS(dir string) (*Graph, error) {
	g, _, err := loadLINQS(dir, false, false)
	return g, err
}

// openLINQS reads the LINQS folder of s for Open. Labels "none" reads every column after
// the id as an attribute; "file" does the same and then takes the labels from the label
// file.
func openLINQS(s Spec) (*Graph, *LoadReport, error) {
	noLabel := s.Labels == LabelsNone || s.Labels == LabelsFile
	f := ""
	if s.Labels == LabelsFile {
		var err error
		if f, err = labelFileFor(s, s.Path); err != nil {
			return nil, nil, err
		}
	}
	g, rep, err := loadLINQS(s.Path, noLabel, s.AllowDropped)
	if err != nil {
		return nil, nil, err
	}
	if f != "" {
		if err := applyLabelFile(g, rep, f, s.AllowDropped); err != nil {
			return nil, nil, err
		}
	}
	return g, rep, nil
}

// loadLINQS reads the LINQS folder dir, with no label column when noLabel; unless
// allowDropped, more than MaxDroppedShare of the .cites lines naming unknown ids is an
// error.
func loadLINQS(dir string, noLabel, allowDropped bool) (*Graph, *LoadReport, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var contents, cites []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		switch filepath.Ext(e.Name()) {
		case ".content":
			contents = append(contents, filepath.Join(dir, e.Name()))
		case ".cites":
			cites = append(cites, filepath.Join(dir, e.Name()))
		}
	}
	// os.ReadDir sorts by name already; sort again to make the order a documented fact.
	sort.Strings(contents)
	sort.Strings(cites)
	if len(contents) == 0 {
		return nil, nil, &ParseError{File: dir, Msg: "no .content file in folder"}
	}
	if len(cites) == 0 {
		return nil, nil, &ParseError{File: dir, Msg: "no .cites file in folder"}
	}
	return parseLINQSReport(dir, contents, cites, readData, noLabel, allowDropped) // which checks the text
}

// parseLINQS parses the .content files contents and the .cites files cites of the LINQS
// folder dir, in the order given, reading each through read. LoadLINQS reads from disk;
// the fuzz tests pass bytes held in memory. Errors are as LoadLINQS documents.
func parseLINQS(dir string, contents, cites []string, read func(string) ([]byte, error)) (*Graph, error) {
	g, _, err := parseLINQSReport(dir, contents, cites, read, false, false)
	return g, err
}

// parseLINQSReport is parseLINQS with a load report, reading no label column when
// noLabel, and accepting any share of dangling edge lines when allowDropped.
func parseLINQSReport(dir string, contents, cites []string, read func(string) ([]byte, error), noLabel, allowDropped bool) (*Graph, *LoadReport, error) {
	p := &linqsParser{m: -1, index: make(map[string]int), noLabel: noLabel, rep: &LoadReport{Format: FormatLINQS}}
	p.xptr = append(p.xptr, 0)
	for _, f := range contents {
		data, err := read(f)
		if err != nil {
			return nil, nil, err
		}
		p.rep.Files = append(p.rep.Files, f)
		if err := checkText(f, data); err != nil {
			return nil, nil, err
		}
		if err := p.content(f, data); err != nil {
			return nil, nil, err
		}
	}
	if len(p.ids) > math.MaxInt32 {
		return nil, nil, &ParseError{File: dir, Msg: fmt.Sprintf("%d vertices exceed the supported 2³¹−1", len(p.ids))}
	}
	for _, f := range cites {
		data, err := read(f)
		if err != nil {
			return nil, nil, err
		}
		p.rep.Files = append(p.rep.Files, f)
		if err := checkText(f, data); err != nil {
			return nil, nil, err
		}
		if err := p.cites(f, data); err != nil {
			return nil, nil, err
		}
	}
	g, err := p.graph(filepath.Base(filepath.Clean(dir)))
	if err != nil {
		return nil, nil, err
	}
	for _, d := range p.rep.Dropped {
		if d.Reason != reasonNoVertexLine {
			continue
		}
		if err := checkDropped(p.rep, allowDropped, d.File, reasonNoVertexLine, "edge lines of the .cites files", d.Count+p.kept,
			"check that the .cites and .content files name the vertices the same way"); err != nil {
			return nil, nil, err
		}
	}
	if g.Labels != nil {
		checkLabels(p.rep, "the last column of the .content files", g.Labels, g.ClassNames, true)
	}
	p.rep.fill(g)
	return g, p.rep, nil
}

// linqsParser accumulates the vertices and edges of a LINQS folder.
type linqsParser struct {
	m            int // attribute columns; -1 until the first vertex line
	mFile, mLine int // where m was fixed: index into files, line number

	files  []string
	ids    []string
	index  map[string]int
	seenAt [][2]int // file index and line of each vertex
	labels []string

	xptr []int
	xind []int
	xval []float64

	src, dst []int32
	dangling int
	kept     int // edge lines naming two vertices

	noLabel bool        // no label column: every field after the id is an attribute
	rep     *LoadReport // dropped lines and warnings

	fields []int // reusable field boundaries: start, end, start, end, ...
}

// MaxAttribute is the largest attribute value (or edge weight) any reader accepts: 2⁵³,
// the largest integer a float64 holds exactly.
const MaxAttribute = 1 << 53

// bom is the UTF-8 byte-order mark.
var bom = []byte{0xEF, 0xBB, 0xBF}

// nextLine splits the first line off data, without its '\n'.
func nextLine(data []byte) (line, rest []byte) {
	if k := bytes.IndexByte(data, '\n'); k >= 0 {
		return data[:k], data[k+1:]
	}
	return data, nil
}

// spaces marks the bytes that separate fields. '\r' is one, which handles CRLF.
var spaces = [256]bool{' ': true, '\t': true, '\r': true, '\v': true, '\f': true}

// isSpace reports whether c separates fields.
func isSpace(c byte) bool { return spaces[c] }

// split stores the [start, end) boundaries of the whitespace-separated fields of line in
// p.fields and returns the number of fields.
func (p *linqsParser) split(line []byte) int {
	f := p.fields[:0]
	i, n := 0, len(line)
	for {
		for i < n && isSpace(line[i]) {
			i++
		}
		if i == n {
			break
		}
		s := i
		for i < n && !isSpace(line[i]) {
			i++
		}
		f = append(f, s, i)
	}
	p.fields = f
	return len(f) / 2
}

// splitContent stores the field boundaries of a vertex line in p.fields and returns the
// number of fields. A line holding a tab is split at every tab, as the authors' loader
// does: the id (the first field) is kept verbatim, spaces included, and the other fields
// are trimmed of surrounding spaces. A line without a tab is split at runs of whitespace.
// Leading and trailing whitespace of the line is ignored in both cases.
func (p *linqsParser) splitContent(line []byte) int {
	lo, hi := 0, len(line)
	for lo < hi && (isSpace(line[lo]) || line[lo] == '\n') {
		lo++
	}
	for hi > lo && (isSpace(line[hi-1]) || line[hi-1] == '\n') {
		hi--
	}
	if bytes.IndexByte(line[lo:hi], '\t') < 0 {
		return p.split(line)
	}
	f := p.fields[:0]
	start := lo
	for i := lo; i < hi; i++ {
		if line[i] == '\t' {
			f = append(f, start, i)
			start = i + 1
		}
	}
	f = append(f, start, hi)
	for k := 2; k < len(f); k += 2 {
		s, e := f[k], f[k+1]
		if s == e || !spaces[line[s]] && !spaces[line[e-1]] {
			continue
		}
		for s < e && isSpace(line[s]) {
			s++
		}
		for e > s && isSpace(line[e-1]) {
			e--
		}
		f[k], f[k+1] = s, e
	}
	p.fields = f
	return len(f) / 2
}

// content parses one .content file.
func (p *linqsParser) content(path string, data []byte) error {
	fi := len(p.files)
	p.files = append(p.files, path)
	data = bytes.TrimPrefix(data, bom)
	before := len(p.ids)
	perr := func(line int, format string, args ...any) error {
		return &ParseError{File: path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	for ln := 1; len(data) > 0; ln++ {
		var line []byte
		line, data = nextLine(data)
		nf := p.splitContent(line)
		if nf == 0 {
			continue
		}
		minFields, na := 2, nf-2
		if p.noLabel {
			minFields, na = 1, nf-1
		}
		if nf < minFields {
			return perr(ln, "vertex line needs at least 2 fields (id and label), got %d (if the file has no label column, "+setLabelsNone+")", nf)
		}
		f := p.fields
		if p.m < 0 {
			p.headerCheck(path, ln, line, nf)
		}
		id := string(line[f[0]:f[1]])
		if k, dup := p.index[id]; dup {
			at := p.seenAt[k]
			return perr(ln, "duplicate vertex id %q (first seen at %s:%d)", id, p.files[at[0]], at[1])
		}
		if p.m < 0 {
			p.m, p.mFile, p.mLine = na, fi, ln
		} else if na != p.m {
			return perr(ln, "ragged attribute row: expected %d attributes (as at %s:%d), got %d",
				p.m, p.files[p.mFile], p.mLine, na)
		}
		if err := p.contentValues(line, na, fi, ln); err != nil {
			return err
		}
		p.xptr = append(p.xptr, len(p.xind))
		p.index[id] = len(p.ids)
		p.ids = append(p.ids, id)
		p.seenAt = append(p.seenAt, [2]int{fi, ln})
		if !p.noLabel {
			p.labels = append(p.labels, string(line[f[2*nf-2]:f[2*nf-1]]))
		}
	}
	if len(p.ids) == before {
		return &ParseError{File: path, Msg: "no vertices (empty .content file)"}
	}
	return nil
}

// contentValues appends the na attribute values of the vertex line line (line ln of
// p.files[fi], split into p.fields) to the attributes, zeros left out; a value that is
// not a finite non-negative number of at most MaxAttribute is an error.
func (p *linqsParser) contentValues(line []byte, na, fi, ln int) error {
	f := p.fields
	perr := func(format string, args ...any) error {
		return &ParseError{File: p.files[fi], Line: ln, Msg: fmt.Sprintf(format, args...)}
	}
	for a := 0; a < na; a++ {
		tok := line[f[2+2*a]:f[3+2*a]]
		var v float64
		switch {
		case len(tok) == 1 && tok[0] == '0':
			continue
		case len(tok) == 1 && tok[0] == '1':
			v = 1
		default:
			var err error
			v, err = strconv.ParseFloat(string(tok), 64)
			if err != nil {
				// A range error still yields ±Inf, reported below.
				if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
					hint := ""
					if isMissing(tok) {
						hint = ": it marks a missing value (pandas reads it as NaN); " + fillMissing
					} else if p.noLabel && a == na-1 {
						hint = " (with labels: none every column after the id must be a number; this last column looks like labels)"
					} else if p.m == na && p.mFile == fi && p.mLine == ln && len(p.ids) == 0 {
						hint = " (the first line looks like a header row of column names; LINQS files have none: remove it)"
					}
					return perr("attribute column %d: %q is not a number%s", a+1, tok, hint)
				}
			}
			switch {
			case math.IsNaN(v):
				return perr("attribute column %d: value %q is NaN, a missing value; %s", a+1, tok, fillMissing)
			case math.IsInf(v, 0):
				return perr("attribute column %d: value %q is infinite", a+1, tok)
			case v < 0:
				return perr("attribute column %d: value %q is negative", a+1, tok)
			case v == 0:
				continue
			}
		}
		if v > MaxAttribute {
			return perr("attribute column %d: value %q is too large (at most 2⁵³ = %d)", a+1, tok, int64(MaxAttribute))
		}
		p.xind = append(p.xind, a)
		p.xval = append(p.xval, v)
	}
	return nil
}

// cites parses one .cites file.
func (p *linqsParser) cites(path string, data []byte) error {
	data = bytes.TrimPrefix(data, bom)
	for ln := 1; len(data) > 0; ln++ {
		var line []byte
		line, data = nextLine(data)
		nf := p.split(line)
		if nf == 0 {
			continue
		}
		if nf != 2 {
			return &ParseError{File: path, Line: ln,
				Msg: fmt.Sprintf("edge line needs exactly 2 fields (id_a id_b), got %d", nf)}
		}
		f := p.fields
		// The map lookup with string(bytes) does not allocate.
		a, okA := p.index[string(line[f[0]:f[1]])]
		b, okB := p.index[string(line[f[2]:f[3]])]
		if !okA || !okB {
			p.dangling++
			p.rep.dropLine(reasonNoVertexLine, path, ln, line)
			continue
		}
		p.kept++
		p.src = append(p.src, int32(a), int32(b))
		p.dst = append(p.dst, int32(b), int32(a))
	}
	return nil
}

// graph assembles the Graph.
func (p *linqsParser) graph(name string) (*Graph, error) {
	n := len(p.ids)
	adj, err := patternCSR(n, n, p.src, p.dst)
	if err != nil {
		return nil, fmt.Errorf("%s: adjacency: %w", name, err)
	}
	x, err := sparse.NewCSR(n, p.m, p.xptr, p.xind, p.xval)
	if err != nil {
		return nil, fmt.Errorf("%s: attributes: %w", name, err)
	}
	var labels []int
	var names []string
	if !p.noLabel {
		labels, names = classIndex(p.labels)
	}
	return &Graph{
		Name:       name,
		IDs:        p.ids,
		Labels:     labels,
		ClassNames: names,
		Adj:        adj,
		X:          x,
		Dangling:   p.dangling,
	}, nil
}

// headerCheck warns when the first vertex line, line ln of path, reads like a header row
// of column names: an id or label such as "id", "node", "label" or "class".
func (p *linqsParser) headerCheck(path string, ln int, line []byte, nf int) {
	f := p.fields
	id := line[f[0]:f[1]]
	last := line[f[2*nf-2]:f[2*nf-1]]
	if isHeaderWord(id) || !p.noLabel && isHeaderWord(last) {
		p.rep.warn("%s:%d looks like a header row of column names (%q …); LINQS files have none, so it was read as a vertex: remove the line", path, ln, id)
	}
}

// knownNames lists the dataset names Load accepts without a path.
func knownNames() string {
	return strings.Join(append(PaperNames(), "synthetic"), ", ")
}

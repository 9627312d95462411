package datasets

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/sparse"
)

// edgeSet accumulates the undirected edges of a graph with n vertices and builds its
// symmetric adjacency. An edge {i, j} given more than once, in either direction, keeps
// the largest weight given, so an unweighted list stays 0/1 and a list holding both
// directions of each edge with equal weights reads as given.
type edgeSet struct {
	src, dst []int32
	w        []float64 // nil while every weight is 1
	dry      bool      // record nothing (a counting pass)
}

// add records the edge {i, j} with weight w > 0.
func (e *edgeSet) add(i, j int, w float64) {
	if e.dry {
		return
	}
	if w != 1 && e.w == nil {
		e.w = make([]float64, len(e.src), cap(e.src))
		for k := range e.w {
			e.w[k] = 1
		}
	}
	e.src = append(e.src, int32(i), int32(j))
	e.dst = append(e.dst, int32(j), int32(i))
	if e.w != nil {
		e.w = append(e.w, w, w)
	}
}

// csr returns the symmetric n×n adjacency. Cost O(n + t + Σ d log d) for t edges.
func (e *edgeSet) csr(n int) (*sparse.CSR, error) {
	if e.w == nil {
		return patternCSR(n, n, e.src, e.dst)
	}
	return weightedCSR(n, n, e.src, e.dst, e.w)
}

// weightedCSR returns the r×c matrix with value vals[k] at (rows[k], cols[k]); a
// repeated position keeps the largest of its values. Cost O(r + t + Σ_i d_i log d_i).
func weightedCSR(r, c int, rows, cols []int32, vals []float64) (*sparse.CSR, error) {
	ptr, next := rowOffsets(r, rows)
	ind := make([]int, len(rows))
	val := make([]float64, len(rows))
	for k, i := range rows {
		ind[next[i]] = int(cols[k])
		val[next[i]] = vals[k]
		next[i]++
	}
	w := 0
	for i := 0; i < r; i++ {
		lo, hi := ptr[i], ptr[i+1]
		sort.Sort(rowEntries{ind[lo:hi], val[lo:hi]})
		ptr[i] = w
		for k := lo; k < hi; k++ {
			if w > ptr[i] && ind[w-1] == ind[k] {
				val[w-1] = max(val[w-1], val[k])
				continue
			}
			ind[w], val[w] = ind[k], val[k]
			w++
		}
	}
	ptr[r] = w
	return sparse.NewCSR(r, c, ptr, ind[:w:w], val[:w:w])
}

// rowEntries sorts a row's columns, carrying the values along.
type rowEntries struct {
	ind []int
	val []float64
}

func (s rowEntries) Len() int           { return len(s.ind) }
func (s rowEntries) Less(a, b int) bool { return s.ind[a] < s.ind[b] }
func (s rowEntries) Swap(a, b int) {
	s.ind[a], s.ind[b] = s.ind[b], s.ind[a]
	s.val[a], s.val[b] = s.val[b], s.val[a]
}

// classIndex turns one class name per vertex into class indices and the sorted class
// names: sorted numerically when every name is an integer, else by string. Cost
// O(n + K log K).
func classIndex(raw []string) (labels []int, names []string) {
	classes := make(map[string]int)
	for _, l := range raw {
		if _, ok := classes[l]; !ok {
			classes[l] = 0
			names = append(names, l)
		}
	}
	numeric := true
	nums := make(map[string]int64, len(names))
	for _, c := range names {
		v, err := strconv.ParseInt(c, 10, 64)
		if err != nil {
			numeric = false
			break
		}
		nums[c] = v
	}
	if numeric {
		sort.Slice(names, func(a, b int) bool {
			if nums[names[a]] != nums[names[b]] {
				return nums[names[a]] < nums[names[b]]
			}
			return names[a] < names[b]
		})
	} else {
		sort.Strings(names)
	}
	for k, c := range names {
		classes[c] = k
	}
	labels = make([]int, len(raw))
	for i, l := range raw {
		labels[i] = classes[l]
	}
	return labels, names
}

// setPartialLabels sets g's labels from a labels source (what: a file, or an archive's
// array, as messages name it) in which some vertices have no label (has[i] false, their
// labels written as how, e.g. "NaN or negative"): the others' classes are raw's, and a
// warning says how many are unlabelled. When none has a label it sets nothing and
// reports none, for the caller to refuse the source or read the graph unlabeled. column
// is checkLabels' (the labels are the last column of a table of numbers).
func setPartialLabels(g *Graph, rep *LoadReport, what string, raw []string, has []bool, how string, column bool) (none bool) {
	n := len(raw)
	unlabelled := n
	for _, h := range has {
		if h {
			unlabelled--
		}
	}
	if unlabelled == n {
		return true
	}
	if unlabelled > 0 {
		rep.warn("%s: %d of %d vertices have no label (%s), read as unlabelled: the metrics score the %d labelled vertices; all are clustered", what, unlabelled, n, how, n-unlabelled)
	}
	g.Labels, g.ClassNames = classIndexPartial(raw, has)
	checkLabels(rep, what, g.Labels, g.ClassNames, column)
	return false
}

// missingLabel reports whether a label as written means that the vertex has none: an
// empty field (how pandas' to_csv writes NaN) or NaN.
func missingLabel(s string) bool { return s == "" || strings.EqualFold(s, "nan") }

// setLabelsNone is what the messages about labels that may not be labels tell a user to
// do, in a config's words and the command line's.
const setLabelsNone = "set labels: none (--labels none)"

// classIndexPartial is classIndex for a partly labelled graph: vertex i has a label when
// has[i] (raw[i] is its class name), else the label Unlabeled.
func classIndexPartial(raw []string, has []bool) (labels []int, names []string) {
	var known []string
	for i, h := range has {
		if h {
			known = append(known, raw[i])
		}
	}
	kl, names := classIndex(known)
	labels = make([]int, len(raw))
	k := 0
	for i, h := range has {
		if h {
			labels[i] = kl[k]
			k++
		} else {
			labels[i] = Unlabeled
		}
	}
	return labels, names
}

// headerWords are column names that mark a header row.
var headerWords = map[string]bool{
	"id": true, "ids": true, "node": true, "nodes": true, "node_id": true, "nodeid": true,
	"vertex": true, "vertex_id": true, "paper_id": true, "name": true, "label": true,
	"labels": true, "class": true, "target": true, "category": true,
	"source": true, "src": true, "from": true, "to": true, "dst": true, "destination": true,
	"weight": true, "value": true, "feature": true, "column": true, "col": true,
	"node1": true, "node2": true,
}

// isHeaderWord reports whether tok reads like a column name ("id", "label", ...).
func isHeaderWord(tok []byte) bool {
	if len(tok) > 16 {
		return false
	}
	return headerWords[strings.ToLower(string(tok))]
}

// checkLabels adds to rep the warnings about a label column that looks misread: numeric
// labels that are not integers, very many classes, or 0/1 labels with a tiny minority
// class (the signature of a 0/1 attribute read as labels). what names the source, e.g.
// "the last column of cora.content". When column, the labels were read from the last
// column of a table whose other columns are numbers; then integer labels get a note even
// when nothing else looks wrong, since an attribute column of small counts or 0/1 values
// cannot be told from a class column.
func checkLabels(rep *LoadReport, what string, labels []int, names []string, column bool) {
	n, k := 0, len(names)
	for _, l := range labels {
		if l >= 0 {
			n++
		}
	}
	if n == 0 {
		return
	}
	numeric, integer := true, true
	for _, c := range names {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil {
			numeric = false
			break
		}
		if v != math.Trunc(v) {
			integer = false
		}
	}
	hint := "if the data has no labels, " + setLabelsNone
	switch {
	case numeric && !integer:
		rep.warn("labels from %s are fractional numbers (%d distinct): this looks like an attribute column, not classes; %s", what, k, hint)
	case k > 1000 || n >= 50 && k*2 > n:
		rep.warn("labels from %s take %d distinct values for %d vertices: this looks like an attribute or id column, not classes; %s", what, k, n, hint)
	case numeric && k == 2 && (names[0] == "0" && names[1] == "1"):
		sizes := [2]int{}
		for _, l := range labels {
			if l >= 0 {
				sizes[l]++
			}
		}
		if small := min(sizes[0], sizes[1]); small*20 < n {
			rep.warn("labels from %s are 0/1 with only %d vertices in the smaller class: this looks like a 0/1 attribute read as labels; %s", what, small, hint)
		} else if column {
			rep.note("labels from %s are the numbers 0 and 1; if the file has no label column, "+setLabelsNone, what)
		}
	case k == 1:
		rep.warn("labels from %s name a single class for every vertex; %s", what, hint)
	case numeric && column:
		rep.note("labels from %s are numbers (%d classes); if the file has no label column, "+setLabelsNone, what, k)
	}
}

// textFile walks the data lines of a delimited text file, skipping blank lines and
// comment lines (first non-blank byte '#' or '%'), and splits them into fields.
// The separator is fixed by the first data line: a tab if it holds one, else a comma if
// it holds one, else runs of spaces. Fields are trimmed of surrounding spaces and of one
// pair of enclosing double quotes; quoted fields may not contain the separator.
type textFile struct {
	path   string
	data   []byte
	ln     int    // number of the current line
	sep    byte   // '\t', ',' or 0 for whitespace; set by the first data line
	fields []int  // field boundaries of the current line: start, end, ...
	line   []byte // the current line
	sepSet bool
	// skipFirst drops the first field of every line after the header: pandas' unnamed
	// index column, which df.to_csv() writes unless told index=False.
	skipFirst bool
}

// newTextFile returns a textFile over data, which was read from path.
func newTextFile(path string, data []byte) *textFile {
	return &textFile{path: path, data: bytes.TrimPrefix(data, bom)}
}

// next advances to the next data line and returns its number of fields, or -1 at the
// end of the file.
func (t *textFile) next() int {
	for len(t.data) > 0 {
		t.ln++
		t.line, t.data = nextLine(t.data)
		lo := 0
		for lo < len(t.line) && isSpace(t.line[lo]) {
			lo++
		}
		if lo == len(t.line) || t.line[lo] == '#' || t.line[lo] == '%' {
			continue
		}
		if !t.sepSet {
			t.sepSet = true
			t.sep = separator(t.line)
		}
		return t.split()
	}
	return -1
}

// separator returns the separator of a file whose first data line is line: a tab, else a
// semicolon (as spreadsheets write CSV where the comma is the decimal mark), else a
// comma, the first that occurs outside quoted fields (as split reads them); 0 (runs of
// spaces) when none does.
func separator(line []byte) byte {
	for _, sep := range []byte{'\t', ';', ','} {
		if fieldEnd(line, 0, sep) < len(line) {
			return sep
		}
	}
	return 0
}

// fieldEnd returns the index of the separator sep that ends the field starting at
// line[start], or len(line) for the last field. A field whose first character other than
// a space is a double quote runs to its closing quote ("" standing for a quote inside),
// separators included.
func fieldEnd(line []byte, start int, sep byte) int {
	quoted := false
	for i := start; i < len(line); i++ {
		switch c := line[i]; {
		case c == '"' && quoted && i+1 < len(line) && line[i+1] == '"':
			i++
		case c == '"' && quoted:
			quoted = false
		case c == '"' && len(bytes.TrimLeft(line[start:i], " ")) == 0:
			quoted = true
		case c == sep && !quoted:
			return i
		}
	}
	return len(line)
}

// split fills t.fields for t.line and returns the number of fields.
func (t *textFile) split() int {
	line := t.line
	f := t.fields[:0]
	if t.sep == 0 {
		i, n := 0, len(line)
		for {
			for i < n && spaces[line[i]] {
				i++
			}
			if i == n {
				break
			}
			s := i
			for i < n && !spaces[line[i]] {
				i++
			}
			e := i
			if e-s >= 2 && line[s] == '"' && line[e-1] == '"' {
				s, e = s+1, e-1
			}
			f = append(f, s, e)
		}
		if t.skipFirst && len(f) >= 2 {
			copy(f, f[2:])
			f = f[:len(f)-2]
		}
		t.fields = f
		return len(f) / 2
	}
	hi := len(line)
	for hi > 0 && spaces[line[hi-1]] {
		hi--
	}
	sep := t.sep
	for start := 0; start <= hi; {
		i := fieldEnd(line[:hi], start, sep)
		s, e := start, i
		for s < e && spaces[line[s]] {
			s++
		}
		for e > s && spaces[line[e-1]] {
			e--
		}
		if e-s >= 2 && line[s] == '"' && line[e-1] == '"' {
			s, e = s+1, e-1
		}
		if sep == ';' {
			decimalPoint(line[s:e])
		}
		f = append(f, s, e)
		start = i + 1
	}
	if t.skipFirst && len(f) >= 2 {
		copy(f, f[2:])
		f = f[:len(f)-2]
	}
	t.fields = f
	return len(f) / 2
}

// decimalPoint rewrites, in place, a number written with a decimal comma ("0,5",
// "-1,25e-3", as spreadsheets write numbers in a semicolon-separated file) with a decimal
// point; any other field is left as it is.
func decimalPoint(field []byte) {
	comma, digits := -1, 0
	for i, c := range field {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == ',' && comma < 0 && digits > 0 && i+1 < len(field) && field[i+1] >= '0' && field[i+1] <= '9':
			comma = i
		case (c == '-' || c == '+') && (i == 0 || field[i-1] == 'e' || field[i-1] == 'E'):
		case (c == 'e' || c == 'E') && comma >= 0 && i > comma+1:
		default:
			return
		}
	}
	if comma >= 0 {
		field[comma] = '.'
	}
}

// field returns field k of the current line.
func (t *textFile) field(k int) []byte { return t.line[t.fields[2*k]:t.fields[2*k+1]] }

// errorf returns a *ParseError at the current line.
func (t *textFile) errorf(format string, args ...any) error {
	return &ParseError{File: t.path, Line: t.ln, Msg: fmt.Sprintf(format, args...)}
}

// fillMissing says what to do about a missing value in a file written from Python.
const fillMissing = "fill the missing values before writing the file (pandas: df.fillna(0); numpy: np.nan_to_num(X))"

// missingMarkers are the strings other than "" and NaN's spellings that pandas'
// read_csv takes for a missing value (its default na_values), as data written by R, SQL
// exports, pandas' nullable types and spreadsheets hold them.
var missingMarkers = []string{"NA", "<NA>", "N/A", "n/a", "#N/A", "#N/A N/A", "#NA", "NULL", "null", "None", "-nan", "-NaN",
	"-1.#IND", "1.#IND", "-1.#QNAN", "1.#QNAN"}

// isMissing reports whether tok is one of missingMarkers.
func isMissing(tok []byte) bool { return slices.Contains(missingMarkers, string(tok)) }

// parseValue parses tok as a finite number ≥ 0 (an attribute value or edge weight) of
// at most maxValue. what names the value in an error, e.g. "weight", followed by col when
// col > 0 ("attribute column 3"). It allocates only for an error.
func parseValue(tok []byte, what string, col int, maxValue float64) (float64, error) {
	if len(tok) == 1 && (tok[0] == '0' || tok[0] == '1') {
		return float64(tok[0] - '0'), nil
	}
	v, err := strconv.ParseFloat(string(tok), 64)
	if err == nil && v >= 0 && v <= maxValue {
		return v + 0, nil // +0 turns −0 into 0
	}
	if col > 0 {
		what = fmt.Sprintf("%s %d", what, col)
	}
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			if len(tok) == 0 {
				return 0, fmt.Errorf("%s: \"\" is not a number: the field is empty, a missing value as pandas writes NaN; %s", what, fillMissing)
			}
			if isMissing(tok) {
				return 0, fmt.Errorf("%s: %q is not a number: it marks a missing value (pandas reads it as NaN); %s", what, tok, fillMissing)
			}
			return 0, fmt.Errorf("%s: %q is not a number", what, tok)
		}
	}
	switch {
	case math.IsNaN(v):
		return 0, fmt.Errorf("%s: value %q is NaN, a missing value; %s", what, tok, fillMissing)
	case math.IsInf(v, 0):
		return 0, fmt.Errorf("%s: value %q is infinite", what, tok)
	case v < 0:
		return 0, fmt.Errorf("%s: value %q is negative", what, tok)
	case v > maxValue:
		return 0, fmt.Errorf("%s: value %q is too large (at most 2⁵³ = %d)", what, tok, int64(maxValue))
	}
	return v + 0, nil // +0 turns −0 into 0
}

// isNumber reports whether tok parses as a number.
func isNumber(tok []byte) bool {
	_, err := strconv.ParseFloat(string(tok), 64)
	return err == nil || err.(*strconv.NumError).Err == strconv.ErrRange
}

// tripletCSR returns the r×c matrix with value vals[k] at (rows[k], cols[k]), or a
// *ParseError naming path and the second line of a repeated position (lines[k] is the
// line of entry k); where(i, j) names position (i, j) in that message. Cost O(r + t + Σ_i d_i log d_i) for t entries.
func tripletCSR(path string, r, c int, rows, cols []int32, vals []float64, lines []int32, where func(i, j int) string) (*sparse.CSR, error) {
	t := len(rows)
	ptr, next := rowOffsets(r, rows)
	ind := make([]int, t)
	val := make([]float64, t)
	ln := make([]int32, t)
	for k, i := range rows {
		p := next[i]
		ind[p], val[p], ln[p] = int(cols[k]), vals[k], lines[k]
		next[i]++
	}
	for i := 0; i < r; i++ {
		lo, hi := ptr[i], ptr[i+1]
		sort.Sort(lineEntries{ind[lo:hi], val[lo:hi], ln[lo:hi]})
		for p := lo + 1; p < hi; p++ {
			if ind[p] == ind[p-1] {
				return nil, &ParseError{File: path, Line: int(ln[p]),
					Msg: fmt.Sprintf("second value for %s (first at line %d)", where(i, ind[p]), ln[p-1])}
			}
		}
	}
	return sparse.NewCSR(r, c, ptr, ind, val)
}

// lineEntries sorts a row's entries by column and then line.
type lineEntries struct {
	ind []int
	val []float64
	ln  []int32
}

func (s lineEntries) Len() int { return len(s.ind) }
func (s lineEntries) Less(a, b int) bool {
	return s.ind[a] < s.ind[b] || s.ind[a] == s.ind[b] && s.ln[a] < s.ln[b]
}
func (s lineEntries) Swap(a, b int) {
	s.ind[a], s.ind[b] = s.ind[b], s.ind[a]
	s.val[a], s.val[b] = s.val[b], s.val[a]
	s.ln[a], s.ln[b] = s.ln[b], s.ln[a]
}

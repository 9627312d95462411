package datasets

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// FormatOGB names an OGB node-property dataset folder (see openOGB).
const FormatOGB = "ogb"

// ogbRaw returns the folder holding an OGB dataset's raw files: path itself when it holds
// edge.csv.gz (or a plain edge.csv) beside another of OGB's raw files (num-node-list,
// num-edge-list or node-feat), else path/raw when that does, else "".
func ogbRaw(path string) string {
	for _, d := range []string{path, filepath.Join(path, "raw")} {
		if ogbFile(d, "edge.csv") == "" {
			continue
		}
		for _, f := range []string{"num-node-list.csv", "num-edge-list.csv", "node-feat.csv"} {
			if ogbFile(d, f) != "" {
				return d
			}
		}
	}
	return ""
}

// ogbFile returns dir/name.gz (name is "edge.csv", …), or dir/name when only the plain
// file exists, or "" when neither does.
func ogbFile(dir, name string) string {
	for _, p := range []string{filepath.Join(dir, name+".gz"), filepath.Join(dir, name)} {
		if isFile(p) {
			return p
		}
	}
	return ""
}

// ogbNear returns a hint for a folder that is not an OGB dataset folder but sits next to
// one: one level above (it holds dataset folders, as OGB's root= folder does) or below
// (split/, processed/, mapping/ of one); "" when there is none.
func ogbNear(path string) string {
	for _, d := range []string{path, filepath.Join(path, "raw")} {
		if ogbFile(d, "num-node-dict.csv") != "" {
			return fmt.Sprintf("; %s is a heterogeneous OGB dataset (several vertex types, as ogbn-mag): nagc reads graphs of one vertex type", d)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(path, "*", "raw")); len(m) > 0 {
		var names []string
		for _, r := range m {
			if ogbRaw(r) != "" {
				names = append(names, filepath.Dir(r))
			}
		}
		if len(names) > 0 {
			return fmt.Sprintf("; it holds the OGB dataset folder %s: give that folder", strings.Join(names, ", "))
		}
	}
	d := filepath.Clean(path)
	if abs, err := filepath.Abs(d); err == nil && strings.HasPrefix(d, ".") {
		d = abs
	}
	for k := 0; k < 2; k++ {
		d = filepath.Dir(d)
		if ogbRaw(d) != "" {
			return fmt.Sprintf("; it lies inside the OGB dataset folder %s: give that folder", d)
		}
	}
	return ""
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// openOGB reads an Open Graph Benchmark node-property dataset as the OGB library
// downloads it (ogb.nodeproppred.NodePropPredDataset, e.g. dataset/ogbn_arxiv): Spec.Path
// is the dataset folder or its raw/ folder, which holds gzipped CSV files without header
// lines:
//
//	num-node-list.csv.gz  one line: the number of vertices n
//	num-edge-list.csv.gz  one line: the number of edges (optional; checked when present)
//	edge.csv.gz           one edge a line, "source,target", vertices numbered 0 … n−1
//	node-feat.csv.gz      n lines of m comma-separated numbers (optional)
//	node-label.csv.gz     n lines of one class number (optional)
//
// The graph is read undirected (an edge in both directions is stored once; OGB's directed
// ogbn-arxiv becomes its undirected version, as graph clustering uses it). The features
// are kept dense as float32, as the OGB library loads them. Labels "none" or a label file
// override node-label.csv.gz; a NaN, empty or negative label marks an unlabelled vertex
// (as in ogbn-papers100M), warned; a label file with several columns (multi-task
// datasets) or labels that are not whole numbers leave the graph unlabeled, with a
// warning. split/ and mapping/ are not read.
//
// What pandas writes is read as meant (noted in the report): a file not gzipped (or
// named without .gz), a first line of column names, pandas' index column (which must
// then count the rows 0, 1, 2, …), vertex ids written as floats ("3.0").
func openOGB(s Spec) (*Graph, *LoadReport, error) {
	raw := ogbRaw(s.Path)
	if raw == "" {
		return nil, nil, &ParseError{File: s.Path, Msg: "not an OGB dataset folder: neither it nor its raw/ folder holds edge.csv.gz and num-node-list.csv.gz" + ogbNear(s.Path)}
	}
	rep := &LoadReport{Format: FormatOGB}
	nnl := ogbFile(raw, "num-node-list.csv")
	if nnl == "" {
		return nil, nil, &ParseError{File: raw, Msg: "holds edge.csv.gz but no num-node-list.csv.gz, the file giving the number of vertices n on one line; write it as OGB does: pd.DataFrame([n]).to_csv(\"num-node-list.csv.gz\", header=False, index=False)"}
	}
	counts, err := readOGBInts(nnl, 1<<20, rep)
	if err != nil {
		return nil, nil, err
	}
	if len(counts) == 2 && counts[0] == 0 {
		return nil, nil, &ParseError{File: nnl, Msg: fmt.Sprintf("holds two lines, 0 and %d: is the 0 the column name pandas writes with header=True? OGB's files have no header line: write them with header=False, index=False", counts[1])}
	}
	if len(counts) != 1 {
		return nil, nil, &ParseError{File: nnl, Msg: fmt.Sprintf("holds %d vertex counts, one a line: a graph-property dataset (ogbg-*, one graph a line); nagc clusters the one graph of a node-property dataset (ogbn-*)", len(counts))}
	}
	if counts[0] <= 0 {
		return nil, nil, &ParseError{File: nnl, Line: 1, Msg: fmt.Sprintf("says the graph has %d vertices; want a positive number", counts[0])}
	}
	n := int(counts[0])
	if err := checkVertexCount(nnl, n); err != nil {
		return nil, nil, err
	}
	if err := checkVertices(counts[0], nnl); err != nil {
		return nil, nil, err
	}
	rep.Files = append(rep.Files, nnl)
	wantEdges := -1
	if p := ogbFile(raw, "num-edge-list.csv"); p != "" {
		c, err := readOGBInts(p, 1<<20, rep)
		if err != nil {
			return nil, nil, err
		}
		if len(c) != 1 || c[0] < 0 {
			return nil, nil, &ParseError{File: p, Msg: fmt.Sprintf("holds %v; want one edge count (a whole number ≥ 0) for the one graph", c)}
		}
		wantEdges = int(c[0])
		rep.Files = append(rep.Files, p)
	}
	edgeFile := ogbFile(raw, "edge.csv")
	adj, edges, first, err := readOGBEdges(edgeFile, n, wantEdges, rep)
	if err != nil {
		return nil, nil, err
	}
	rep.Files = append(rep.Files, edgeFile)
	if wantEdges >= 0 && edges != wantEdges {
		return nil, nil, &ParseError{File: edgeFile, Msg: fmt.Sprintf("holds %d edges, but num-edge-list.csv.gz says %d%s", edges, wantEdges, headerHint(first, edges == wantEdges+1))}
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i)
	}
	g := &Graph{IDs: ids, Adj: adj}
	if p := ogbFile(raw, "node-feat.csv"); p != "" {
		x, err := readOGBFeatures(p, n, rep)
		if err != nil {
			return nil, nil, err
		}
		g.X = x
		rep.Files = append(rep.Files, p)
	} else {
		g.X = NoColumns(n)
	}
	switch {
	case s.Labels == LabelsNone:
	case s.Labels == LabelsFile || s.LabelFile != "":
		f, err := labelFileFor(s, raw)
		if err != nil {
			return nil, nil, err
		}
		if err := applyLabelFile(g, rep, f, s.AllowDropped); err != nil {
			return nil, nil, err
		}
	case ogbFile(raw, "node-label.csv") != "":
		p := ogbFile(raw, "node-label.csv")
		rep.Files = append(rep.Files, p)
		if err := readOGBLabels(g, rep, p); err != nil {
			return nil, nil, err
		}
	case s.Labels == LabelsColumn:
		return nil, nil, &ParseError{File: raw, Msg: "labels: column, but the folder holds no node-label.csv.gz"}
	}
	return g, rep, nil
}

// ogbLines calls fn with every line (without its end) of the text file path, gzipped or
// not, and its 1-based number, streaming; maxLine bounds a line's length. Empty lines are
// skipped unless keepEmpty (an empty line after the last line end never counts). When fn
// fails on gzip data, the rest of the file is checked, so that corrupt gzip data is
// named as such rather than as the garbage it decompressed to.
func ogbLines(path string, maxLine int, keepEmpty bool, fn func(line []byte, no int) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fb := bufio.NewReaderSize(f, 1<<16)
	var src io.Reader = fb
	var zr *gzip.Reader
	if isGzip(fb) {
		if zr, err = gzip.NewReader(fb); err != nil {
			return &ParseError{File: path, Msg: fmt.Sprintf("not readable gzip data (%v); OGB's raw files are gzipped CSV", err)}
		}
		src = zr
	}
	br := bufio.NewReaderSize(src, 1<<20)
	if err := checkNotBinary(path, br); err != nil {
		return err
	}
	corrupt := func(ferr error) error {
		if zr == nil {
			return ferr
		}
		if _, err := io.Copy(io.Discard, br); err != nil {
			return &ParseError{File: path, Msg: fmt.Sprintf("is corrupt gzip data (%v): download it or write it again", err)}
		}
		return ferr
	}
	var long []byte
	for no := 1; ; no++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				if len(long) > maxLine {
					return corrupt(&ParseError{File: path, Line: no, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)})
				}
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && err != io.EOF {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("cannot be read (%v): a truncated or corrupt gzip file; download it or write it again", err)}
		}
		t := line
		for len(t) > 0 && (t[len(t)-1] == '\n' || t[len(t)-1] == '\r') {
			t = t[:len(t)-1]
		}
		if len(t) > 0 || keepEmpty && len(line) > 0 {
			if ferr := fn(t, no); ferr != nil {
				return corrupt(ferr)
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// checkNotBinary refuses a file whose text (after gzip) is not text: its first bytes hold
// a NUL or another control character (a binary file, or another compression).
func checkNotBinary(path string, br *bufio.Reader) error {
	head, _ := br.Peek(512)
	for _, c := range head {
		if control[c] {
			return &ParseError{File: path, Msg: fmt.Sprintf("is not CSV text (it holds the byte 0x%02X near its start: a binary file, or compressed other than by gzip); OGB's raw files are gzipped CSV", c)}
		}
	}
	return nil
}

// ogbTable reads the lines of an OGB CSV file as ogbLines does, passing fn the data
// lines only and their 0-based row: a first line of column names (a field that is not a
// number: "src,dst", or pandas' ",0,1" whose empty first field names its index column) is
// skipped and noted in rep; pandas' index column is checked to count the rows 0, 1, 2, …
// (else the rows are not in vertex order) and removed.
func ogbTable(path string, maxLine int, keepEmpty bool, rep *LoadReport, fn func(line []byte, no, row int) error) error {
	index := false
	row := 0
	first := true
	return ogbLines(path, maxLine, keepEmpty, func(line []byte, no int) error {
		if first {
			first = false
			if isOGBHeader(line) {
				index = len(line) > 0 && line[0] == ','
				what := ""
				if index {
					what = ", with pandas' index column, which is skipped"
				}
				rep.note("%s:%d read as a line of column names (%q)%s; OGB's own files have none", path, no, truncate(line), what)
				return nil
			}
		}
		if index {
			k := bytes.IndexByte(line, ',')
			idx := line
			if k >= 0 {
				idx = line[:k]
			}
			if v, err := strconv.Atoi(strings.TrimSpace(string(idx))); err != nil || v != row {
				return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("the first value, %q, of pandas' index column is not the row number %d: the rows are not in vertex order (sort the frame, or write it with index=False)", truncate(idx), row)}
			}
			if k < 0 {
				line = nil
			} else {
				line = line[k+1:]
			}
		}
		err := fn(line, no, row)
		row++
		return err
	})
}

// isOGBHeader reports whether line is a line of column names rather than data: one of
// its fields is not a number, or its first field is empty and every other one an
// integer (pandas' header ",0,1" of an unnamed index and default column names).
func isOGBHeader(line []byte) bool {
	fields := strings.Split(string(line), ",")
	if len(fields) > 1 && strings.TrimSpace(fields[0]) == "" {
		for _, f := range fields[1:] {
			if _, err := strconv.Atoi(strings.TrimSpace(f)); err != nil {
				return isWordField(f)
			}
		}
		return true
	}
	for _, f := range fields {
		if isWordField(f) {
			return true
		}
	}
	return false
}

// isWordField reports whether a CSV field is a name: it starts with a letter or an
// underscore and is not a number (NaN, inf).
func isWordField(f string) bool {
	f = strings.Trim(strings.TrimSpace(f), "\"")
	if f == "" || !(f[0] == '_' || f[0] >= 'a' && f[0] <= 'z' || f[0] >= 'A' && f[0] <= 'Z') {
		return false
	}
	return !isNumber([]byte(f))
}

// readOGBInts reads a file of one integer a line (at most limit lines).
func readOGBInts(path string, limit int, rep *LoadReport) ([]int64, error) {
	var out []int64
	err := ogbTable(path, 1<<10, false, rep, func(line []byte, no, _ int) error {
		v, err := parseWhole(line)
		if err != nil {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("%q is not a whole number", truncate(line))}
		}
		if len(out) == limit {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("more than %d lines", limit)}
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// parseWhole parses a whole number written as an integer or, as pandas writes a column
// that once held NaN, as a float ("3.0"); a float with a fractional part or beyond 2⁵³
// is an error.
func parseWhole(field []byte) (int64, error) {
	s := strings.TrimSpace(string(field))
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, errors.New("not a whole number")
	}
	return int64(f), nil
}

// parseVertex parses a vertex number from a CSV field: digits, or a whole float ("3.0").
// ok is false for a field that is not a whole number.
func parseVertex(field []byte) (v int64, ok bool) {
	if len(field) > 0 && len(field) <= 10 {
		plain := true
		for _, c := range field {
			if c < '0' || c > '9' {
				plain = false
				break
			}
			v = v*10 + int64(c-'0')
		}
		if plain {
			return v, true
		}
	}
	v, err := parseWhole(field)
	return v, err == nil
}

// readOGBEdges reads edge.csv.gz into the symmetric 0/1 adjacency of n vertices and
// returns it with the number of edge lines. want, when ≥ 0, is the stated edge count,
// whose memory is checked before reading. A graph where vertex 0 has no edge is warned
// about in rep: OGB numbers vertices from 0, and ids counted from 1 would read one off.
func readOGBEdges(path string, n, want int, rep *LoadReport) (adj *sparse.CSR, count int, first string, err error) {
	if want >= 0 {
		// Two int32 copies of each direction, then the CSR (an int and a float64 each).
		if err := memory.Check(fmt.Sprintf("reading the %d edges num-edge-list.csv.gz announces for %s", want, path), memory.Bytes(int64(want), 2*(8+16))); err != nil {
			return nil, 0, "", err
		}
	}
	var rows, cols []int32
	if want > 0 {
		rows, cols = make([]int32, 0, 2*want), make([]int32, 0, 2*want)
	}
	zeroSeen := false
	err = ogbTable(path, 1<<10, false, rep, func(line []byte, no, row int) error {
		if row == 0 {
			first = string(line)
		}
		k := bytes.IndexByte(line, ',')
		if k < 0 {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("%q is not an edge \"source,target\" (two vertex numbers separated by a comma, as OGB writes them)", truncate(line))}
		}
		if bytes.IndexByte(line[k+1:], ',') >= 0 {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("%q has %d values; an edge line is \"source,target\" (a pandas index column? write the frame with index=False; edge weights or features go in edge-feat.csv.gz, which nagc does not read)", truncate(line), bytes.Count(line, []byte{','})+1)}
		}
		var ends [2]int32
		for e, field := range [][]byte{line[:k], line[k+1:]} {
			v, ok := parseVertex(bytes.TrimSpace(field))
			if !ok {
				return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("%q: the vertex %q is not a whole number (vertices are numbered 0 … %d)", truncate(line), truncate(field), n-1)}
			}
			if v < 0 || v >= int64(n) {
				hint := "; is num-node-list.csv.gz too small?"
				if v == int64(n) && !zeroSeen && ends[0] != 0 {
					hint = "; no edge so far names vertex 0, and an id of n suggests ids counted from 1: OGB counts from 0, so subtract 1 from every id"
				}
				return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("%q: vertex %d is outside 0 … %d (num-node-list.csv.gz says n = %d)%s", truncate(line), v, n-1, n, hint)}
			}
			ends[e] = int32(v)
		}
		zeroSeen = zeroSeen || ends[0] == 0 || ends[1] == 0
		if want < 0 && count >= 1<<16 && count&(count-1) == 0 {
			// No stated count: check the memory of the edges read so far, doubled, as the
			// arrays grow (a gzip file of a few MB can hold billions of lines).
			if err := memory.Check(fmt.Sprintf("reading the more than %d edges of %s", count, path), memory.Bytes(int64(2*count), 2*(8+16))); err != nil {
				return err
			}
		}
		rows, cols = append(rows, ends[0], ends[1]), append(cols, ends[1], ends[0])
		count++
		return nil
	})
	if err != nil {
		return nil, 0, "", err
	}
	if !zeroSeen && count > 0 && n > 1 {
		rep.warn("%s: no edge names vertex 0; OGB numbers vertices from 0, so if the ids count from 1 every edge lands one vertex off (subtract 1 from every id)", path)
	}
	adj, err = patternCSR(n, n, rows, cols)
	return adj, count, first, err
}

// headerHint returns, when more says the file has one data line too many and first (its
// first line) is the column names pandas writes for a frame of default columns with
// header=True ("0", "0,1", "0,1,2", …), a hint saying so; else "".
func headerHint(first string, more bool) string {
	if !more || first == "" {
		return ""
	}
	for k, f := range strings.Split(first, ",") {
		if strings.TrimSpace(f) != strconv.Itoa(k) {
			return ""
		}
	}
	return fmt.Sprintf(" (is line 1, %q, the column names pandas writes with header=True? OGB's files have no header line: write them with header=False, index=False)", truncate([]byte(first)))
}

// readOGBFeatures reads node-feat.csv.gz: n lines of m comma-separated numbers, as a
// dense float32 matrix (m from the first line; memory checked before allocating).
func readOGBFeatures(path string, n int, rep *LoadReport) (*dense.Matrix, error) {
	var data []float32
	m, rows := -1, 0
	first := ""
	err := ogbTable(path, 1<<26, false, rep, func(line []byte, no, row int) error {
		if m < 0 {
			first = string(line)
			m = 1 + bytes.Count(line, []byte{','})
			if err := memory.Check(fmt.Sprintf("reading the %d×%d features of %s", n, m, path), memory.Bytes(int64(n), 4*m)); err != nil {
				return err
			}
			data = make([]float32, n*m)
		}
		if row == n {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("more feature lines than the %d vertices of num-node-list.csv.gz%s", n, headerHint(first, true))}
		}
		out := data[row*m : (row+1)*m]
		j := 0
		for start := 0; start <= len(line); {
			end := start
			for end < len(line) && line[end] != ',' {
				end++
			}
			if j == m {
				return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("more than the %d values of the first line", m)}
			}
			v, err := strconv.ParseFloat(string(line[start:end]), 32)
			if err != nil { // "0.5, 1.0" as some writers space them
				v, err = strconv.ParseFloat(string(bytes.TrimSpace(line[start:end])), 32)
			}
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("value %d, %q, is not a finite number (features must be numbers; pandas writes NaN as an empty field)", j+1, truncate(line[start:end]))}
			}
			out[j] = float32(v)
			j++
			start = end + 1
		}
		if j != m {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("%d values; the first line has %d", j, m)}
		}
		rows = row + 1
		return nil
	})
	if err != nil {
		return nil, err
	}
	if rows != n {
		return nil, &ParseError{File: path, Msg: fmt.Sprintf("%d feature lines for the %d vertices of num-node-list.csv.gz", rows, n)}
	}
	if m < 0 {
		m = 0
	}
	return dense.NewMatrix32(n, m, data), nil
}

// readOGBLabels reads node-label.csv.gz, one class number a line, into g's labels. A
// NaN label (written by pandas as an empty field, or as nan) or a negative one marks an
// unlabelled vertex, warned in rep, as ogbn-papers100M marks most of its vertices; a
// class written as a float ("3.0") is that class. A multi-column file (a multi-task
// dataset) or a label that is not a whole number leaves g unlabeled, with a warning.
func readOGBLabels(g *Graph, rep *LoadReport, path string) error {
	n := g.N()
	raw := make([]string, n)
	has := make([]bool, n)
	rows := 0
	why, first := "", ""
	err := ogbTable(path, 1<<16, true, rep, func(line []byte, no, row int) error {
		if row == 0 {
			first = string(line)
		}
		if why != "" {
			return nil
		}
		if row >= n {
			if len(bytes.TrimSpace(line)) == 0 {
				return nil // empty lines at the end of the file
			}
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("more label lines than the %d vertices of num-node-list.csv.gz%s", n, headerHint(first, true))}
		}
		rows = row + 1
		t := strings.Trim(strings.TrimSpace(string(line)), "\"")
		if strings.Contains(t, ",") {
			why = fmt.Sprintf("line %d has several labels (a multi-task dataset)", no)
			return nil
		}
		if t == "" || strings.EqualFold(t, "nan") {
			return nil // an unlabelled vertex
		}
		v, err := parseWhole([]byte(t))
		if err != nil {
			why = fmt.Sprintf("line %d holds %q, not a class number", no, truncate(line))
			return nil
		}
		if v < 0 {
			return nil // an unlabelled vertex
		}
		raw[row], has[row] = strconv.FormatInt(v, 10), true
		return nil
	})
	if err != nil {
		return err
	}
	if why != "" {
		rep.warn("%s: %s; the graph is read unlabeled", path, why)
		return nil
	}
	if rows != n {
		return &ParseError{File: path, Msg: fmt.Sprintf("%d label lines for the %d vertices of num-node-list.csv.gz", rows, n)}
	}
	if setPartialLabels(g, rep, path, raw, has, "NaN, empty or negative", false) {
		rep.warn("%s: every label is NaN, empty or negative (no vertex is labelled); the graph is read unlabeled", path)
	}
	return nil
}

package datasets

import (
	"bufio"
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
// edge.csv.gz and num-node-list.csv.gz, else path/raw when that does, else "".
func ogbRaw(path string) string {
	for _, d := range []string{path, filepath.Join(path, "raw")} {
		if isFile(filepath.Join(d, "edge.csv.gz")) && isFile(filepath.Join(d, "num-node-list.csv.gz")) {
			return d
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
// override node-label.csv.gz; a label that is not a whole number (NaN marks an unlabeled
// vertex in some OGB datasets) or a label file with several columns (multi-task datasets)
// leaves the graph unlabeled, with a warning. split/ and mapping/ are not read.
func openOGB(s Spec) (*Graph, *LoadReport, error) {
	raw := ogbRaw(s.Path)
	if raw == "" {
		return nil, nil, &ParseError{File: s.Path, Msg: "not an OGB dataset folder: neither it nor its raw/ folder holds edge.csv.gz and num-node-list.csv.gz"}
	}
	rep := &LoadReport{Format: FormatOGB}
	file := func(name string) string { return filepath.Join(raw, name) }
	counts, err := readOGBInts(file("num-node-list.csv.gz"), 1<<20)
	if err != nil {
		return nil, nil, err
	}
	if len(counts) != 1 || counts[0] < 0 {
		return nil, nil, &ParseError{File: file("num-node-list.csv.gz"), Msg: fmt.Sprintf("holds %d numbers; a node-property dataset has one graph, so one vertex count", len(counts))}
	}
	n := int(counts[0])
	if err := checkVertexCount(file("num-node-list.csv.gz"), n); err != nil {
		return nil, nil, err
	}
	rep.Files = append(rep.Files, file("num-node-list.csv.gz"))
	wantEdges := -1
	if p := file("num-edge-list.csv.gz"); isFile(p) {
		c, err := readOGBInts(p, 1<<20)
		if err != nil {
			return nil, nil, err
		}
		if len(c) != 1 || c[0] < 0 {
			return nil, nil, &ParseError{File: p, Msg: fmt.Sprintf("holds %d numbers; want one edge count", len(c))}
		}
		wantEdges = int(c[0])
		rep.Files = append(rep.Files, p)
	}
	adj, edges, err := readOGBEdges(file("edge.csv.gz"), n, wantEdges)
	if err != nil {
		return nil, nil, err
	}
	rep.Files = append(rep.Files, file("edge.csv.gz"))
	if wantEdges >= 0 && edges != wantEdges {
		return nil, nil, &ParseError{File: file("edge.csv.gz"), Msg: fmt.Sprintf("holds %d edges, but num-edge-list.csv.gz says %d", edges, wantEdges)}
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i)
	}
	g := &Graph{IDs: ids, Adj: adj}
	if p := file("node-feat.csv.gz"); isFile(p) {
		if g.XDense, err = readOGBFeatures(p, n); err != nil {
			return nil, nil, err
		}
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
	case isFile(file("node-label.csv.gz")):
		p := file("node-label.csv.gz")
		rep.Files = append(rep.Files, p)
		if err := readOGBLabels(g, rep, p); err != nil {
			return nil, nil, err
		}
	case s.Labels == LabelsColumn:
		return nil, nil, &ParseError{File: raw, Msg: "labels: column, but the folder holds no node-label.csv.gz"}
	}
	return g, rep, nil
}

// ogbLines calls fn with every line (without its end) of the gzipped text file path and
// its 1-based number, streaming; maxLine bounds a line's length.
func ogbLines(path string, maxLine int, fn func(line []byte, no int) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		return &ParseError{File: path, Msg: fmt.Sprintf("not readable gzip data (%v); OGB's raw files are gzipped CSV", err)}
	}
	br := bufio.NewReaderSize(zr, 1<<20)
	var long []byte
	for no := 1; ; no++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				if len(long) > maxLine {
					return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
				}
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && err != io.EOF {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("cannot be read (%v; truncated gzip file?)", err)}
		}
		t := line
		for len(t) > 0 && (t[len(t)-1] == '\n' || t[len(t)-1] == '\r') {
			t = t[:len(t)-1]
		}
		if len(t) > 0 {
			if ferr := fn(t, no); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// readOGBInts reads a gzipped file of one integer a line (at most limit lines).
func readOGBInts(path string, limit int) ([]int64, error) {
	var out []int64
	err := ogbLines(path, 1<<10, func(line []byte, no int) error {
		v, err := strconv.ParseInt(strings.TrimSpace(string(line)), 10, 64)
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

// parseVertex parses a vertex number in [0, n) from a CSV field.
func parseVertex(field []byte, n int) (int32, bool) {
	if len(field) == 0 || len(field) > 10 {
		return 0, false
	}
	v := 0
	for _, c := range field {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	if v >= n {
		return 0, false
	}
	return int32(v), true
}

// readOGBEdges reads edge.csv.gz into the symmetric 0/1 adjacency of n vertices and
// returns it with the number of edge lines. want, when ≥ 0, is the stated edge count,
// whose memory is checked before reading.
func readOGBEdges(path string, n, want int) (*sparse.CSR, int, error) {
	if want >= 0 {
		// Two int32 copies of each direction, then the CSR (an int and a float64 each).
		if err := memory.Check(fmt.Sprintf("reading the %d edges num-edge-list.csv.gz announces for %s", want, path), memory.Bytes(int64(want), 2*(8+16))); err != nil {
			return nil, 0, err
		}
	}
	var rows, cols []int32
	if want > 0 {
		rows, cols = make([]int32, 0, 2*want), make([]int32, 0, 2*want)
	}
	count := 0
	err := ogbLines(path, 1<<10, func(line []byte, no int) error {
		k := 0
		for k < len(line) && line[k] != ',' {
			k++
		}
		if k == len(line) {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("%q is not an edge \"source,target\"", truncate(line))}
		}
		a, ok1 := parseVertex(line[:k], n)
		b, ok2 := parseVertex(line[k+1:], n)
		if !ok1 || !ok2 {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("%q: vertices are numbered 0 … %d (num-node-list.csv.gz says n = %d)", truncate(line), n-1, n)}
		}
		rows, cols = append(rows, a, b), append(cols, b, a)
		count++
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	adj, err := patternCSR(n, n, rows, cols)
	return adj, count, err
}

// readOGBFeatures reads node-feat.csv.gz: n lines of m comma-separated numbers, as a
// dense float32 matrix (m from the first line; memory checked before allocating).
func readOGBFeatures(path string, n int) (*dense.Matrix, error) {
	var data []float32
	m, row := -1, 0
	err := ogbLines(path, 1<<26, func(line []byte, no int) error {
		if m < 0 {
			m = 1
			for _, c := range line {
				if c == ',' {
					m++
				}
			}
			if err := memory.Check(fmt.Sprintf("reading the %d×%d features of %s", n, m, path), memory.Bytes(int64(n), 4*m)); err != nil {
				return err
			}
			data = make([]float32, n*m)
		}
		if row == n {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("more feature lines than the %d vertices of num-node-list.csv.gz", n)}
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
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("value %d, %q, is not a finite number", j+1, truncate(line[start:end]))}
			}
			out[j] = float32(v)
			j++
			start = end + 1
		}
		if j != m {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("%d values; the first line has %d", j, m)}
		}
		row++
		return nil
	})
	if err != nil {
		return nil, err
	}
	if row != n {
		return nil, &ParseError{File: path, Msg: fmt.Sprintf("%d feature lines for the %d vertices of num-node-list.csv.gz", row, n)}
	}
	if m < 0 {
		m = 0
	}
	return dense.NewMatrix32(n, m, data), nil
}

// readOGBLabels reads node-label.csv.gz, one class number a line, into g's labels. A
// multi-column file or a label that is not a whole number leaves g unlabeled, with a
// warning.
func readOGBLabels(g *Graph, rep *LoadReport, path string) error {
	n := g.N()
	raw := make([]string, 0, n)
	why := ""
	err := ogbLines(path, 1<<16, func(line []byte, no int) error {
		if why != "" {
			return nil
		}
		if len(raw) == n {
			return &ParseError{File: path, Line: no, Msg: fmt.Sprintf("more label lines than the %d vertices of num-node-list.csv.gz", n)}
		}
		t := strings.TrimSpace(string(line))
		if strings.Contains(t, ",") {
			why = fmt.Sprintf("line %d has several labels (a multi-task dataset)", no)
			return nil
		}
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || v != math.Trunc(v) || v < 0 {
			why = fmt.Sprintf("line %d holds %q, not a class number (OGB marks unlabeled vertices by NaN)", no, truncate(line))
			return nil
		}
		raw = append(raw, strconv.FormatInt(int64(v), 10))
		return nil
	})
	if err != nil {
		return err
	}
	if why != "" {
		rep.warn("%s: %s; the graph is read unlabeled", path, why)
		return nil
	}
	if len(raw) != n {
		return &ParseError{File: path, Msg: fmt.Sprintf("%d label lines for the %d vertices of num-node-list.csv.gz", len(raw), n)}
	}
	g.Labels, g.ClassNames = classIndex(raw)
	checkLabels(rep, filepath.Base(path), g.Labels, g.ClassNames, false)
	return nil
}

package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// LoadReport says what a reader made of a dataset: the size of the graph it built, the
// input it dropped and why, and what in the input looks misread. Open returns one with
// every graph; show its String to the user.
type LoadReport struct {
	// Name is the dataset name and Format the format it was read as
	// ("linqs", "edgelist", "mtx", "npz", or what NewLoadReport was given).
	Name   string `json:"name"`
	Format string `json:"format"`
	// Files lists the files read, in the order they were read.
	Files []string `json:"files,omitempty"`

	// N is the number of vertices, Edges the number of distinct undirected edges
	// (self-loops included), M the number of attribute columns, NNZ the number
	// of stored attribute values, K the number of classes (0 when unlabeled).
	N     int `json:"n"`
	Edges int `json:"edges"`
	M     int `json:"m"`
	NNZ   int `json:"nnz"`
	K     int `json:"k"`
	// SelfLoops counts the vertices with a self-loop and Isolated the vertices
	// without an edge to another vertex.
	SelfLoops int `json:"self_loops"`
	Isolated  int `json:"isolated"`
	// Weighted reports whether some edge weight differs from 1.
	Weighted bool `json:"weighted"`

	// Dropped lists the kinds of input that were skipped, with counts.
	Dropped []Dropped `json:"dropped,omitempty"`
	// Warnings lists what looks misread, in plain words.
	Warnings []string `json:"warnings,omitempty"`
	// Notes lists choices the reader made that the user should know about, such
	// as a first line taken as a header row.
	Notes []string `json:"notes,omitempty"`
}

// Dropped counts the input lines (or entries) of one kind that a reader skipped.
type Dropped struct {
	// Reason says why, e.g. "edge names an id with no feature line".
	Reason string `json:"reason"`
	// Count is the number of lines or entries skipped.
	Count int `json:"count"`
	// File and Line locate the first of them (Line 0 when not line-based).
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	// Examples quotes the first few of them ("cites:12: 35 1033"), when line-based.
	Examples []string `json:"examples,omitempty"`
}

// maxExamples is the number of dropped lines a report quotes per reason.
const maxExamples = 3

// NewLoadReport returns the report of a graph that was not read by Open (for example
// one from Synthetic or LoadLINQS): its sizes, and its dangling edge lines, if any, as
// one Dropped entry. Cost O(n log d).
func NewLoadReport(g *Graph, format string) *LoadReport {
	r := &LoadReport{Format: format}
	r.fill(g)
	if g.Dangling > 0 {
		r.Dropped = append(r.Dropped, Dropped{Reason: "edge names an unknown id", Count: g.Dangling})
	}
	return r
}

// DroppedTotal returns the number of lines or entries dropped for any reason.
func (r *LoadReport) DroppedTotal() int {
	t := 0
	for _, d := range r.Dropped {
		t += d.Count
	}
	return t
}

// drop records one skipped line of the given reason at file:line.
func (r *LoadReport) drop(reason, file string, line int) { r.dropLine(reason, file, line, nil) }

// dropLine records one skipped line of the given reason at file:line, quoting text
// among the first few examples.
func (r *LoadReport) dropLine(reason, file string, line int, text []byte) {
	example := func() []string {
		if text == nil {
			return nil
		}
		return []string{fmt.Sprintf("%s:%d: %s", filepath.Base(file), line, truncate(text))}
	}
	for k := range r.Dropped {
		if d := &r.Dropped[k]; d.Reason == reason {
			d.Count++
			if len(d.Examples) < maxExamples {
				d.Examples = append(d.Examples, example()...)
			}
			return
		}
	}
	r.Dropped = append(r.Dropped, Dropped{Reason: reason, Count: 1, File: file, Line: line, Examples: example()})
}

// warn records a warning.
func (r *LoadReport) warn(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// note records a note.
func (r *LoadReport) note(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// fill sets the size fields of r from g.
func (r *LoadReport) fill(g *Graph) {
	r.Name = g.Name
	r.N, r.Edges, r.M, r.K = g.N(), g.Edges(), g.M(), g.K()
	r.NNZ = g.AttributeNNZ()
	r.SelfLoops, r.Isolated, r.Weighted = g.SelfLoops(), g.Isolated(), g.Weighted()
}

// WriteText writes the report (String) to w, each line prefixed with "load: ", as the
// commands that read a graph print it on stderr.
func (r *LoadReport) WriteText(w io.Writer) error {
	for _, line := range strings.Split(r.String(), "\n") {
		if _, err := fmt.Fprintf(w, "load: %s\n", line); err != nil {
			return err
		}
	}
	return nil
}

// String returns the report as a few lines for the user, e.g.
//
//	cora (linqs): n=2708 edges=5278 m=1433 nnz=49216 k=7 self-loops=0 isolated=0
//	  dropped 88 lines: edge names an unknown id (first at cites:12)
//	  warning: ...
func (r *LoadReport) String() string {
	var b strings.Builder
	k := fmt.Sprint(r.K)
	if r.K == 0 {
		k = "none (unlabeled)"
	}
	fmt.Fprintf(&b, "%s (%s): n=%d edges=%d m=%d nnz=%d k=%s self-loops=%d isolated=%d",
		r.Name, r.Format, r.N, r.Edges, r.M, r.NNZ, k, r.SelfLoops, r.Isolated)
	if r.Weighted {
		b.WriteString(" weighted")
	}
	for _, d := range r.Dropped {
		what, at := "line", d.File
		if d.Line > 0 {
			at = fmt.Sprintf("%s:%d", d.File, d.Line)
		} else {
			what = "entr"
		}
		switch {
		case d.Count == 1 && what == "entr":
			what = "entry"
		case what == "entr":
			what = "entries"
		case d.Count != 1:
			what = "lines"
		}
		if at == "" {
			fmt.Fprintf(&b, "\n  dropped %d %s: %s", d.Count, what, d.Reason)
			continue
		}
		fmt.Fprintf(&b, "\n  dropped %d %s: %s (first at %s)", d.Count, what, d.Reason, at)
		for _, ex := range d.Examples {
			fmt.Fprintf(&b, "\n    %s", ex)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "\n  note: %s", n)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "\n  warning: %s", w)
	}
	return b.String()
}

// Fingerprint returns a content hash of the graph: the hex SHA-256 of the number of
// vertices, Adj (dimensions, stored pattern and values), X (dimensions, stored pattern
// and values) and the partition the labels make (class indices renumbered in order of
// first appearance, so class names and their order do not matter; an unlabeled graph
// hashes a marker instead).
//
// It covers what the clustering methods and the metrics see, and nothing else: not the
// name, the vertex ids, the class names, the file paths or the format. So the same graph
// read from a moved or renamed folder, or written in another format with its vertices in
// the same order, has the same fingerprint; reordering vertices or attribute columns
// changes it. Cost O(n + nnz(Adj) + nnz(X)), or O(n·m) for dense attributes (hashed as
// the sparse matrix of their non-zero entries, so a dense and a sparse copy agree).
func (g *Graph) Fingerprint() string {
	h := sha256.New()
	var buf [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	h.Write([]byte("nagc-graph-v1\x00"))
	put(uint64(g.N()))
	hashCSR(h, g.Adj, put)
	if x, d := g.StoredX(); d != nil {
		hashDenseAsCSR(h, d, put)
	} else {
		hashCSR(h, x, put)
	}
	if g.Labels == nil {
		h.Write([]byte("unlabeled"))
	} else {
		h.Write([]byte("labels"))
		renum := make(map[int]uint64)
		for _, l := range g.Labels {
			c, ok := renum[l]
			if !ok {
				c = uint64(len(renum))
				renum[l] = c
			}
			put(c)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// hashDenseAsCSR feeds x to h as hashCSR feeds the CSR of its non-zero entries, so that
// dense attributes and a sparse copy of them have the same fingerprint. Cost O(r·c).
func hashDenseAsCSR(h hash.Hash, x *dense.Matrix, put func(uint64)) {
	r, c := x.Dims()
	put(uint64(r))
	put(uint64(c))
	row := make([]float64, c)
	for i := 0; i < r; i++ {
		x.RowTo(row, i)
		nz := 0
		for _, v := range row {
			if v != 0 {
				nz++
			}
		}
		put(uint64(nz))
		for j, v := range row {
			if v != 0 {
				put(uint64(j))
				put(math.Float64bits(v))
			}
		}
	}
}

// hashCSR feeds the dimensions, pattern and values of a (or a marker for nil) to h.
func hashCSR(h hash.Hash, a *sparse.CSR, put func(uint64)) {
	if a == nil {
		h.Write([]byte("nil"))
		return
	}
	r, c := a.Dims()
	put(uint64(r))
	put(uint64(c))
	for i := 0; i < r; i++ {
		cols, vals := a.Row(i)
		put(uint64(len(cols)))
		for k, j := range cols {
			put(uint64(j))
			put(math.Float64bits(vals[k] + 0)) // +0 folds −0 into 0
		}
	}
}

package datasets

import (
	"archive/zip"
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
	"github.com/sbinet/npyio/npy"
)

// openNPZ reads a NumPy .npz archive in the scipy-CSR layout that PyG, DGL and the GNN
// benchmarks distribute (e.g. the Amazon, Coauthor and CitationFull graphs):
//
//	adj_data, adj_indices, adj_indptr, adj_shape     the adjacency, n×n, in CSR form
//	attr_data, attr_indices, attr_indptr, attr_shape the attributes, n×m (optional)
//	attr_matrix                                      or the attributes as a dense n×m array
//	labels                                           one class per vertex (optional; −1, NaN or "" for none)
//	node_names, class_names                          strings (optional)
//
// or, without adj_ arrays, in the edge-array layout (npz_edges.go): edge_index (2 × E, as
// PyG's), edges (E × 2) or src and dst, with x (or X, node_features, features) and y (or
// node_labels).
//
// Spec.Path is the .npz file, or a folder holding exactly one. Arrays may be of any
// integer type (indices) and any integer, float or bool type (values), in either byte
// order. Values must be finite and ≥ 0. Explicit zeros of the adjacency are dropped and
// counted, repeated entries of a row keep the largest value (adjacency) or are summed
// (attributes, as scipy does). A non-symmetric adjacency is symmetrised by keeping the
// larger of A[i,j] and A[j,i], with a warning.
//
// Vertex i has id node_names[i] when the archive holds unique, readable names, else
// "i" (0-based, as in the arrays). Labels come from the labels array (Labels "" or
// "column"), a label file (Labels "file"), or nowhere (Labels "none"); a class is named
// class_names[c] when the archive holds them, else c. Arrays stored as pickled Python
// objects cannot be read safely and are skipped with a warning (the graph arrays must
// not be pickled).
func openNPZ(s Spec) (*Graph, *LoadReport, error) {
	path := s.Path
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		m, _ := filepath.Glob(filepath.Join(path, "*.npz"))
		if len(m) != 1 {
			return nil, nil, &ParseError{File: path, Msg: fmt.Sprintf("folder holds %d .npz files, want exactly one", len(m))}
		}
		path = m[0]
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, nil, &ParseError{File: path, Msg: "not a NumPy .npz archive (it does not open as a zip file)"}
	}
	defer zr.Close()
	a := &npzArchive{path: path, files: make(map[string]*zip.File), attrName: "attr_matrix", labelName: "labels"}
	for _, f := range zr.File {
		a.files[strings.TrimSuffix(f.Name, ".npy")] = f
	}
	rep := &LoadReport{Format: FormatNPZ, Files: []string{path}}

	n, adj, canonical, err := a.canonicalAdjacency()
	if err == nil && !canonical {
		if edges := a.edgeArray(); edges != "" {
			n, adj, err = a.edgeArrays(edges, rep)
		} else {
			n, adj, err = a.adjacency(rep)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	var x *sparse.CSR
	var xd *dense.Matrix
	switch {
	case a.has("attr_data") || a.has("attr_indices") || a.has("attr_indptr") || a.has("attr_shape"):
		if x, err = a.attributes(n); err != nil {
			return nil, nil, err
		}
		if a.has(a.attrName) {
			rep.warn("%s holds both sparse attributes (attr_data, …) and a dense %s: the sparse ones are read", path, a.attrName)
		}
	case a.has(a.attrName):
		if xd, err = a.denseAttributes(n); err != nil {
			return nil, nil, err
		}
	default:
		x, _ = sparse.NewCSR(n, 0, make([]int, n+1), nil, nil)
	}
	g := &Graph{IDs: a.nodeNames(n, rep), Adj: adj, X: x}
	if xd != nil {
		g.X = xd
	}

	switch {
	case s.Labels == LabelsNone:
	case s.Labels == LabelsFile || s.LabelFile != "":
		f, err := labelFileFor(s, filepath.Dir(path))
		if err != nil {
			return nil, nil, err
		}
		if err := applyLabelFile(g, rep, f, s.AllowDropped); err != nil {
			return nil, nil, err
		}
	case a.has(a.labelName):
		if err := a.labels(g, rep); err != nil {
			return nil, nil, err
		}
	case s.Labels == LabelsColumn:
		return nil, nil, &ParseError{File: path, Msg: "labels: column, but the archive holds no labels array"}
	}
	return g, rep, nil
}

// npzArchive is an open .npz archive; files maps array names (without ".npy") to entries.
// attrName and labelName name its dense attribute and label arrays: attr_matrix and
// labels, or in the edge-array layout the names found there (x, y, …).
type npzArchive struct {
	path                string
	files               map[string]*zip.File
	attrName, labelName string
}

// has reports whether the archive holds the array name.
func (a *npzArchive) has(name string) bool { _, ok := a.files[name]; return ok }

// missingHint says, after "array missing from the archive", which arrays the archive
// holds and, for a missing adjacency array, the layout nagc reads: a user who saved
// an edge array of their own learns what to write instead.
func (a *npzArchive) missingHint(name string) string {
	held := make([]string, 0, len(a.files))
	for k := range a.files {
		held = append(held, k)
	}
	sort.Strings(held)
	if len(held) > 12 {
		held = append(held[:12], "…")
	}
	hint := " (it holds " + strings.Join(held, ", ") + ")"
	if len(held) == 0 {
		hint = " (it holds no arrays)"
	}
	if strings.HasPrefix(name, "adj_") {
		hint += "; nagc reads the graph as scipy's CSR arrays adj_data, adj_indices, adj_indptr, adj_shape, the layout of the GNN benchmarks, or as an edge array (edge_index, 2 × E as PyG's; edges, E × 2; or src and dst) with x and y: docs/your-graph.md shows the Python lines that write them"
	}
	return hint
}

// errorf returns a *ParseError about array name.
func (a *npzArchive) errorf(name, format string, args ...any) error {
	return &ParseError{File: a.path, Msg: name + ": " + fmt.Sprintf(format, args...)}
}

// fullReader turns every short read of r into a full one and a premature end into
// io.ErrUnexpectedEOF: npyio reads element by element with plain Read calls, which a
// decompressing reader may answer short.
type fullReader struct{ r io.Reader }

func (f fullReader) Read(p []byte) (int, error) {
	n, err := io.ReadFull(f.r, p)
	if err == io.EOF && len(p) > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// safeNewReader is npy.NewReader, with a panic on a malformed header (npyio v0.6 slices
// the header text without checking it) turned into an error.
func safeNewReader(r io.Reader) (rd *npy.Reader, err error) {
	defer func() {
		if p := recover(); p != nil {
			rd, err = nil, errors.New("malformed header")
		}
	}()
	return npy.NewReader(r)
}

// errPickled marks an array stored as pickled Python objects.
var errPickled = errors.New("pickled")

// open opens array name and parses its header, returning the npyio reader, the stream
// positioned at the data, its closer and the number of values, checking that the data the header
// announces fits in the entry (so a corrupt header cannot ask for unbounded memory).
func (a *npzArchive) open(name string) (*npy.Reader, io.Reader, io.Closer, int, error) {
	return a.openArray(name, true)
}

// openArray is open, checking the memory the values take against the budget when
// budget is set.
func (a *npzArchive) openArray(name string, budget bool) (*npy.Reader, io.Reader, io.Closer, int, error) {
	f, ok := a.files[name]
	if !ok {
		return nil, nil, nil, 0, a.errorf(name, "array missing from the archive%s", a.missingHint(name))
	}
	rc, err := f.Open()
	if err != nil {
		return nil, nil, nil, 0, a.errorf(name, "cannot be read (%v)", err)
	}
	br := bufio.NewReaderSize(rc, 1<<16)
	// npyio allocates the header length the file states before checking it: refuse
	// one longer than the entry.
	if pre, _ := br.Peek(12); len(pre) == 12 && string(pre[:6]) == "\x93NUMPY" {
		hl := uint64(binary.LittleEndian.Uint16(pre[8:10]))
		if pre[6] >= 2 {
			hl = uint64(binary.LittleEndian.Uint32(pre[8:12]))
		}
		if hl > f.UncompressedSize64 {
			rc.Close()
			return nil, nil, nil, 0, a.errorf(name, "not a NumPy array (its header length %d exceeds the %d bytes stored)", hl, f.UncompressedSize64)
		}
	}
	data := fullReader{npyStream(br)}
	r, err := safeNewReader(data)
	if err != nil {
		rc.Close()
		return nil, nil, nil, 0, a.errorf(name, "not a NumPy array (%v)", err)
	}
	h := r.Header.Descr
	if strings.Contains(h.Type, "O") {
		rc.Close()
		return nil, nil, nil, 0, errPickled
	}
	count := 1
	for _, d := range h.Shape {
		if d < 0 || count > 0 && d > math.MaxInt32*16/count {
			rc.Close()
			return nil, nil, nil, 0, a.errorf(name, "shape %s is too large", pyShape(h.Shape))
		}
		count *= d
	}
	size := 1
	if t := npy.TypeFrom(h.Type); t != nil {
		size = int(t.Size())
	}
	if k := strings.IndexAny(h.Type, "0123456789"); k >= 0 && strings.ContainsAny(h.Type, "USa") {
		w, _ := strconv.Atoi(strings.TrimRight(h.Type[k:], "USa"))
		if w < 0 || uint64(w) > f.UncompressedSize64 {
			rc.Close()
			return nil, nil, nil, 0, a.errorf(name, "strings of %d characters, more than the %d bytes stored", w, f.UncompressedSize64)
		}
		size = max(w, 1)
		if strings.Contains(h.Type, "U") {
			size *= 4
		}
	}
	// Deflate expands at most about 1032 times: a larger stated size is a lie.
	if need := memory.Bytes(int64(count), size); need > f.UncompressedSize64 || need > 1100*f.CompressedSize64+1024 {
		rc.Close()
		return nil, nil, nil, 0, a.errorf(name, "header announces %d values of %d bytes, more than the %d bytes stored", count, size, f.UncompressedSize64)
	}
	// The values are converted to int64 or float64 after reading: budget both copies.
	if !budget {
		return r, data, rc, count, nil
	}
	if err := memory.Check(fmt.Sprintf("reading %s of %s (%d values its header announces)", name, a.path, count), memory.Bytes(int64(count), size+8)); err != nil {
		rc.Close()
		return nil, nil, nil, 0, err
	}
	return r, data, rc, count, nil
}

// length returns the number of values the header of array name announces, reading
// nothing else, so that lengths can be checked against each other before any array is
// read.
func (a *npzArchive) length(name string) (int, error) {
	_, _, c, count, err := a.openArray(name, false)
	if err == errPickled {
		return 0, a.errorf(name, "stored as pickled Python objects, which cannot be read; store it as a number array")
	}
	if err != nil {
		return 0, err
	}
	c.Close()
	return count, nil
}

// ints reads the integer array name into a slice of int64. Cost O(length).
func (a *npzArchive) ints(name string) ([]int64, error) {
	r, _, c, _, err := a.open(name)
	if err != nil {
		if err == errPickled {
			return nil, a.errorf(name, "stored as pickled Python objects, which cannot be read; store it as an integer array")
		}
		return nil, err
	}
	defer c.Close()
	out, err := readInts(r)
	if err != nil {
		return nil, a.errorf(name, "%v", err)
	}
	return out, nil
}

// floats reads the numeric array name into a slice of float64. Cost O(length).
func (a *npzArchive) floats(name string) ([]float64, error) {
	r, _, c, _, err := a.open(name)
	if err != nil {
		if err == errPickled {
			return nil, a.errorf(name, "stored as pickled Python objects, which cannot be read; store it as a number array")
		}
		return nil, err
	}
	defer c.Close()
	var out []float64
	switch dtypeKind(r.Header.Descr.Type) {
	case 'f':
		if strings.HasSuffix(r.Header.Descr.Type, "4") {
			var v []float32
			if err := readArray(r, &v); err != nil {
				return nil, a.errorf(name, "%v", err)
			}
			out = make([]float64, len(v))
			for k, x := range v {
				out[k] = float64(x)
			}
		} else if err := readArray(r, &out); err != nil {
			return nil, a.errorf(name, "%v", err)
		}
	default:
		iv, err := readInts(r)
		if err != nil {
			return nil, a.errorf(name, "%v", err)
		}
		out = make([]float64, len(iv))
		for k, x := range iv {
			out[k] = float64(x)
		}
	}
	return out, nil
}

// dtypeKind returns the kind letter of a NumPy dtype string: 'i', 'u', 'f', 'b', 'U',
// 'S', ... ('?' for one it cannot tell).
func dtypeKind(t string) byte {
	t = strings.TrimLeft(t, "<>|=")
	if t == "" {
		return '?'
	}
	return t[0]
}

// readArray reads the whole array into *dst, with a plain message for a type or read
// error.
func readArray[T any](r *npy.Reader, dst *[]T) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("cannot be read (malformed array: %v)", p)
		}
	}()
	if err := r.Read(dst); err != nil {
		if err == io.ErrUnexpectedEOF {
			return errors.New("the array data is truncated")
		}
		return fmt.Errorf("cannot be read as numbers of type %s (%v)", r.Header.Descr.Type, err)
	}
	return nil
}

// readInts reads an integer or bool array as int64.
func readInts(r *npy.Reader) ([]int64, error) {
	t := strings.TrimLeft(r.Header.Descr.Type, "<>|=")
	var out []int64
	conv := func(n int, at func(int) int64) {
		out = make([]int64, n)
		for k := range out {
			out[k] = at(k)
		}
	}
	var err error
	switch t {
	case "i8":
		err = readArray(r, &out)
	case "i4":
		var v []int32
		if err = readArray(r, &v); err == nil {
			conv(len(v), func(k int) int64 { return int64(v[k]) })
		}
	case "i2":
		var v []int16
		if err = readArray(r, &v); err == nil {
			conv(len(v), func(k int) int64 { return int64(v[k]) })
		}
	case "i1":
		var v []int8
		if err = readArray(r, &v); err == nil {
			conv(len(v), func(k int) int64 { return int64(v[k]) })
		}
	case "u8":
		var v []uint64
		if err = readArray(r, &v); err == nil {
			for _, x := range v {
				if x > math.MaxInt64 {
					return nil, fmt.Errorf("value %d is too large", x)
				}
			}
			conv(len(v), func(k int) int64 { return int64(v[k]) })
		}
	case "u4":
		var v []uint32
		if err = readArray(r, &v); err == nil {
			conv(len(v), func(k int) int64 { return int64(v[k]) })
		}
	case "u2":
		var v []uint16
		if err = readArray(r, &v); err == nil {
			conv(len(v), func(k int) int64 { return int64(v[k]) })
		}
	case "u1":
		var v []uint8
		if err = readArray(r, &v); err == nil {
			conv(len(v), func(k int) int64 { return int64(v[k]) })
		}
	case "b1":
		var v []bool
		if err = readArray(r, &v); err == nil {
			conv(len(v), func(k int) int64 {
				if v[k] {
					return 1
				}
				return 0
			})
		}
	default:
		return nil, fmt.Errorf("holds values of type %s, want integers", r.Header.Descr.Type)
	}
	return out, err
}

// strs reads a string array (NumPy 'U' or 'S'), or returns why it cannot be used when
// it is pickled or does not hold strings.
func (a *npzArchive) strs(name string) (out []string, why string, err error) {
	r, data, c, count, err := a.open(name)
	if err == errPickled {
		return nil, "it is stored as pickled Python objects, which cannot be read safely", nil
	}
	if err != nil {
		return nil, "", err
	}
	defer c.Close()
	switch dtypeKind(r.Header.Descr.Type) {
	case 'U':
		// npyio v0.6 decodes NumPy's UTF-32 strings as UTF-8; decode them here.
		t := r.Header.Descr.Type
		w, _ := strconv.Atoi(strings.TrimLeft(t, "<>|=U"))
		order := binary.ByteOrder(binary.LittleEndian)
		if t[0] == '>' {
			order = binary.BigEndian
		}
		buf := make([]byte, 4*w)
		var sb []byte
		for k := 0; k < count; k++ {
			if _, err := io.ReadFull(data, buf); err != nil {
				return nil, "", a.errorf(name, "the array data is truncated")
			}
			sb = sb[:0]
			for q := 0; q+4 <= len(buf); q += 4 {
				ch := order.Uint32(buf[q:])
				if ch == 0 {
					break
				}
				sb = utf8.AppendRune(sb, rune(ch))
			}
			out = append(out, string(sb))
		}
		return out, "", nil
	case 'S', 'a':
		if err := readArray(r, &out); err != nil {
			return nil, "", a.errorf(name, "%v", err)
		}
		for k, s := range out {
			out[k] = strings.TrimRight(s, "\x00") // NumPy pads bytes strings with NULs
		}
		return out, "", nil
	}
	return nil, fmt.Sprintf("it holds values of type %s, not strings", r.Header.Descr.Type), nil
}

// csrArrays reads the four arrays prefix_{data,indices,indptr,shape} and checks them.
func (a *npzArchive) csrArrays(prefix string) (r, c int, ptr, ind []int64, val []float64, err error) {
	r, c, shape, err := a.csrShape(prefix)
	if err != nil {
		return
	}
	if ptr, err = a.ints(prefix + "_indptr"); err != nil {
		return
	}
	if ind, err = a.ints(prefix + "_indices"); err != nil {
		return
	}
	if val, err = a.floats(prefix + "_data"); err != nil {
		return
	}
	err = a.checkCSR(prefix, r, c, shape, ptr, ind, val)
	return
}

// csrShape reads prefix_shape, checks it (the rows as vertices, the columns, but for the
// adjacency, as attributes) and checks the lengths the headers of prefix_indptr,
// prefix_indices and prefix_data announce against it, before any of them is read.
func (a *npzArchive) csrShape(prefix string) (r, c int, shape []int64, err error) {
	if shape, err = a.ints(prefix + "_shape"); err != nil {
		return
	}
	if len(shape) != 2 || shape[0] < 0 || shape[1] < 0 || shape[0] > math.MaxInt32 || shape[1] > math.MaxInt32 {
		err = a.errorf(prefix+"_shape", "%v is not a shape (rows, columns) below 2³¹", shape)
		return
	}
	r, c = int(shape[0]), int(shape[1])
	if err = checkVertices(shape[0], a.path+" "+prefix+"_shape"); err != nil {
		return
	}
	if prefix != "adj" {
		if err = checkColumns(shape[1], a.path+" "+prefix+"_shape"); err != nil {
			return
		}
	}
	// Never trust a declared size: check the lengths the headers announce against the
	// shape before reading any of the three arrays.
	var np, ni, nd int
	if np, err = a.length(prefix + "_indptr"); err != nil {
		return
	}
	if np != r+1 {
		err = a.errorf(prefix+"_indptr", "has %d entries, want rows + 1 = %d (%s_shape is %v)", np, r+1, prefix, shape)
		return
	}
	if ni, err = a.length(prefix + "_indices"); err != nil {
		return
	}
	if nd, err = a.length(prefix + "_data"); err != nil {
		return
	}
	if ni != nd {
		err = a.errorf(prefix+"_indices", "has %d entries but %s_data has %d", ni, prefix, nd)
		return
	}
	return
}

// checkCSR checks the arrays of an r×c CSR matrix read from the archive (prefix_*, of
// shape shape): row pointers from 0 to the entries, never decreasing; columns inside
// 0…c−1; finite, non-negative values of at most MaxAttribute.
func (a *npzArchive) checkCSR(prefix string, r, c int, shape []int64, ptr, ind []int64, val []float64) (err error) {
	switch {
	case len(ptr) != r+1:
		err = a.errorf(prefix+"_indptr", "has %d entries, want rows + 1 = %d (%s_shape is %v)", len(ptr), r+1, prefix, shape)
	case len(ind) != len(val):
		err = a.errorf(prefix+"_indices", "has %d entries but %s_data has %d", len(ind), prefix, len(val))
	case ptr[0] != 0 || ptr[r] != int64(len(ind)):
		err = a.errorf(prefix+"_indptr", "must run from 0 to %d (the number of entries), runs from %d to %d", len(ind), ptr[0], ptr[r])
	}
	if err != nil {
		return
	}
	for i := 0; i < r; i++ {
		if ptr[i+1] < ptr[i] {
			err = a.errorf(prefix+"_indptr", "decreases at row %d", i)
			return
		}
	}
	for k, j := range ind {
		if j < 0 || j >= int64(c) {
			err = a.errorf(prefix+"_indices", "entry %d is column %d, outside 0 to %d", k, j, c-1)
			return
		}
	}
	what := "value"
	if prefix == "adj" {
		what = "edge weight"
	}
	for k, v := range val {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			err = a.errorf(prefix+"_data", "entry %d: %s %v is not a finite number", k, what, v)
		case v < 0:
			err = a.errorf(prefix+"_data", "entry %d: %s %v is negative", k, what, v)
		case v > MaxAttribute:
			err = a.errorf(prefix+"_data", "entry %d: %s %v is too large (at most 2⁵³)", k, what, v)
		}
		if err != nil {
			return
		}
	}
	return nil
}

// adjacency reads the adjacency and returns n and the symmetric adjacency.
func (a *npzArchive) adjacency(rep *LoadReport) (int, *sparse.CSR, error) {
	r, c, ptr, ind, val, err := a.csrArrays("adj")
	if err != nil {
		return 0, nil, err
	}
	if r != c {
		return 0, nil, a.errorf("adj_shape", "adjacency is %d×%d, want a square matrix", r, c)
	}
	m := &mtxMatrix{path: a.path, r: r, c: c}
	for i := 0; i < r; i++ {
		for p := ptr[i]; p < ptr[i+1]; p++ {
			if val[p] == 0 {
				rep.drop("explicit zero entry of the adjacency", a.path+" adj_data", 0)
				continue
			}
			m.rows = append(m.rows, int32(i))
			m.cols = append(m.cols, int32(ind[p]))
			m.vals = append(m.vals, val[p])
		}
	}
	adj, err := m.symmetricAdjacency(rep)
	return r, adj, err
}

// attributes reads the n×m attribute matrix; repeated entries of a row are summed.
func (a *npzArchive) attributes(n int) (*sparse.CSR, error) {
	r, c, ptr, ind, val, err := a.csrArrays("attr")
	if err != nil {
		return nil, err
	}
	if r != n {
		return nil, a.errorf("attr_shape", "attributes have %d rows, but the adjacency has %d vertices", r, n)
	}
	optr := make([]int, r+1)
	oind := make([]int, 0, len(ind))
	oval := make([]float64, 0, len(val))
	for i := 0; i < r; i++ {
		lo := len(oind)
		for p := ptr[i]; p < ptr[i+1]; p++ {
			if val[p] != 0 {
				oind = append(oind, int(ind[p]))
				oval = append(oval, val[p])
			}
		}
		row := rowEntries{oind[lo:], oval[lo:]}
		if !sort.IsSorted(row) {
			sort.Stable(row)
		}
		w := lo
		for k := lo; k < len(oind); k++ {
			if w > lo && oind[w-1] == oind[k] {
				oval[w-1] += oval[k]
				continue
			}
			oind[w], oval[w] = oind[k], oval[k]
			w++
		}
		oind, oval = oind[:w], oval[:w]
		optr[i+1] = w
	}
	return sparse.NewCSR(r, c, optr, oind, oval)
}

// nodeNames returns node_names when the archive holds n unique readable names, else the
// indices "0" … "n−1".
func (a *npzArchive) nodeNames(n int, rep *LoadReport) []string {
	if a.has("node_names") {
		names, why, err := a.strs("node_names")
		switch {
		case err != nil:
			why = err.Error()
		case why == "" && len(names) != n:
			why = fmt.Sprintf("it has %d entries for %d vertices", len(names), n)
		case why == "":
			seen := make(map[string]bool, n)
			for _, s := range names {
				if seen[s] {
					why = fmt.Sprintf("the name %q appears twice", s)
					break
				}
				if control := strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }); control >= 0 {
					why = fmt.Sprintf("the name %q holds a control character", s)
					break
				}
				seen[s] = true
			}
		}
		if why == "" {
			return names
		}
		rep.warn("node_names not used (%s); vertices are named by their index", why)
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i)
	}
	return ids
}

// labels sets g's labels from the label array (labels, or a.labelName; and class_names
// when readable).
func (a *npzArchive) labels(g *Graph, rep *LoadReport) error {
	if !a.has(a.labelName) {
		return nil
	}
	r, _, c, _, err := a.open(a.labelName)
	if err == errPickled {
		return a.errorf(a.labelName, "stored as pickled Python objects, which cannot be read; store it as an integer array, or "+setLabelsNone)
	}
	if err != nil {
		return err
	}
	shape := r.Header.Descr.Shape
	c.Close()
	if len(shape) == 2 && shape[1] == 1 {
		shape = shape[:1] // a column (n, 1), as a one-column frame's .values is: one class per vertex
	}
	kind := dtypeKind(r.Header.Descr.Type)
	if len(shape) != 1 && (len(shape) != 2 || kind == 'U' || kind == 'S') {
		return a.errorf(a.labelName, "has shape %s; want one class per vertex (multi-label labels are not supported; "+setLabelsNone+")", pyShape(shape))
	}
	if kind == 'U' || kind == 'S' {
		return a.stringLabels(g, rep)
	}
	var lab []int64
	unlabelled := "negative or NaN"
	if len(shape) == 2 {
		if lab, err = a.oneHotLabels(shape, r.Header.Descr.Fortran); err != nil {
			return err
		}
		unlabelled = "a row of zeros"
		rep.note("%s: %s, of shape %s, read as one-hot labels: a vertex's class is the column of its 1", a.path, a.labelName, pyShape(shape))
	} else if kind == 'f' {
		fl, err := a.floats(a.labelName)
		if err != nil {
			return err
		}
		lab = make([]int64, len(fl))
		for i, v := range fl {
			if math.IsNaN(v) {
				lab[i] = -1 // NaN marks an unlabelled vertex, as in OGB's float label arrays
				continue
			}
			if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
				return a.errorf(a.labelName, "vertex %d has label %v, not a whole number", i, v)
			}
			lab[i] = int64(v)
		}
	} else if lab, err = a.ints(a.labelName); err != nil {
		return err
	}
	n := g.N()
	if len(lab) != n {
		return a.errorf(a.labelName, "has %d entries for %d vertices", len(lab), n)
	}
	var classNames []string
	if a.has("class_names") {
		names, why, err := a.strs("class_names")
		if err != nil {
			why = err.Error()
		}
		if why != "" {
			rep.warn("class_names not used (%s); classes are named by their number", why)
		}
		classNames = names
	}
	raw := make([]string, n)
	has := make([]bool, n)
	for i, l := range lab {
		if l < 0 {
			continue // a negative label (−1, as PyG writes it) or NaN marks an unlabelled vertex
		}
		has[i] = true
		if l < int64(len(classNames)) {
			raw[i] = classNames[l]
		} else {
			if classNames != nil {
				return a.errorf(a.labelName, "vertex %d has label %d, but class_names names only %d classes", i, l, len(classNames))
			}
			raw[i] = strconv.FormatInt(l, 10)
		}
	}
	if setPartialLabels(g, rep, a.path+" "+a.labelName, raw, has, unlabelled, false) {
		return a.errorf(a.labelName, "every label is %s (no vertex is labelled); "+setLabelsNone, unlabelled)
	}
	return nil
}

// oneHotLabels reads the n × k label array of the given shape and storage order as
// one-hot rows: the class of row i is the column of its single 1, and a row of zeros
// (an unlabelled vertex, as Planetoid's) gives −1. Any other value, or a row holding
// more than one 1 (multi-label), is an error naming the vertex. Cost O(n·k).
func (a *npzArchive) oneHotLabels(shape []int, fortran bool) ([]int64, error) {
	v, err := a.floats(a.labelName)
	if err != nil {
		return nil, err
	}
	n, k := shape[0], shape[1]
	notOneHot := func(i, c int, what string) error {
		return a.errorf(a.labelName, "has shape %s; want one class per vertex, or one-hot rows (a single 1, or zeros for an unlabelled vertex): vertex %d %s (multi-label labels are not supported; "+setLabelsNone+")", pyShape(shape), i, what)
	}
	lab := make([]int64, n)
	for i := range lab {
		lab[i] = -1
		for c := 0; c < k; c++ {
			x := v[i*k+c]
			if fortran {
				x = v[c*n+i]
			}
			switch {
			case x == 0:
			case x != 1:
				return nil, notOneHot(i, c, fmt.Sprintf("holds %v in column %d", x, c))
			case lab[i] >= 0:
				return nil, notOneHot(i, c, fmt.Sprintf("has a 1 in columns %d and %d", lab[i], c))
			default:
				lab[i] = int64(c)
			}
		}
	}
	return lab, nil
}

// stringLabels sets g's labels from a label array of strings (NumPy 'U' or 'S'): each
// string names its class; an empty string marks an unlabelled vertex.
func (a *npzArchive) stringLabels(g *Graph, rep *LoadReport) error {
	names, why, err := a.strs(a.labelName)
	if err != nil {
		return err
	}
	if why != "" {
		return a.errorf(a.labelName, "cannot be read: %s", why)
	}
	n := g.N()
	if len(names) != n {
		return a.errorf(a.labelName, "has %d entries for %d vertices", len(names), n)
	}
	has := make([]bool, n)
	for i, s := range names {
		if strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
			return a.errorf(a.labelName, "vertex %d has label %q, which holds a control character", i, s)
		}
		has[i] = s != ""
	}
	if setPartialLabels(g, rep, a.path+" "+a.labelName, names, has, "an empty string", false) {
		return a.errorf(a.labelName, "every label is an empty string (no vertex is labelled); "+setLabelsNone)
	}
	return nil
}

package datasets

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
	"github.com/sbinet/npyio/npy"
)

// The edge-array layout of a .npz archive: the graph as an edge array, with dense
// attributes and labels as plain arrays, as a user saves a PyTorch Geometric graph
//
//	np.savez("g.npz", edge_index=data.edge_index.numpy(), x=data.x.numpy(), y=data.y.numpy())
//
// or as the heterophily benchmarks of Platonov et al. ship theirs (edges, node_features,
// node_labels). The names read, each in order of preference:
//
//	edges        edge_index (2 × E, PyG's), edges (E × 2), or src and dst (E each)
//	weights      edge_weight (E, optional)
//	attributes   x, X, node_features, features, attr_matrix (n × m)
//	labels       y, node_labels, labels (n)
//
// It is read when the archive holds an edge array and no adj_ array.
var (
	edgeArrayNames  = []string{"edge_index", "edges"}
	attrArrayNames  = []string{"x", "X", "node_features", "features", "attr_matrix"}
	labelArrayNames = []string{"y", "node_labels", "labels"}
)

// edgeArray returns the name of the archive's edge array ("src and dst" for the pair),
// or "" when the archive is not in the edge-array layout.
func (a *npzArchive) edgeArray() string {
	for name := range a.files {
		if strings.HasPrefix(name, "adj_") {
			return ""
		}
	}
	for _, name := range edgeArrayNames {
		if a.has(name) {
			return name
		}
	}
	if a.has("src") && a.has("dst") {
		return "src and dst"
	}
	return ""
}

// header returns the header of array name (its type, order and shape), reading nothing
// else; a pickled array is an error saying to store it as want ("a number array").
func (a *npzArchive) header(name, want string) (npy.Header, error) {
	r, _, c, _, err := a.openArray(name, false)
	if err == errPickled {
		return npy.Header{}, a.errorf(name, "stored as pickled Python objects, which cannot be read; store it as %s", want)
	}
	if err != nil {
		return npy.Header{}, err
	}
	c.Close()
	return r.Header, nil
}

// edgeArrays reads the graph of the edge-array layout, its edges from the array edges
// (edgeArray's answer), and names the archive's attribute and label arrays. n is the
// attribute array's number of rows, else the label array's length, else (noted) the
// largest vertex number + 1. Every edge is read as undirected (PyG stores both
// directions, other files one); repeated edges count once. Cost O(n + E log d) and,
// checked against the budget first, about 64 bytes an edge.
func (a *npzArchive) edgeArrays(edges string, rep *LoadReport) (n int, adj *sparse.CSR, err error) {
	for _, name := range attrArrayNames {
		if a.has(name) {
			a.attrName = name
			break
		}
	}
	for _, name := range labelArrayNames {
		if a.has(name) {
			a.labelName = name
			break
		}
	}
	// n from a header: the attributes' rows, else the labels' length.
	n, nFrom := -1, ""
	for _, name := range []string{a.attrName, a.labelName} {
		if !a.has(name) {
			continue
		}
		h, err := a.header(name, "a number array")
		if err != nil {
			return 0, nil, err
		}
		if shape := h.Descr.Shape; len(shape) >= 1 && (name == a.labelName || len(shape) == 2) {
			n, nFrom = shape[0], "the rows of "+name
			if name == a.labelName {
				nFrom = "the length of " + name
			}
			if err := checkVertices(int64(n), a.path+": "+nFrom); err != nil {
				return 0, nil, err
			}
			break
		}
	}
	src, dst, layout, err := a.edgeEnds(edges)
	if err != nil {
		return 0, nil, err
	}
	first, last := edgeArrayNamesOf(edges)
	zeroSeen, maxID := false, int64(-1)
	for k := range src {
		for e, v := range [2]int64{src[k], dst[k]} {
			name := first
			if e == 1 {
				name = last
			}
			if v < 0 || n >= 0 && v >= int64(n) || v >= math.MaxInt32 {
				return 0, nil, a.errorf(name, "edge %d names vertex %d, %s%s", k, v, vertexRange(n, nFrom), oneBasedHint(v, n, zeroSeen))
			}
			maxID = max(maxID, v)
			zeroSeen = zeroSeen || v == 0
		}
	}
	what := []string{fmt.Sprintf("the edges from %s (%s), each as undirected", edges, layout)}
	if a.has(a.attrName) {
		what = append(what, "the attributes from "+a.attrName)
	}
	if a.has(a.labelName) {
		what = append(what, "the labels from "+a.labelName)
	}
	if n < 0 {
		n, nFrom = int(maxID+1), "the largest vertex number + 1"
		if err := checkVertices(int64(n), a.path+": "+nFrom+" in "+edges); err != nil {
			return 0, nil, err
		}
		what = append(what, fmt.Sprintf("n = %d, %s (no attribute or label array gives it; a vertex numbered after the last one with an edge is not seen)", n, nFrom))
	} else {
		what = append(what, fmt.Sprintf("n = %d, %s", n, nFrom))
	}
	if !zeroSeen && len(src) > 0 && n > 1 {
		rep.warn("%s: no edge names vertex 0; the arrays number vertices from 0, so if the ids count from 1 every edge lands one vertex off (subtract 1 from every id)", a.path)
	}
	w, err := a.edgeWeights(len(src))
	if err != nil {
		return 0, nil, err
	}
	if w != nil {
		what[0] += ", weighted by edge_weight (a repeated edge keeps its largest weight)"
	}
	if err := memory.Check(fmt.Sprintf("building the adjacency of the %d edges of %s", len(src), a.path), memory.Bytes(int64(len(src)), 4*4+2*16+2*8*b2i(w != nil))); err != nil {
		return 0, nil, err
	}
	var es edgeSet
	es.src, es.dst = make([]int32, 0, 2*len(src)), make([]int32, 0, 2*len(src))
	if w != nil {
		es.w = make([]float64, 0, 2*len(src))
	}
	for k := range src {
		switch {
		case w == nil:
			es.add(int(src[k]), int(dst[k]), 1)
		case w[k] == 0:
			rep.drop("edge of weight 0", a.path+" edge_weight", 0)
		default:
			es.add(int(src[k]), int(dst[k]), w[k])
		}
	}
	src, dst, w = nil, nil, nil
	if adj, err = es.csr(n); err != nil {
		return 0, nil, a.errorf(first, "%v", err)
	}
	rep.note("%s: read as edge arrays: %s%s", a.path, strings.Join(what, "; "), a.notRead(edges))
	return n, adj, nil
}

// edgeEnds reads the edge array(s) edges and returns the two ends of each edge and
// how they were laid out, for the note.
func (a *npzArchive) edgeEnds(edges string) (src, dst []int64, layout string, err error) {
	if edges == "src and dst" {
		var h [2]npy.Header
		for e, name := range []string{"src", "dst"} {
			if h[e], err = a.header(name, "a number array"); err != nil {
				return nil, nil, "", err
			}
			if shape := h[e].Descr.Shape; len(shape) != 1 && (len(shape) != 2 || shape[1] != 1) {
				return nil, nil, "", a.errorf(name, "has shape %s; want one vertex number per edge", pyShape(shape))
			}
		}
		if src, err = a.edgeInts("src", h[0]); err != nil {
			return nil, nil, "", err
		}
		if dst, err = a.edgeInts("dst", h[1]); err != nil {
			return nil, nil, "", err
		}
		if len(src) != len(dst) {
			return nil, nil, "", a.errorf("dst", "has %d entries, src has %d: want one pair per edge", len(dst), len(src))
		}
		return src, dst, fmt.Sprintf("%d edges", len(src)), nil
	}
	h, err := a.header(edges, "an integer array")
	if err != nil {
		return nil, nil, "", err
	}
	shape, fortran := h.Descr.Shape, h.Descr.Fortran
	// Which axis holds the two ends: PyG's edge_index is 2 × E, an edge table E × 2; a
	// 2 × 2 array is read as its name says.
	var endsFirst bool
	switch {
	case len(shape) != 2 || shape[0] != 2 && shape[1] != 2:
		return nil, nil, "", a.errorf(edges, "has shape %s; want 2 × E (source and target rows, as PyG's edge_index) or E × 2 (one edge a row): docs/dense-and-ogb.md shows the layout", pyShape(shape))
	case shape[0] == 2 && shape[1] == 2:
		endsFirst = edges == "edge_index"
	default:
		endsFirst = shape[0] == 2
	}
	flat, err := a.edgeInts(edges, h)
	if err != nil {
		return nil, nil, "", err
	}
	e := len(flat) / 2
	// Stored row by row, a 2 × E array holds the sources and then the targets; an
	// E × 2 one each edge's pair in turn. Fortran order swaps the two.
	if endsFirst != fortran {
		src, dst = flat[:e], flat[e:]
	} else {
		src, dst = make([]int64, e), make([]int64, e)
		for k := range src {
			src[k], dst[k] = flat[2*k], flat[2*k+1]
		}
	}
	layout = fmt.Sprintf("%d × 2, one edge a row", e)
	if endsFirst {
		layout = fmt.Sprintf("2 × %d, sources and targets as PyG writes them", e)
	}
	return src, dst, layout, nil
}

// edgeWeights reads the archive's edge_weight array (PyG's name), e values finite and
// ≥ 0, or returns nil when there is none or every weight is 1 (the graph is then the
// unweighted one, bit for bit).
func (a *npzArchive) edgeWeights(e int) ([]float64, error) {
	if !a.has("edge_weight") {
		return nil, nil
	}
	h, err := a.header("edge_weight", "a number array")
	if err != nil {
		return nil, err
	}
	shape := h.Descr.Shape
	if len(shape) == 2 && shape[1] == 1 {
		shape = shape[:1]
	}
	if len(shape) != 1 || shape[0] != e {
		return nil, a.errorf("edge_weight", "has shape %s; want one weight per edge (%d)", pyShape(shape), e)
	}
	w, err := a.floats("edge_weight")
	if err != nil {
		return nil, err
	}
	ones := true
	for k, v := range w {
		if !(v >= 0) || v > MaxAttribute {
			return nil, a.errorf("edge_weight", "edge %d has weight %v; want a finite number ≥ 0", k, v)
		}
		ones = ones && v == 1
	}
	if ones {
		return nil, nil
	}
	return w, nil
}

// edgeInts reads the array name, of header h, of vertex numbers: integers, or floats
// holding whole numbers (as pandas or numpy may save ids).
func (a *npzArchive) edgeInts(name string, h npy.Header) ([]int64, error) {
	if dtypeKind(h.Descr.Type) != 'f' {
		return a.ints(name)
	}
	fl, err := a.floats(name)
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(fl))
	for k, v := range fl {
		if v != math.Trunc(v) || math.Abs(v) > math.MaxInt32 {
			return nil, a.errorf(name, "entry %d is %v, not a vertex number (a whole number from 0)", k, v)
		}
		out[k] = int64(v)
	}
	return out, nil
}

// edgeArrayNamesOf returns the names of the arrays holding an edge's two ends.
func edgeArrayNamesOf(edges string) (first, last string) {
	if edges == "src and dst" {
		return "src", "dst"
	}
	return edges, edges
}

// vertexRange says which vertex numbers are valid, for an error.
func vertexRange(n int, from string) string {
	if n < 0 {
		return "want a whole number from 0"
	}
	return fmt.Sprintf("outside 0 … %d (n = %d, %s)", n-1, n, from)
}

// oneBasedHint suggests ids counted from 1 when vertex n appears before vertex 0.
func oneBasedHint(v int64, n int, zeroSeen bool) string {
	if n >= 0 && v == int64(n) && !zeroSeen {
		return "; no edge so far names vertex 0, and a vertex n suggests ids counted from 1: subtract 1 from every id"
	}
	return ""
}

// notRead lists, for the note, the archive's arrays the edge-array layout leaves
// unread (masks, splits, …), or "".
func (a *npzArchive) notRead(edges string) string {
	used := map[string]bool{a.attrName: true, a.labelName: true, "node_names": true, "class_names": true, "edge_weight": true}
	first, last := edgeArrayNamesOf(edges)
	used[first], used[last] = true, true
	var rest []string
	for name := range a.files {
		if !used[name] {
			rest = append(rest, name)
		}
	}
	if len(rest) == 0 {
		return ""
	}
	sort.Strings(rest)
	if len(rest) > 8 {
		rest = append(slices.Clip(rest[:8]), "…")
	}
	return "; not read: " + strings.Join(rest, ", ")
}

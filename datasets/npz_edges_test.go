package datasets

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/memory"
)

// edgeArraysReference returns, in scipy's CSR layout, the 4-vertex graph the edge-array
// cases below write in their ways: edges {0,1}, {1,2}, {2,3}, {0,2}, attributes 4 × 2,
// labels 0 1 1 0.
func edgeArraysReference() map[string][]byte {
	return map[string][]byte{
		"adj_data":    oneD("<f8", []float64{1, 1, 1, 1, 1, 1, 1, 1}),
		"adj_indices": oneD("<i8", []float64{1, 2, 0, 2, 0, 1, 3, 2}),
		"adj_indptr":  oneD("<i8", []float64{0, 2, 4, 7, 8}),
		"adj_shape":   oneD("<i8", []float64{4, 4}),
		"attr_matrix": npyBytes("<f4", false, 4, 2, edgeCaseX),
		"labels":      oneD("<i8", []float64{0, 1, 1, 0}),
	}
}

var edgeCaseX = []float64{0.5, 0, 2, 1.25, 3, 0.75, 0, 1}

// pairs returns the E × 2 array (row-major) of the edges src[k]–dst[k].
func pairs(src, dst []float64) []float64 {
	out := make([]float64, 0, 2*len(src))
	for k := range src {
		out = append(out, src[k], dst[k])
	}
	return out
}

// TestNPZEdgeArrays checks that the edge-array layout of .npz (PyG's edge_index, an
// E × 2 edges table, src and dst; x, node_features, y, node_labels) reads the same graph
// as the scipy-CSR layout, in either storage order, and that a bad edge array is refused
// naming the archive, the array and the fault.
func TestNPZEdgeArrays(t *testing.T) {
	// In an order where reading the ends in the wrong storage order gives another graph.
	one := struct{ src, dst []float64 }{[]float64{0, 2, 0, 1}, []float64{1, 3, 2, 2}}
	both := struct{ src, dst []float64 }{[]float64{0, 2, 1, 1, 3, 0, 2, 2}, []float64{1, 3, 0, 2, 2, 2, 1, 0}}
	x := npyBytes("<f4", false, 4, 2, edgeCaseX)
	y := oneD("<i8", []float64{0, 1, 1, 0})
	for _, tc := range []struct {
		name   string
		arrays map[string][]byte
		note   string // in the reader's notes
		errs   string // the error, when the archive is refused
		warn   string
	}{
		{
			name:   "PyG edge_index, both directions",
			arrays: map[string][]byte{"edge_index": npyBytes("<i8", false, 2, 8, append(both.src, both.dst...)), "x": x, "y": y},
			note:   "the edges from edge_index (2 × 8, sources and targets as PyG writes them), each as undirected; the attributes from x; the labels from y; n = 4, the rows of x",
		},
		{
			name:   "edge_index in Fortran order (a transposed array saved)",
			arrays: map[string][]byte{"edge_index": npyBytes("<i8", true, 2, 8, append(both.src, both.dst...)), "x": x, "y": y},
			note:   "(2 × 8, sources and targets",
		},
		{
			name: "heterophily benchmark: edges E × 2, node_features, node_labels, masks",
			arrays: map[string][]byte{"edges": npyBytes("<i8", false, 4, 2, pairs(one.src, one.dst)), "node_features": x, "node_labels": y,
				"train_masks": npyBytes("|u1", false, 2, 4, []float64{1, 0, 1, 0, 0, 1, 0, 1})},
			note: "the edges from edges (4 × 2, one edge a row), each as undirected; the attributes from node_features; the labels from node_labels; n = 4, the rows of node_features; not read: train_masks",
		},
		{
			name:   "edges E × 2 in Fortran order",
			arrays: map[string][]byte{"edges": npyBytes("<i8", true, 4, 2, pairs(one.src, one.dst)), "X": x, "labels": y},
			note:   "(4 × 2, one edge a row)",
		},
		{
			name:   "src and dst, float ids",
			arrays: map[string][]byte{"src": oneD("<f8", one.src), "dst": oneD("<f8", one.dst), "features": x, "y": y},
			note:   "the edges from src and dst (4 edges)",
		},
		{
			name:   "edges with attr_matrix, y as a column (n, 1)",
			arrays: map[string][]byte{"edges": npyBytes("<i8", false, 4, 2, pairs(one.src, one.dst)), "attr_matrix": x, "y": npyBytes("<i8", false, 4, 1, []float64{0, 1, 1, 0})},
			note:   "n = 4, the rows of attr_matrix",
		},
		{
			name:   "edge_index outside the vertices of x",
			arrays: map[string][]byte{"edge_index": npyBytes("<i8", false, 2, 4, []float64{0, 1, 2, 0, 1, 2, 4, 2}), "x": x, "y": y},
			errs:   "edge_index: edge 2 names vertex 4, outside 0 … 3 (n = 4, the rows of x)",
		},
		{
			name:   "ids counted from 1",
			arrays: map[string][]byte{"src": oneD("<i8", []float64{1, 2, 3, 1}), "dst": oneD("<i8", []float64{2, 3, 4, 3}), "x": x},
			errs:   "dst: edge 2 names vertex 4, outside 0 … 3 (n = 4, the rows of x); no edge so far names vertex 0, and a vertex n suggests ids counted from 1",
		},
		{
			name:   "a negative id",
			arrays: map[string][]byte{"edges": npyBytes("<i8", false, 2, 2, []float64{0, 1, -1, 2}), "x": x},
			errs:   "edges: edge 1 names vertex -1, outside 0 … 3",
		},
		{
			name:   "fractional float id",
			arrays: map[string][]byte{"src": oneD("<f8", []float64{0, 1.5}), "dst": oneD("<f8", []float64{1, 2}), "x": x},
			errs:   "src: entry 1 is 1.5, not a vertex number",
		},
		{
			name:   "edge array of three rows",
			arrays: map[string][]byte{"edge_index": npyBytes("<i8", false, 3, 3, make([]float64, 9)), "x": x},
			errs:   "edge_index: has shape (3, 3); want 2 × E",
		},
		{
			name:   "src and dst of different lengths",
			arrays: map[string][]byte{"src": oneD("<i8", []float64{0, 1}), "dst": oneD("<i8", []float64{1}), "x": x},
			errs:   "dst: has 1 entries, src has 2",
		},
		{
			name:   "pickled edge_index",
			arrays: map[string][]byte{"edge_index": rawNPY("|O", "(2, 4)", []byte("\x80\x02pickle")), "x": x},
			errs:   "edge_index: stored as pickled Python objects",
		},
		{
			name:   "x rows and y length disagree",
			arrays: map[string][]byte{"edges": npyBytes("<i8", false, 4, 2, pairs(one.src, one.dst)), "x": x, "y": oneD("<i8", []float64{0, 1, 1})},
			errs:   "y: has 3 entries for 4 vertices",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			g, rep := openWrittenNPZ(t, filepath.Join(dir, "g.npz"), tc.arrays, tc.errs)
			if g == nil {
				return
			}
			ref := filepath.Join(dir, "ref.npz")
			writeZip(t, ref, edgeArraysReference())
			want, _ := mustOpen(t, Spec{Path: ref})
			if want.Fingerprint() != g.Fingerprint() || !slices.Equal(want.IDs, g.IDs) || !slices.Equal(want.ClassNames, g.ClassNames) || attrtest.Dense(g.X) == nil {
				t.Errorf("read differently from the CSR layout: ids %q, classes %q, labels %v, %d edges, dense attributes %v",
					g.IDs, g.ClassNames, g.Labels, g.Edges(), attrtest.Dense(g.X) != nil)
			}
			if notes := strings.Join(rep.Notes, "\n"); !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q, want one saying %q", notes, tc.note)
			}
			if w := strings.Join(rep.Warnings, "\n"); w != tc.warn && !strings.Contains(w, tc.warn) || tc.warn == "" && w != "" {
				t.Errorf("warnings %q, want %q", w, tc.warn)
			}
		})
	}
}

// TestNPZEdgeArraysWithoutVertexCount checks the layout's two remaining rules: without
// an attribute or label array n is the largest vertex number + 1, said in a note; and
// a 2 × 2 array is read as its name says (edge_index: two rows of ends; edges: two edges).
func TestNPZEdgeArraysWithoutVertexCount(t *testing.T) {
	p := filepath.Join(t.TempDir(), "g.npz")
	writeZip(t, p, map[string][]byte{"edge_index": npyBytes("<i8", false, 2, 2, []float64{0, 1, 2, 5})})
	g, rep := mustOpen(t, Spec{Path: p})
	if g.N() != 6 || g.Adj.At(0, 2) != 1 || g.Adj.At(1, 5) != 1 || g.Adj.NNZ() != 4 || g.M() != 0 {
		t.Errorf("edge_index [[0 1] [2 5]]: n %d, A[0,2] %v, A[1,5] %v, nnz %d, m %d; want 6 vertices, edges {0,2} and {1,5}", g.N(), g.Adj.At(0, 2), g.Adj.At(1, 5), g.Adj.NNZ(), g.M())
	}
	if notes := strings.Join(rep.Notes, "\n"); !strings.Contains(notes, "n = 6, the largest vertex number + 1 (no attribute") {
		t.Errorf("notes %q, want n = 6 explained", notes)
	}
	writeZip(t, p, map[string][]byte{"edges": npyBytes("<i8", false, 2, 2, []float64{0, 1, 2, 5})})
	g, _ = mustOpen(t, Spec{Path: p})
	if g.Adj.At(0, 1) != 1 || g.Adj.At(2, 5) != 1 || g.Adj.NNZ() != 4 {
		t.Errorf("edges [[0 1] [2 5]]: A[0,1] %v, A[2,5] %v, nnz %d; want edges {0,1} and {2,5}", g.Adj.At(0, 1), g.Adj.At(2, 5), g.Adj.NNZ())
	}
}

// FuzzOpenNPZEdgeArrays feeds arbitrary bytes as the edge array of the edge-array
// layout (beside a valid x and y) and checks that the reader never panics, refuses with
// a *ParseError naming the archive or a budget error, or reads a well-formed graph of
// x's 4 vertices.
//
//	go test ./datasets -run '^$' -fuzz FuzzOpenNPZEdgeArrays -fuzztime 1m
func FuzzOpenNPZEdgeArrays(f *testing.F) {
	f.Add("edge_index", npyBytes("<i8", false, 2, 4, []float64{0, 2, 0, 1, 1, 3, 2, 2}))
	f.Add("edges", npyBytes("<i8", true, 4, 2, []float64{0, 1, 2, 3, 0, 2, 1, 2}))
	f.Add("edges", npyBytes("<f8", false, 2, 2, []float64{0, 1, 2, 3}))
	f.Add("edge_index", rawNPY("<i4", "(2, 3)", make([]byte, 24)))
	f.Add("edge_index", rawNPY("<u8", "(2, 1)", []byte{0, 0, 0, 0, 0, 0, 0, 0x80, 1, 0, 0, 0, 0, 0, 0, 0}))
	f.Add("edges", rawNPY("<i8", "(2, 2000000000)", nil))
	f.Fuzz(func(t *testing.T, name string, edges []byte) {
		if name != "edges" {
			name = "edge_index"
		}
		p := filepath.Join(t.TempDir(), "g.npz")
		writeZip(t, p, map[string][]byte{name: edges, "x": npyBytes("<f4", false, 4, 2, edgeCaseX), "y": oneD("<i8", []float64{0, 1, 1, 0})})
		g, rep, err := Open(Spec{Path: p})
		if err != nil {
			checkArchiveRefusal(t, err, p)
			return
		}
		if g.N() != 4 {
			t.Fatalf("n = %d, want x's 4 rows", g.N())
		}
		checkOpened(t, g, rep)
	})
}

// TestNPZEdgeArraysDeclaredSizes checks that a vertex count the edge-array layout reads
// (an attribute header announcing 2·10⁹ rows of no columns, or one edge naming vertex
// 2·10⁹) is checked against the memory budget before anything of its size is
// allocated.
func TestNPZEdgeArraysDeclaredSizes(t *testing.T) {
	lowBudget(t, 64<<20)
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		arrays map[string][]byte
		errs   string
	}{
		{"x of 2e9 rows and no columns", map[string][]byte{"edges": npyBytes("<i8", false, 1, 2, []float64{0, 1}), "x": rawNPY("<f4", "(2000000000, 0)", nil)},
			"a graph of n = 2000000000 vertices (" + filepath.Join(dir, "g.npz") + ": the rows of x)"},
		{"an edge naming vertex 2e9", map[string][]byte{"edges": npyBytes("<i8", false, 1, 2, []float64{0, 2e9})},
			"a graph of n = 2000000001 vertices (" + filepath.Join(dir, "g.npz") + ": the largest vertex number + 1 in edges)"},
	} {
		var err error
		if a := allocated(func() {
			writeZip(t, filepath.Join(dir, "g.npz"), tc.arrays)
			_, _, err = Open(Spec{Path: filepath.Join(dir, "g.npz")})
		}); a > 8<<20 {
			t.Errorf("%s: %d bytes allocated before the refusal", tc.name, a)
		}
		if !errors.Is(err, memory.ErrTooLarge) || !strings.Contains(err.Error(), tc.errs) {
			t.Errorf("%s: error %v, want the budget's refusal of %q", tc.name, err, tc.errs)
		}
	}
}

// FuzzOpenNPZLabels feeds arbitrary bytes as the labels array beside a valid 3-vertex
// graph and checks that the reader never panics, refuses with a *ParseError naming the
// archive (or a budget error), or reads labels that index its classes.
//
//	go test ./datasets -run '^$' -fuzz FuzzOpenNPZLabels -fuzztime 1m
func FuzzOpenNPZLabels(f *testing.F) {
	f.Add(oneD("<i8", []float64{0, 1, 1}))
	f.Add(npyBytes("<f4", true, 3, 2, []float64{0, 1, 0, 0, 1, 0}))
	f.Add(npyBytes("|u1", false, 3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}))
	f.Add(rawNPY("<U2", "(3,)", utf32("cs", "", "ma")))
	f.Add(rawNPY("<f8", "(3, 1000000000)", nil))
	f.Fuzz(func(t *testing.T, labels []byte) {
		a := pathArrays()
		a["labels"] = labels
		p := filepath.Join(t.TempDir(), "g.npz")
		writeZip(t, p, a)
		g, _, err := Open(Spec{Path: p})
		if err != nil {
			checkArchiveRefusal(t, err, p)
			return
		}
		for i, l := range g.Labels {
			if l != Unlabeled && (l < 0 || l >= g.K()) {
				t.Fatalf("vertex %d has class %d of %d", i, l, g.K())
			}
		}
	})
}

// TestNPZEdgeWeights checks PyG's edge_weight beside edge_index: weights kept, a
// repeated edge keeping its largest weight, a zero weight dropping its edge (counted),
// all-one weights giving the unweighted graph, and a negative weight or a length other
// than E refused.
func TestNPZEdgeWeights(t *testing.T) {
	dir := t.TempDir()
	x := npyBytes("<f4", false, 4, 2, edgeCaseX)
	ei := npyBytes("<i8", false, 2, 5, []float64{0, 1, 2, 1, 0, 1, 0, 3, 2, 3})
	read := func(w []byte, errs string) (*Graph, *LoadReport) {
		t.Helper()
		a := map[string][]byte{"edge_index": ei, "x": x}
		if w != nil {
			a["edge_weight"] = w
		}
		return openWrittenNPZ(t, filepath.Join(dir, "g.npz"), a, errs)
	}
	g, rep := read(oneD("<f4", []float64{2, 3.5, 0, 1.5, 1}), "")
	for _, c := range []struct {
		i, j int
		w    float64
	}{{0, 1, 3.5}, {1, 0, 3.5}, {2, 3, 0}, {1, 2, 1.5}, {2, 1, 1.5}, {0, 3, 1}} {
		if got := g.Adj.At(c.i, c.j); got != c.w {
			t.Errorf("A[%d,%d] = %v, want %v", c.i, c.j, got, c.w)
		}
	}
	if rep.DroppedTotal() != 1 || !strings.Contains(strings.Join(rep.Notes, "\n"), "weighted by edge_weight") {
		t.Errorf("dropped %d, notes %q; want the zero-weight edge dropped and the weights noted", rep.DroppedTotal(), rep.Notes)
	}
	unweighted, _ := read(nil, "")
	ones, rep := read(oneD("<f8", []float64{1, 1, 1, 1, 1}), "")
	if ones.Fingerprint() != unweighted.Fingerprint() || strings.Contains(strings.Join(rep.Notes, "\n"), "weighted") {
		t.Error("all-one edge weights do not give the unweighted graph")
	}
	read(oneD("<f8", []float64{1, -2, 1, 1, 1}), "edge_weight: edge 1 has weight -2; want a finite number ≥ 0")
	read(oneD("<f8", []float64{1, 1, 1}), "edge_weight: has shape (3,); want one weight per edge (5)")
}

// checkArchiveRefusal fails t unless err, from opening the archive path, is a
// *ParseError naming it or the memory budget's refusal.
func checkArchiveRefusal(t *testing.T, err error, path string) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) && !errors.Is(err, memory.ErrTooLarge) || pe != nil && pe.File != path {
		t.Fatalf("error %v is not a *ParseError naming the archive", err)
	}
}

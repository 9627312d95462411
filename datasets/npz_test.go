package datasets

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npy"

	"github.com/nagc-harness/nagc/internal/attrtest"
)

// writeNPZArrays writes an .npz archive holding the given arrays (written by npyio) and
// raw .npy entries (bytes as given), each stored as name + ".npy".
func writeNPZArrays(t *testing.T, path string, arrays map[string]any, raw map[string][]byte) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(arrays))
	for k := range arrays {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		w, err := zw.Create(k + ".npy")
		if err != nil {
			t.Fatal(err)
		}
		if err := npy.Write(w, arrays[k]); err != nil {
			t.Fatal(err)
		}
	}
	for k, b := range raw {
		w, err := zw.Create(k + ".npy")
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// rawNPY returns a version-1 .npy file with the given dtype and shape text and data.
func rawNPY(dtype, shape string, data []byte) []byte {
	hdr := "{'descr': '" + dtype + "', 'fortran_order': False, 'shape': " + shape + ", }"
	for (10+len(hdr)+1)%64 != 0 {
		hdr += " "
	}
	hdr += "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(hdr)))
	b.WriteString(hdr)
	b.Write(data)
	return b.Bytes()
}

// smallNPZ returns the arrays of a 3-vertex graph: edges {0,1} weight 2 and {1,2}
// weight 1 (stored twice in row 1, once as an explicit zero), attributes 3×2.
func smallNPZ() map[string]any {
	return map[string]any{
		"adj_data":     []float32{2, 2, 1, 0, 1},
		"adj_indices":  []int32{1, 0, 2, 2, 1},
		"adj_indptr":   []int32{0, 1, 4, 5},
		"adj_shape":    []int64{3, 3},
		"attr_data":    []float64{0.5, 1, 2, 3},
		"attr_indices": []int64{1, 0, 0, 1},
		"attr_indptr":  []int64{0, 1, 2, 4},
		"attr_shape":   []int32{3, 2},
	}
}

func TestOpenNPZSmall(t *testing.T) {
	dir := t.TempDir()
	arrays := smallNPZ()
	arrays["labels"] = []int16{1, 0, 1}
	arrays["node_names"] = []string{"Zürich", "b", "東京"}
	arrays["class_names"] = []string{"zeta", "alpha"}
	p := filepath.Join(dir, "g.npz")
	writeNPZArrays(t, p, arrays, nil)
	g, rep := mustOpen(t, Spec{Path: p})
	checkOpened(t, g, rep)
	if !slices.Equal(g.IDs, []string{"Zürich", "b", "東京"}) {
		t.Errorf("ids %q", g.IDs)
	}
	if g.Adj.At(0, 1) != 2 || g.Adj.At(1, 0) != 2 || g.Adj.At(1, 2) != 1 || g.Adj.NNZ() != 4 {
		t.Errorf("adjacency: A[0,1] = %v, A[1,2] = %v, nnz %d", g.Adj.At(0, 1), g.Adj.At(1, 2), g.Adj.NNZ())
	}
	if attrtest.Sparse(g.X).At(0, 1) != 0.5 || attrtest.Sparse(g.X).At(2, 0) != 2 || attrtest.Sparse(g.X).At(2, 1) != 3 || g.X.NNZ() != 4 {
		t.Errorf("attributes wrong")
	}
	if !slices.Equal(g.ClassNames, []string{"alpha", "zeta"}) || !slices.Equal(g.Labels, []int{0, 1, 0}) {
		t.Errorf("classes %q labels %v", g.ClassNames, g.Labels)
	}
	if rep.DroppedTotal() != 1 || len(rep.Warnings) != 0 {
		t.Errorf("report %s", rep)
	}

	// Pickled node and class names are skipped with a warning; labels keep numbers
	// (float labels holding whole numbers are accepted).
	arrays = smallNPZ()
	arrays["labels"] = []float64{2, 0, 2}
	writeNPZArrays(t, p, arrays, map[string][]byte{
		"node_names":  rawNPY("|O", "(3,)", []byte("\x80\x02pickle")),
		"class_names": rawNPY("|O", "(3,)", []byte("\x80\x02pickle")),
	})
	g, rep = mustOpen(t, Spec{Path: p})
	if !slices.Equal(g.IDs, []string{"0", "1", "2"}) || !slices.Equal(g.ClassNames, []string{"0", "2"}) {
		t.Errorf("ids %q classes %q", g.IDs, g.ClassNames)
	}
	if len(rep.Warnings) != 2 || !strings.Contains(rep.Warnings[0], "pickled") || !strings.Contains(rep.Warnings[1], "pickled") {
		t.Errorf("warnings %q", rep.Warnings)
	}

	// An asymmetric adjacency is symmetrised by the maximum, with a warning; no
	// attributes give m = 0.
	writeNPZArrays(t, p, map[string]any{
		"adj_data": []int64{3}, "adj_indices": []int64{1}, "adj_indptr": []int64{0, 1, 1}, "adj_shape": []int64{2, 2},
	}, nil)
	g, rep = mustOpen(t, Spec{Path: p})
	if g.Adj.At(1, 0) != 3 || g.M() != 0 || len(rep.Warnings) != 2 || !strings.Contains(rep.Warnings[0], "not symmetric") {
		t.Errorf("A[1,0] = %v, m = %d, warnings %q", g.Adj.At(1, 0), g.M(), rep.Warnings)
	}
}

func TestOpenNPZErrors(t *testing.T) {
	with := func(change func(map[string]any)) map[string]any {
		a := smallNPZ()
		change(a)
		return a
	}
	for _, test := range []struct {
		name   string
		arrays map[string]any
		raw    map[string][]byte
		msg    []string
	}{
		{"missing indptr", with(func(a map[string]any) { delete(a, "adj_indptr") }), nil, []string{"adj_indptr: array missing", "it holds adj_data, adj_indices, adj_shape, attr_data", "scipy's CSR arrays adj_data, adj_indices, adj_indptr, adj_shape"}},
		{"no graph arrays", map[string]any{"links": []int64{0, 1, 1, 2}, "labels": []int64{0, 1, 0}}, nil, []string{"adj_", "array missing from the archive (it holds labels, links)", "or as an edge array (edge_index", "docs/your-graph.md"}},
		{"edge array of one dimension", map[string]any{"edges": []int64{0, 1, 1, 2}, "labels": []int64{0, 1, 0}}, nil, []string{"edges: has shape (4,); want 2 × E", "docs/dense-and-ogb.md"}},
		{"short indptr", with(func(a map[string]any) { a["adj_indptr"] = []int32{0, 1, 5} }), nil, []string{"adj_indptr: has 3 entries, want rows + 1 = 4"}},
		{"indptr end", with(func(a map[string]any) { a["adj_indptr"] = []int32{0, 1, 4, 4} }), nil, []string{"adj_indptr: must run from 0 to 5"}},
		{"decreasing", with(func(a map[string]any) { a["adj_indptr"] = []int32{0, 4, 1, 5} }), nil, []string{"decreases at row 1"}},
		{"column range", with(func(a map[string]any) { a["adj_indices"] = []int32{1, 0, 2, 9, 1} }), nil, []string{"entry 3 is column 9, outside 0 to 2"}},
		{"negative weight", with(func(a map[string]any) { a["adj_data"] = []float64{2, 2, -1, 0, 1} }), nil, []string{"adj_data: entry 2: edge weight -1 is negative"}},
		{"NaN attribute", with(func(a map[string]any) { a["attr_data"] = []float64{0.5, 1, 2, nan()} }), nil, []string{"attr_data: entry 3", "not a finite number"}},
		{"not square", with(func(a map[string]any) { a["adj_shape"] = []int64{3, 4} }), nil, []string{"adjacency is 3×4"}},
		{"attr rows", with(func(a map[string]any) { a["attr_shape"] = []int64{2, 2}; a["attr_indptr"] = []int64{0, 1, 4} }), nil, []string{"attributes have 2 rows", "3 vertices"}},
		{"float indices", with(func(a map[string]any) { a["adj_indices"] = []float64{1, 2, 0, 2, 1} }), nil, []string{"adj_indices", "want integers"}},
		{"label count", with(func(a map[string]any) { a["labels"] = []int64{0, 1} }), nil, []string{"labels: has 2 entries for 3 vertices"}},
		{"fractional label", with(func(a map[string]any) { a["labels"] = []float32{0, 1.5, 1} }), nil, []string{"vertex 1 has label 1.5, not a whole number"}},
		{"every label negative", with(func(a map[string]any) { a["labels"] = []int64{-1, -1, -1} }), nil, []string{"no vertex is labelled", "labels: none"}},
		{"one-hot labels, every row zero", with(func(a map[string]any) {}), map[string][]byte{"labels": rawNPY("<i8", "(3, 2)", make([]byte, 48))}, []string{"labels: every label is a row of zeros", "set labels: none"}},
		{"labels of three dimensions", with(func(a map[string]any) {}), map[string][]byte{"labels": rawNPY("<i8", "(3, 1, 1)", make([]byte, 24))}, []string{"has shape (3, 1, 1)", "multi-label"}},
		{"pickled adjacency", with(func(a map[string]any) { delete(a, "adj_data") }), map[string][]byte{"adj_data": rawNPY("|O", "(5,)", nil)}, []string{"adj_data: stored as pickled"}},
		{"truncated", with(func(a map[string]any) { delete(a, "adj_data") }), map[string][]byte{"adj_data": rawNPY("<f8", "(5,)", make([]byte, 16))}, []string{"adj_data: the array data is truncated"}},
		{"huge shape", with(func(a map[string]any) { delete(a, "adj_data") }), map[string][]byte{"adj_data": rawNPY("<f8", "(99999999999,)", nil)}, []string{"adj_data"}},
	} {
		t.Run(test.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "g.npz")
			writeNPZArrays(t, p, test.arrays, test.raw)
			_, _, err := Open(Spec{Path: p})
			checkParseError(t, err, p, 0, test.msg...)
		})
	}
	p := filepath.Join(t.TempDir(), "g.npz")
	os.WriteFile(p, []byte("not a zip"), 0o644)
	_, _, err := Open(Spec{Path: p})
	checkParseError(t, err, p, 0, "not a NumPy .npz archive")
}

func nan() float64 { return math.NaN() }

// FuzzOpenNPZ feeds arbitrary bytes as the adj_indptr array of an otherwise valid
// archive and checks that the npz reader never panics, that every error is a
// *ParseError naming the archive, and that an accepted graph is well formed.
//
//	go test ./datasets -run '^$' -fuzz FuzzOpenNPZ -fuzztime 1m
func FuzzOpenNPZ(f *testing.F) {
	var ok bytes.Buffer
	npy.Write(&ok, []int32{0, 1, 4, 5})
	f.Add(ok.Bytes())
	f.Add(rawNPY("<i8", "(4,)", make([]byte, 32)))
	f.Add(rawNPY(">i4", "(4,)", []byte{0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 5}))
	f.Add([]byte("\x93NUMPY\x01\x00\x10\x00{'descr': '<i4'\n"))
	f.Add(npyVersion3(rawNPY("<i8", "(4,)", make([]byte, 32))))
	f.Add(rawNPY("<f2", "(4,)", make([]byte, 8)))
	f.Fuzz(func(t *testing.T, indptr []byte) {
		p := filepath.Join(t.TempDir(), "g.npz")
		arrays := smallNPZ()
		delete(arrays, "adj_indptr")
		writeNPZArrays(t, p, arrays, map[string][]byte{"adj_indptr": indptr})
		g, rep, err := Open(Spec{Path: p})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != p {
				t.Fatalf("error %v is not a *ParseError naming the archive", err)
			}
			return
		}
		checkOpened(t, g, rep)
	})
}

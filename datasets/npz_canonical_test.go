package datasets

import (
	"archive/zip"
	"path/filepath"
	"strings"
	"testing"
)

func openArchive(t *testing.T, path string) (*npzArchive, func()) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	a := &npzArchive{path: path, files: map[string]*zip.File{}}
	for _, f := range zr.File {
		a.files[strings.TrimSuffix(f.Name, ".npy")] = f
	}
	return a, func() { zr.Close() }
}

// The canonical fast path gives the general reader's adjacency, bit for bit.
func TestCanonicalAdjacencyMatchesGeneral(t *testing.T) {
	for _, name := range []string{"synthetic:tiny", "synthetic", "synthetic:cora"} {
		g, _, err := LoadSpec(Spec{Path: name})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "g.npz")
		if err := WriteNPZ(p, g); err != nil {
			t.Fatal(err)
		}
		a, done := openArchive(t, p)
		n, fast, ok, err := a.canonicalAdjacency()
		if err != nil || !ok {
			t.Fatalf("%s: canonical path refused a canonical file: %v", name, err)
		}
		m, slow, err := a.adjacency(&LoadReport{})
		done()
		if err != nil || m != n || fast.NNZ() != slow.NNZ() {
			t.Fatalf("%s: n %d vs %d, nnz %d vs %d, %v", name, n, m, fast.NNZ(), slow.NNZ(), err)
		}
		for i := 0; i < n; i++ {
			fc, fv := fast.Row(i)
			sc, sv := slow.Row(i)
			for k := range fc {
				if fc[k] != sc[k] || fv[k] != sv[k] {
					t.Fatalf("%s: row %d differs", name, i)
				}
			}
		}
	}
}

// A non-canonical adjacency (one direction only, unsorted, a zero) is left to the general
// reader, which symmetrises it as before.
func TestCanonicalAdjacencyFallsBack(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		data, indices, indptr []float64
	}{
		{"one direction", []float64{1, 1}, []float64{1, 2}, []float64{0, 1, 2, 2}},
		{"unsorted row", []float64{1, 1, 1, 1}, []float64{2, 1, 0, 0}, []float64{0, 2, 3, 4}},
		{"zero value", []float64{1, 0, 1, 1}, []float64{1, 0, 2, 1}, []float64{0, 1, 3, 4}},
		{"different weights", []float64{1, 2, 1, 1}, []float64{1, 0, 2, 1}, []float64{0, 1, 3, 4}},
	} {
		a := pathArrays()
		a["adj_data"] = oneD("<f8", tc.data)
		a["adj_indices"] = oneD("<i8", tc.indices)
		a["adj_indptr"] = oneD("<i8", tc.indptr)
		p := filepath.Join(t.TempDir(), "g.npz")
		writeZip(t, p, a)
		ar, done := openArchive(t, p)
		_, _, ok, err := ar.canonicalAdjacency()
		done()
		if ok || err != nil {
			t.Errorf("%s: canonical path took it (ok %v, err %v)", tc.name, ok, err)
		}
		if _, _, err := Open(Spec{Path: p}); err != nil {
			t.Errorf("%s: general reader: %v", tc.name, err)
		}
	}
}

func TestSymmetricCSR(t *testing.T) {
	for _, tc := range []struct {
		ptr, ind []int
		val      []float64
		want     bool
	}{
		{[]int{0, 1, 2}, []int{1, 0}, []float64{1, 1}, true},
		{[]int{0, 1, 1}, []int{1}, []float64{1}, false},
		{[]int{0, 0, 1}, []int{0}, []float64{1}, false},
		{[]int{0, 2, 3, 4}, []int{1, 2, 0, 0}, []float64{1, 2, 1, 2}, true},
		{[]int{0, 2, 3, 4}, []int{1, 2, 0, 0}, []float64{1, 2, 1, 3}, false},
		{[]int{0, 1, 2, 3}, []int{0, 1, 2}, []float64{5, 5, 5}, true},
	} {
		if got := symmetricCSR(len(tc.ptr)-1, tc.ptr, tc.ind, tc.val); got != tc.want {
			t.Errorf("%v %v %v: symmetric %v, want %v", tc.ptr, tc.ind, tc.val, got, tc.want)
		}
	}
}

package datasets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/memory"
)

// This file holds the corpus of malformed and edge-case dense inputs a researcher's
// Python sends (numpy.save, numpy.savez, pandas.to_csv): each is refused with a message
// naming the file and the fault, or read as meant (with a note or warning where the
// reading is a guess), and never read as another graph in silence.

// npyVersion3 rewrites a version 1.0 .npy file b as version 3.0 (a 4-byte header length).
func npyVersion3(b []byte) []byte {
	hl := int(binary.LittleEndian.Uint16(b[8:10]))
	out := append([]byte("\x93NUMPY\x03\x00"), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(out[8:], uint32(hl))
	return append(append(out, b[10:10+hl]...), b[10+hl:]...)
}

func TestHalfToFloat32(t *testing.T) {
	for _, tc := range []struct {
		bits uint16
		want float32
	}{
		{0x3C00, 1}, {0xC000, -2}, {0x3800, 0.5}, {0x7BFF, 65504}, {0x0001, 1.0 / (1 << 24)},
		{0x8001, -1.0 / (1 << 24)}, {0x03FF, 1023.0 / (1 << 24)}, {0x0400, 1.0 / (1 << 14)},
		{0x0000, 0}, {0x7C00, float32(math.Inf(1))}, {0xFC00, float32(math.Inf(-1))},
	} {
		if got := halfToFloat32(tc.bits); got != tc.want {
			t.Errorf("halfToFloat32(%#04x) = %v, want %v", tc.bits, got, tc.want)
		}
	}
	if v := halfToFloat32(0x7E00); !math.IsNaN(float64(v)) {
		t.Errorf("halfToFloat32(0x7e00) = %v, want NaN", v)
	}
	if v := halfToFloat32(0x8000); v != 0 || !math.Signbit(float64(v)) {
		t.Errorf("halfToFloat32(0x8000) = %v, want -0", v)
	}
}

// TestNPYFeatureCorpus reads x.npy beside a 3-vertex edge list, in every layout NumPy
// writes (each must give the same values) and in the broken forms a researcher sends
// (each must be refused naming x.npy and the fault, without a panic).
func TestNPYFeatureCorpus(t *testing.T) {
	vals := []float64{0.5, 0, 2, 1.25, 3, 0.75} // 3×2, row-major
	c := npyBytes("<f4", false, 3, 2, vals)
	var gzipped bytes.Buffer
	gzipped.Write(gz(string(c)))
	for _, tc := range []struct {
		name   string
		file   string // the feature file's name (default x.npy)
		data   []byte
		want32 bool   // read: stored as float32
		errs   string // refused: the error says this
		warn   string // read with a warning saying this
	}{
		{name: "C float32", data: c, want32: true},
		{name: "Fortran float32", data: npyBytes("<f4", true, 3, 2, vals), want32: true},
		{name: "big-endian float64", data: npyBytes(">f8", false, 3, 2, vals)},
		{name: "Fortran big-endian float64", data: npyBytes(">f8", true, 3, 2, vals)},
		{name: "float16", data: npyBytes("<f2", false, 3, 2, vals), want32: true},
		{name: "gzipped, named .npy.gz", file: "x.npy.gz", data: gzipped.Bytes(), want32: true},
		{name: "gzipped, named .npy", data: gzipped.Bytes(), want32: true},
		{name: "version 3.0 header", data: npyVersion3(c), want32: true},
		{name: "fewer rows than the edges name", data: npyBytes("<f4", false, 2, 2, vals[:4]), errs: "x.npy has 2 rows, so the vertices are 0 … 1"},
		{name: "more rows than the edges name", data: npyBytes("<f8", false, 5, 2, append(vals, 1, 1, 1, 1)), warn: "rows 3…4 of x.npy"},
		{name: "header shape past 2^63 bytes", data: npyHeaderOnly("<f8", []int{2, 1 << 62}, 48), errs: "more than 18 EB"},
		{name: "header shape of 10^12 values", data: npyHeaderOnly("<f8", []int{1_000_000, 1_000_000}, 48), errs: "(8.0 TB), more than the file's"},
		{name: "header shape larger than the data", data: append(npyHeader("<f4", false, []int{30, 2}), c[len(c)-24:]...), errs: "truncated"},
		{name: "header shape smaller than the data", data: append(npyHeader("<f4", false, []int{2, 2}), c[len(c)-24:]...), errs: "8 bytes after the (2, 2) array"},
		{name: "gzipped, with data after the array", data: gz(string(append(npyHeader("<f4", false, []int{2, 2}), c[len(c)-24:]...))), errs: "8 bytes after"},
		{name: "negative shape", data: npyHeaderOnly("<f8", []int{-1, 2}, 48), errs: "negative size"},
		{name: "no rows", data: npyHeaderOnly("<f4", []int{0, 2}, 0), errs: "has shape (0, 2): no rows"},
		{name: "one-dimensional", data: npyHeaderOnly("<f4", []int{3}, 12), errs: "has shape (3,); want a 2-D array (vertices × attributes) (one attribute per vertex? save x.reshape(-1, 1))"},
		{name: "three-dimensional", data: npyHeaderOnly("<f4", []int{3, 2, 1}, 24), errs: "has shape (3, 2, 1); want a 2-D array"},
		{name: "complex", data: npyHeaderOnly("<c8", []int{3, 2}, 48), errs: "type <c8"},
		{name: "pickled objects", data: npyHeaderOnly("|O", []int{3, 2}, 48), errs: "pickled"},
		{name: "infinite value", data: npyBytes("<f8", false, 3, 2, []float64{1, 2, 3, math.Inf(-1), 5, 6}), errs: "value -Inf at row 1, column 1"},
		{name: "version 4.0 header", data: append([]byte("\x93NUMPY\x04\x00"), c[8:]...), errs: "version 4.0"},
		{name: "bad magic", data: append([]byte("\x93NUMPX"), c[6:]...), errs: "not a NumPy .npy file"},
		{name: "a zip archive named .npy", data: []byte("PK\x03\x04 not really an archive"), errs: "zip archive"},
		{name: "an .npz archive given as features", file: "x.npz", data: []byte("PK\x03\x04"), errs: "not a feature file"},
		{name: "corrupt gzip", data: append(bytes.Clone(gzipped.Bytes()[:gzipped.Len()-8]), 0, 0, 0, 0, 0, 0, 0, 0), errs: "corrupt gzip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			name := tc.file
			if name == "" {
				name = "x.npy"
			}
			feat := filepath.Join(dir, name)
			os.WriteFile(feat, tc.data, 0o644)
			os.WriteFile(filepath.Join(dir, "e.csv"), []byte("0,1\n1,2\n2,0\n"), 0o644)
			g, rep, err := Open(Spec{Path: filepath.Join(dir, "e.csv"), Features: feat})
			if tc.errs != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errs) || !strings.Contains(err.Error(), name) {
					t.Fatalf("error %v, want one naming %s and saying %q", err, name, tc.errs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			warnings := strings.Join(rep.Warnings, "\n")
			if tc.warn != "" {
				if !strings.Contains(warnings, tc.warn) {
					t.Errorf("warnings %q, want one saying %q", warnings, tc.warn)
				}
				return
			}
			if warnings != "" || g.N() != 3 || g.M() != 2 || attrtest.Dense(g.X).Is32() != tc.want32 {
				t.Fatalf("n %d, m %d, float32 %v (want %v), warnings %q", g.N(), g.M(), attrtest.Dense(g.X).Is32(), tc.want32, warnings)
			}
			for i := 0; i < 3; i++ {
				for j := 0; j < 2; j++ {
					if got := attrtest.Dense(g.X).At(i, j); got != vals[i*2+j] {
						t.Errorf("X[%d,%d] = %v, want %v", i, j, got, vals[i*2+j])
					}
				}
			}
		})
	}
}

// TestNPZDenseCorpus covers the .npz cases of the corpus: float16 and big-endian
// attr_matrix, labels with NaN or −1 for unlabelled vertices, and which attributes win
// when both attr_matrix and attr_* are present.
func TestNPZDenseCorpus(t *testing.T) {
	vals := []float64{0.5, 0, 2, 1.25, 3, 0.75}
	sparseAttrs := func(a map[string][]byte) {
		a["attr_data"] = oneD("<f8", []float64{7, 8})
		a["attr_indices"] = oneD("<i8", []float64{0, 1})
		a["attr_indptr"] = oneD("<i8", []float64{0, 1, 1, 2})
		a["attr_shape"] = oneD("<i8", []float64{3, 2})
	}
	for _, tc := range []struct {
		name   string
		edit   func(a map[string][]byte)
		labels string // the labels read, fmt of g.Labels
		errs   string
		warn   string
	}{
		{name: "float16 attr_matrix", edit: func(a map[string][]byte) { a["attr_matrix"] = npyBytes("<f2", false, 3, 2, vals) }, labels: "[0 1 1]"},
		{name: "big-endian attr_matrix", edit: func(a map[string][]byte) { a["attr_matrix"] = npyBytes(">f4", true, 3, 2, vals) }, labels: "[0 1 1]"},
		{name: "version 3.0 attr_matrix", edit: func(a map[string][]byte) { a["attr_matrix"] = npyVersion3(npyBytes("<f4", false, 3, 2, vals)) }, labels: "[0 1 1]"},
		{name: "NaN labels", edit: func(a map[string][]byte) { a["labels"] = oneD("<f8", []float64{0, math.NaN(), 1}) }, labels: "[0 -1 1]", warn: "1 of 3 vertices have no label (negative or NaN)"},
		{name: "-1 labels", edit: func(a map[string][]byte) { a["labels"] = oneD("<i8", []float64{-1, 1, 1}) }, labels: "[-1 0 0]", warn: "1 of 3 vertices have no label (negative or NaN)"},
		{name: "every label NaN", edit: func(a map[string][]byte) { a["labels"] = oneD("<f8", []float64{math.NaN(), math.NaN(), math.NaN()}) }, errs: "every label is negative or NaN"},
		{name: "fractional label", edit: func(a map[string][]byte) { a["labels"] = oneD("<f8", []float64{0, 0.5, 1}) }, errs: "vertex 1 has label 0.5"},
		{name: "attr_matrix and attr_*: the sparse ones are read", edit: sparseAttrs, labels: "[0 1 1]", warn: "the sparse ones are read"},
		{name: "string labels", edit: func(a map[string][]byte) { a["labels"] = rawNPY("<U2", "(3,)", utf32("cs", "ma", "ma")) }, labels: "[0 1 1]"},
		{name: "string labels, one empty", edit: func(a map[string][]byte) { a["labels"] = rawNPY("|S2", "(3,)", []byte("cs\x00\x00ma")) }, labels: "[0 -1 1]", warn: "1 of 3 vertices have no label (an empty string)"},
		{name: "labels as a column (n, 1)", edit: func(a map[string][]byte) { a["labels"] = npyBytes("<i8", false, 3, 1, []float64{1, 0, 1}) }, labels: "[1 0 1]"},
		{name: "labels as a matrix (n, 2)", edit: func(a map[string][]byte) { a["labels"] = npyBytes("<i8", false, 3, 2, vals) }, errs: "has shape (3, 2); want one class per vertex, or one-hot rows (a single 1, or zeros for an unlabelled vertex): vertex 1 holds 2 in column 0"},
		{name: "one-hot labels", edit: func(a map[string][]byte) {
			a["labels"] = npyBytes("<i8", false, 3, 3, []float64{0, 0, 1, 1, 0, 0, 1, 0, 0})
		}, labels: "[1 0 0]"},
		{name: "one-hot labels, Fortran order, a row of zeros", edit: func(a map[string][]byte) { a["labels"] = npyBytes("<f4", true, 3, 2, []float64{0, 1, 0, 0, 1, 0}) }, labels: "[1 -1 0]", warn: "1 of 3 vertices have no label (a row of zeros)"},
		{name: "multi-label rows", edit: func(a map[string][]byte) { a["labels"] = npyBytes("|u1", false, 3, 2, []float64{1, 0, 1, 1, 0, 1}) }, errs: "vertex 1 has a 1 in columns 0 and 1 (multi-label labels are not supported"},
		{name: "adj_indices out of range", edit: func(a map[string][]byte) { a["adj_indices"] = oneD("<i8", []float64{1, 0, 9, 1}) }, errs: "adj_indices: entry 2 is column 9, outside 0 to 2"},
		{name: "attr_matrix rows", edit: func(a map[string][]byte) { a["attr_matrix"] = npyBytes("<f4", false, 2, 3, vals) }, errs: "attr_matrix: has 2 rows, but the adjacency has 3 vertices"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := pathArrays()
			a["attr_matrix"] = npyBytes("<f4", false, 3, 2, vals)
			tc.edit(a)
			g, rep := openWrittenNPZ(t, filepath.Join(t.TempDir(), "g.npz"), a, tc.errs)
			if g == nil {
				return
			}
			warnings := strings.Join(rep.Warnings, "\n")
			if got := fmtInts(g.Labels); got != tc.labels || !strings.Contains(warnings, tc.warn) || tc.warn == "" && warnings != "" {
				t.Errorf("labels %s, want %s; warnings %q, want %q", got, tc.labels, warnings, tc.warn)
			}
			if attrtest.Dense(g.X) != nil && (attrtest.Dense(g.X).At(1, 0) != 2 || attrtest.Dense(g.X).At(2, 1) != 0.75) {
				t.Errorf("attr_matrix misread: %v", attrtest.Dense(g.X).Float32())
			}
			if a["attr_data"] != nil && (attrtest.Dense(g.X) != nil || attrtest.Sparse(g.X) == nil || attrtest.Sparse(g.X).At(2, 1) != 8) {
				t.Errorf("with both, want the sparse attributes; dense %v", attrtest.Dense(g.X) != nil)
			}
		})
	}
}

// utf32 returns NumPy's little-endian UTF-32 encoding of strings padded to the longest.
func utf32(strs ...string) []byte {
	w := 0
	for _, s := range strs {
		w = max(w, len([]rune(s)))
	}
	var b []byte
	for _, s := range strs {
		r := []rune(s)
		for k := 0; k < w; k++ {
			var c rune
			if k < len(r) {
				c = r[k]
			}
			b = binary.LittleEndian.AppendUint32(b, uint32(c))
		}
	}
	return b
}

func fmtInts(v []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for k, x := range v {
		if k > 0 {
			b.WriteByte(' ')
		}
		writeInt(&b, x)
	}
	b.WriteByte(']')
	return b.String()
}

// TestOGBCorpus writes OGB folders as pandas writes them when a researcher gets a detail
// wrong, and checks that each reads the graph meant (the fingerprint of the well-formed
// folder) with a note or warning, or is refused naming the file and the fault.
func TestOGBCorpus(t *testing.T) {
	good, _, err := Open(Spec{Path: writeOGB(t, ogbFiles())})
	if err != nil {
		t.Fatal(err)
	}
	pandas := map[string]string{ // header=True, index=True: pandas' defaults
		"num-node-list.csv.gz": ",0\n0,4\n",
		"num-edge-list.csv.gz": ",0\n0,4\n",
		"edge.csv.gz":          ",0,1\n0,0,1\n1,1,2\n2,2,0\n3,2,3\n",
		"node-feat.csv.gz":     ",0,1,2\n0,-0.1,0.5,1.0\n1,0.2,0.0,3.5\n2,1e-3,2,0\n3,0,0,0\n",
		"node-label.csv.gz":    ",0\n0,3\n1,3\n2,0\n3,1\n",
	}
	for _, tc := range []struct {
		name  string
		files map[string]string // replaces files of ogbFiles(); "" removes one
		plain bool              // write the files without gzip
		same  bool              // reads the same graph as the well-formed folder
		errs  string            // refused, the error saying this
		warn  string            // a warning or note says this
		check func(g *Graph) string
	}{
		{name: "pandas header and index on every file", files: pandas, same: true, warn: "pandas' index column"},
		{name: "named header on edges", files: map[string]string{"edge.csv.gz": "src,dst\n0,1\n1,2\n2,0\n2,3\n"}, same: true, warn: `column names ("src,dst")`},
		{name: "float ids", files: map[string]string{"edge.csv.gz": "0.0,1.0\n1.0,2.0\n2.0,0.0\n2.0,3.0\n"}, same: true},
		{name: "float labels", files: map[string]string{"node-label.csv.gz": "3.0\n3.0\n0.0\n1.0\n"}, same: true},
		{name: "plain text in .gz files", plain: true, same: true},
		{name: "spaces after commas", files: map[string]string{"edge.csv.gz": "0, 1\n1, 2\n2, 0\n2, 3\n", "node-feat.csv.gz": "-0.1, 0.5, 1.0\n0.2, 0.0, 3.5\n1e-3, 2, 0\n0, 0, 0\n"}, same: true},
		{name: "index column out of vertex order", files: map[string]string{"node-label.csv.gz": ",y\n1,3\n0,3\n2,0\n3,1\n"}, errs: "node-label.csv.gz:2: the first value, \"1\", of pandas' index column is not the row number 0"},
		{name: "index column without header", files: map[string]string{"edge.csv.gz": "0,0,1\n1,1,2\n2,2,0\n3,2,3\n"}, errs: "edge.csv.gz:1: \"0,0,1\" has 3 values"},
		{name: "default column names as header", files: map[string]string{"node-label.csv.gz": "0\n3\n3\n0\n1\n"}, errs: `is line 1, "0", the column names pandas writes`},
		{name: "default column names in num-node-list", files: map[string]string{"num-node-list.csv.gz": "0\n4\n"}, errs: "header=True"},
		{name: "default column names on edges", files: map[string]string{"edge.csv.gz": "0,1\n0,1\n1,2\n2,0\n2,3\n"}, errs: `holds 5 edges, but num-edge-list.csv.gz says 4 (is line 1, "0,1"`},
		{name: "fractional id", files: map[string]string{"edge.csv.gz": "0,1\n1,2.5\n2,0\n2,3\n"}, errs: `edge.csv.gz:2: "1,2.5": the vertex "2.5" is not a whole number`},
		{name: "ids from 1", files: map[string]string{"edge.csv.gz": "1,2\n2,3\n3,1\n3,4\n"}, errs: "edge.csv.gz:4: \"3,4\": vertex 4 is outside 0 … 3 (num-node-list.csv.gz says n = 4); no edge so far names vertex 0"},
		{name: "ids from 1, n never named", files: map[string]string{"edge.csv.gz": "1,2\n2,3\n3,1\n", "num-edge-list.csv.gz": "3\n"}, warn: "no edge names vertex 0"},
		{name: "num-node-list too small", files: map[string]string{"num-node-list.csv.gz": "3\n"}, errs: "vertex 3 is outside 0 … 2 (num-node-list.csv.gz says n = 3); is num-node-list.csv.gz too small?"},
		{name: "num-node-list above the feature rows", files: map[string]string{"num-node-list.csv.gz": "5\n", "node-label.csv.gz": "3\n3\n0\n1\n1\n"}, errs: "4 feature lines for the 5 vertices"},
		{name: "graph-property dataset", files: map[string]string{"num-node-list.csv.gz": "2\n2\n"}, errs: "graph-property dataset"},
		{name: "no vertices", files: map[string]string{"num-node-list.csv.gz": "0\n"}, errs: "says the graph has 0 vertices"},
		{name: "negative vertex count", files: map[string]string{"num-node-list.csv.gz": "-4\n"}, errs: "says the graph has -4 vertices"},
		{name: "no num-node-list", files: map[string]string{"num-node-list.csv.gz": ""}, errs: "no num-node-list.csv.gz"},
		{name: "not gzip, not text", files: map[string]string{"node-feat.csv.gz": "\x00\x01\x02garbage"}, errs: "node-feat.csv.gz: is not CSV text (it holds the byte 0x00"},
		{name: "NaN features", files: map[string]string{"node-feat.csv.gz": "1,2,3\n1,,3\n0,0,0\n0,0,0\n"}, errs: "node-feat.csv.gz:2: value 2, \"\", is not a finite number"},
		{name: "NaN, empty and -1 labels", files: map[string]string{"node-label.csv.gz": "3\n\"\"\nnan\n-1\n"}, warn: "3 of 4 vertices have no label",
			check: func(g *Graph) string { return fmtInts(g.Labels) + " want [0 -1 -1 -1]" }},
		{name: "an empty line is an unlabelled vertex", files: map[string]string{"node-label.csv.gz": "3\n\n0\n1\n"}, warn: "1 of 4 vertices have no label",
			check: func(g *Graph) string { return fmtInts(g.Labels) + " want [2 -1 0 1]" }},
		{name: "empty lines after the last label", files: map[string]string{"node-label.csv.gz": "3\n3\n0\n1\n\n\n"}, same: true},
		{name: "empty lines after the last label", files: map[string]string{"node-label.csv.gz": "3\n3\n0\n1\n\n\n"}, same: true},
		{name: "every label NaN", files: map[string]string{"node-label.csv.gz": "nan\nnan\nnan\nnan\n"}, warn: "every label is NaN, empty or negative",
			check: func(g *Graph) string { return fmtInts(g.Labels) + " want []" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := ogbFiles()
			for k, v := range tc.files {
				if v == "" {
					delete(files, k)
				} else {
					files[k] = v
				}
			}
			root := writeOGB(t, files)
			if tc.plain {
				for k, v := range files {
					os.WriteFile(filepath.Join(root, "raw", k), []byte(v), 0o644)
				}
			}
			g, rep, err := Open(Spec{Path: root})
			if tc.errs != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errs) {
					t.Fatalf("error %v, want one saying %q", err, tc.errs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			said := strings.Join(append(rep.Warnings, rep.Notes...), "\n")
			if !strings.Contains(said, tc.warn) {
				t.Errorf("warnings and notes %q, want one saying %q", said, tc.warn)
			}
			if tc.same && g.Fingerprint() != good.Fingerprint() {
				t.Errorf("read another graph than meant: n %d, edges %d, m %d, labels %v", g.N(), g.Edges(), g.M(), g.Labels)
			}
			if tc.check != nil {
				if got, want, _ := strings.Cut(tc.check(g), " want "); got != want {
					t.Errorf("labels %s, want %s", got, want)
				}
			}
		})
	}
}

// TestOGBFileNames reads an OGB folder whose files were written without gzip under plain
// .csv names, and checks the messages for a folder one level above or below a dataset
// folder and for corrupt gzip data.
func TestOGBFileNames(t *testing.T) {
	root := writeOGB(t, ogbFiles())
	good, _, err := Open(Spec{Path: root})
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), "ogbn_plain")
	os.MkdirAll(filepath.Join(plain, "raw"), 0o755)
	for k, v := range ogbFiles() {
		os.WriteFile(filepath.Join(plain, "raw", strings.TrimSuffix(k, ".gz")), []byte(v), 0o644)
	}
	if g, _, err := Open(Spec{Path: plain}); err != nil || g.Fingerprint() != good.Fingerprint() {
		t.Errorf("plain .csv files: err %v", err)
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Dir(root), "holds the OGB dataset folder " + root},
		{filepath.Join(root, "split"), "inside the OGB dataset folder " + root},
		{filepath.Join(root, "split", "random"), "inside the OGB dataset folder " + root},
	} {
		if _, _, err := Open(Spec{Path: tc.path}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.path, err, tc.want)
		}
		if _, _, err := Open(Spec{Path: tc.path, Format: FormatOGB}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s, format ogb: error %v, want one saying %q", tc.path, err, tc.want)
		}
	}
	// A heterogeneous dataset (ogbn-mag): raw/num-node-dict.csv.gz and relations/.
	mag := filepath.Join(t.TempDir(), "ogbn_mag")
	os.MkdirAll(filepath.Join(mag, "raw", "relations", "paper___cites___paper"), 0o755)
	os.WriteFile(filepath.Join(mag, "raw", "num-node-dict.csv.gz"), gz("author,paper\n3,4\n"), 0o644)
	for _, f := range []string{"", FormatOGB} {
		if _, _, err := Open(Spec{Path: mag, Format: f}); err == nil || !strings.Contains(err.Error(), "heterogeneous OGB dataset") {
			t.Errorf("ogbn-mag layout, format %q: error %v", f, err)
		}
	}
	// Bytes that are neither gzip nor text (a zip archive, pandas' compression="zip").
	zipped := filepath.Join(plain, "raw", "edge.csv")
	os.WriteFile(zipped, []byte("PK\x03\x04\x14\x00\x00\x00"), 0o644)
	if _, _, err := Open(Spec{Path: plain}); err == nil || !strings.Contains(err.Error(), "edge.csv: is not CSV text") {
		t.Errorf("zip data as edge.csv: error %v", err)
	}
	// A byte flipped inside the deflate data: the text it decompresses to may parse or
	// not, but the load fails naming corrupt gzip data.
	p := filepath.Join(root, "raw", "node-feat.csv.gz")
	data, _ := os.ReadFile(p)
	data[len(data)/2] ^= 0xff
	os.WriteFile(p, data, 0o644)
	if _, _, err := Open(Spec{Path: root}); err == nil || !strings.Contains(err.Error(), "corrupt") || !strings.Contains(err.Error(), "node-feat.csv.gz") {
		t.Errorf("corrupt gzip: error %v", err)
	}
}

// TestOGBDeclaredSizes checks that a vertex or edge count read from an OGB folder is
// checked against the memory budget before anything of that size is allocated.
func TestOGBDeclaredSizes(t *testing.T) {
	lowBudget(t, 64<<20)
	// A .npy header of 2·10⁹ rows and no columns: no values, but 2·10⁹ vertices.
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"e.csv": "0,1\n", "x.npy": string(npyHeaderOnly("<f4", []int{2_000_000_000, 0}, 0))})
	var err error
	if got := allocated(func() {
		_, _, err = Open(Spec{Path: filepath.Join(dir, "e.csv"), Features: filepath.Join(dir, "x.npy")})
	}); got > 8<<20 || !errors.Is(err, memory.ErrTooLarge) || !strings.Contains(err.Error(), "n = 2000000000 vertices") {
		t.Errorf("x.npy of shape (2000000000, 0): allocated %d bytes, error %v", got, err)
	}
	// An edge file without num-edge-list.csv.gz whose lines (a few kB of gzip) would
	// outgrow the budget: refused as the edge arrays grow.
	files := ogbFiles()
	delete(files, "num-edge-list.csv.gz")
	delete(files, "node-feat.csv.gz")
	delete(files, "node-label.csv.gz")
	files["edge.csv.gz"] = strings.Repeat("0,1\n", 1<<20+1)
	if _, _, err := Open(Spec{Path: writeOGB(t, files)}); !errors.Is(err, memory.ErrTooLarge) || !strings.Contains(err.Error(), "more than 1048576 edges") {
		t.Errorf("2^20+1 edge lines under a 64 MB budget: error %v", err)
	}
	for _, tc := range []struct{ file, data, want string }{
		{"num-node-list.csv.gz", "2000000000\n", "n = 2000000000 vertices"},
		{"num-edge-list.csv.gz", "10000000000000\n", "10000000000000 edges"},
		{"num-node-list.csv.gz", "1000000000000\n", "more than the 2147483647 supported"},
	} {
		files := ogbFiles()
		files[tc.file] = tc.data
		root := writeOGB(t, files)
		var err error
		if got := allocated(func() { _, _, err = Open(Spec{Path: root}) }); got > 8<<20 {
			t.Errorf("%s = %s: allocated %d bytes before refusing", tc.file, tc.data, got)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s = %s: error %v, want %q", tc.file, tc.data, err, tc.want)
		}
		if strings.Contains(tc.want, "edges") || strings.Contains(tc.want, "vertices") {
			if !errors.Is(err, memory.ErrTooLarge) {
				t.Errorf("%s = %s: error %v is not a memory refusal", tc.file, tc.data, err)
			}
		}
	}
}

// FuzzOpenNPY feeds arbitrary bytes as a .npy feature file beside a small edge list and
// checks that the reader never panics, that every error is a *ParseError naming one of
// the files (or a memory refusal), and that an accepted graph is well formed.
//
//	go test ./datasets -run '^$' -fuzz FuzzOpenNPY -fuzztime 1m
func FuzzOpenNPY(f *testing.F) {
	vals := []float64{0.5, 0, 2, 1.25, 3, 0.75}
	c := npyBytes("<f4", false, 3, 2, vals)
	f.Add(c)
	f.Add(npyBytes(">f8", true, 3, 2, vals))
	f.Add(npyBytes("<f2", false, 3, 2, vals))
	f.Add(npyVersion3(c))
	f.Add(gz(string(c)))
	f.Add(npyHeaderOnly("<f8", []int{2, 1 << 62}, 48))
	f.Add(npyHeaderOnly("<f4", []int{0, 2}, 0))
	f.Add(append(npyHeader("<f4", false, []int{2, 2}), c[len(c)-24:]...))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"e.csv": "0,1\n1,2\n2,0\n", "x.npy": string(data)})
		g, rep, err := Open(Spec{Path: filepath.Join(dir, "e.csv"), Features: filepath.Join(dir, "x.npy"), AllowDropped: true})
		if err != nil {
			checkFuzzFileError(t, err, dir)
			return
		}
		checkOpened(t, g, rep)
	})
}

// FuzzOpenOGB feeds arbitrary text as the raw files of an OGB folder (plain or gzipped)
// and checks that the reader never panics, that every error is a *ParseError naming the
// folder or one of its files (or a memory refusal), and that an accepted graph is well
// formed.
//
//	go test ./datasets -run '^$' -fuzz FuzzOpenOGB -fuzztime 1m
func FuzzOpenOGB(f *testing.F) {
	f.Add("4\n", "0,1\n1,2\n2,0\n2,3\n", "-0.1,0.5\n0.2,0\n1e-3,2\n0,0\n", "3\n3\n0\n1\n", true)
	f.Add(",0\n0,4\n", ",0,1\n0,0,1\n1,1,2\n", ",0,1\n0,1,2\n1,1,2\n2,0,0\n3,0,0\n", ",0\n0,1\n1,\n2,1\n3,nan\n", false)
	f.Add("4\n", "src,dst\n0.0,1.0\n1,2.5\n", "", "\"\"\n-1\n3.0\n\n", false)
	f.Add("0\n4\n", "1,2\n2,3\n3,4\n", "0,1\n1,2\n", "0\n1,1\n", true)
	f.Add("2000000000\n", "0,1\n", "", "", false)
	f.Fuzz(func(t *testing.T, nodes, edges, feat, labels string, gzipped bool) {
		raw := filepath.Join(t.TempDir(), "raw")
		os.MkdirAll(raw, 0o755)
		for name, text := range map[string]string{"num-node-list.csv.gz": nodes, "edge.csv.gz": edges, "node-feat.csv.gz": feat, "node-label.csv.gz": labels} {
			if text == "" && name != "edge.csv.gz" {
				continue
			}
			data := []byte(text)
			if gzipped {
				data = gz(text)
			}
			os.WriteFile(filepath.Join(raw, name), data, 0o644)
		}
		lowBudget(t, 256<<20)
		g, rep, err := Open(Spec{Path: raw, Format: FormatOGB})
		if err != nil {
			checkFuzzFileError(t, err, raw)
			return
		}
		checkOpened(t, g, rep)
	})
}

// TestNPZBytesNames reads node_names stored as NumPy bytes strings ('S'), which NumPy
// pads with NULs to the longest: the names are read without the padding.
func TestNPZBytesNames(t *testing.T) {
	a := pathArrays()
	a["node_names"] = rawNPY("|S3", "(3,)", []byte("a\x00\x00bb\x00ccc"))
	a["attr_matrix"] = npyBytes("<f4", false, 3, 1, []float64{1, 2, 3})
	p := filepath.Join(t.TempDir(), "g.npz")
	writeZip(t, p, a)
	g, rep, err := Open(Spec{Path: p})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(g.IDs, ",") != "a,bb,ccc" || len(rep.Warnings) != 0 {
		t.Errorf("ids %q, warnings %v", g.IDs, rep.Warnings)
	}
}

// openWrittenNPZ writes arrays as the archive path and opens it. With errs set, the
// archive must be refused with an error naming it and saying errs; g is then nil.
func openWrittenNPZ(t *testing.T, path string, arrays map[string][]byte, errs string) (*Graph, *LoadReport) {
	t.Helper()
	writeZip(t, path, arrays)
	g, rep, err := Open(Spec{Path: path})
	if errs != "" {
		if err == nil || !strings.Contains(err.Error(), errs) || !strings.Contains(err.Error(), filepath.Base(path)) {
			t.Fatalf("error %v, want one naming %s and saying %q", err, filepath.Base(path), errs)
		}
		return nil, nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return g, rep
}

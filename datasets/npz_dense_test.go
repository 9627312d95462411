package datasets

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/attrtest"
)

// npyBytes returns a .npy file of a 2-D array: vals (row-major) written in C or Fortran
// order as dtype descr (<f2, <f4, >f4, <f8, <i8, |u1).
func npyBytes(descr string, fortran bool, r, c int, vals []float64) []byte {
	var b bytes.Buffer
	b.Write(npyHeader(descr, fortran, []int{r, c}))
	var order binary.ByteOrder = binary.LittleEndian
	if descr[0] == '>' {
		order = binary.BigEndian
	}
	for q := 0; q < r*c; q++ {
		k := q
		if fortran { // q walks columns first
			k = (q%r)*c + q/r
		}
		v := vals[k]
		switch descr[1:] {
		case "f4":
			order.PutUint32(grow(&b, 4), math.Float32bits(float32(v)))
		case "f8":
			order.PutUint64(grow(&b, 8), math.Float64bits(v))
		case "i8":
			order.PutUint64(grow(&b, 8), uint64(int64(v)))
		case "u1":
			b.WriteByte(byte(v))
		case "f2":
			order.PutUint16(grow(&b, 2), halfBits(float32(v)))
		}
	}
	return b.Bytes()
}

// halfBits returns the float16 bits of v, a zero or a normal float16 value whose
// mantissa fits in 10 bits (exact for the test values).
func halfBits(v float32) uint16 {
	b := math.Float32bits(v)
	sign := uint16(b>>16) & 0x8000
	if v == 0 {
		return sign
	}
	exp := int(b>>23&0xff) - 127 + 15
	return sign | uint16(exp)<<10 | uint16(b>>13&0x3ff)
}

func grow(b *bytes.Buffer, n int) []byte {
	b.Write(make([]byte, n))
	return b.Bytes()[b.Len()-n:]
}

// writeZip writes the named entries (deflated) to path.
func writeZip(t *testing.T, path string, entries map[string][]byte) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range entries {
		w, err := zw.Create(name + ".npy")
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func oneD(descr string, vals []float64) []byte {
	b := npyBytes(descr, false, 1, len(vals), vals)
	// Rewrite the 2-D header as 1-D: build afresh.
	h := npyHeader(descr, false, []int{len(vals)})
	return append(h, b[len(npyHeader(descr, false, []int{1, len(vals)})):]...)
}

func pathArrays() map[string][]byte {
	return map[string][]byte{
		"adj_data":    oneD("<f8", []float64{1, 1, 1, 1}),
		"adj_indices": oneD("<i8", []float64{1, 0, 2, 1}),
		"adj_indptr":  oneD("<i8", []float64{0, 1, 3, 4}),
		"adj_shape":   oneD("<i8", []float64{3, 3}),
		"labels":      oneD("<i8", []float64{0, 1, 1}),
	}
}

func TestNPZAttrMatrix(t *testing.T) {
	vals := []float64{0.5, 0, 2, 1.25, 3, 0.75} // 3×2, row-major
	for _, tc := range []struct {
		descr   string
		fortran bool
		want32  bool
	}{
		{"<f4", false, true}, {"<f4", true, true}, {">f4", false, true},
		{"<f8", false, false}, {"<f8", true, false}, {"<i8", false, false},
	} {
		t.Run(tc.descr+map[bool]string{true: "-F", false: "-C"}[tc.fortran], func(t *testing.T) {
			dir := t.TempDir()
			a := pathArrays()
			if tc.descr == "<i8" {
				vals = []float64{1, 0, 2, 1, 3, 7}
			}
			a["attr_matrix"] = npyBytes(tc.descr, tc.fortran, 3, 2, vals)
			p := filepath.Join(dir, "g.npz")
			writeZip(t, p, a)
			g, rep, err := Open(Spec{Path: p})
			if err != nil {
				t.Fatal(err)
			}
			if attrtest.Sparse(g.X) != nil || attrtest.Dense(g.X) == nil {
				t.Fatalf("X %v, XDense %v: want the dense attributes only", g.X, attrtest.Dense(g.X))
			}
			if attrtest.Dense(g.X).Is32() != tc.want32 {
				t.Errorf("float32 storage %v, want %v", attrtest.Dense(g.X).Is32(), tc.want32)
			}
			for i := 0; i < 3; i++ {
				for j := 0; j < 2; j++ {
					if got := attrtest.Dense(g.X).At(i, j); got != vals[i*2+j] {
						t.Errorf("X[%d,%d] = %v, want %v", i, j, got, vals[i*2+j])
					}
				}
			}
			if g.M() != 2 || g.Edges() != 2 || g.K() != 2 || len(rep.Warnings) != 0 {
				t.Errorf("m %d, edges %d, k %d, warnings %v", g.M(), g.Edges(), g.K(), rep.Warnings)
			}
		})
	}
}

func TestDenseFingerprintMatchesSparse(t *testing.T) {
	dir := t.TempDir()
	a := pathArrays()
	a["attr_matrix"] = npyBytes("<f8", false, 3, 2, []float64{0.5, 0, 2, 1.25, 0, 0.75})
	writeZip(t, filepath.Join(dir, "d.npz"), a)
	b := pathArrays()
	b["attr_data"] = oneD("<f8", []float64{0.5, 2, 1.25, 0.75})
	b["attr_indices"] = oneD("<i8", []float64{0, 0, 1, 1})
	b["attr_indptr"] = oneD("<i8", []float64{0, 1, 3, 4})
	b["attr_shape"] = oneD("<i8", []float64{3, 2})
	writeZip(t, filepath.Join(dir, "s.npz"), b)
	gd, _, err := Open(Spec{Path: filepath.Join(dir, "d.npz")})
	if err != nil {
		t.Fatal(err)
	}
	gs, _, err := Open(Spec{Path: filepath.Join(dir, "s.npz")})
	if err != nil {
		t.Fatal(err)
	}
	if gd.Fingerprint() != gs.Fingerprint() {
		t.Error("dense and sparse copies of the same graph have different fingerprints")
	}
}

func TestDenseReadersRefuseBadFiles(t *testing.T) {
	good := npyBytes("<f4", false, 3, 2, []float64{1, 2, 3, 4, 5, 6})
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated data", good[:len(good)-3], "truncated"},
		{"truncated header", good[:20], "g.npz"},
		{"three dims", npyHeaderOnly("<f4", []int{3, 2, 1}, 24), "2-D"},
		{"wrong rows", npyBytes("<f4", false, 2, 2, []float64{1, 2, 3, 4}), "2 rows"},
		{"nan", npyBytes("<f8", false, 3, 2, []float64{1, 2, math.NaN(), 4, 5, 6}), "finite"},
		{"huge shape", npyHeaderOnly("<f4", []int{3, 1 << 40}, 24), "g.npz"},
		{"strings", npyHeaderOnly("<U3", []int{3, 2}, 72), "g.npz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a := pathArrays()
			a["attr_matrix"] = tc.data
			p := filepath.Join(dir, "g.npz")
			writeZip(t, p, a)
			_, _, err := Open(Spec{Path: p})
			t.Logf("npz: %v", err)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "g.npz") {
				t.Errorf("error %v, want one naming g.npz and saying %q", err, tc.want)
			}
			// The same bytes as a .npy feature file.
			if tc.name == "wrong rows" {
				return
			}
			np := filepath.Join(dir, "x.npy")
			os.WriteFile(np, tc.data, 0o644)
			os.WriteFile(filepath.Join(dir, "e.csv"), []byte("0,1\n1,2\n"), 0o644)
			_, _, err = Open(Spec{Path: filepath.Join(dir, "e.csv"), Features: np})
			t.Logf("npy: %v", err)
			if err == nil || !strings.Contains(err.Error(), "x.npy") {
				t.Errorf(".npy: error %v, want one naming x.npy", err)
			}
		})
	}
}

// npyHeaderOnly returns a header for shape followed by pad zero bytes.
func npyHeaderOnly(descr string, shape []int, pad int) []byte {
	return append(npyHeader(descr, false, shape), make([]byte, pad)...)
}

func TestNPYFeaturesBesideEdgeList(t *testing.T) {
	dir := t.TempDir()
	vals := []float64{1, 0, 0, 2, 3, 3, 0.5, 0.5}
	os.WriteFile(filepath.Join(dir, "features.npy"), npyBytes("<f4", true, 4, 2, vals), 0o644)
	os.WriteFile(filepath.Join(dir, "edges.csv"), []byte("0,1\n1,2\n2,3\n3,9\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "labels.csv"), []byte("0 a\n1 a\n2 b\n3 b\n"), 0o644)
	g, rep, err := Open(Spec{Path: dir, AllowDropped: true}) // the edge 3,9 names no vertex
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 4 || g.M() != 2 || attrtest.Dense(g.X) == nil || !attrtest.Dense(g.X).Is32() || g.Edges() != 3 || g.Dangling != 1 || g.K() != 2 {
		t.Fatalf("n %d, m %d, edges %d, dangling %d, k %d, dense %v; report %v", g.N(), g.M(), g.Edges(), g.Dangling, g.K(), attrtest.Dense(g.X) != nil, rep)
	}
	if attrtest.Dense(g.X).At(2, 1) != 3 || attrtest.Dense(g.X).At(3, 0) != 0.5 {
		t.Errorf("Fortran-order features misplaced: %v", attrtest.Dense(g.X).Float32())
	}
}

// gz returns data gzipped.
func gz(data string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(data))
	w.Close()
	return b.Bytes()
}

// writeOGB writes an OGB node-property dataset folder as the OGB library lays it out
// (dataset/ogbn_x/raw/*.csv.gz, no header lines) and returns the dataset folder.
func writeOGB(t *testing.T, files map[string]string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "ogbn_test")
	raw := filepath.Join(root, "raw")
	os.MkdirAll(raw, 0o755)
	os.MkdirAll(filepath.Join(root, "split", "random"), 0o755)
	os.WriteFile(filepath.Join(root, "RELEASE_v1.txt"), []byte("ogbn test\n"), 0o644)
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(raw, name), gz(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func ogbFiles() map[string]string {
	return map[string]string{
		"num-node-list.csv.gz": "4\n",
		"num-edge-list.csv.gz": "4\n",
		"edge.csv.gz":          "0,1\n1,2\n2,0\n2,3\n",
		"node-feat.csv.gz":     "-0.1,0.5,1.0\n0.2,0.0,3.5\n1e-3,2,0\n0,0,0\n",
		"node-label.csv.gz":    "3\n3\n0\n1\n",
	}
}

func TestOGBFolder(t *testing.T) {
	root := writeOGB(t, ogbFiles())
	for _, p := range []string{root, filepath.Join(root, "raw")} {
		g, rep, err := Open(Spec{Path: p})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Format != FormatOGB || g.N() != 4 || g.Edges() != 4 || g.M() != 3 || g.K() != 3 || !attrtest.Dense(g.X).Is32() {
			t.Fatalf("format %s, n %d, edges %d, m %d, k %d", rep.Format, g.N(), g.Edges(), g.M(), g.K())
		}
		if attrtest.Dense(g.X).At(0, 0) != float64(float32(-0.1)) || attrtest.Dense(g.X).At(2, 0) != float64(float32(1e-3)) {
			t.Errorf("features %v", attrtest.Dense(g.X).Float32())
		}
		if g.Labels[0] != g.Labels[1] || g.Labels[0] == g.Labels[2] {
			t.Errorf("labels %v", g.Labels)
		}
		if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "negative") {
			t.Errorf("warnings %v, want the negative-values one", rep.Warnings)
		}
	}
}

func TestOGBFolderErrors(t *testing.T) {
	for _, tc := range []struct {
		file, data, want string
	}{
		{"edge.csv.gz", "0,1\n1,7\n", "edge.csv.gz:2"},
		{"edge.csv.gz", "0;1\n", "edge.csv.gz:1"},
		{"num-edge-list.csv.gz", "5\n", "num-edge-list.csv.gz says 5"},
		{"node-feat.csv.gz", "1,2,3\n1,2\n0,0,0\n0,0,0\n", "node-feat.csv.gz:2"},
		{"node-feat.csv.gz", "1,2,3\n1,x,3\n0,0,0\n0,0,0\n", "node-feat.csv.gz:2"},
		{"node-feat.csv.gz", "1,2,3\n", "1 feature lines"},
		{"num-node-list.csv.gz", "4\n5\n", "one graph"},
	} {
		files := ogbFiles()
		files[tc.file] = tc.data
		root := writeOGB(t, files)
		_, _, err := Open(Spec{Path: root})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s = %q: error %v, want %q", tc.file, tc.data, err, tc.want)
		}
	}
	// A truncated gzip file.
	root := writeOGB(t, ogbFiles())
	p := filepath.Join(root, "raw", "node-feat.csv.gz")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, data[:len(data)-6], 0o644)
	if _, _, err := Open(Spec{Path: root}); err == nil || !strings.Contains(err.Error(), "node-feat.csv.gz") {
		t.Errorf("truncated gzip: error %v", err)
	}
	// NaN labels mark unlabelled vertices, with a warning; the others keep their class.
	files := ogbFiles()
	files["node-label.csv.gz"] = "1\nnan\n0\n1\n"
	g, rep, err := Open(Spec{Path: writeOGB(t, files)})
	if err != nil {
		t.Fatalf("NaN labels: %v", err)
	}
	if fmt.Sprint(g.Labels) != "[1 -1 0 1]" || !strings.Contains(strings.Join(rep.Warnings, " "), "1 of 4 vertices have no label") {
		t.Errorf("NaN labels: err %v, labels %v, warnings %v", err, g.Labels, rep)
	}
}

func TestWriteNPZRoundTrip(t *testing.T) {
	for _, name := range []string{"synthetic:tiny", "synthetic:tiny,attributes=sparse,m=30"} {
		g, _, err := LoadSpec(Spec{Path: name})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "g.npz")
		if err := WriteNPZ(p, g); err != nil {
			t.Fatal(err)
		}
		back, rep, err := Open(Spec{Path: p})
		if err != nil {
			t.Fatal(err)
		}
		if back.Fingerprint() != g.Fingerprint() || len(rep.Warnings) != 0 {
			t.Errorf("%s: the written graph reads back differently (warnings %v)", name, rep.Warnings)
		}
		if (attrtest.Dense(g.X) != nil) != (attrtest.Dense(back.X) != nil) {
			t.Errorf("%s: dense attributes not kept dense", name)
		}
	}
}

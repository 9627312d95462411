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
	"strings"
)

// WriteNPZ writes g as a NumPy .npz archive that openNPZ (and numpy.load, scipy) reads
// back: the adjacency as adj_data (float32 ones, or float64 weights), adj_indices and
// adj_indptr (int32, int64 when they would not fit), adj_shape; sparse attributes as
// attr_data, attr_indices, attr_indptr, attr_shape, dense ones as attr_matrix (float32 or
// float64, as stored); labels (int32) and class_names when g has them. Entries are stored
// uncompressed, as numpy.savez writes them, so that reading costs no decompression. The
// file is written to a temporary name and renamed into place. Cost O(nnz + n·m).
func WriteNPZ(path string, g *Graph) (err error) {
	if g.Adj == nil {
		return fmt.Errorf("%s: the graph has no adjacency to write", path)
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := EncodeNPZ(bw, g); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// EncodeNPZ writes g to w as the .npz archive WriteNPZ writes to a file (g.Adj must be
// set). The same graph gives the same bytes, so a hash of them fingerprints the graph.
// Cost O(nnz + n·m).
func EncodeNPZ(w io.Writer, g *Graph) error {
	if g.Adj == nil {
		return errors.New("the graph has no adjacency to write")
	}
	nw := npzWriter{zw: zip.NewWriter(w)}
	if err := nw.writeGraph(g); err != nil {
		return err
	}
	return nw.zw.Close()
}

// npzWriter writes the arrays of an .npz archive, stored uncompressed.
type npzWriter struct{ zw *zip.Writer }

// entry starts the array name (name.npy) of the archive.
func (nw npzWriter) entry(name string) (io.Writer, error) {
	return nw.zw.CreateHeader(&zip.FileHeader{Name: name + ".npy", Method: zip.Store})
}

// writeGraph writes g's adjacency (adj_*; g.Adj must be set), its attributes (attr_matrix when dense,
// attr_* when sparse) and its labels with their class names, as openNPZ reads them.
func (nw npzWriter) writeGraph(g *Graph) error {
	n, _ := g.Adj.Dims() // g.N() counts IDs, which a graph built from matrices alone lacks
	if err := nw.writeCSR("adj", n, n, g.Adj.Row, g.Adj.NNZ(), g.Adj.UnitValues()); err != nil {
		return err
	}
	switch x, d := g.StoredX(); {
	case d != nil:
		r, c := d.Dims()
		w, err := nw.entry("attr_matrix")
		if err != nil {
			return err
		}
		if d.Is32() {
			v := d.Float32()
			err = writeNPY(w, "<f4", []int{r, c}, r*c, func(q int) float64 { return float64(v[q]) })
		} else {
			v := d.Float64()
			err = writeNPY(w, "<f8", []int{r, c}, r*c, func(q int) float64 { return v[q] })
		}
		if err != nil {
			return err
		}
	case x != nil:
		r, c := x.Dims()
		if err := nw.writeCSR("attr", r, c, x.Row, x.NNZ(), false); err != nil {
			return err
		}
	}
	if g.Labels != nil {
		w, err := nw.entry("labels")
		if err != nil {
			return err
		}
		if err := writeNPY(w, "<i4", []int{n}, n, func(q int) float64 { return float64(g.Labels[q]) }); err != nil {
			return err
		}
		if err := writeNPYStrings(nw.zw, "class_names", g.ClassNames); err != nil {
			return err
		}
	}
	return nil
}

// writeCSR writes an r×c sparse matrix of nnz entries, whose rows row returns, as the
// arrays prefix_indptr, prefix_indices, prefix_data and prefix_shape of a
// scipy.sparse CSR matrix: 32-bit indices where they fit, float32 values where unit
// (every value 1), else float64.
func (nw npzWriter) writeCSR(prefix string, r, c int, row func(i int) ([]int, []float64), nnz int, unit bool) error {
	wide := nnz > math.MaxInt32 || c > math.MaxInt32
	ptrType, indType := "<i4", "<i4"
	if wide {
		ptrType, indType = "<i8", "<i8"
	}
	w, err := nw.entry(prefix + "_indptr")
	if err != nil {
		return err
	}
	p := 0
	if err := writeNPY(w, ptrType, []int{r + 1}, r+1, func(q int) float64 {
		if q > 0 {
			cols, _ := row(q - 1)
			p += len(cols)
		}
		return float64(p)
	}); err != nil {
		return err
	}
	all := func(pick func(cols []int, vals []float64, k int) float64) func(q int) float64 {
		i, k := -1, 0
		var cols []int
		var vals []float64
		return func(int) float64 {
			for k == len(cols) {
				i, k = i+1, 0
				cols, vals = row(i)
			}
			v := pick(cols, vals, k)
			k++
			return v
		}
	}
	if w, err = nw.entry(prefix + "_indices"); err != nil {
		return err
	}
	if err := writeNPY(w, indType, []int{nnz}, nnz, all(func(cols []int, _ []float64, k int) float64 { return float64(cols[k]) })); err != nil {
		return err
	}
	dataType := "<f8"
	if unit {
		dataType = "<f4"
	}
	if w, err = nw.entry(prefix + "_data"); err != nil {
		return err
	}
	if err := writeNPY(w, dataType, []int{nnz}, nnz, all(func(_ []int, vals []float64, k int) float64 { return vals[k] })); err != nil {
		return err
	}
	if w, err = nw.entry(prefix + "_shape"); err != nil {
		return err
	}
	shape := []float64{float64(r), float64(c)}
	return writeNPY(w, "<i8", []int{2}, 2, func(q int) float64 { return shape[q] })
}

// npyHeader returns the .npy version 1.0 header of a C-order array of dtype descr and the
// given shape, padded to a multiple of 64 bytes as numpy writes it.
func npyHeader(descr string, fortran bool, shape []int) []byte {
	dims := make([]string, len(shape))
	for k, d := range shape {
		dims[k] = fmt.Sprint(d)
	}
	sh := strings.Join(dims, ", ")
	if len(shape) == 1 {
		sh += ","
	}
	order := "False"
	if fortran {
		order = "True"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }", descr, order, sh)
	pad := 64 - (10+len(dict)+1)%64
	if pad == 64 {
		pad = 0
	}
	dict += strings.Repeat(" ", pad) + "\n"
	h := append([]byte("\x93NUMPY\x01\x00"), 0, 0)
	binary.LittleEndian.PutUint16(h[8:], uint16(len(dict)))
	return append(h, dict...)
}

// writeNPY writes a C-order .npy array of count values at(0) … at(count−1), converted to
// descr ("<f4", "<f8", "<i4" or "<i8"), in chunks.
func writeNPY(w io.Writer, descr string, shape []int, count int, at func(q int) float64) error {
	if _, err := w.Write(npyHeader(descr, false, shape)); err != nil {
		return err
	}
	size := 8
	if descr == "<f4" || descr == "<i4" {
		size = 4
	}
	buf := make([]byte, 0, 1<<20)
	for q := 0; q < count; q++ {
		v := at(q)
		switch descr {
		case "<f4":
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(v)))
		case "<f8":
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		case "<i4":
			buf = binary.LittleEndian.AppendUint32(buf, uint32(int32(v)))
		default:
			buf = binary.LittleEndian.AppendUint64(buf, uint64(int64(v)))
		}
		if len(buf)+size > cap(buf) {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

// writeNPYStrings writes a 1-D array of NumPy unicode strings ("<U…", UTF-32).
func writeNPYStrings(zw *zip.Writer, name string, s []string) error {
	width := 1
	for _, v := range s {
		width = max(width, len([]rune(v)))
	}
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name + ".npy", Method: zip.Store})
	if err != nil {
		return err
	}
	if _, err := w.Write(npyHeader(fmt.Sprintf("<U%d", width), false, []int{len(s)})); err != nil {
		return err
	}
	buf := make([]byte, 0, 4*width)
	for _, v := range s {
		buf = buf[:0]
		r := []rune(v)
		for k := 0; k < width; k++ {
			c := rune(0)
			if k < len(r) {
				c = r[k]
			}
			buf = binary.LittleEndian.AppendUint32(buf, uint32(c))
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

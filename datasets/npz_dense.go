package datasets

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/memory"
)

// This file reads dense attribute matrices stored as NumPy arrays: attr_matrix in an
// .npz archive and a .npy feature file. A float32 array is kept as float32
// (dense.Matrix), and so is float16 (widened exactly), every other numeric type as float64; C and Fortran order are read
// alike. Sizes from the header are checked against the bytes stored and the memory budget
// before anything is allocated.

// denseAttributes reads the archive's dense n×m attribute array (attr_matrix, or
// a.attrName).
func (a *npzArchive) denseAttributes(n int) (*dense.Matrix, error) {
	r, data, c, _, err := a.open(a.attrName)
	if err != nil {
		if err == errPickled {
			return nil, a.errorf(a.attrName, "stored as pickled Python objects, which cannot be read; store it as a float array")
		}
		return nil, err
	}
	defer c.Close()
	h := r.Header.Descr
	x, err := decodeDense(a.path, a.attrName, data, h.Type, h.Fortran, h.Shape)
	if err != nil {
		return nil, err
	}
	if r, _ := x.Dims(); r != n {
		return nil, a.errorf(a.attrName, "has %d rows, but the adjacency has %d vertices", r, n)
	}
	return x, nil
}

// readNPYMatrix reads the .npy file path holding a 2-D numeric array: one row per vertex,
// one column per attribute. A gzipped file (x.npy.gz) is read as the array it holds.
func readNPYMatrix(path string) (*dense.Matrix, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<20)
	// room is the most bytes the array can hold: the file's size, or for gzip data
	// what deflate can expand it to (about 1032 times).
	room, stored := uint64(fi.Size()), fmt.Sprintf("the file's %d bytes", fi.Size())
	var zr *gzip.Reader
	if isGzip(br) {
		if zr, err = gzip.NewReader(br); err != nil {
			return nil, &ParseError{File: path, Msg: fmt.Sprintf("not readable gzip data (%v)", err)}
		}
		br = bufio.NewReaderSize(zr, 1<<20)
		room = memory.Add(memory.Bytes(fi.Size(), 1100), 1024)
		stored = fmt.Sprintf("the %d bytes of gzip data can expand to", fi.Size())
	}
	pre, _ := br.Peek(12)
	if len(pre) < 10 || string(pre[:6]) != "\x93NUMPY" {
		hint := "write it with numpy.save"
		if len(pre) >= 4 && string(pre[:4]) == "PK\x03\x04" {
			hint = "it is a zip archive: an .npz of several arrays (numpy.savez) is a dataset, not a feature file; give one array saved with numpy.save, or the .npz itself as the graph"
		}
		return nil, &ParseError{File: path, Msg: "not a NumPy .npy file (it does not start with \\x93NUMPY); " + hint}
	}
	if pre[6] < 1 || pre[6] > 3 {
		return nil, &ParseError{File: path, Msg: fmt.Sprintf("written in .npy format version %d.%d; nagc reads versions 1.0 to 3.0 (those numpy.save writes)", pre[6], pre[7])}
	}
	hl := uint64(binary.LittleEndian.Uint16(pre[8:10]))
	if pre[6] >= 2 && len(pre) == 12 {
		hl = uint64(binary.LittleEndian.Uint32(pre[8:12]))
	}
	if hl > room {
		return nil, &ParseError{File: path, Msg: fmt.Sprintf("not a NumPy array (its header length %d exceeds %s; truncated?)", hl, stored)}
	}
	data := fullReader{npyStream(br)}
	r, err := safeNewReader(data)
	if err != nil {
		return nil, &ParseError{File: path, Msg: fmt.Sprintf("not a NumPy array (%v)", err)}
	}
	h := r.Header.Descr
	if strings.Contains(h.Type, "O") {
		return nil, &ParseError{File: path, Msg: "stored as pickled Python objects, which cannot be read; store a float array"}
	}
	if len(h.Shape) == 2 {
		if size := dtypeSize(h.Type); size > 0 && h.Shape[0] >= 0 && h.Shape[1] >= 0 {
			if need := arrayBytes(h.Shape[0], h.Shape[1], size); need > room {
				return nil, &ParseError{File: path, Msg: fmt.Sprintf("its header announces a %d×%d array of %d-byte values (%s), more than %s (truncated file?)", h.Shape[0], h.Shape[1], size, memory.Format(need), stored)}
			}
		}
		if size := dtypeSize(h.Type); zr == nil && size > 0 && h.Shape[0] >= 0 && h.Shape[1] >= 0 {
			prefix := 10 + hl
			if pre[6] >= 2 {
				prefix = 12 + hl
			}
			if end := memory.Add(prefix, arrayBytes(h.Shape[0], h.Shape[1], size)); end < uint64(fi.Size()) {
				return nil, extraBytes(path, uint64(fi.Size())-end, h.Shape)
			}
		}
		if h.Shape[0] == 0 {
			return nil, &ParseError{File: path, Msg: fmt.Sprintf("has shape (0, %d): no rows, so no vertices; row i of the array holds the attributes of vertex i", h.Shape[1])}
		}
	}
	x, err := decodeDense(path, "", data, h.Type, h.Fortran, h.Shape)
	if err != nil {
		return nil, err
	}
	if zr != nil {
		// gzip checks its CRC at the end of the stream.
		extra, err := io.Copy(io.Discard, br)
		if err != nil {
			return nil, &ParseError{File: path, Msg: fmt.Sprintf("is corrupt gzip data (%v)", err)}
		}
		if extra > 0 {
			return nil, extraBytes(path, uint64(extra), h.Shape)
		}
	}
	return x, nil
}

// extraBytes is the error for a .npy file holding more bytes than its header's shape
// accounts for: the header is wrong, or another array was appended, and reading the
// shape alone would read part of the data as the whole.
func extraBytes(path string, extra uint64, shape []int) error {
	return &ParseError{File: path, Msg: fmt.Sprintf("holds %d bytes after the %s array its header announces: the header and the data disagree (numpy.save writes one array and nothing after it)", extra, pyShape(shape))}
}

// npyStream returns the stream of br with a .npy version 3.0 header presented as 2.0:
// the layout is the same (3.0 only allows UTF-8 in the header text), and npyio knows
// versions 1 and 2 only.
func npyStream(br *bufio.Reader) io.Reader {
	pre, _ := br.Peek(8)
	if len(pre) == 8 && string(pre[:6]) == "\x93NUMPY" && pre[6] == 3 {
		head := append([]byte(nil), pre...)
		head[6] = 2
		br.Discard(8)
		return io.MultiReader(bytes.NewReader(head), br)
	}
	return br
}

// pyShape writes a shape as NumPy prints it: (6, 3), (6,), ().
func pyShape(shape []int) string {
	dims := make([]string, len(shape))
	for k, d := range shape {
		dims[k] = strconv.Itoa(d)
	}
	if len(dims) == 1 {
		return "(" + dims[0] + ",)"
	}
	return "(" + strings.Join(dims, ", ") + ")"
}

// arrayBytes returns n·m·size bytes, saturating at math.MaxUint64 (so that a shape
// read from a file cannot overflow into a small size).
func arrayBytes(n, m, size int) uint64 {
	per := memory.Bytes(int64(m), size)
	if per == 0 || n <= 0 {
		return 0
	}
	if uint64(n) > math.MaxUint64/per {
		return math.MaxUint64
	}
	return uint64(n) * per
}

// dtypeSize returns the bytes per value of a numeric NumPy dtype the dense readers
// accept, 0 for another.
func dtypeSize(t string) int {
	switch strings.TrimLeft(t, "<>|=") {
	case "f4", "i4", "u4":
		return 4
	case "f8", "i8", "u8":
		return 8
	case "i2", "u2", "f2":
		return 2
	case "i1", "u1", "b1":
		return 1
	}
	return 0
}

// decodeDense reads the values of a 2-D array of dtype typ and the given shape from rd
// (positioned at the data) into a dense matrix: float32 for a float32 dtype, else
// float64. Fortran (column-major) data is placed in row-major order as it is read, with
// no second copy. Values must be finite. The matrix's memory is checked against the
// budget first. file and what name the array in errors.
func decodeDense(file, what string, rd io.Reader, typ string, fortran bool, shape []int) (*dense.Matrix, error) {
	fail := func(format string, args ...any) error {
		msg := fmt.Sprintf(format, args...)
		if what != "" {
			msg = what + ": " + msg
		}
		return &ParseError{File: file, Msg: msg}
	}
	if dtypeSize(typ) == 0 {
		hint := ""
		if strings.HasPrefix(typ, "(") || strings.HasPrefix(typ, "[") {
			hint = " (a structured array of named fields: save numpy.column_stack of the fields, or numpy.lib.recfunctions.structured_to_unstructured(x))"
		}
		return nil, fail("holds values of type %s; want float16, float32, float64, an integer or bool type%s", typ, hint)
	}
	if len(shape) != 2 {
		hint := ""
		if len(shape) == 1 {
			hint = " (one attribute per vertex? save x.reshape(-1, 1))"
		}
		return nil, fail("has shape %s; want a 2-D array (vertices × attributes)%s", pyShape(shape), hint)
	}
	n, m := shape[0], shape[1]
	if n < 0 || m < 0 {
		return nil, fail("has shape %s, with a negative size: the header is corrupt", pyShape(shape))
	}
	if err := checkVertexCount(file, n); err != nil {
		return nil, err
	}
	// Each row is a vertex, whose id and graph arrays take memory even when m = 0.
	if err := checkVertices(int64(n), fmt.Sprintf("the %s rows of %s", pyShape(shape), file)); err != nil {
		return nil, err
	}
	t := strings.TrimLeft(typ, "<>|=")
	size := dtypeSize(typ)
	big := strings.HasPrefix(typ, ">")
	is32 := t == "f4" || t == "f2" // float16 is widened to float32, exactly
	elem := 8
	if is32 {
		elem = 4
	}
	need := arrayBytes(n, m, elem)
	if err := memory.Check(fmt.Sprintf("reading the %d×%d attributes of %s", n, m, file), need); err != nil {
		return nil, err
	}
	if need > math.MaxInt64/2 {
		return nil, fail("has shape %s, too large to hold", pyShape(shape))
	}
	var x *dense.Matrix
	var d32 []float32
	var d64 []float64
	if is32 {
		d32 = make([]float32, n*m)
		x = dense.NewMatrix32(n, m, d32)
	} else {
		d64 = make([]float64, n*m)
		x = dense.NewMatrix64(n, m, d64)
	}
	var order binary.ByteOrder = binary.LittleEndian
	if big {
		order = binary.BigEndian
	}
	total := n * m
	buf := make([]byte, (1<<20)/size*size)
	for k := 0; k < total; {
		chunk := min(len(buf)/size, total-k)
		got, err := io.ReadFull(rd, buf[:chunk*size])
		if err != nil {
			return nil, fail("the data ends after %d of the %d values its header announces (truncated file?)", k+got/size, total)
		}
		for q := 0; q < chunk; q, k = q+1, k+1 {
			pos := k
			if fortran {
				pos = (k%n)*m + k/n
			}
			b := buf[q*size : (q+1)*size]
			var v float64
			switch {
			case is32 && size == 2:
				d32[pos] = halfToFloat32(order.Uint16(b))
				v = float64(d32[pos])
			case is32:
				d32[pos] = math.Float32frombits(order.Uint32(b))
				v = float64(d32[pos])
			default:
				v = npyValue(t, order, b)
				d64[pos] = v
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fail("value %v at row %d, column %d; attributes must be finite (fill missing values first, e.g. numpy.nan_to_num(x))", v, pos/m, pos%m)
			}
		}
	}
	return x, nil
}

// halfToFloat32 returns the IEEE 754 half-precision value h as a float32 (exactly: every
// float16 value is a float32 value).
func halfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f: // ±Inf, NaN
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0: // zero, subnormal: mant·2⁻²⁴
		v := float32(mant) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// npyValue decodes the value b of NumPy dtype t (f4, f8, i1, u1, b1, i2, u2, i4, u4,
// i8 or u8, without its byte-order mark) in byte order order.
func npyValue(t string, order binary.ByteOrder, b []byte) float64 {
	switch t {
	case "f4":
		return float64(math.Float32frombits(order.Uint32(b)))
	case "f8":
		return math.Float64frombits(order.Uint64(b))
	case "i1":
		return float64(int8(b[0]))
	case "u1":
		return float64(b[0])
	case "b1":
		if b[0] != 0 {
			return 1
		}
		return 0
	case "i2":
		return float64(int16(order.Uint16(b)))
	case "u2":
		return float64(order.Uint16(b))
	case "i4":
		return float64(int32(order.Uint32(b)))
	case "u4":
		return float64(order.Uint32(b))
	case "i8":
		return float64(int64(order.Uint64(b)))
	default: // u8
		return float64(order.Uint64(b))
	}
}

// checkVertexCount refuses a vertex count the sparse matrices cannot index (int32 ids).
func checkVertexCount(file string, n int) error {
	if n > math.MaxInt32 {
		return &ParseError{File: file, Msg: fmt.Sprintf("%d vertices, more than the %d supported", n, math.MaxInt32)}
	}
	return nil
}

package datasets

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/memory"
)

// This file reads dense attribute matrices stored as NumPy arrays: attr_matrix in an
// .npz archive and a .npy feature file. A float32 array is kept as float32
// (dense.Matrix), every other numeric type as float64; C and Fortran order are read
// alike. Sizes from the header are checked against the bytes stored and the memory budget
// before anything is allocated.

// denseAttributes reads the archive's dense n×m attr_matrix.
func (a *npzArchive) denseAttributes(n int) (*dense.Matrix, error) {
	r, data, c, _, err := a.open("attr_matrix")
	if err != nil {
		if err == errPickled {
			return nil, a.errorf("attr_matrix", "stored as pickled Python objects, which cannot be read; store it as a float array")
		}
		return nil, err
	}
	defer c.Close()
	h := r.Header.Descr
	x, err := decodeDense(a.path, "attr_matrix", data, h.Type, h.Fortran, h.Shape)
	if err != nil {
		return nil, err
	}
	if r, _ := x.Dims(); r != n {
		return nil, a.errorf("attr_matrix", "has %d rows, but the adjacency has %d vertices", r, n)
	}
	return x, nil
}

// readNPYMatrix reads the .npy file path holding a 2-D numeric array: one row per vertex,
// one column per attribute.
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
	pre, _ := br.Peek(12)
	if len(pre) < 10 || string(pre[:6]) != "\x93NUMPY" {
		return nil, &ParseError{File: path, Msg: "not a NumPy .npy file (it does not start with \\x93NUMPY); write it with numpy.save"}
	}
	hl := uint64(binary.LittleEndian.Uint16(pre[8:10]))
	if pre[6] >= 2 && len(pre) == 12 {
		hl = uint64(binary.LittleEndian.Uint32(pre[8:12]))
	}
	if hl > uint64(fi.Size()) {
		return nil, &ParseError{File: path, Msg: fmt.Sprintf("not a NumPy array (its header length %d exceeds the file's %d bytes; truncated?)", hl, fi.Size())}
	}
	data := fullReader{br}
	r, err := safeNewReader(data)
	if err != nil {
		return nil, &ParseError{File: path, Msg: fmt.Sprintf("not a NumPy array (%v)", err)}
	}
	h := r.Header.Descr
	if strings.Contains(h.Type, "O") {
		return nil, &ParseError{File: path, Msg: "stored as pickled Python objects, which cannot be read; store a float array"}
	}
	if len(h.Shape) == 2 {
		if size := dtypeSize(h.Type); size > 0 {
			if need := memory.Bytes(int64(h.Shape[0]), h.Shape[1]*size); h.Shape[1] >= 0 && need > uint64(fi.Size()) {
				return nil, &ParseError{File: path, Msg: fmt.Sprintf("its header announces a %d×%d array of %d-byte values, more than the file's %d bytes (truncated file?)", h.Shape[0], h.Shape[1], size, fi.Size())}
			}
		}
	}
	return decodeDense(path, "", data, h.Type, h.Fortran, h.Shape)
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
	if len(shape) != 2 {
		return nil, fail("has shape %v; want a 2-D array (vertices × attributes)", shape)
	}
	n, m := shape[0], shape[1]
	if n < 0 || m < 0 {
		return nil, fail("has shape %v", shape)
	}
	if err := checkVertexCount(file, n); err != nil {
		return nil, err
	}
	t := strings.TrimLeft(typ, "<>|=")
	size := dtypeSize(typ)
	if size == 0 || t == "f2" {
		return nil, fail("holds values of type %s; want float32, float64, an integer or bool type", typ)
	}
	big := strings.HasPrefix(typ, ">")
	is32 := t == "f4"
	elem := 8
	if is32 {
		elem = 4
	}
	if err := memory.Check(fmt.Sprintf("reading the %d×%d attributes of %s", n, m, file), memory.Bytes(int64(n), m*elem)); err != nil {
		return nil, err
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
			if is32 {
				v := math.Float32frombits(order.Uint32(b))
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					return nil, fail("value %v at row %d, column %d; attributes must be finite", v, pos/m, pos%m)
				}
				d32[pos] = v
				continue
			}
			v := npyValue(t, order, b)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fail("value %v at row %d, column %d; attributes must be finite", v, pos/m, pos%m)
			}
			d64[pos] = v
		}
	}
	return x, nil
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

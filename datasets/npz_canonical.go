package datasets

import (
	"encoding/binary"
	"io"
	"math"
	"strings"

	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// canonicalAdjacency reads the archive's adjacency straight into the CSR arrays when it
// is already what the general reader would make of it: square, each row's columns
// strictly increasing, every value finite and > 0, and symmetric in pattern and values
// (scipy writes such a matrix after sum_duplicates, and WriteNPZ always). Then nothing
// but the CSR is allocated (ogbn-products: 2 GB instead of the general reader's
// intermediate copies, which peak above 10 GB). ok is false when the arrays are anything
// else, or of a type this path does not decode; the caller then reads them with the
// general reader, which repairs or reports what it finds. Cost O(n + nnz).
func (a *npzArchive) canonicalAdjacency() (n int, adj *sparse.CSR, ok bool, err error) {
	for _, name := range []string{"adj_shape", "adj_indptr", "adj_indices", "adj_data"} {
		if !a.has(name) {
			return 0, nil, false, nil
		}
	}
	shape, err := a.ints("adj_shape")
	if err != nil || len(shape) != 2 || shape[0] != shape[1] || shape[0] < 0 || shape[0] > math.MaxInt32 {
		return 0, nil, false, nil
	}
	n = int(shape[0])
	ptr, ok := a.intArray("adj_indptr", n+1)
	if !ok || ptr[0] != 0 {
		return 0, nil, false, nil
	}
	nnz := ptr[n]
	for i := 0; i < n; i++ {
		if ptr[i+1] < ptr[i] {
			return 0, nil, false, nil
		}
	}
	// Over the budget, the general reader refuses it in its own words.
	if memory.Check("", memory.Bytes(int64(nnz), 16)) != nil {
		return 0, nil, false, nil
	}
	ind, ok := a.intArray("adj_indices", nnz)
	if !ok {
		return 0, nil, false, nil
	}
	for i := 0; i < n; i++ {
		last := -1
		for _, j := range ind[ptr[i]:ptr[i+1]] {
			if j <= last || j >= n {
				return 0, nil, false, nil
			}
			last = j
		}
	}
	val, ok := a.floatArray("adj_data", nnz)
	if !ok {
		return 0, nil, false, nil
	}
	for _, v := range val {
		if !(v > 0) || math.IsInf(v, 0) {
			return 0, nil, false, nil
		}
	}
	if !symmetricCSR(n, ptr, ind, val) {
		return 0, nil, false, nil
	}
	adj, err = sparse.NewCSR(n, n, ptr, ind, val)
	if err != nil {
		return 0, nil, false, nil
	}
	return n, adj, true, nil
}

// symmetricCSR reports whether the n×n CSR arrays (rows' columns strictly increasing)
// hold a symmetric matrix. It walks the rows in order with a cursor per row over its
// entries left of the diagonal: entry (i, j) with j > i must be the next such entry
// (j, i) of row j, with the same value, and every cursor must end at its diagonal. Cost
// O(n + nnz), memory n ints.
func symmetricCSR(n int, ptr, ind []int, val []float64) bool {
	cursor := make([]int, n)
	copy(cursor, ptr[:n])
	for i := 0; i < n; i++ {
		for p := ptr[i]; p < ptr[i+1]; p++ {
			j := ind[p]
			if j <= i {
				continue
			}
			q := cursor[j]
			if q >= ptr[j+1] || ind[q] != i || val[q] != val[p] {
				return false
			}
			cursor[j]++
		}
	}
	for j := 0; j < n; j++ {
		if q := cursor[j]; q < ptr[j+1] && ind[q] < j {
			return false
		}
	}
	return true
}

// intArray reads the 1-D integer array name of want values into []int, decoding the
// stream in chunks; ok is false for another length, shape or type, or a read error.
func (a *npzArchive) intArray(name string, want int) ([]int, bool) {
	var out []int
	ok := a.decode1D(name, want, func(t string, order binary.ByteOrder, b []byte, k int) bool {
		if out == nil { // allocated once the header has been checked against want
			out = make([]int, want)
		}
		switch t {
		case "i4":
			out[k] = int(int32(order.Uint32(b)))
		case "i8":
			v := int64(order.Uint64(b))
			if v < 0 || v > math.MaxInt32*16 {
				return false
			}
			out[k] = int(v)
		case "u4":
			out[k] = int(order.Uint32(b))
		default:
			return false
		}
		return true
	})
	if out == nil {
		out = []int{}
	}
	return out, ok
}

// floatArray reads the 1-D float32 or float64 array name of want values into []float64.
func (a *npzArchive) floatArray(name string, want int) ([]float64, bool) {
	var out []float64
	ok := a.decode1D(name, want, func(t string, order binary.ByteOrder, b []byte, k int) bool {
		if out == nil {
			out = make([]float64, want)
		}
		switch t {
		case "f4":
			out[k] = float64(math.Float32frombits(order.Uint32(b)))
		case "f8":
			out[k] = math.Float64frombits(order.Uint64(b))
		default:
			return false
		}
		return true
	})
	if out == nil {
		out = []float64{}
	}
	return out, ok
}

// decode1D streams the want values of the 1-D array name to put (dtype without its byte
// order, the order, the value's bytes, its index); false when the array is not 1-D of
// length want, of a type put refuses, or cannot be read to its end.
func (a *npzArchive) decode1D(name string, want int, put func(t string, order binary.ByteOrder, b []byte, k int) bool) bool {
	r, data, c, _, err := a.open(name)
	if err != nil {
		return false
	}
	defer c.Close()
	h := r.Header.Descr
	size := dtypeSize(h.Type)
	if len(h.Shape) != 1 || h.Shape[0] != want || size == 0 || h.Fortran && len(h.Shape) > 1 {
		return false
	}
	t := strings.TrimLeft(h.Type, "<>|=")
	var order binary.ByteOrder = binary.LittleEndian
	if strings.HasPrefix(h.Type, ">") {
		order = binary.BigEndian
	}
	buf := make([]byte, (1<<20)/size*size)
	for k := 0; k < want; {
		chunk := min(len(buf)/size, want-k)
		if _, err := io.ReadFull(data, buf[:chunk*size]); err != nil {
			return false
		}
		for q := 0; q < chunk; q, k = q+1, k+1 {
			if !put(t, order, buf[q*size:(q+1)*size], k) {
				return false
			}
		}
	}
	return true
}

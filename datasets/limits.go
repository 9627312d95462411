package datasets

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/nagc-harness/nagc/memory"
)

// Bytes per vertex and per attribute column that a loaded graph and a fit take at least,
// whatever their edges: the vertex's id string and its slots in the row pointers of Adj,
// X and the reader's work arrays; a column's slot in the row pointer of Xᵀ, which every
// attribute-reading method builds, and in its column sums. Sizes read from files (a Matrix
// Market size line, an npz shape, a sparse feature file's largest column) are checked
// against memory.Limit with these before anything is allocated.
const (
	bytesPerVertex = 64
	bytesPerColumn = 24
)

// checkVertices refuses, before anything is allocated, a graph of n vertices whose
// number was read from a file (what says where: "adj.mtx line 2 (size line)") when even
// its per-vertex arrays would not fit the memory budget.
func checkVertices(n int64, what string) error {
	return memory.Check(fmt.Sprintf("a graph of n = %d vertices (%s)", n, what), memory.Bytes(n, bytesPerVertex))
}

// checkColumns is checkVertices for m attribute columns.
func checkColumns(m int64, what string) error {
	return memory.Check(fmt.Sprintf("attributes with m = %d columns (%s)", m, what), memory.Bytes(m, bytesPerColumn))
}

// readFile is readData, refusing text that holds a control character (checkText).
func readFile(path string) ([]byte, error) {
	data, err := readData(path)
	if err != nil {
		return nil, err
	}
	return data, checkText(path, data)
}

// isGzip reports whether br's next bytes are gzip's magic number (1f 8b).
func isGzip(br *bufio.Reader) bool {
	magic, _ := br.Peek(2)
	return len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
}

// readData returns the contents of the file path, decompressed when it is gzip data (as
// SNAP's .txt.gz edge lists are). The file's size is checked against the memory budget
// before it is read; gzip data is decompressed once without being kept, to count its
// bytes, and refused when they exceed a quarter of the budget (the parsed graph needs the
// rest), so a small file that expands to gigabytes stops with a message, not the
// out-of-memory killer; data within it is decompressed again into one buffer of its size.
func readData(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > 0 {
		if err := memory.Check("reading "+path+" ("+memory.Format(uint64(fi.Size()))+" on disk)", memory.Bytes(fi.Size(), 2)); err != nil {
			return nil, err
		}
	}
	var magic [2]byte
	k, _ := io.ReadFull(f, magic[:])
	if k < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return os.ReadFile(path)
	}
	out, err := readGzip(f, path)
	var tl *memory.TooLargeError
	if err != nil && !errors.As(err, &tl) {
		return nil, &ParseError{File: path, Msg: fmt.Sprintf("not readable gzip data: %v", err)}
	}
	return out, err
}

// readGzip returns the decompressed contents of the gzip file f (named path). A first
// pass counts the decompressed bytes without keeping them and refuses, with a
// *memory.TooLargeError naming the budget, more than a quarter of the memory budget
// before anything of that size is allocated; a second reads them into one buffer of
// exactly their size. Cost: two decompressions, and the data's size in memory once.
func readGzip(f *os.File, path string) ([]byte, error) {
	budget := memory.Budget()
	limit := int64(math.MaxInt64 - 1)
	if budget.Bytes > 0 {
		limit = int64(min(budget.Bytes/4, math.MaxInt64-1))
	}
	zr, err := rewoundGzip(f, nil)
	if err != nil {
		return nil, err
	}
	n, err := io.Copy(io.Discard, io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, &memory.TooLargeError{
			What:   fmt.Sprintf("decompressing %s (it expands to more than %s, a quarter of the budget; its text and the graph read from it take four times that at least)", path, memory.Format(uint64(limit))),
			Need:   memory.Add(memory.Bytes(n, 4), 1),
			Budget: budget.Bytes,
			By:     budget,
		}
	}
	if zr, err = rewoundGzip(f, zr); err != nil {
		return nil, err
	}
	out := make([]byte, n)
	if _, err := io.ReadFull(zr, out); err != nil {
		return nil, fmt.Errorf("%w (did the file change while it was read?)", err)
	}
	if k, _ := zr.Read(make([]byte, 1)); k > 0 {
		return nil, errors.New("it grew while it was read")
	}
	return out, nil
}

// rewoundGzip returns a gzip reader of f from its start, reusing zr when it is not nil.
func rewoundGzip(f *os.File, zr *gzip.Reader) (*gzip.Reader, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if zr == nil {
		return gzip.NewReader(f)
	}
	return zr, zr.Reset(f)
}

// control marks the C0 control characters (and DEL) other than the line and field
// separators LF, tab, CR, VT and FF.
var control = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = !spaces[c] && c != '\n'
	}
	t[0x7f] = true
	return t
}()

// checkText refuses text data holding a control character (a NUL above all): inside an
// id it would be carried into every output that names vertices, and it marks a binary
// file read as text. The error names the line and the byte. Cost O(len(data)).
func checkText(path string, data []byte) error {
	for i, c := range data {
		if !control[c] {
			continue
		}
		ln := 1 + bytes.Count(data[:i], []byte{'\n'})
		col := i - (bytes.LastIndexByte(data[:i], '\n') + 1)
		return &ParseError{File: path, Line: ln, Msg: fmt.Sprintf("control character 0x%02X at byte %d of the line; ids, labels and values must be printable text (is this a binary file, or a stray NUL?)", c, col+1)}
	}
	return nil
}

// canonicalID returns the id tok names: tok itself, except that a whole number written
// as a float ("12.0", "1.2e1", "1.200000000000000000e+01" as np.savetxt writes it) is
// the integer ("12"), so that files written by NumPy name the same vertices as files
// holding plain integers. A number that is not whole ("12.5") is an error: no id is
// written that way. Tokens that are not numbers, or are plain integers, are returned
// as they are (so "007" stays "007").
func canonicalID(tok []byte) ([]byte, error) {
	if len(tok) == 0 {
		return tok, nil
	}
	if c := tok[0]; !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.') {
		return tok, nil
	}
	plain := true
	for k, c := range tok {
		if !(c >= '0' && c <= '9' || k == 0 && (c == '-' || c == '+')) {
			plain = false
			break
		}
	}
	if plain {
		return tok, nil
	}
	v, err := strconv.ParseFloat(string(tok), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return tok, nil // not a number: an ordinary name such as "1-a"
	}
	if v != math.Trunc(v) {
		return nil, fmt.Errorf("id %q is a number with a fractional part; ids written as numbers must be whole (12 or 12.0)", tok)
	}
	if math.Abs(v) >= 1<<53 {
		return nil, fmt.Errorf("id %q is a number too large to name a vertex exactly (at most 2⁵³); write ids as whole numbers or names", tok)
	}
	return strconv.AppendInt(nil, int64(v), 10), nil
}

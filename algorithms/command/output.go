package command

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Caps on what nagc reads of a program: its labels file may hold labelBytesPerVertex
// bytes a vertex (plus labelSlack), its info file maxInfoBytes; of its printed output the
// last tailBytes are kept.
const (
	labelBytesPerVertex = 24
	labelSlack          = 4096
	maxInfoBytes        = 1 << 20
	tailBytes           = 8 << 10
)

// readLabels reads the labels file at path: n lines, each one integer cluster id (blank
// lines at the end allowed), renumbered 0, 1, … in the order of the ids (Renumber).
func readLabels(path string, n int) ([]int, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errors.New("the program wrote no labels file (labels_out): write one integer cluster id a line, one line per vertex")
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if limit := int64(n)*labelBytesPerVertex + labelSlack; st.Size() > limit {
		return nil, fmt.Errorf("the labels file is %d bytes, over the %d bytes that %d labels can take: write one integer cluster id a line", st.Size(), limit, n)
	}
	labels := make([]int, 0, n)
	sc := bufio.NewScanner(f)
	line, blank := 0, 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			blank++
			continue
		}
		if blank > 0 {
			return nil, fmt.Errorf("labels file line %d: an empty line before more labels", line-1)
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("labels file line %d: %q is not an integer cluster id (write integers, e.g. numpy.savetxt(path, labels, fmt=\"%%d\"))", line, truncate(s, 40))
		}
		if len(labels) == n {
			return nil, fmt.Errorf("the program wrote more than %d labels, one per vertex", n)
		}
		labels = append(labels, int(v))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("labels file line %d: %v", line+1, err)
	}
	if len(labels) != n {
		return nil, fmt.Errorf("the program wrote %d labels for %d vertices: write one line per vertex, in the graph's order", len(labels), n)
	}
	return Renumber(labels), nil
}

// Renumber renumbers cluster ids 0, 1, … in increasing order of their values, in place,
// and returns labels: ids 0…c−1 stay as they are. Cost O(n log n).
func Renumber(labels []int) []int {
	ids := slices.Clone(labels)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) > 0 && ids[0] == 0 && ids[len(ids)-1] == len(ids)-1 {
		return labels // 0…c−1 already
	}
	for i, l := range labels {
		labels[i], _ = slices.BinarySearch(ids, l)
	}
	return labels
}

// readInfo reads the JSON object a program may write to info_out (nil when it wrote
// none): each value as text, strings as they are, anything else as its JSON.
func readInfo(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, maxInfoBytes+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > maxInfoBytes {
		return nil, fmt.Errorf("the info file (info_out) is over %d bytes", maxInfoBytes)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("the info file (info_out) is not a JSON object: %v", err)
	}
	info := make(map[string]string, len(obj))
	for k, v := range obj {
		var s string
		if json.Unmarshal(v, &s) == nil {
			info[k] = s
			continue
		}
		info[k] = string(v)
	}
	return info, nil
}

// truncate shortens s to at most n runes, marking the cut.
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// tail keeps the last max bytes written to it; safe for concurrent writes (a program's
// standard output and error).
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// quote returns the last n lines written, as the end of an error message ("" when the
// program printed nothing).
func (t *tail) quote(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if len(b) > t.max {
		b = b[len(b)-t.max:]
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	s := strings.Join(lines, "\n")
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return "; the last lines it printed:\n" + s
}

package datasets

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxDroppedShare is the share of a file's edge (or label) lines that may name an id
// with no vertex before a load fails: above it, the files most likely number their
// vertices differently, and the graph read would not be the one meant. Spec.AllowDropped
// (--allow-dropped, allow_dropped: true) accepts any share knowingly.
const MaxDroppedShare = 0.01

// checkDropped returns a *ParseError naming file when more than MaxDroppedShare of its
// total lines were dropped for reason (as recorded in rep), unless allow. The message
// gives the counts, the first few lines, hint (what most likely went wrong) and the flag
// that accepts the loss.
func checkDropped(rep *LoadReport, allow bool, file, reason, what string, total int, hint string) error {
	if allow || total == 0 {
		return nil
	}
	for _, d := range rep.Dropped {
		if d.Reason != reason || d.File != file || float64(d.Count) <= MaxDroppedShare*float64(total) {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d of %d %s (%.1f%%) name an id that is not a vertex, more than the %g%% nagc drops without asking",
			d.Count, total, what, 100*float64(d.Count)/float64(total), 100*MaxDroppedShare)
		if len(d.Examples) > 0 {
			fmt.Fprintf(&b, " (the first: %s)", strings.Join(d.Examples, "; "))
		}
		if hint != "" {
			b.WriteString("; " + hint)
		}
		b.WriteString("; to read the graph without those lines anyway, pass --allow-dropped (allow_dropped: true in a config's dataset entry)")
		return &ParseError{File: file, Msg: b.String()}
	}
	return nil
}

// noIDColumn says why a dense feature file reads as one without an id column (the
// matrix np.savetxt(X) writes): its first column repeats a value or holds a fraction.
type noIDColumn struct{ why string }

func (e *noIDColumn) Error() string { return e.why }

// columnNumbers reports whether the current line of t is 0, 1, …, nf−1 for nf ≥ 3: the
// header pandas writes for a DataFrame of a NumPy matrix (to_csv(index=False)), which
// names every field a column, so no field is an id.
func columnNumbers(t *textFile, nf int) bool {
	if nf < 3 {
		return false
	}
	for k := 0; k < nf; k++ {
		if string(t.field(k)) != strconv.Itoa(k) {
			return false
		}
	}
	return true
}

// idWords are header names of an id column.
var idWords = map[string]bool{
	"id": true, "ids": true, "node": true, "node_id": true, "nodeid": true, "vertex": true,
	"vertex_id": true, "paper_id": true, "name": true, "index": true,
}

// isIDWord reports whether tok names an id column.
func isIDWord(tok []byte) bool { return len(tok) <= 16 && idWords[strings.ToLower(string(tok))] }

// shiftedIndex maps the vertices whose ids are plain integers to their index, for trying
// an edge file's ids shifted by ±1; nil when fewer than half the ids are integers.
func shiftedIndex(ids []string) map[int64]int {
	m := make(map[int64]int, len(ids))
	for i, id := range ids {
		if v, err := strconv.ParseInt(id, 10, 64); err == nil && strconv.FormatInt(v, 10) == id {
			m[v] = i
		}
	}
	if 2*len(m) < len(ids) {
		return nil
	}
	return m
}

package experiments

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/results"
)

// factorNames are the factors a search keeps between rungs, in file order.
var factorNames = []string{"U", "V", "H"}

// factorsPath returns the file of the factors of run id's fit part ("main" or
// "heldout").
func factorsPath(dir, id, part string) string {
	return filepath.Join(dir, results.SearchDir, "factors", id+"-"+part+".bin")
}

// saveFactors writes factors U, V and H of a fit, exactly (gonum's binary form, each
// preceded by its length), to a temporary file renamed into place, so that a killed
// process leaves the whole file or none.
func saveFactors(dir, id, part string, factors map[string]*mat.Dense) error {
	if factors == nil {
		return nil // a method without factors: the next rung fits from the start
	}
	var buf bytes.Buffer
	for _, name := range factorNames {
		f := factors[name]
		if f == nil {
			return nil
		}
		b, err := f.MarshalBinary()
		if err != nil {
			return err
		}
		binary.Write(&buf, binary.LittleEndian, uint64(len(b)))
		buf.Write(b)
	}
	path := factorsPath(dir, id, part)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return results.WriteAtomic(path, buf.Bytes())
}

// loadFactors reads what saveFactors wrote.
func loadFactors(dir, id, part string) (map[string]*mat.Dense, error) {
	raw, err := os.ReadFile(factorsPath(dir, id, part))
	if err != nil {
		return nil, err
	}
	out := map[string]*mat.Dense{}
	for _, name := range factorNames {
		if len(raw) < 8 {
			return nil, errors.New("truncated factors file")
		}
		n := binary.LittleEndian.Uint64(raw)
		raw = raw[8:]
		if uint64(len(raw)) < n {
			return nil, errors.New("truncated factors file")
		}
		var d mat.Dense
		if err := d.UnmarshalBinary(raw[:n]); err != nil {
			return nil, fmt.Errorf("factor %s: %w", name, err)
		}
		out[name], raw = &d, raw[n:]
	}
	return out, nil
}

// removeFactors deletes the factors kept of run id, if any.
func removeFactors(dir, id string) {
	for _, part := range []string{"main", "heldout"} {
		os.Remove(factorsPath(dir, id, part))
	}
}

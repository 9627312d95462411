package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingValuesGetThePandasHint checks that every way a missing value is written in
// a feature cell (empty, NA, <NA>, null, None, NaN, nan, …) is refused naming the file
// and line and saying how to fill it, in an edge list's dense feature file (in the first,
// a middle and the last column) and in a LINQS .content file.
func TestMissingValuesGetThePandasHint(t *testing.T) {
	for _, tok := range []string{"", "NA", "<NA>", "N/A", "NULL", "null", "None", "NaN", "nan", "-nan", "#N/A"} {
		for _, c := range []struct {
			where string
			files map[string]string
			spec  func(dir string) Spec
			file  string
		}{
			{"first column of three", map[string]string{"edges.txt": "a b\n", "features.csv": "a,1,2\nb," + tok + ",1\n"},
				func(d string) Spec { return Spec{Path: d} }, "features.csv:2"},
			{"last column", map[string]string{"edges.txt": "a b\n", "features.csv": "a,1,2,3\nb,1,2," + tok + "\n"},
				func(d string) Spec { return Spec{Path: d} }, "features.csv:2"},
			{"LINQS", map[string]string{"g.cites": "a b\n", "g.content": "a 1 0 x\nb " + tok + " 1 y\n"},
				func(d string) Spec { return Spec{Path: d} }, "g.content:2"},
		} {
			if tok == "" && c.where == "LINQS" {
				continue // a LINQS line's fields are separated by runs of white space: no empty field
			}
			dir := t.TempDir()
			for name, text := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, _, err := Open(c.spec(dir))
			if err == nil || !strings.Contains(err.Error(), c.file) || !strings.Contains(err.Error(), "missing value") || !strings.Contains(err.Error(), "df.fillna(0)") {
				t.Errorf("%q in the %s: got %v, want the file:line, \"missing value\" and the pandas hint", tok, c.where, err)
			}
		}
	}
}

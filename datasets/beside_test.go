package datasets

import (
	"path/filepath"
	"strings"
	"testing"
)

// An edge file named by itself reads no feature or label file; the load report says
// which lie beside it and how to read them, and says nothing of the kind where the
// folder is named or none lies beside it.
func TestEdgeFileAloneNamesFilesBesideIt(t *testing.T) {
	dir := writeDir(t, map[string]string{"edges.csv": "a,b\nb,c\n", "features.csv": "a,1,0\nb,0,1\nc,1,1\n", "labels.csv": "a,L\nb,M\nc,L\n"})
	lone := writeDir(t, map[string]string{"edges.csv": "a,b\nb,c\n"})
	hint := "features.csv and labels.csv beside edges.csv are read only when you name the folder (" + dir + ") instead of the edge file"
	for _, c := range []struct {
		path string
		want bool
	}{
		{filepath.Join(dir, "edges.csv"), true},
		{dir, false},
		{filepath.Join(lone, "edges.csv"), false},
	} {
		g, rep, err := LoadSpec(Spec{Path: c.path})
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(rep.Warnings, "\n")
		if got := strings.Contains(text, hint); got != c.want {
			t.Errorf("%s (m = %d): hint %v, want %v; warnings:\n%s", c.path, g.M(), got, c.want, text)
		}
	}
}

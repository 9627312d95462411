package datasets

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"testing"
)

// TestWriteShape checks that WriteShape writes the graph SyntheticShape generates, and
// its line: the file, sizes, the attributes' form and both times.
func TestWriteShape(t *testing.T) {
	for _, tc := range []struct {
		shape Shape
		kind  string
	}{
		{Shape{Name: "tiny", Seed: 9}, "dense float32"},
		{Shape{Name: "tiny", Attributes: "sparse", M: 30}, "sparse"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "g.npz")
			var b bytes.Buffer
			if err := WriteShape(&b, p, tc.shape); err != nil {
				t.Fatal(err)
			}
			want, err := SyntheticShape(tc.shape)
			if err != nil {
				t.Fatal(err)
			}
			g, _, err := Open(Spec{Path: p})
			if err != nil {
				t.Fatal(err)
			}
			if g.Fingerprint() != want.Fingerprint() {
				t.Error("the written graph differs from the shape's")
			}
			s := want.Stats()
			line := regexp.QuoteMeta(fmt.Sprintf("wrote %s: n=%d edges=%d m=%d (%s) k=%d, generated in ", p, s.N, s.Edges, s.M, tc.kind, s.K)) +
				`\d+\.\d s, written in \d+\.\d s\n$`
			if !regexp.MustCompile("^" + line).MatchString(b.String()) {
				t.Errorf("line %q, want %s", b.String(), line)
			}
		})
	}
}

// TestWriteStatsJSON checks the JSON line of a graph's statistics, with and without a
// load report.
func TestWriteStatsJSON(t *testing.T) {
	s := Stats{Name: "g", N: 3, Edges: 2, M: 4, K: 2, NNZX: 5, Density: 0.25, Labeled: 3}
	for _, tc := range []struct {
		rep  *LoadReport
		want string
	}{
		{nil, `{"name":"g","n":3,"edges":2,"m":4,"k":2,"nnz_x":5,"self_loops":0,"isolated":0,"dangling":0,"density":0.25,"labeled":3,"load_report":null}` + "\n"},
		{&LoadReport{Format: "npz"}, `"format":"npz"`}, // the report's own field
	} {
		var b bytes.Buffer
		if err := WriteStatsJSON(&b, s, tc.rep); err != nil {
			t.Fatal(err)
		}
		if tc.rep == nil && b.String() != tc.want || tc.rep != nil && !bytes.Contains(b.Bytes(), []byte(tc.want)) {
			t.Errorf("got %s, want %s", b.String(), tc.want)
		}
	}
}

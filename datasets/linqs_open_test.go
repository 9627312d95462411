package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stripLabels returns the .content text of the LINQS folder dir without its last
// (label) field, and its .cites text.
func stripLabels(t *testing.T, dir string) (content, cites string) {
	t.Helper()
	c, _ := filepath.Glob(filepath.Join(dir, "*.content"))
	e, _ := filepath.Glob(filepath.Join(dir, "*.cites"))
	if len(c) != 1 || len(e) != 1 {
		t.Skipf("%s: not one .content and one .cites file", dir)
	}
	cb, err := os.ReadFile(c[0])
	if err != nil {
		t.Fatal(err)
	}
	eb, err := os.ReadFile(e[0])
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(string(cb), "\n"), "\n") {
		line = strings.TrimRight(line, "\r")
		b.WriteString(line[:strings.LastIndexByte(line, '\t')] + "\n")
	}
	return b.String(), string(eb)
}

func TestOpenLINQSLabels(t *testing.T) {
	const cites = "a b\nb c\n"
	for _, test := range []struct {
		name     string
		content  string
		spec     Spec
		m, k     int
		warnings []string
	}{
		{
			name:    "labelled",
			content: "a 1 0 x\nb 0 1 y\nc 1 1 x\n",
			m:       2, k: 2,
		},
		{
			name:    "labels none",
			content: "a 1 0 1\nb 0 1 0\nc 1 1 0.5\n",
			spec:    Spec{Labels: LabelsNone},
			m:       3, k: 0,
		},
		{
			name:    "no label column read as labels",
			content: "a 1 0 0.25\nb 0 1 0.5\nc 1 1 0\n",
			m:       2, k: 3,
			warnings: []string{"labels from the last column of the .content files are fractional numbers"},
		},
		{
			name:    "header row with numeric column names",
			content: "paper_id\t0\t1\tlabel\na\t1\t0\tx\nb\t0\t1\ty\nc\t1\t1\tx\n",
			m:       2, k: 3,
			warnings: []string{`:1 looks like a header row of column names ("paper_id" …)`},
		},
		{
			name:    "single class",
			content: "a 1 0 x\nb 0 1 x\nc 1 1 x\n",
			m:       2, k: 1,
			warnings: []string{"name a single class"},
		},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"g.content": test.content, "g.cites": cites})
			s := test.spec
			s.Path = dir
			g, rep := mustOpen(t, s)
			checkOpened(t, g, rep)
			if g.M() != test.m || g.K() != test.k {
				t.Errorf("m = %d, k = %d; want %d, %d", g.M(), g.K(), test.m, test.k)
			}
			if len(rep.Warnings) != len(test.warnings) {
				t.Fatalf("warnings %q, want %d", rep.Warnings, len(test.warnings))
			}
			for k, w := range test.warnings {
				if !strings.Contains(rep.Warnings[k], w) {
					t.Errorf("warning %q does not mention %q", rep.Warnings[k], w)
				}
			}
		})
	}
	// A header of names stops at its first non-number, with a hint.
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"g.content": "id\tw1\tw2\tlabel\na\t1\t0\tx\n", "g.cites": cites})
	_, _, err := Open(Spec{Path: dir})
	checkParseError(t, err, filepath.Join(dir, "g.content"), 1, `"w1" is not a number`, "looks like a header row")
	// labels: none on a file that has labels names the problem.
	writeFiles(t, dir, map[string]string{"g.content": "a\t1\t0\tx\n", "g.cites": cites})
	_, _, err = Open(Spec{Path: dir, Labels: LabelsNone})
	checkParseError(t, err, filepath.Join(dir, "g.content"), 1, `"x" is not a number`, "this last column looks like labels")
	// Labels from a file replace the label column.
	writeFiles(t, dir, map[string]string{"g.content": "a 1 0\nb 0 1\nc 1 1\n", "g.cites": cites, "l.txt": "c C\nb B\na A\n"})
	g, rep := mustOpen(t, Spec{Path: dir, LabelFile: filepath.Join(dir, "l.txt")})
	if g.M() != 2 || g.K() != 3 || g.ClassNames[g.Labels[0]] != "A" {
		t.Errorf("label file: %s", rep)
	}
}

// TestOpenPaperDatasets checks that Open reads the paper's graphs exactly as LoadLINQS
// does, and that a file stripped of its label column, read as labelled, is warned about.
func TestOpenPaperDatasets(t *testing.T) {
	for _, name := range PaperNames() {
		t.Run(name, func(t *testing.T) {
			dir := paperDir(t, name)
			want, err := LoadLINQS(dir)
			if err != nil {
				t.Fatal(err)
			}
			g, rep := mustOpen(t, Spec{Path: dir})
			if d := graphsEqual(want, g); d != "" {
				t.Error(d)
			}
			if len(rep.Warnings) != 0 {
				t.Errorf("warnings on a paper graph: %q", rep.Warnings)
			}
			if rep.Isolated != g.Isolated() || rep.DroppedTotal() != g.Dangling {
				t.Errorf("report %s", rep)
			}
			t.Log(rep)

			// The same graph without its label column, read as if it had one.
			content, cites := stripLabels(t, dir)
			tmp := t.TempDir()
			writeFiles(t, tmp, map[string]string{"g.content": content, "g.cites": cites})
			h, rep := mustOpen(t, Spec{Path: tmp})
			// polblog's last attribute column is 0/1 with both values common,
			// which no reader can tell from a class column: it gets a note.
			if len(rep.Warnings)+len(rep.Notes) == 0 {
				t.Errorf("no label column: read with k = %d and no warning", h.K())
			}
			t.Logf("without its label column: k = %d, %q %q", h.K(), rep.Warnings, rep.Notes)
			h, rep = mustOpen(t, Spec{Path: tmp, Labels: LabelsNone})
			if h.M() != g.M() || h.K() != 0 || len(rep.Warnings) != 0 {
				t.Errorf("labels: none: m = %d, k = %d, warnings %q", h.M(), h.K(), rep.Warnings)
			}
			if d := graphsEqual(g, &Graph{Name: g.Name, IDs: h.IDs, Labels: g.Labels, ClassNames: g.ClassNames, Adj: h.Adj, X: h.X, Dangling: h.Dangling}); d != "" {
				t.Errorf("labels: none reads another graph: %s", d)
			}
		})
	}
}

package datasets

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteStatsTable(t *testing.T) {
	var b bytes.Buffer
	err := WriteStatsTable(&b, []Stats{
		{Name: "cora", N: 2708, Edges: 5278, M: 1433, K: 7, Labeled: 2708, NNZX: 49216, Density: 0.00144, SelfLoops: 0, Dangling: 0},
		{Name: "mine", N: 10, Edges: 12, Labeled: 4, Density: 0.2667, SelfLoops: 1, Isolated: 2, Dangling: 3},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"  dataset     n  edges     m  k1  labelled  nnz(X)  density %  self-loops  isolated  dropped edges\n" +
		"     cora  2708   5278  1433   7      2708   49216       0.14           0         0              0\n" +
		"     mine    10     12     0   0         4       0      26.67           1         2              3\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestIsDataRoot(t *testing.T) {
	root := t.TempDir()
	graph := filepath.Join(root, "mine")
	if err := os.MkdirAll(graph, 0o755); err != nil {
		t.Fatal(err)
	}
	if !IsDataRoot(root) {
		t.Error("a folder of dataset folders is not a data root")
	}
	if err := os.WriteFile(filepath.Join(graph, "edges.csv"), []byte("0,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if IsDataRoot(graph) {
		t.Error("a graph folder (edges.csv) is a data root")
	}
	if IsDataRoot(filepath.Join(graph, "edges.csv")) || IsDataRoot(filepath.Join(root, "none")) {
		t.Error("a file or a missing path is a data root")
	}
}

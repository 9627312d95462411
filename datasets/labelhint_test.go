package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLabelFileHint checks the hint for `labels: FILE` in a config: the file as typed
// where it exists from the working folder, else the file beside the dataset.
func TestLabelFileHint(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("mine", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("mine", "labels.csv"), []byte("id,label\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, labels, want string }{
		{"mine", "mine/labels.csv", "label_file: mine/labels.csv"},
		{"mine", "labels.csv", "label_file: mine/labels.csv"},
		{"mine/edges.csv", "labels.csv", "label_file: mine/labels.csv"},
		{"mine", "column", ""},
	} {
		got := LabelFileHint(c.path, c.labels)
		if c.want == "" && got != "" || !strings.HasSuffix(got, c.want) {
			t.Errorf("LabelFileHint(%q, %q) = %q, want it to end in %q", c.path, c.labels, got, c.want)
		}
	}
}

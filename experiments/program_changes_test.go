package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// TestWriteProgramChanges checks that runs recorded by an edited script are pointed
// out, once per row and file, and that runs of the current version pass silently.
func TestWriteProgramChanges(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "mine.sh")
	if err := os.WriteFile(script, []byte("echo v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(filepath.Join(dir, "mine.yaml"), []byte(`seed: 1
datasets: [synthetic]
methods:
  - {name: Mine, algorithm: command, command: [sh, mine.sh]}
  - {name: KM, algorithm: kmeans}
`))
	if err != nil {
		t.Fatal(err)
	}
	now, err := cfg.Programs()[0].hashed()
	if err != nil {
		t.Fatal(err)
	}
	run := func(scriptSHA string) results.Record {
		var files []results.ProgramFile
		for _, f := range now {
			files = append(files, results.ProgramFile(f))
		}
		files[len(files)-1].SHA256 = scriptSHA
		return results.Record{Methods: []string{"Mine"}, Algorithm: "command", Command: []string{"sh", "mine.sh"}, CommandFiles: files}
	}
	current := now[len(now)-1].SHA256
	for _, c := range []struct {
		name string
		recs []results.Record
		want string
	}{
		{"current", []results.Record{run(current), {Methods: []string{"KM"}, Algorithm: "kmeans"}}, ""},
		{"edited", []results.Record{run("old"), run(current), run("old")},
			"note: Mine: 2 recorded runs were made by another version of mine.sh (its SHA-256 has changed since); they are kept and not run again: to run the row with this version, give another --results folder\n"},
	} {
		var b bytes.Buffer
		if err := WriteProgramChanges(&b, cfg, c.recs); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
		if c.want != "" && strings.Count(b.String(), "note:") != 1 {
			t.Errorf("%s: one note per row and file, got %q", c.name, b.String())
		}
	}
}

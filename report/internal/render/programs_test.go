package render

import (
	"bytes"
	"testing"

	recorded "github.com/nagc-harness/nagc/results"
)

// TestWritePrograms checks that the provenance names each command row's argv and every
// version of its script with the runs it made, and says nothing without programs.
func TestWritePrograms(t *testing.T) {
	py := recorded.ProgramFile{Path: "/usr/bin/python3", SHA256: "aa"}
	run := func(row, sha string) recorded.Record {
		return recorded.Record{Algorithm: "command", Methods: []string{row}, Command: []string{"/usr/bin/python3", "spectral.py"},
			CommandFiles: []recorded.ProgramFile{py, {Path: "/w/spectral.py", SHA256: sha}}}
	}
	recs := []recorded.Record{run("Spectral", "01"), {Algorithm: "nagc", Methods: []string{"NAGC"}}, run("Spectral", "01"), run("Spectral", "02")}
	var b bytes.Buffer
	writePrograms(&b, recs)
	want := "- programs (rows with `algorithm: command`; the files each run's command named, by SHA-256 when its sweep started):\n" +
		"  - Spectral: `/usr/bin/python3 spectral.py` — 2 versions, the runs differ in which made them\n" +
		"    - 2 runs: `/usr/bin/python3` sha256 `aa`, `/w/spectral.py` sha256 `01`\n" +
		"    - 1 runs: `/usr/bin/python3` sha256 `aa`, `/w/spectral.py` sha256 `02`\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	b.Reset()
	writePrograms(&b, recs[1:2])
	if b.Len() != 0 {
		t.Errorf("no command row, yet: %q", b.String())
	}
}

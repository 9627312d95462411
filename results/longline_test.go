package results

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONLNoLineLimit checks that runs.jsonl and sweeps.jsonl lines of any length are
// read (a record holding 17 MB of cluster labels is legitimate), and that a malformed
// line of a runs file is reported with the file and line.
func TestJSONLNoLineLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 2×17 MB")
	}
	dir := t.TempDir()
	long := strings.Repeat("x", 17<<20)
	prov := `{"config":"` + long + `"}` + "\n" + `{"config":"b"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, SweepsFile), []byte(prov), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := ReadProvenance(dir)
	if err != nil {
		t.Fatalf("ReadProvenance: %v", err)
	}
	if len(ps) != 2 {
		t.Fatalf("%d provenance records, want 2", len(ps))
	}
	runs := `{"run_id":"a","status":"done","algorithm":"` + long + `"}` + "\n" + "{not json\n"
	path := filepath.Join(dir, RunsFile)
	if err := os.WriteFile(path, []byte(runs), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = ReadRecords(path)
	if err == nil || !strings.Contains(err.Error(), path+":2:") {
		t.Fatalf("ReadRecords error %v, want one at %s:2", err, path)
	}
	if err := os.WriteFile(path, bytes.TrimSuffix([]byte(runs), []byte("{not json\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, _, err := ReadRecords(path)
	if err != nil || len(recs) != 1 || len(recs[0].Algorithm) != len(long) {
		t.Fatalf("ReadRecords: %d records, %v", len(recs), err)
	}
}

// Package reporttest holds what the tests of the report's packages share: synthetic
// records, results folders written from them, and golden files.
package reporttest

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/results"
)

// update rewrites the golden files (go test -update).
var update = flag.Bool("update", false, "rewrite the golden files of the table tests")

// Record is the record of one synthetic run (JSON round-tripped, as a report reads it):
// method on dataset at params, restart restart, finished with the metrics ari,
// modularity mod and entropy ent and fit seconds fit and an objective curve 3, 2, 1.5;
// a non-empty err makes it a failed run.
func Record(t *testing.T, dataset, method string, params map[string]any, restart int, ari, mod, ent, fit float64, err string) results.Record {
	t.Helper()
	rec := results.Record{
		RunID:   fmt.Sprintf("%s|%s|%v|%d", dataset, method, params, restart),
		Dataset: dataset, Methods: []string{method}, Algorithm: "test", Params: params,
		K1: 4, Restart: restart, Status: results.StatusDone, FitSeconds: fit,
		Finished: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
	if err != "" {
		rec.Status, rec.Error = results.StatusFailed, err
	} else {
		rec.Metrics = map[string]float64{"ari": ari, "modularity": mod, "entropy": ent}
		rec.Objective = []float64{3, 2, 1.5}
	}
	b, jerr := json.Marshal(rec)
	if jerr != nil {
		t.Fatal(jerr)
	}
	var out results.Record
	if jerr := json.Unmarshal(b, &out); jerr != nil {
		t.Fatal(jerr)
	}
	return out
}

// Provenance is the provenance of the tests' sweeps (config "test", 4 workers), with
// WebKB's loader statistics.
func Provenance() []results.Provenance {
	return []results.Provenance{{
		Sweep: "s1", Config: "cfg.yaml", ConfigHash: "deadbeef", Name: "test", GitCommit: "abc123",
		GoVersion: "go1.26", Host: "testhost", CPU: "TestCPU, 4 cores", Workers: 4,
		Started:  time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC),
		Datasets: []datasets.Stats{{Name: "webkb", N: 877, Edges: 1480, M: 1703, K: 4, SelfLoops: 92, Density: 1388.0 / 877 / 877}},
	}}
}

// WriteResultsDir writes records and provenance as a results folder (runs.jsonl,
// sweeps.jsonl) in a temporary folder and returns its path.
func WriteResultsDir(t *testing.T, recs []results.Record, prov []results.Provenance) string {
	t.Helper()
	dir := t.TempDir()
	var b bytes.Buffer
	for _, rec := range recs {
		line, _ := json.Marshal(rec)
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, results.RunsFile), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	for _, p := range prov {
		line, _ := json.Marshal(p)
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, results.SweepsFile), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// ReadText returns a file's contents, failing the test if it cannot be read.
func ReadText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ReadCSV returns a CSV file's records, failing the test if it cannot be read.
func ReadCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// CheckTable compares a table's Markdown md and LaTeX tex with the golden files
// testdata/<golden>.{md,tex}.golden and checks that md has the given lines.
func CheckTable(t *testing.T, golden, md, tex string, lines []string) {
	t.Helper()
	CheckGolden(t, filepath.Join("testdata", golden+".md.golden"), md)
	CheckGolden(t, filepath.Join("testdata", golden+".tex.golden"), tex)
	got := strings.Split(md, "\n")
	for _, want := range lines {
		if !ContainsLine(got, want) {
			t.Errorf("Markdown lacks the line\n%s\ngot:\n%s", want, md)
		}
	}
}

// ContainsLine reports whether lines holds the line want.
func ContainsLine(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

// CheckGolden compares got with the file at path (rewriting it under -update).
func CheckGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update once to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// CheckPNG decodes a PNG file and checks its size in pixels.
func CheckPNG(t *testing.T, path string, w, h int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: not a PNG: %v", path, err)
	}
	if got := img.Bounds().Size(); got.X != w || got.Y != h {
		t.Errorf("%s: %dx%d pixels, want %dx%d", path, got.X, got.Y, w, h)
	}
}

// CheckPDF checks that a file starts like a PDF and is not trivially small.
func CheckPDF(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("%PDF")) {
		t.Errorf("%s does not start with %%PDF", path)
	}
	if len(b) < 2000 {
		t.Errorf("%s: only %d bytes", path, len(b))
	}
	if !bytes.Contains(b, []byte("%%EOF")) {
		t.Errorf("%s has no %%%%EOF", path)
	}
}

package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/report/paper"
)

// run describes one synthetic record of the test fixture.
type run struct {
	dataset, method string
	params          map[string]any
	restart         int
	ari, mod, ent   float64
	fit             float64
	err             string // non-empty: a failed run
}

// record turns a fixture run into a Record.
func (r run) record() experiments.Record {
	rec := experiments.Record{
		RunID:   fmt.Sprintf("%s|%s|%v|%d", r.dataset, r.method, r.params, r.restart),
		Dataset: r.dataset, Methods: []string{r.method}, Algorithm: "test", Params: r.params,
		K1: 4, Restart: r.restart, Status: experiments.StatusDone, FitSeconds: r.fit,
		Finished: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
	if r.err != "" {
		rec.Status, rec.Error = experiments.StatusFailed, r.err
		return rec
	}
	rec.Metrics = map[string]float64{"ari": r.ari, "modularity": r.mod, "entropy": r.ent}
	rec.Objective = []float64{3, 2, 1.5}
	return rec
}

// fixtureRuns is a small results set with known means and stds on WebKB:
//
//	Prop. λ=1e-4 ρ=0.5 : ARI 0.950 ± 0.050, modularity 0.710 ± 0.010 (best ARI)
//	Prop. λ=1e-2 ρ=0.5 : ARI 0.800 ± 0.000, modularity 0.740 (best modularity)
//	Prop. λ=1e-4 ρ=0.95: ARI 0.550 ± 0.050
//	METIS              : ARI 0.850 ± 0.000
//	JWNMF              : both runs failed
//	Foo (not in paper) : ARI 0.100, one restart
func fixtureRuns() []run {
	a := map[string]any{"lambda": 1e-4, "rho": 0.5, "k2": 4.0, "init": "kmeans"}
	b := map[string]any{"lambda": 1e-2, "rho": 0.5, "k2": 4.0, "init": "kmeans"}
	c := map[string]any{"lambda": 1e-4, "rho": 0.95, "k2": 4.0, "init": "kmeans"}
	return []run{
		{"webkb", "Prop.", a, 0, 0.9, 0.70, 0.15, 1, ""},
		{"webkb", "Prop.", a, 1, 1.0, 0.72, 0.15, 3, ""},
		{"webkb", "Prop.", b, 0, 0.8, 0.74, 0.16, 1, ""},
		{"webkb", "Prop.", b, 1, 0.8, 0.74, 0.16, 1, ""},
		{"webkb", "Prop.", c, 0, 0.5, 0.60, 0.20, 0.5, ""},
		{"webkb", "Prop.", c, 1, 0.6, 0.60, 0.20, 0.5, ""},
		{"webkb", "METIS", map[string]any{}, 0, 0.85, 0.73, 0.153, 0.1, ""},
		{"webkb", "METIS", map[string]any{}, 1, 0.85, 0.73, 0.153, 0.1, ""},
		{"webkb", "JWNMF", map[string]any{"lambda": 1e-2}, 0, 0, 0, 0, 0, "boom: diverged"},
		{"webkb", "JWNMF", map[string]any{"lambda": 1e-2}, 1, 0, 0, 0, 0, "boom: diverged"},
		{"webkb", "Foo", map[string]any{}, 0, 0.1, 0.1, 0.3, 0.2, ""},
	}
}

// fixtureProvenance is the provenance of the fixture, with WebKB's loader statistics.
func fixtureProvenance() []experiments.Provenance {
	return []experiments.Provenance{{
		Sweep: "s1", Config: "cfg.yaml", ConfigHash: "deadbeef", Name: "test", GitCommit: "abc123",
		GoVersion: "go1.26", Host: "testhost", CPU: "TestCPU, 4 cores", Workers: 4,
		Started:  time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC),
		Datasets: []datasets.Stats{{Name: "webkb", N: 877, Edges: 1480, M: 1703, K: 4, SelfLoops: 92, Density: 1388.0 / 877 / 877}},
	}}
}

// fixtureRecords returns the records of runs (JSON round-tripped, as a report reads them).
func fixtureRecords(t *testing.T, runs []run) []experiments.Record {
	t.Helper()
	var out []experiments.Record
	for _, r := range runs {
		b, err := json.Marshal(r.record())
		if err != nil {
			t.Fatal(err)
		}
		var rec experiments.Record
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

// fixtureResults aggregates the fixture with the embedded paper values.
func fixtureResults(t *testing.T, runs []run) *Results {
	t.Helper()
	paper, err := paper.DefaultPublished()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewResults(fixtureRecords(t, runs), fixtureProvenance(), paper, experiments.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	r.notes = fixtureOffPaper(t)
	return r
}

// fixtureOffPaper explains two of the fixture's cells off the paper: Prop. on WebKB in the
// ARI table (explained) and ρ = 0.95 on WebKB (not explained); ρ = 0.5 has no note.
func fixtureOffPaper(t *testing.T) *offPaper {
	t.Helper()
	o, err := parseOffPaper("notes.yaml", []byte(`
cells:
  - {table: ari, row: "Prop.", dataset: webkb, diff: -0.045, explained: true, cause: "two restarts only."}
  - {table: rho, row: "0.95", dataset: webkb, diff: 0.038, explained: false, cause: "tried a second init."}
rows:
  METIS: "METIS is the real gpmetis."
`))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// writeFixtureDir writes runs and provenance as a results folder and returns its path.
func writeFixtureDir(t *testing.T, runs []run) string {
	t.Helper()
	return writeResultsDir(t, fixtureRecords(t, runs), fixtureProvenance())
}

// writeResultsDir writes records and provenance as a results folder and returns its path.
func writeResultsDir(t *testing.T, recs []experiments.Record, prov []experiments.Provenance) string {
	t.Helper()
	dir := t.TempDir()
	var b bytes.Buffer
	for _, rec := range recs {
		line, _ := json.Marshal(rec)
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, experiments.RunsFile), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	for _, p := range prov {
		line, _ := json.Marshal(p)
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, experiments.SweepsFile), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readText returns a file's contents, failing the test if it cannot be read.
func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readCSVFile returns a CSV file's records, failing the test if it cannot be read.
func readCSVFile(t *testing.T, path string) [][]string {
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

// checkTable compares a table's Markdown and LaTeX with the golden files
// testdata/<golden>.{md,tex}.golden and checks that its Markdown has the given lines.
func checkTable(t *testing.T, golden string, tb *Table, lines []string) {
	t.Helper()
	md, tex := tb.Markdown(), tb.LaTeX()
	checkGolden(t, filepath.Join("testdata", golden+".md.golden"), md)
	checkGolden(t, filepath.Join("testdata", golden+".tex.golden"), tex)
	got := strings.Split(md, "\n")
	for _, want := range lines {
		if !containsLine(got, want) {
			t.Errorf("Markdown lacks the line\n%s\ngot:\n%s", want, md)
		}
	}
}

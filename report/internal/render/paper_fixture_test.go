package render

import (
	"testing"

	"github.com/nagc-harness/nagc/report/internal/reporttest"
	"github.com/nagc-harness/nagc/report/paper"
	recorded "github.com/nagc-harness/nagc/results"
)

// fixtureProvenance is the provenance of the fixture, with WebKB's loader statistics.
func fixtureProvenance() []recorded.Provenance { return reporttest.Provenance() }

// fixturePaperResults aggregates the fixture with the embedded paper values, as the
// comparison reads them (with the notes of fixtureOffPaper).
func fixturePaperResults(t *testing.T, runs []run) results {
	t.Helper()
	paper, err := paper.DefaultPublished()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewResults(fixtureRecords(t, runs), fixtureProvenance(), paper, recorded.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	c := Paper{notes: fixtureOffPaper(t)}
	r.Comparison = c
	return c.of(r)
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
	return reporttest.WriteResultsDir(t, fixtureRecords(t, runs), fixtureProvenance())
}

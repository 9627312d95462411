package render

import (
	"testing"

	"github.com/nagc-harness/nagc/report/internal/reporttest"
	"github.com/nagc-harness/nagc/report/paper"
	recorded "github.com/nagc-harness/nagc/results"
)

// run is one synthetic record of the fixture (reporttest.FixtureRuns).
type run reporttest.Run

// fixtureRuns is the results set package report's tests share (reporttest.FixtureRuns).
func fixtureRuns() []run {
	var out []run
	for _, r := range reporttest.FixtureRuns() {
		out = append(out, run(r))
	}
	return out
}

// fixtureRecords returns the records of runs (JSON round-tripped, as a report reads them).
func fixtureRecords(t *testing.T, runs []run) []recorded.Record {
	t.Helper()
	var out []recorded.Record
	for _, r := range runs {
		out = append(out, reporttest.Run(r).Record(t))
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
	r, err := NewResults(fixtureRecords(t, runs), reporttest.Provenance(), paper, recorded.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkTable compares a table's Markdown and LaTeX with the golden files
// testdata/<golden>.{md,tex}.golden and checks that its Markdown has the given lines.
func checkTable(t *testing.T, golden string, tb *Table, lines []string) {
	t.Helper()
	reporttest.CheckTable(t, golden, tb.Markdown(), tb.LaTeX(), lines)
}

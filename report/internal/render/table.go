package render

import (
	"github.com/nagc-harness/nagc/internal/texttable"
)

// Table is one report table: the rendered table (texttable.Table, written as Markdown
// and LaTeX), its file stem, and its cells as tidy data for CSV.
type Table struct {
	texttable.Table
	// Name is the file stem (datasets, ari, modularity, rho, runtime, rows_<dataset>).
	Name string
	// Tidy holds the table's cells as tidy data (one row per cell) for CSV.
	Tidy []TidyRow
}

// NewTable returns a report table named name.
func newTable(name string, t texttable.Table) *Table {
	return &Table{Table: t, Name: name}
}

// shorten cuts s to at most n runes, marking the cut with "…", and puts it on one line.
func shorten(s string, n int) string { return texttable.Shorten(s, n) }

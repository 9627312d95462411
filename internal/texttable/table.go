package texttable

import "strings"

// Table is a table in a form every output format is rendered from.
type Table struct {
	// Title is the table's heading (a comment line in LaTeX; the caller prints it in
	// Markdown, where it is a section heading).
	Title string
	// Caption states what the cells are: italics above the Markdown table, comment
	// lines above the LaTeX tabular.
	Caption string
	// Groups, when set, span the columns after the first with headings (LaTeX: a
	// \multicolumn row; Markdown: prefixed to the column titles). Their spans add up to
	// len(Columns) − 1.
	Groups []Group
	// Columns are the column headings and alignments.
	Columns []Column
	// Rows are the body rows; a row with a Section starts a new block.
	Rows []Row
	// Notes are printed under the table after the numbered cell notes.
	Notes []string
}

// Group is a heading spanning Span columns.
type Group struct {
	Title string
	Span  int
}

// Column is a column heading with its alignment: 'l', 'r' or 'c'.
type Column struct {
	Title string
	Align byte
}

// Row is a body row: cells, or a section heading spanning the table when Section is set.
type Row struct {
	Section string
	Cells   []Cell
}

// Cell is one table cell. Note, when set, is printed under the table and referenced
// from the cell by its number.
type Cell struct {
	Text string
	Bold bool
	Note string
}

// AddGroup appends a group titled title over the given columns.
func (t *Table) AddGroup(title string, cols ...Column) {
	t.Groups = append(t.Groups, Group{title, len(cols)})
	t.Columns = append(t.Columns, cols...)
}

// AddSection appends a section heading spanning the table.
func (t *Table) AddSection(title string) {
	t.Rows = append(t.Rows, Row{Section: title})
}

// AddRow appends a body row and returns its index in Rows.
func (t *Table) AddRow(cells ...Cell) int {
	t.Rows = append(t.Rows, Row{Cells: cells})
	return len(t.Rows) - 1
}

// noteIndex numbers the distinct cell notes of a table in order of appearance.
func (t *Table) noteIndex() (map[string]int, []string) {
	idx := map[string]int{}
	var notes []string
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if c.Note != "" {
				if _, ok := idx[c.Note]; !ok {
					notes = append(notes, c.Note)
					idx[c.Note] = len(notes)
				}
			}
		}
	}
	return idx, notes
}

// headers returns the column titles with their group titles prefixed, for formats with a
// single header row.
func (t *Table) headers() []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Title
	}
	col := 1
	for _, g := range t.Groups {
		for j := 0; j < g.Span && col < len(out); j++ {
			if g.Title != "" {
				out[col] = strings.TrimSpace(g.Title + " " + out[col])
			}
			col++
		}
	}
	return out
}

// cell returns the i-th cell of a row, an empty cell past its end.
func (r Row) cell(i int) Cell {
	if i < len(r.Cells) {
		return r.Cells[i]
	}
	return Cell{}
}

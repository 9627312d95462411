package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/nagc-harness/nagc/configs"
	"github.com/nagc-harness/nagc/report/paper"
)

// offPaperTolerance is the least distance from the paper's value that flags a cell of the
// ARI or ρ table: a cell is off the paper when |ours − paper| > max(paper's std,
// offPaperTolerance).
const offPaperTolerance = 0.02

// offPaperFile names the notes file in messages; its copy ships in the binary
// (configs.OffPaper).
const offPaperFile = "configs/offpaper.yaml"

// offPaperNote explains one cell of the paper's comparison that is off the paper: a
// cell of the ARI table (Table "ari", Row a method's display name) or of the ρ table
// (Table "rho", Row the ρ value), on a dataset, selected by the paper's rule. Cells
// selected by a label-free rule are explained from these (offPaper.Explain).
type offPaperNote struct {
	Table   string `yaml:"table"`
	Row     string `yaml:"row"`
	Dataset string `yaml:"dataset"`
	// Diff is the Δ (ours − paper) the note was written for; a regeneration that moves
	// the cell by more than offPaperTolerance needs the note read again.
	Diff float64 `yaml:"diff"`
	// Explained is false when no cause was found; Cause then says what was tried.
	Explained bool   `yaml:"explained"`
	Cause     string `yaml:"cause"`
}

// offPaper holds the notes on the cells off the paper and the paragraphs about whole
// rows (BAGC's derivation), as data (configs/offpaper.yaml).
type offPaper struct {
	Cells []offPaperNote `yaml:"cells"`
	// Rows maps a row of the ARI table to a paragraph printed under it.
	Rows map[string]string `yaml:"rows"`
}

// defaultOffPaper returns the notes shipped with nagc (configs/offpaper.yaml), written
// for the committed results/paper tables.
func defaultOffPaper() (*offPaper, error) {
	o, err := parseOffPaper(offPaperFile, configs.OffPaper)
	if err != nil {
		return nil, err
	}
	return o, nil
}

// parseOffPaper parses notes on the cells off the paper (file names them in errors) and
// checks that every note names a table (ari or rho), a row, a dataset and a cause, once.
// A fault is a *paper.Error with the file and the line of the note.
func parseOffPaper(file string, b []byte) (*offPaper, error) {
	var o offPaper
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&o); err != nil {
		return nil, &paper.Error{File: file, Err: fmt.Errorf("notes on cells off the paper: %w", err)}
	}
	var doc struct {
		Cells []yaml.Node `yaml:"cells"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, &paper.Error{File: file, Err: err}
	}
	seen := map[string]bool{}
	for i, n := range o.Cells {
		fault := func(format string, args ...any) error {
			line := 0
			if i < len(doc.Cells) {
				line = doc.Cells[i].Line
			}
			where := fmt.Sprintf("note %d (%s %s on %s): ", i+1, n.Table, n.Row, n.Dataset)
			return &paper.Error{File: file, Line: line, Err: fmt.Errorf(where+format, args...)}
		}
		switch {
		case n.Table != "ari" && n.Table != "rho":
			return nil, fault("table must be ari or rho")
		case n.Row == "" || n.Dataset == "":
			return nil, fault("a row and a dataset are needed")
		case strings.TrimSpace(n.Cause) == "":
			return nil, fault("no cause (write what was tried when none was found)")
		}
		if n.Table == "rho" {
			if _, err := strconv.ParseFloat(n.Row, 64); err != nil {
				return nil, fault("the row of a ρ-table note is the ρ value")
			}
		}
		k := offKey(n.Table, n.Row, n.Dataset)
		if seen[k] {
			return nil, fault("a second note on the same cell")
		}
		seen[k] = true
	}
	return &o, nil
}

// offKey identifies a cell of the ARI or ρ table; ρ values are compared as numbers.
func offKey(table, row, dataset string) string {
	if table == "rho" {
		if v, err := strconv.ParseFloat(row, 64); err == nil {
			row = strconv.FormatFloat(v, 'g', -1, 64)
		}
	}
	return table + "\x00" + row + "\x00" + strings.ToLower(dataset)
}

// rowKey is the row of a tidy row in notes: its method, or for the ρ table its ρ.
func rowKey(tr TidyRow) string {
	if tr.Table == "rho" {
		return strconv.FormatFloat(tr.Rho, 'g', -1, 64)
	}
	return tr.Method
}

// offThePaper reports whether a cell of the ARI or ρ table is off the paper: it has a
// mean and a paper value and |ours − paper| > max(paper's std, offPaperTolerance).
func offThePaper(tr TidyRow) bool {
	if math.IsNaN(tr.Mean) || math.IsNaN(tr.Paper) {
		return false
	}
	tol := offPaperTolerance
	if !math.IsNaN(tr.PaperStd) && tr.PaperStd > tol {
		tol = tr.PaperStd
	}
	return math.Abs(tr.Mean-tr.Paper) > tol+1e-12
}

// Note returns the note on a cell selected by the paper's rule, if there is one.
func (o *offPaper) Note(tr TidyRow) (offPaperNote, bool) {
	if o == nil {
		return offPaperNote{}, false
	}
	k := offKey(tr.Table, rowKey(tr), tr.Dataset)
	for _, n := range o.Cells {
		if offKey(n.Table, n.Row, n.Dataset) == k {
			return n, true
		}
	}
	return offPaperNote{}, false
}

// Prefixes of the explanations Explain gives.
const (
	offPrefix      = "off the paper by more than max(paper std, 0.02): "
	notExplained   = "not explained; "
	noNoteRecorded = "not explained: no note on this cell in " + offPaperFile
)

// Explain returns, for each tidy row of the ARI or ρ table, why it is off the paper, or
// "" when it is not (offThePaper). A cell selected by the paper's rule gets its note
// (Note), marked "not explained; …" when no cause was found and "not explained: no note
// …" when it has none. A cell selected by a label-free rule, where the paper's rule's
// cell of the same row agrees with the paper, is explained by the selection (the paper
// chose by ARI; the grid points of both rules are printed); where that cell is off too,
// by its note (the same text, printed once, when both rules chose the same grid point;
// else the selection and that note). Cost O(len(rows)·(len(rows) + notes)).
func (o *offPaper) Explain(rows []TidyRow) []string {
	out := make([]string, len(rows))
	paperCell := map[string]TidyRow{}
	for _, tr := range rows {
		if tr.Selection == PaperRule {
			paperCell[offKey(tr.Table, rowKey(tr), tr.Dataset)] = tr
		}
	}
	for i, tr := range rows {
		if !offThePaper(tr) {
			continue
		}
		if tr.Selection == PaperRule {
			out[i] = offPrefix + o.paperRuleCause(tr)
			continue
		}
		p, ok := paperCell[offKey(tr.Table, rowKey(tr), tr.Dataset)]
		switch {
		case !ok || math.IsNaN(p.Mean):
			out[i] = offPrefix + "not explained: the paper's rule chose no grid point of this row, so the selection cannot be compared"
		case offThePaper(p) && p.Params == tr.Params:
			out[i] = offPrefix + o.paperRuleCause(p) // the same point: the same note as that cell's
		case offThePaper(p):
			out[i] = offPrefix + fmt.Sprintf("the selection and, at the paper's rule's point, its cause: the label-free "+
				"rule chose %s (ARI %s), the paper's rule %s (ARI %s, Δ %s), which is off because: %s",
				paramsOrNone(tr.Params), fmt3(tr.Mean), paramsOrNone(p.Params), fmt3(p.Mean), fmtDiff(p.Diff), o.paperRuleCause(p))
		default:
			out[i] = offPrefix + fmt.Sprintf("the selection: the paper chose by ARI (reading the labels); the label-free "+
				"rule chose %s (ARI %s), the paper's rule %s (ARI %s, within max(paper std, 0.02) of the paper)",
				paramsOrNone(tr.Params), fmt3(tr.Mean), paramsOrNone(p.Params), fmt3(p.Mean))
		}
	}
	return out
}

// paperRuleCause is the note's text on a cell selected by the paper's rule: a note
// written for another Δ (more than offPaperTolerance away) is not applied, since it
// describes other numbers.
func (o *offPaper) paperRuleCause(tr TidyRow) string {
	n, ok := o.Note(tr)
	switch {
	case !ok:
		return noNoteRecorded
	case math.Abs(tr.Diff-n.Diff) > offPaperTolerance:
		return fmt.Sprintf("not explained: the note on this cell in %s was written for Δ = %s, not %s", offPaperFile,
			fmtDiff(n.Diff), fmtDiff(tr.Diff))
	case !n.Explained:
		return notExplained + strings.TrimSpace(n.Cause)
	}
	return strings.TrimSpace(n.Cause)
}

// Unexplained returns the tidy rows off the paper that have no note: cells selected by
// the paper's rule without one in o (a cell explained as "not explained; …" has one).
func (o *offPaper) Unexplained(rows []TidyRow) []TidyRow {
	var out []TidyRow
	for _, tr := range rows {
		if tr.Selection != PaperRule || !offThePaper(tr) {
			continue
		}
		if _, ok := o.Note(tr); !ok {
			out = append(out, tr)
		}
	}
	return out
}

// Stale returns the notes of o on cells that rows hold (selected by the paper's rule)
// but that are not off the paper any more, or that moved by more than offPaperTolerance
// from the Δ the note was written for. Notes on cells rows do not hold (a row or dataset
// not in these results) are not judged.
func (o *offPaper) Stale(rows []TidyRow) []offPaperNote {
	if o == nil {
		return nil
	}
	held := map[string]TidyRow{}
	for _, tr := range rows {
		if tr.Selection == PaperRule && !math.IsNaN(tr.Mean) && !math.IsNaN(tr.Paper) {
			held[offKey(tr.Table, rowKey(tr), tr.Dataset)] = tr
		}
	}
	var out []offPaperNote
	for _, n := range o.Cells {
		tr, ok := held[offKey(n.Table, n.Row, n.Dataset)]
		if ok && (!offThePaper(tr) || math.Abs(tr.Diff-n.Diff) > offPaperTolerance) {
			out = append(out, n)
		}
	}
	return out
}

// paramsOrNone prints a grid point's parameters, or "(no parameters)".
func paramsOrNone(s string) string {
	if s == "" {
		return "(no parameters)"
	}
	return s
}

// offPaper returns the notes a report explains its cells with: r.notes, else the
// shipped ones.
func (r results) offPaper() *offPaper {
	if r.notes != nil {
		return r.notes
	}
	o, err := defaultOffPaper()
	if err != nil {
		return nil // the shipped file is checked by a test
	}
	return o
}

// cellRef locates a table cell: Rows[row].Cells[col].
type cellRef struct{ row, col int }

// explainCells notes every cell off the paper on its Δ cell (deltas[i] is the Δ cell of
// t.Tidy[i]) and in its tidy row.
func (r results) explainCells(t *Table, deltas []cellRef) {
	notes := r.offPaper().Explain(t.Tidy)
	for i, n := range notes {
		if n == "" {
			continue
		}
		c := &t.Rows[deltas[i].row].Cells[deltas[i].col]
		c.Note = n
		if t.Tidy[i].Note != "" {
			t.Tidy[i].Note += "; "
		}
		t.Tidy[i].Note += n
	}
}

// offPaperParagraph counts the cells of a table off the paper under each rule, with how
// many are not explained, and adds the paragraphs of offPaper.Rows about the table's rows.
func offPaperParagraph(t *Table, r results) string {
	var b strings.Builder
	counts := map[string][2]int{} // selection → off, not explained
	var order []string
	for _, tr := range t.Tidy {
		if !offThePaper(tr) {
			continue
		}
		c, ok := counts[tr.Selection]
		if !ok {
			order = append(order, tr.Selection)
		}
		c[0]++
		if strings.Contains(tr.Note, "not explained") {
			c[1]++
		}
		counts[tr.Selection] = c
	}
	if len(order) == 0 {
		b.WriteString("No cell is off the paper by more than max(paper std, 0.02).")
	} else {
		var parts []string
		for _, sel := range order {
			c := counts[sel]
			s := fmt.Sprintf("%d under %s", c[0], ruleShort(sel))
			if c[1] > 0 {
				s += fmt.Sprintf(" (%d not explained)", c[1])
			}
			parts = append(parts, s)
		}
		fmt.Fprintf(&b, "Cells off the paper by more than max(paper std, 0.02): %s. Each carries a note on its Δ "+
			"(listed under the table): a measured cause, or \"not explained\" with what was tried.", strings.Join(parts, ", "))
	}
	if o := r.offPaper(); o != nil {
		for _, m := range r.methodRows() {
			if p := strings.TrimSpace(o.Rows[m]); p != "" && t.Name == "ari" && countPoints(r, m) > 0 {
				fmt.Fprintf(&b, "\n\n**%s.** %s", m, p)
			}
		}
	}
	return b.String()
}

// countPoints counts the grid points of a method over every dataset.
func countPoints(r results, method string) int {
	n := 0
	for _, d := range r.Datasets {
		n += len(r.PointsOf(d, method))
	}
	return n
}

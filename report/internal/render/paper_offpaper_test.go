package render

import (
	"github.com/nagc-harness/nagc/report/internal/reporttest"
	"github.com/nagc-harness/nagc/report/paper"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/texttable"
)

// tidy returns a tidy row of the ARI (rho NaN) or ρ table for the off-paper tests.
func tidy(table, method string, rho float64, selection string, mean, paper, paperStd float64, params string) TidyRow {
	tr := newTidy(table, "webkb", method, "ari", selection)
	tr.Rho, tr.Mean, tr.Paper, tr.PaperStd, tr.Diff, tr.Params = rho, mean, paper, paperStd, mean-paper, params
	return tr
}

func TestOffThePaper(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name              string
		mean, paper, pstd float64
		want              bool
	}{
		{"within 0.02", 0.50, 0.519, 0, false},
		{"beyond 0.02, no std", 0.50, 0.521, nan, true},
		{"beyond 0.02, within the paper's std", 0.50, 0.53, 0.04, false},
		{"beyond the paper's std", 0.50, 0.55, 0.04, true},
		{"below the paper", 0.60, 0.55, 0.011, true},
		{"no mean", nan, 0.5, 0, false},
		{"no paper value", 0.5, nan, nan, false},
	}
	for _, tc := range tests {
		tr := tidy("ari", "X", nan, PaperRule, tc.mean, tc.paper, tc.pstd, "")
		if got := offThePaper(tr); got != tc.want {
			t.Errorf("%s: OffThePaper = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestExplain checks the note each kind of cell gets: a paper-rule cell with a note
// (explained or not), without one, with a note written for another Δ; a label-free cell
// whose paper-rule cell agrees (the selection, with both grid points) or is off too.
func TestExplain(t *testing.T) {
	o, err := parseOffPaper("notes.yaml", []byte(`
cells:
  - {table: ari, row: A, dataset: webkb, diff: -0.1, explained: true, cause: "cause of A."}
  - {table: ari, row: B, dataset: WebKB, diff: 0.1, explained: false, cause: "tried B."}
  - {table: ari, row: C, dataset: webkb, diff: 0.3, explained: true, cause: "old numbers."}
  - {table: rho, row: "0.950", dataset: webkb, diff: 0.05, explained: true, cause: "rho cause."}
`))
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	rows := []TidyRow{
		tidy("ari", "A", nan, PaperRule, 0.4, 0.5, 0, "lambda=1"),              // 0: explained
		tidy("ari", "B", nan, PaperRule, 0.6, 0.5, 0, "lambda=1"),              // 1: not explained
		tidy("ari", "C", nan, PaperRule, 0.6, 0.5, 0, "lambda=1"),              // 2: note for another Δ
		tidy("ari", "D", nan, PaperRule, 0.6, 0.5, 0, "lambda=1"),              // 3: no note
		tidy("ari", "E", nan, PaperRule, 0.51, 0.5, 0, "lambda=1"),             // 4: agrees
		tidy("ari", "E", nan, "modularity", 0.3, 0.5, 0, "lambda=0.01"),        // 5: the selection
		tidy("ari", "A", nan, "modularity", 0.4, 0.5, 0, "lambda=1"),           // 6: as the paper's rule
		tidy("rho", "Prop.", 0.95, PaperRule, 0.55, 0.5, nan, "k2=4 lambda=1"), // 7: ρ note
		tidy("rho", "Prop.", 0.5, PaperRule, 0.55, 0.5, nan, "k2=4 lambda=1"),  // 8: other ρ, no note
		tidy("ari", "F", nan, "modularity", 0.3, 0.5, 0, ""),                   // 9: no paper-rule cell
		tidy("ari", "B", nan, "modularity", 0.3, 0.5, 0, "lambda=0.1"),         // 10: the selection and B's note
	}
	want := []string{
		offPrefix + "cause of A.",
		offPrefix + "not explained; tried B.",
		offPrefix + "not explained: the note on this cell in configs/offpaper.yaml was written for Δ = +0.300, not +0.100",
		offPrefix + noNoteRecorded,
		"",
		offPrefix + "the selection: the paper chose by ARI (reading the labels); the label-free rule chose lambda=0.01 " +
			"(ARI 0.300), the paper's rule lambda=1 (ARI 0.510, within max(paper std, 0.02) of the paper)",
		offPrefix + "cause of A.",
		offPrefix + "rho cause.",
		offPrefix + noNoteRecorded,
		offPrefix + "not explained: the paper's rule chose no grid point of this row, so the selection cannot be compared",
		offPrefix + "the selection and, at the paper's rule's point, its cause: the label-free rule chose lambda=0.1 " +
			"(ARI 0.300), the paper's rule lambda=1 (ARI 0.600, Δ +0.100), which is off because: not explained; tried B.",
	}
	got := o.Explain(rows)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d (%s %s %s): note\n%q\nwant\n%q", i, rows[i].Table, rows[i].Method, rows[i].Selection, got[i], want[i])
		}
	}
	un := o.Unexplained(rows)
	if len(un) != 2 || un[0].Method != "D" || un[1].Rho != 0.5 {
		t.Errorf("Unexplained = %v, want D and ρ = 0.5", un)
	}
	stale := o.Stale(rows)
	if len(stale) != 1 || stale[0].Row != "C" {
		t.Errorf("Stale = %v, want the note on C", stale)
	}
}

func TestParseOffPaperErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"cells:\n  - {table: mod, row: A, dataset: webkb, cause: x}\n", "notes.yaml:2: note 1 (mod A on webkb): table must be ari or rho"},
		{"cells:\n  - {table: ari, row: A, cause: x}\n", "a row and a dataset are needed"},
		{"cells:\n  - {table: ari, row: A, dataset: webkb}\n", "no cause"},
		{"cells:\n  - {table: rho, row: high, dataset: webkb, cause: x}\n", "the row of a ρ-table note is the ρ value"},
		{"cells:\n  - {table: rho, row: '0.5', dataset: webkb, cause: x}\n  - {table: rho, row: '0.50', dataset: WebKB, cause: y}\n",
			"a second note on the same cell"},
		{"cells:\n  - {table: ari, row: A, dataset: webkb, cause: x, why: y}\n", "field why not found"},
	}
	for _, tc := range tests {
		_, err := parseOffPaper("notes.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseOffPaper(%q) = %v, want an error containing %q", tc.yaml, err, tc.want)
		}
	}
}

// readTidyCSV reads a table's CSV file back into tidy rows.
func readTidyCSV(t *testing.T, path string) []TidyRow {
	t.Helper()
	recs := reporttest.ReadCSV(t, path)
	if len(recs) == 0 || strings.Join(recs[0], ",") != strings.Join(TidyColumns, ",") {
		t.Fatalf("%s: header is not %v", path, TidyColumns)
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	num := func(s string) float64 {
		if s == "" {
			return math.NaN()
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s: %q is not a number", path, s)
		}
		return v
	}
	var out []TidyRow
	for _, f := range recs[1:] {
		tr := newTidy(f[col["table"]], f[col["dataset"]], f[col["method"]], f[col["metric"]], f[col["selection"]])
		tr.Rho, tr.Mean, tr.Std = num(f[col["rho"]]), num(f[col["mean"]]), num(f[col["std"]])
		tr.Paper, tr.PaperStd, tr.Diff = num(f[col["paper"]]), num(f[col["paper_std"]]), num(f[col["diff"]])
		tr.Params, tr.Note = f[col["params"]], f[col["note"]]
		out = append(out, tr)
	}
	return out
}

// TestCommittedCellsExplained holds configs/offpaper.yaml to the committed paper tables
// (results/paper/ari.csv and rho.csv): every cell off the paper by more than max(paper
// std, 0.02) has a note (a cause, or "not explained" with what was tried), every cell the
// label-free rule selects off the paper is explained, and no note is stale. A
// regeneration that flags a new cell, or moves one, fails here until its note is written.
func TestCommittedCellsExplained(t *testing.T) {
	o, err := defaultOffPaper()
	if err != nil {
		t.Fatal(err)
	}
	flagged := 0
	for _, name := range []string{"ari", "rho"} {
		rows := readTidyCSV(t, filepath.Join("..", "..", "..", "results", "paper", name+".csv"))
		for _, tr := range o.Unexplained(rows) {
			t.Errorf("%s table: %s on %s (ours %.3f, paper %.3f, Δ %s) is off the paper with no note in %s",
				name, rowKey(tr), tr.Dataset, tr.Mean, tr.Paper, fmtDiff(tr.Diff), offPaperFile)
		}
		for _, n := range o.Stale(rows) {
			t.Errorf("%s table: the note on %s, %s (Δ %s) is stale: the cell is no longer off the paper or moved by more than %.2f",
				name, n.Row, n.Dataset, fmtDiff(n.Diff), offPaperTolerance)
		}
		for i, note := range o.Explain(rows) {
			if note == "" {
				continue
			}
			flagged++
			if strings.Contains(note, "no note") || strings.Contains(note, "was written for") || strings.Contains(note, "cannot be compared") {
				tr := rows[i]
				t.Errorf("%s table: %s on %s (%s) is not accounted for: %s", name, rowKey(tr), tr.Dataset, tr.Selection, note)
			}
		}
	}
	if flagged == 0 {
		t.Error("no committed cell is off the paper: the test checks nothing")
	}
}

// TestOffPaperRendered checks that the ARI and ρ tables of the fixture print the notes
// beside the table and the paragraph counts them and prints the row paragraphs.
func TestOffPaperRendered(t *testing.T) {
	r := fixturePaperResults(t, fixtureRuns())
	ari, rho := ariTable(r), rhoTable(r)
	if md := ari.Markdown(); !strings.Contains(md, "| −0.045 [1] |") || !strings.Contains(md, "[1] "+offPrefix+"two restarts only.") {
		t.Errorf("ARI table lacks the note on Prop.:\n%s", md)
	}
	if tex := rho.LaTeX(); !strings.Contains(tex, `$-$0.040\textsuperscript{1}`) {
		t.Errorf("ρ table's LaTeX lacks the note mark on ρ = 0.5:\n%s", tex)
	}
	p := offPaperParagraph(ari, r)
	for _, want := range []string{
		"Cells off the paper by more than max(paper std, 0.02): 1 under paper's rule (best mean ARI), 1 under label-free rule (best mean modularity).",
		"**METIS.** METIS is the real gpmetis.",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("ARI paragraph lacks %q:\n%s", want, p)
		}
	}
	if p := offPaperParagraph(rho, r); !strings.Contains(p, "2 under paper's rule (best mean ARI) (2 not explained)") || strings.Contains(p, "METIS") {
		t.Errorf("ρ paragraph:\n%s", p)
	}
}

// TestAuthorsInitRow checks that a row run with the authors' initialisation is listed
// after Prop., compared with the paper's Prop. and marked as reading the labels under
// both rules, with its initialisation among the printed parameters.
func TestAuthorsInitRow(t *testing.T) {
	runs := fixtureRuns()
	ai := map[string]any{"lambda": 1e-4, "rho": 0.55, "k2": 20.0, "init": "kmeans-median-ari", "iterations": 100.0}
	runs = append(runs,
		run{"webkb", "Prop. (authors' init)", ai, 0, 0.98, 0.73, 0.15, 1, ""},
		run{"webkb", "Prop. (authors' init)", ai, 1, 0.99, 0.74, 0.15, 1, ""})
	r := fixturePaperResults(t, runs)
	tb := ariTable(r)
	label := "Prop. (authors' init) — reads the labels; vs the paper's Prop."
	var at []int
	for i, row := range tb.Rows {
		if len(row.Cells) > 0 && row.Cells[0].Text == label {
			at = append(at, i)
			if got := row.Cells[2].Text; got != "0.995 ± 0.002" {
				t.Errorf("paper cell = %q, want the paper's Prop. 0.995 ± 0.002", got)
			}
			if prev := tb.Rows[i-1].Cells[0].Text; prev != "Prop." {
				t.Errorf("row after %q, want after Prop.", prev)
			}
		}
	}
	if len(at) != 2 {
		t.Fatalf("the authors' init row appears %d times, want once per block:\n%s", len(at), tb.Markdown())
	}
	if r.ReadsLabels("Prop.") || !r.ReadsLabels("Prop. (authors' init)") {
		t.Error("ReadsLabels: want true for the authors' init row only")
	}
	if md := RowsTable(r.Results, "webkb").Markdown(); !strings.Contains(md, "| Prop. (authors' init) | best modularity (but the row's initialisation reads the labels) |") {
		t.Errorf("rows table calls the authors' init row label-free:\n%s", md)
	}
	tr := lookupTidy(tb.Tidy, "webkb", "Prop. (authors' init)", experiments.SelectModularity)
	if tr == nil || !strings.Contains(tr.Params, "init=kmeans-median-ari") || !strings.Contains(tr.Params, "iterations=100") {
		t.Errorf("tidy params of the label-free cell = %+v, want init and iterations", tr)
	}
}

// TestOffPaperLaTeX checks that every note, row paragraph and runtime text has a LaTeX
// form in ASCII (texEscape knows each of its symbols), so that a table's .tex compiles.
func TestOffPaperLaTeX(t *testing.T) {
	o, err := defaultOffPaper()
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{}
	for _, n := range o.Cells {
		texts = append(texts, n.Cause)
	}
	for _, p := range o.Rows {
		texts = append(texts, p)
	}
	spec, err := paper.DefaultSpec()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range spec.SpeedClaims {
		texts = append(texts, c.Claim, c.Why)
	}
	texts = append(texts, runtimeTableOf(fixturePaperResults(t, fixtureRuns())).Notes...)
	for _, s := range texts {
		for _, c := range texttable.TeXEscape(s) {
			if c > 127 {
				t.Errorf("no LaTeX form for %q in %q", c, s)
				break
			}
		}
	}
}

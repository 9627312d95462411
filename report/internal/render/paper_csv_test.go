package render

import (
	"bytes"
	"encoding/csv"
	"github.com/nagc-harness/nagc/report/internal/reporttest"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// TestCSVRoundTrip writes every table's tidy rows, reads them back with encoding/csv and
// checks that the cells are the same and the numbers parse back to the values.
func TestCSVRoundTrip(t *testing.T) {
	r := fixturePaperResults(t, fixtureRuns())
	for _, tb := range buildTables(r.Results) {
		t.Run(tb.Name, func(t *testing.T) {
			var b bytes.Buffer
			if err := writeCSV(&b, tb.Tidy); err != nil {
				t.Fatal(err)
			}
			got, err := csv.NewReader(&b).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tb.Tidy)+1 {
				t.Fatalf("%d lines, want %d", len(got), len(tb.Tidy)+1)
			}
			if !reflect.DeepEqual(got[0], TidyColumns) {
				t.Errorf("header %v, want %v", got[0], TidyColumns)
			}
			for i, tr := range tb.Tidy {
				if !reflect.DeepEqual(got[i+1], tr.Fields()) {
					t.Errorf("row %d: %v, want %v", i, got[i+1], tr.Fields())
				}
				if tr.Table != tb.Name {
					t.Errorf("row %d: table %q, want %q", i, tr.Table, tb.Name)
				}
			}
		})
	}
}

// TestCSVCells checks the tidy rows of known cells: the numbers are the exact means,
// NaN is written as an empty field and the failure note is kept.
func TestCSVCells(t *testing.T) {
	r := fixturePaperResults(t, fixtureRuns())
	tb := ariTable(r)
	tests := []struct {
		method, selection string
		want              map[string]string
	}{
		{"Prop.", PaperRule, map[string]string{"mean": "0.95", "std": "0.05", "runs": "2", "paper": "0.995",
			"paper_std": "0.002", "params": "init=kmeans k2=4 lambda=1e-4 rho=0.5",
			"note": "off the paper by more than max(paper std, 0.02): two restarts only."}},
		{"Prop.", "modularity", map[string]string{"mean": "0.8", "std": "0", "params": "init=kmeans k2=4 lambda=0.01 rho=0.5"}},
		{"JWNMF", PaperRule, map[string]string{"mean": "", "std": "", "runs": "0", "paper": "0.906",
			"diff": "", "note": "all 2 runs failed: boom: diverged"}},
		{"BAGC", PaperRule, map[string]string{"mean": "", "note": "not run"}},
		{"Foo", PaperRule, map[string]string{"mean": "0.1", "paper": "", "runs": "1"}},
	}
	col := map[string]int{}
	for i, c := range TidyColumns {
		col[c] = i
	}
	for _, tc := range tests {
		tr := lookupTidy(tb.Tidy, "webkb", tc.method, tc.selection)
		if tr == nil {
			t.Fatalf("no tidy row for %s/%s", tc.method, tc.selection)
		}
		f := tr.Fields()
		for k, want := range tc.want {
			got := f[col[k]]
			if gv, err1 := strconv.ParseFloat(got, 64); err1 == nil {
				if wv, err2 := strconv.ParseFloat(want, 64); err2 == nil && math.Abs(gv-wv) < 1e-12 {
					continue
				}
			}
			if got != want {
				t.Errorf("%s/%s %s = %q, want %q", tc.method, tc.selection, k, got, want)
			}
		}
	}
	if tr := lookupTidy(tb.Tidy, "webkb", "Prop.", PaperRule); math.Abs(tr.Diff-(0.95-0.995)) > 1e-12 {
		t.Errorf("diff = %v", tr.Diff)
	}
}

// TestGenerateCSVFiles checks that the report's CSV files read back with the same number
// of cells as the tables have tidy rows, and tables.csv holds them all.
func TestGenerateCSVFiles(t *testing.T) {
	dir := writeFixtureDir(t, fixtureRuns())
	rep, err := Generate(Options{ResultsDir: dir, NoFigures: true, Formats: []string{FormatCSV}}, Paper{})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, tb := range rep.Tables {
		f, err := os.Open(filepath.Join(rep.Dir, tb.Name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows)-1 != len(tb.Tidy) {
			t.Errorf("%s.csv: %d rows, want %d", tb.Name, len(rows)-1, len(tb.Tidy))
		}
		total += len(tb.Tidy)
	}
	rows := reporttest.ReadCSV(t, filepath.Join(rep.Dir, AllTablesCSV))
	if len(rows)-1 != total {
		t.Errorf("%s: %d rows, want %d", AllTablesCSV, len(rows)-1, total)
	}
}

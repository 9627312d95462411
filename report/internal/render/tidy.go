package render

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"
)

// TidyColumns are the columns of every table's CSV file, one row per table cell.
var TidyColumns = []string{"table", "dataset", "method", "rho", "metric", "selection",
	"mean", "std", "runs", "failed", "paper", "paper_std", "diff", "params", "note"}

// TidyRow is one cell of a table as tidy data. Numbers that do not apply are NaN (written
// as empty fields).
type TidyRow struct {
	Table, Dataset, Method string
	// Rho is the ρ of a row of the ρ table, NaN elsewhere.
	Rho    float64
	Metric string
	// Selection is the rule that chose the grid point ("ari", "modularity", "objective"),
	// "all" for an average over every run, "k2=k1" for one over the runs at the paper's
	// timing setting (runtime table), "alone-median" for the median over the fits timed
	// alone (runtime table: Mean holds the median, Std the population std of those fits),
	// or "" when no selection applies.
	Selection string
	Mean, Std float64
	Runs      int
	Failed    int
	Paper     float64
	PaperStd  float64
	Diff      float64
	Params    string
	Note      string
}

// NewTidy returns a row with every number NaN.
func newTidy(table, dataset, method, metric, selection string) TidyRow {
	nan := math.NaN()
	return TidyRow{Table: table, Dataset: dataset, Method: method, Metric: metric, Selection: selection,
		Rho: nan, Mean: nan, Std: nan, Paper: nan, PaperStd: nan, Diff: nan}
}

// Fields returns the row's CSV fields in the order of TidyColumns.
func (r TidyRow) Fields() []string {
	return []string{r.Table, r.Dataset, r.Method, num(r.Rho), r.Metric, r.Selection,
		num(r.Mean), num(r.Std), strconv.Itoa(r.Runs), strconv.Itoa(r.Failed),
		num(r.Paper), num(r.PaperStd), num(r.Diff), r.Params, r.Note}
}

// WriteCSV writes rows as CSV with a header line (TidyColumns).
func writeCSV(w io.Writer, rows []TidyRow) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(TidyColumns); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write(r.Fields()); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// num writes a number for CSV: empty for NaN, else the shortest exact decimal.
func num(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

package bench

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/algorithms"
)

// Methods returns the methods named in list (comma-separated, or "all"), set as `nagc
// bench` times them: NAGC at k2 = k1, λ = 0.01, ρ = 0.95 with random initialisation (so
// that only the iterations are timed), JWNMF, SNMF and NMF at iterations (JWNMF from a
// random start), every other method at its defaults. An unknown name or option is an
// error.
func Methods(list string, iterations int) ([]Method, error) {
	names := strings.Split(list, ",")
	if list == "all" {
		names = algorithms.Names()
	}
	var out []Method
	for _, n := range names {
		n = strings.TrimSpace(n)
		params := map[string]any{}
		switch n {
		case "nagc":
			params = map[string]any{"lambda": 0.01, "rho": 0.95, "init": "random", "iterations": iterations}
		case "jwnmf", "snmf", "nmf":
			params = map[string]any{"iterations": iterations}
			if n == "jwnmf" {
				params["init"] = "random"
			}
		}
		if _, err := algorithms.New(n, params); err != nil {
			return nil, err
		}
		out = append(out, Method{Name: n, Algo: n, Params: params})
	}
	return out, nil
}

// tableRow is the layout of a line of the text table.
const tableRow = "%-18s %-7s %7s %9s %12s %14s %18s %15s %15s %15s\n"

// WriteTableHeader writes the header of the text table whose lines WriteTableRow writes.
func WriteTableHeader(w io.Writer) {
	fmt.Fprintf(w, tableRow, "graph", "method", "threads", "n", "|E|+nnz(X)", "median fit (s)", "per iteration (ms)", "madds/iteration", "madds/ns", "peak heap (MiB)")
}

// WriteTableRow writes r as a line of the text table: graph, method, threads, n, |E| + nnz(X),
// median fit, time per iteration, multiply-adds per iteration and per nanosecond, and
// peak heap; or the error of a fit that failed.
func WriteTableRow(w io.Writer, r Result) {
	if r.Err != "" {
		fmt.Fprintf(w, "%-18s %-7s %7d %9d %12d error: %s\n", r.Case, r.Method, r.Threads, r.N, r.Work, r.Err)
		return
	}
	fmt.Fprintf(w, tableRow, r.Case, r.Method, strconv.Itoa(r.Threads), strconv.Itoa(r.N), strconv.Itoa(r.Work),
		strconv.FormatFloat(r.Median, 'f', 3, 64), strconv.FormatFloat(1000*r.PerIteration, 'f', 3, 64),
		formatCount(r.MultiplyAdds), formatCount(r.PerNanosecond),
		strconv.FormatFloat(float64(r.PeakHeapBytes)/(1<<20), 'f', 0, 64))
}

// formatCount prints a count with three significant digits, "-" when it is not known.
func formatCount(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// CSVFile and GrowthFile name what WriteFiles writes: the results and the growth plot
// (GrowthFile + ".png" and ".pdf").
const (
	CSVFile    = "bench.csv"
	GrowthFile = "growth"
)

// WriteFiles creates dir and writes into it the results as CSV (CSVFile, see WriteCSV)
// and the growth plot as PNG and PDF (GrowthFile, see PlotGrowth).
func WriteFiles(dir string, results []Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, CSVFile))
	if err != nil {
		return err
	}
	if err := WriteCSV(f, results); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	for _, ext := range []string{"png", "pdf"} {
		if err := PlotGrowth(filepath.Join(dir, GrowthFile+"."+ext), results); err != nil {
			return err
		}
	}
	return nil
}

package bench

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/internal/paperplot"
)

// CSVHeader lists the columns WriteCSV writes.
var CSVHeader = []string{"case", "method", "n", "edges", "nnz_x", "work", "repeats",
	"median_seconds", "per_iteration_seconds", "iterations", "peak_heap_bytes", "synthetic", "error",
	"multiply_adds_per_iteration", "multiply_adds_per_ns", "threads"}

// WriteCSV writes one row per result.
func WriteCSV(w io.Writer, results []Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', 6, 64)
	}
	for _, r := range results {
		row := []string{r.Case, r.Method, strconv.Itoa(r.N), strconv.Itoa(r.Edges), strconv.Itoa(r.NNZX),
			strconv.Itoa(r.Work), strconv.Itoa(len(r.Seconds)), f(r.Median), f(r.PerIteration),
			strconv.Itoa(r.Iterations), strconv.FormatUint(r.PeakHeapBytes, 10),
			strconv.FormatBool(r.Synthetic), r.Err, f(r.MultiplyAdds), f(r.PerNanosecond), strconv.Itoa(r.Threads)}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// PlotGrowth draws median fit time against |E| + nnz(X) on log-log axes, one line per
// method (and thread setting, where there are several) over the synthetic series (with
// its fitted exponent in the legend) and the paper's graphs as separate points, with
// package internal/paperplot (a column wide), and saves it to path (the extension picks
// the format: .png or .pdf).
func PlotGrowth(path string, results []Result) error {
	format := strings.TrimPrefix(filepath.Ext(path), ".")
	if format != paperplot.PNG && format != paperplot.PDF {
		return fmt.Errorf("bench: %s: figure format %q: want png or pdf", path, format)
	}
	f := paperplot.Style{}.NewFigure("fit time against input size", "|E| + nnz(X)", "median fit time (s)")
	f.Grid()
	type line struct {
		method  string
		threads int
	}
	settings := map[int]bool{}
	for _, r := range results {
		settings[r.Threads] = true
	}
	name := func(l line) string {
		if len(settings) > 1 {
			return l.method + ", " + ThreadsName(l.threads)
		}
		return l.method
	}
	byLine := map[line][]Result{}
	var lines []line
	for _, r := range results {
		if r.Err != "" || !(r.Median > 0) {
			continue
		}
		l := line{r.Method, r.Threads}
		if _, ok := byLine[l]; !ok {
			lines = append(lines, l)
		}
		byLine[l] = append(byLine[l], r)
	}
	if len(lines) == 0 {
		return fmt.Errorf("bench: nothing to plot")
	}
	for i, l := range lines {
		rs := byLine[l]
		sort.Slice(rs, func(a, b int) bool { return rs[a].Work < rs[b].Work })
		var series, real paperplot.XYs
		for _, r := range rs {
			pt := paperplot.XY{X: float64(r.Work), Y: r.Median}
			if r.Synthetic {
				series = append(series, pt)
			} else {
				real = append(real, pt)
			}
		}
		if len(series) > 0 {
			label := name(l) + " (synthetic)"
			if b, err := GrowthExponent(results, l.method, l.threads); err == nil {
				label = fmt.Sprintf("%s (synthetic, slope %.2f)", name(l), b)
			}
			if err := f.Line(i, label, series); err != nil {
				return err
			}
		}
		if len(real) > 0 {
			if err := f.Points(i, name(l)+" (paper's graphs)", real); err != nil {
				return err
			}
		}
	}
	f.LogX()
	f.LogY()
	paperplot.WidenLogRange(&f.Plot.X)
	paperplot.WidenLogRange(&f.Plot.Y)
	f.Pad()
	k := math.Pow(10, 0.05) // room for the first and last markers
	f.Plot.X.Min, f.Plot.X.Max = f.Plot.X.Min/k, f.Plot.X.Max*k
	_, err := f.Save(strings.TrimSuffix(path, filepath.Ext(path)), format)
	return err
}

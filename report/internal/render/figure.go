package render

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/internal/paperplot"
)

// Figure file formats.
const (
	FormatPNG = paperplot.PNG
	FormatPDF = paperplot.PDF
)

// FigureOptions says where and how figures are drawn: in Dir, in each of Formats (png,
// pdf), in Style (internal/paperplot's: a column wide, 8 pt, no title, legend inside,
// unless the figure settings say otherwise). Every figure of the report, the
// comparison's too, is drawn with package internal/paperplot.
type FigureOptions struct {
	Dir     string
	Formats []string
	Style   paperplot.Style
}

// Save writes a drawn figure (a paperplot Figure, Panels or anything that saves itself)
// as Dir/fig.Name.FORMAT in every format and lists its files, relative to Dir, in fig.
func (o FigureOptions) Save(fig *Figure, f interface {
	Save(stem string, formats ...string) ([]string, error)
}) error {
	files, err := f.Save(filepath.Join(o.Dir, fig.Name), o.Formats...)
	for _, p := range files {
		fig.Files = append(fig.Files, filepath.Base(p))
	}
	return err
}

// Figure is a figure written by the report: its files and what REPORT.md says beside it.
type Figure struct {
	// Name is the file stem, e.g. "lambda_webkb".
	Name string
	// Kind is what the figure shows: "layout", "lambda", "k2" (the paper's), "objective",
	// "sensitivity", "heatmap" or "cd" (a critical-difference diagram across datasets,
	// Dataset ""); Dataset, Method and Params what it is about.
	Kind, Dataset, Method string
	Params                []string
	// Title is the heading of the figure in REPORT.md.
	Title string
	// Caption describes what is drawn.
	Caption string
	// Files are the written files, relative to the report folder.
	Files []string
	// Facts are sentences comparing the figure with the paper (stated facts and ours).
	Facts []string
}

// ClippedErrors returns the lengths below and above each mean of error bars of ± std,
// cut at [lo, hi] (the axis range), so that no bar runs past a metric's range (an ARI
// above 1).
func clippedErrors(mean, std []float64, lo, hi float64) (low, high []float64) {
	low, high = make([]float64, len(mean)), make([]float64, len(mean))
	for i, m := range mean {
		s := std[i]
		if math.IsNaN(s) {
			s = 0
		}
		low[i] = max(0, min(s, m-lo))
		high[i] = max(0, min(s, hi-m))
	}
	return low, high
}

// fmtTick prints a value with at most four significant digits: 0.25, 1200, 1.2e6.
func fmtTick(v float64) string {
	if v == 0 {
		return "0"
	}
	if a := math.Abs(v); a >= 1e4 || a < 1e-3 {
		s := strconv.FormatFloat(v, 'e', 3, 64)
		mant, exp, _ := strings.Cut(s, "e")
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		e, _ := strconv.Atoi(exp)
		return minus(fmt.Sprintf("%se%d", mant, e))
	}
	return minus(strconv.FormatFloat(v, 'g', 4, 64))
}

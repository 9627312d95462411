package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
)

// Table formats.
const (
	FormatMarkdown = "md"
	FormatLaTeX    = "tex"
	FormatCSV      = "csv"
)

// ReportFile is the name of the report's main file.
const ReportFile = "REPORT.md"

// AllTablesCSV is the CSV file holding the tidy rows of every table.
const AllTablesCSV = "tables.csv"

// Options configures Generate.
type Options struct {
	// ResultsDir is the results folder to read (runs.jsonl, sweeps.jsonl).
	ResultsDir string
	// OutDir receives the report (default ResultsDir/report).
	OutDir string
	// Formats are the table formats to write: md, tex, csv (default all).
	Formats []string
	// Figures are the figure formats to write: png, pdf (default both; empty slice with
	// NoFigures set: none).
	Figures []string
	// NoFigures disables figures.
	NoFigures bool
	// FreeRule is the label-free selection rule shown beside the paper's (default
	// modularity).
	FreeRule string
	// Paper holds the paper's numbers (default: DefaultPublished).
	Paper *Published
	// LoadGraph loads a dataset for the layout figure (default datasets.Load).
	LoadGraph func(name string) (*datasets.Graph, error)
	// Command is the command line that regenerates the report, printed in REPORT.md
	// (default "nagc report RESULTS_DIR").
	Command string
}

// Report is what Generate wrote.
type Report struct {
	// Dir is the report folder.
	Dir string
	// Results are the aggregated runs the report was built from.
	Results *Results
	// Tables and Figures are in the paper's order.
	Tables  []*Table
	Figures []*Figure
	// Skipped explains figures that were not drawn.
	Skipped []string
	// Files lists every file written, relative to Dir.
	Files []string
}

// Generate reads a results folder and writes the report's tables, figures and REPORT.md
// into the report folder. It never runs a method.
func Generate(opt Options) (*Report, error) {
	if opt.ResultsDir == "" {
		return nil, fmt.Errorf("report: no results folder")
	}
	if opt.OutDir == "" {
		opt.OutDir = filepath.Join(opt.ResultsDir, "report")
	}
	if opt.Formats == nil {
		opt.Formats = []string{FormatMarkdown, FormatLaTeX, FormatCSV}
	}
	for _, f := range opt.Formats {
		if f != FormatMarkdown && f != FormatLaTeX && f != FormatCSV {
			return nil, fmt.Errorf("report: unknown table format %q (known: md, tex, csv)", f)
		}
	}
	if opt.Figures == nil && !opt.NoFigures {
		opt.Figures = []string{FormatPNG, FormatPDF}
	}
	if opt.NoFigures {
		opt.Figures = nil
	}
	for _, f := range opt.Figures {
		if f != FormatPNG && f != FormatPDF {
			return nil, fmt.Errorf("report: unknown figure format %q (known: png, pdf)", f)
		}
	}
	if opt.FreeRule == "" {
		opt.FreeRule = experiments.SelectModularity
	}
	if opt.Paper == nil {
		p, err := DefaultPublished()
		if err != nil {
			return nil, err
		}
		opt.Paper = p
	}
	if opt.LoadGraph == nil {
		opt.LoadGraph = datasets.Load
	}
	if opt.Command == "" {
		opt.Command = "nagc report " + opt.ResultsDir
	}
	res, err := LoadResults(opt.ResultsDir, opt.Paper, opt.FreeRule)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opt.OutDir, 0o755); err != nil {
		return nil, err
	}
	rep := &Report{Dir: opt.OutDir, Results: res}
	rep.Tables = BuildTables(res)
	for _, t := range rep.Tables {
		files, err := WriteTable(opt.OutDir, t, opt.Formats)
		rep.Files = append(rep.Files, files...)
		if err != nil {
			return rep, err
		}
	}
	if containsStr(opt.Formats, FormatCSV) {
		var all []TidyRow
		for _, t := range rep.Tables {
			all = append(all, t.Tidy...)
		}
		if err := writeCSVFile(filepath.Join(opt.OutDir, AllTablesCSV), all); err != nil {
			return rep, err
		}
		rep.Files = append(rep.Files, AllTablesCSV)
	}
	if len(opt.Figures) > 0 {
		if err := rep.drawFigures(opt); err != nil {
			return rep, err
		}
	}
	var md bytes.Buffer
	writeReport(&md, rep, opt)
	if err := os.WriteFile(filepath.Join(opt.OutDir, ReportFile), md.Bytes(), 0o644); err != nil {
		return rep, err
	}
	rep.Files = append(rep.Files, ReportFile)
	return rep, nil
}

// BuildTables builds every table in the paper's order: datasets, ARI (then ARI without
// isolated vertices, not in the paper), WebKB modularity, ρ, runtime.
func BuildTables(r *Results) []*Table {
	return []*Table{DatasetsTable(r), ARITable(r), ARIConnectedTable(r), ModularityTable(r), RhoTable(r), RuntimeTable(r)}
}

// WriteTable writes a table in each format to dir/<name>.<format> and returns the file
// names written.
func WriteTable(dir string, t *Table, formats []string) ([]string, error) {
	var files []string
	for _, f := range formats {
		name := t.Name + "." + f
		path := filepath.Join(dir, name)
		var err error
		switch f {
		case FormatMarkdown:
			err = os.WriteFile(path, []byte("## "+mdEscape(t.Title)+"\n\n"+t.Markdown()), 0o644)
		case FormatLaTeX:
			err = os.WriteFile(path, []byte(t.LaTeX()), 0o644)
		case FormatCSV:
			err = writeCSVFile(path, t.Tidy)
		default:
			err = fmt.Errorf("unknown table format %q", f)
		}
		if err != nil {
			return files, err
		}
		files = append(files, name)
	}
	return files, nil
}

func writeCSVFile(path string, rows []TidyRow) error {
	var b bytes.Buffer
	if err := WriteCSV(&b, rows); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// layoutDataset is the dataset of the paper's Fig. 1.
const layoutDataset = "webkb"

// drawFigures draws the figures in the paper's order: the WebKB layout, then per dataset
// the λ and k2 sweeps, then the objective curves.
func (rep *Report) drawFigures(opt Options) error {
	r := rep.Results
	add := func(f *Figure, err error) error {
		if f != nil {
			rep.Files = append(rep.Files, f.Files...)
			if err == nil {
				rep.Figures = append(rep.Figures, f)
			}
		}
		return err
	}
	var ds string
	for _, d := range r.Datasets {
		if strings.EqualFold(d, layoutDataset) {
			ds = d
		}
	}
	switch {
	case ds == "":
		rep.Skipped = append(rep.Skipped, "Fig. 1 (WebKB layout): WebKB is not in these results.")
	default:
		g, err := opt.LoadGraph(ds)
		if err != nil {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("Fig. 1 (WebKB layout): the graph could not be loaded (%v); "+
				"pass --data DIR or set NAGC_DATA.", err))
			break
		}
		if err := add(LayoutFigure(r, ds, g, opt.OutDir, opt.Figures)); err != nil {
			return err
		}
	}
	for _, param := range []string{"lambda", "k2"} {
		for _, d := range r.Datasets {
			f, err := SweepFigure(r, d, param, opt.OutDir, opt.Figures)
			if f == nil && err == nil {
				rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s figure on %s: no finished Prop. runs with this parameter recorded.",
					param, DatasetTitle(d)))
			}
			if err := add(f, err); err != nil {
				return err
			}
		}
	}
	for _, d := range r.Datasets {
		f, err := ObjectiveFigure(r, d, opt.OutDir, opt.Figures)
		if f == nil && err == nil {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("objective figure on %s: no selected run recorded an objective curve.", DatasetTitle(d)))
		}
		if err := add(f, err); err != nil {
			return err
		}
	}
	return nil
}

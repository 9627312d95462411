package report

import (
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/report/internal/compare"
	"github.com/nagc-harness/nagc/report/internal/render"
	"github.com/nagc-harness/nagc/report/paper"
)

// ReportFile is the name of the report's main file.
const ReportFile = render.ReportFile

// Options configures Generate.
type Options struct {
	// ResultsDir is the results folder to read (runs.jsonl, sweeps.jsonl).
	ResultsDir string
	// OutDir receives the report (default ResultsDir/report).
	OutDir string
	// Formats are the table formats to write: md, tex, csv, tex-compact (default md,
	// tex and csv).
	Formats []string
	// Figures are the figure formats to write: png, pdf (default both, or the formats
	// of the figures section the sweep recorded).
	Figures []string
	// NoFigures disables figures.
	NoFigures bool
	// FigureSettings are how the sweep figures are drawn for a paper (sizes, fonts,
	// titles, legend, error bars, plotted metric, which rows and parameters): the
	// figures section of a config, laid over the one the sweep recorded (nagc report's
	// figure flags). With neither, figures are drawn in the report's own look (7.5 in ×
	// 3.8 in plots, titles on, PNG at 150 dpi).
	FigureSettings *experiments.Figures
	// FreeRule is the label-free selection rule shown beside the paper's (default
	// modularity).
	FreeRule string
	// Paper holds the paper's numbers (default: paper.DefaultPublished unless NoPaper).
	Paper *paper.Published
	// Spec is how the rows are set beside the paper (default: paper.DefaultSpec, the
	// NAGC paper's).
	Spec *paper.Spec
	// NoPaper leaves the paper's numbers out: no comparison is possible.
	NoPaper bool
	// Compare is the comparison: "" as recorded in sweeps.jsonl (a config with compare:
	// paper), "paper" to set the rows beside the paper's numbers whatever was recorded
	// (results recorded before the key existed), "none" for a report of the sweep alone.
	Compare string
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
	// Files lists every file written, relative to Dir.
	Files []string
	// Skipped explains figures that were not drawn.
	Skipped []string
}

// Generate reads a results folder and writes the report's tables, figures and REPORT.md
// into the report folder, beside the NAGC paper's tables and figures when the records
// or opt.Compare ask for it. It never runs a method. On error it leaves no partial
// report behind.
func Generate(opt Options) (*Report, error) {
	rep, err := render.Generate(render.Options{
		ResultsDir:     opt.ResultsDir,
		OutDir:         opt.OutDir,
		Formats:        opt.Formats,
		Figures:        opt.Figures,
		NoFigures:      opt.NoFigures,
		FigureSettings: opt.FigureSettings,
		FreeRule:       opt.FreeRule,
		Paper:          opt.Paper,
		Spec:           opt.Spec,
		NoPaper:        opt.NoPaper,
		Compare:        opt.Compare,
		LoadGraph:      opt.LoadGraph,
		Command:        opt.Command,
		Comparison:     compare.Paper{},
	})
	if err != nil {
		return nil, err
	}
	return &Report{Dir: rep.Dir, Files: rep.Files, Skipped: rep.Skipped}, nil
}

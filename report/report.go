package report

import "github.com/nagc-harness/nagc/report/internal/render"

// ReportFile is the name of the report's main file.
const ReportFile = render.ReportFile

// Options configures Generate: the results folder, the report folder, the table and
// figure formats, the figure settings, the selection rule shown beside the paper's, the
// paper's numbers and how the rows are set beside them, and the comparison. Its fields
// are documented on the renderer's type, of which it is another name (go doc
// ./report/internal/render Options).
type Options = render.Options

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
	if err := loadPaperFiles(&opt); err != nil {
		return nil, err
	}
	rep, err := render.Generate(opt, render.Paper{})
	if err != nil {
		return nil, err
	}
	return &Report{Dir: rep.Dir, Files: rep.Files, Skipped: rep.Skipped}, nil
}

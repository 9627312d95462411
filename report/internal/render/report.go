package render

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/texttable"
	"github.com/nagc-harness/nagc/report/paper"
	recorded "github.com/nagc-harness/nagc/results"
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
	// FigureSettings are how the figures are drawn (sizes, fonts, titles, legend, error
	// bars, plotted metric, which rows and parameters): the figures section of a config,
	// laid over the one the sweep recorded (nagc report's figure flags). With neither,
	// figures are drawn for a paper: a column wide, 8 pt, no title, legend inside, PNG
	// at 300 dpi (paperplot's zero Style).
	FigureSettings *recorded.Figures
	// FreeRule is the label-free selection rule shown beside the paper's (default
	// modularity).
	FreeRule string
	// Paper holds the paper's numbers (default: DefaultPublished unless NoPaper).
	Paper *paper.Published
	// Spec is how the rows are set beside the paper (default: paper.DefaultSpec, the
	// NAGC paper's).
	Spec *paper.Spec
	// NoPaper leaves the paper's numbers out: no comparison is possible.
	NoPaper bool
	// PaperFile, when set, is a published-results YAML that report.Generate reads into
	// Paper ("none": sets NoPaper); SpecFile a comparison spec it reads into Spec.
	PaperFile, SpecFile string
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
	// Results are the aggregated runs the report was built from.
	Results *Results
	// Tables and Figures are in the paper's order.
	Tables  []*Table
	Figures []*Figure
	// Skipped explains figures that were not drawn.
	Skipped []string
	// Files lists every file written, relative to Dir.
	Files []string
	// searches is the section of REPORT.md on the searches (writeSearchSection).
	searches bytes.Buffer
	// figuresDefaulted is whether opt.Figures was left to its default (the recorded
	// figures section's formats may then replace it).
	figuresDefaulted bool
}

// Generate reads a results folder and writes the report's tables, figures and REPORT.md
// into the report folder, with the comparison cmp (Paper for the NAGC paper; nil: none can be made) when the
// records or opt.Compare ask for one. It never runs a method.
func Generate(opt Options, cmp Comparer) (*Report, error) {
	defaulted := opt.Figures == nil && !opt.NoFigures
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	res, err := loadResults(opt.ResultsDir, opt.Paper, opt.Spec, opt.FreeRule)
	if err != nil {
		return nil, err
	}
	switch opt.Compare {
	case "":
	case recorded.ComparePaper:
		if opt.Paper == nil {
			return nil, fmt.Errorf("report: the paper's comparison needs the paper's numbers (drop --paper none)")
		}
		res.Compare = true
	case "none":
		res.Compare = false
	default:
		return nil, fmt.Errorf("report: unknown comparison %q (known: paper, none)", opt.Compare)
	}
	if res.Compare && cmp == nil {
		return nil, fmt.Errorf("report: the comparison with the paper was asked for, but none is wired in (use --compare none)")
	}
	res.Comparison = cmp
	if !res.Compare {
		res.Paper = nil // a report of the sweep alone shows no paper number
		res.SweepOrder()
	}
	rep := &Report{Dir: opt.OutDir, Results: res, figuresDefaulted: defaulted}
	if err := rep.writeAtomically(opt); err != nil {
		return nil, err
	}
	return rep, nil
}

// withDefaults returns the options with every unset field at its default, or an error
// naming an unknown table or figure format.
func (opt Options) withDefaults() (Options, error) {
	if opt.ResultsDir == "" {
		return opt, fmt.Errorf("report: no results folder")
	}
	if opt.OutDir == "" {
		opt.OutDir = filepath.Join(opt.ResultsDir, "report")
	}
	if opt.Formats == nil {
		opt.Formats = []string{FormatMarkdown, FormatLaTeX, FormatCSV}
	}
	for _, f := range opt.Formats {
		if f != FormatMarkdown && f != FormatLaTeX && f != FormatCSV && f != FormatLaTeXCompact {
			return opt, fmt.Errorf("report: unknown table format %q (known: md, tex, csv, tex-compact)", f)
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
			return opt, fmt.Errorf("report: unknown figure format %q (known: png, pdf)", f)
		}
	}
	if opt.FreeRule == "" {
		opt.FreeRule = recorded.SelectModularity
	}
	if opt.NoPaper {
		opt.Paper = nil
	} else if opt.Paper == nil {
		p, err := paper.DefaultPublished()
		if err != nil {
			return opt, err
		}
		opt.Paper = p
	}
	if opt.LoadGraph == nil {
		opt.LoadGraph = datasets.Load
	}
	if opt.Command == "" {
		opt.Command = "nagc report " + opt.ResultsDir
	}
	if opt.Spec == nil {
		opt.Spec = defaultSpec()
	}
	return opt, nil
}

// writeAtomically writes the report into a temporary folder inside opt.OutDir and moves
// its files into place at the end, so that a failure leaves no partial report behind.
func (rep *Report) writeAtomically(opt Options) error {
	if err := os.MkdirAll(opt.OutDir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(opt.OutDir, ".report-tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	final := opt.OutDir
	opt.OutDir = tmp
	if err := rep.write(opt); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, f := range rep.Files {
		if seen[f] {
			return fmt.Errorf("report: two outputs named %s (nothing was written)", f)
		}
		seen[f] = true
	}
	for _, f := range rep.Files {
		if err := os.Rename(filepath.Join(tmp, f), filepath.Join(final, f)); err != nil {
			return err
		}
	}
	return nil
}

// write writes every file of the report into opt.OutDir.
func (rep *Report) write(opt Options) error {
	res := rep.Results
	rep.Tables = buildTables(res)
	for _, t := range rep.Tables {
		files, err := writeTableFiles(opt.OutDir, t, opt.Formats)
		rep.Files = append(rep.Files, files...)
		if err != nil {
			return err
		}
	}
	if slices.Contains(opt.Formats, FormatCSV) {
		var all []TidyRow
		for _, t := range rep.Tables {
			all = append(all, t.Tidy...)
		}
		if err := writeCSVFile(filepath.Join(opt.OutDir, AllTablesCSV), all); err != nil {
			return err
		}
		rep.Files = append(rep.Files, AllTablesCSV)
	}
	var grid bytes.Buffer
	if err := WriteGridCSV(&grid, res); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(opt.OutDir, GridFile), grid.Bytes(), 0o644); err != nil {
		return err
	}
	rep.Files = append(rep.Files, GridFile)
	if len(opt.Figures) > 0 {
		if err := rep.drawFigures(opt); err != nil {
			return err
		}
	}
	tables := map[string]*Table{}
	for _, t := range rep.Tables {
		tables[t.Name] = t
	}
	if err := rep.writePages(opt, tables); err != nil {
		return err
	}
	if err := rep.writeSearchSection(&rep.searches, opt); err != nil {
		return err
	}
	var md bytes.Buffer
	writeReport(&md, rep, opt, tables)
	if err := os.WriteFile(filepath.Join(opt.OutDir, ReportFile), md.Bytes(), 0o644); err != nil {
		return err
	}
	rep.Files = append(rep.Files, ReportFile)
	return nil
}

// BuildTables builds every table: the datasets table, then with a comparison its
// tables (Comparer.Tables: the paper's in its order) and the paper's claims under the
// significance tests (ClaimsTable); without it, where fits were timed alone, their
// times (fitTimesTable), and over several datasets the methods × datasets table
// (MethodsTable); then per dataset the table of every row at its selected grid
// points (rowsTable), but for a dataset with fits timed alone and no run of a sweep
// (noSweepSection): its table would have no line.
func buildTables(r *Results) []*Table {
	out := []*Table{datasetsTable(r)}
	if c := r.comparer(); c != nil {
		out = append(out, c.Tables(r)...)
		if t := claimsTable(r); t != nil {
			out = append(out, t)
		}
	} else {
		if len(r.Timed) > 0 {
			out = append(out, FitTimesTable(r)) // a user's own timing config
		}
		if t := methodsTable(r); t != nil {
			out = append(out, t)
		}
	}
	for _, d := range r.Datasets {
		if r.noSweepSection(d) {
			continue
		}
		out = append(out, RowsTable(r, d))
	}
	return out
}

// writeTableFiles writes a table in each format to dir/<name>.<format> and returns the file
// names written.
func writeTableFiles(dir string, t *Table, formats []string) ([]string, error) {
	var files []string
	for _, f := range formats {
		name := t.Name + "." + f
		path := filepath.Join(dir, name)
		var err error
		switch f {
		case FormatMarkdown:
			err = os.WriteFile(path, []byte("## "+texttable.MarkdownEscape(t.Title)+"\n\n"+t.Markdown()), 0o644)
		case FormatLaTeX:
			err = os.WriteFile(path, []byte(t.LaTeX()), 0o644)
		case FormatLaTeXCompact:
			name = t.Name + ".compact.tex"
			path = filepath.Join(dir, name)
			err = os.WriteFile(path, []byte(t.CompactLaTeX()), 0o644)
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
	if err := writeCSV(&b, rows); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// figureOptions returns the figure settings of the results under opt and where and how
// the report saves its figures.
func (rep *Report) figureOptions(opt Options) (*figureSettings, FigureOptions, error) {
	fs, err := rep.Results.settingsFor(opt)
	if err != nil {
		return nil, FigureOptions{}, err
	}
	fo := FigureOptions{Dir: opt.OutDir, Formats: opt.Figures, Style: fs.Style}
	if rep.figuresDefaulted && len(fs.Formats) > 0 {
		fo.Formats = fs.Formats
	}
	return fs, fo, nil
}

// drawFigures draws the figures: with a comparison, its figures first (the paper's: the
// WebKB layout, then per dataset the λ and k2 sweeps of Prop.); then per dataset a
// sensitivity figure for every swept parameter of every row and a heatmap for each pair
// of swept parameters (the first three pairs), and the objective curves; none on a
// dataset with fits timed alone and no run of a sweep (noSweepSection).
func (rep *Report) drawFigures(opt Options) error {
	r := rep.Results
	fs, fo, err := rep.figureOptions(opt)
	if err != nil {
		return err
	}
	add := func(f *Figure, err error) error {
		if f != nil {
			rep.Files = append(rep.Files, f.Files...)
			if err == nil {
				rep.Figures = append(rep.Figures, f)
			}
		}
		return err
	}
	cmp := r.comparer()
	if cmp != nil {
		if err := cmp.DrawFigures(rep, opt, fo, add); err != nil {
			return err
		}
	}
	for _, rule := range r.RankRules() { // across datasets: the critical differences
		if t := r.Ranks(rule, r.RankMetric(), r.Methods); t != nil {
			if err := add(r.cdFigure(t, fo)); err != nil {
				return err
			}
		}
	}
	for _, d := range r.Datasets {
		if r.noSweepSection(d) {
			continue // fits timed alone only: nothing to draw
		}
		for _, m := range r.Methods {
			if !fs.wantsRow(m) {
				continue
			}
			swept, vals := r.Swept(d, m)
			swept = slices.DeleteFunc(slices.Clone(swept), func(p string) bool { return !fs.wantsParam(p) })
			for _, param := range swept {
				if cmp != nil && !fs.custom && cmp.DrawsSensitivity(r, m, param) {
					continue // drawn as the paper's figure
				}
				if err := add(sensitivityFigure(r, d, m, param, fo, fs)); err != nil {
					return err
				}
			}
			pairs := 0
			for i := 0; i < len(swept) && pairs < 3; i++ {
				for j := i + 1; j < len(swept) && pairs < 3; j++ {
					pairs++
					px, py := swept[i], swept[j]
					if len(vals[px]) < len(vals[py]) { // the longer grid across
						px, py = py, px
					}
					if err := add(heatmapFigure(r, d, m, px, py, fo, fs)); err != nil {
						return err
					}
				}
			}
		}
		if fs.custom {
			figs, err := objectiveFigures(r, d, fo, fs)
			for _, f := range figs {
				if err := add(f, nil); err != nil {
					return err
				}
			}
			if err != nil {
				return err
			}
			if len(figs) == 0 {
				rep.Skipped = append(rep.Skipped, fmt.Sprintf("objective figures on %s: no selected run recorded an objective curve.", DatasetTitle(d)))
			}
			continue
		}
		f, err := objectiveFigure(r, d, fo)
		if f == nil && err == nil {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("objective figure on %s: no selected run recorded an objective curve.", DatasetTitle(d)))
		}
		if err := add(f, err); err != nil {
			return err
		}
	}
	return nil
}

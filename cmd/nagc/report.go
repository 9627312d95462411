package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/nagc-harness/nagc/internal/cliflag"
	"github.com/nagc-harness/nagc/report"
	"github.com/nagc-harness/nagc/results"
)

const reportUsage = "report RESULTS_DIR [--out DIR] [--formats md,tex,csv,tex-compact] [--figures png,pdf] [--rule modularity|two-view|heldout|objective] [--compare paper|none] [--paper FILE|none] [--paper-spec FILE] [--data DIR] [--figure-width column|page|LENGTH] [--figure-height LENGTH] [--aspect W/H] [--font-size PT] [--title=false] [--legend inside|outside|none] [--errors bars|bands|none] [--metric NAME] [--rows A,B] [--params P,Q] [--dpi N]"

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", reportUsage, stderr)
	out := fs.String("out", "", "folder receiving the report (default RESULTS_DIR/report)")
	formats := fs.String("formats", "md,tex,csv", "table formats, comma-separated: md, tex, csv, tex-compact (NAME.compact.tex: mean ± std, best bold, fits a column)")
	figures := fs.String("figures", "png,pdf", "figure formats, comma-separated: png, pdf (\"none\" for no figures)")
	rule := fs.String("rule", results.SelectModularity, "label-free selection rule shown beside the paper's (modularity, two-view, heldout or objective)")
	data := fs.String("data", "", "the folder holding the named datasets, for the WebKB layout figure: the only place they are looked for (default: $NAGC_DATA, the download folder, ../shared/datasets beside a checkout)")
	paperFile := fs.String("paper", "", "published-results YAML (default: the copy built into nagc; \"none\": no paper numbers)")
	specFile := fs.String("paper-spec", "", "how the rows are set beside the paper: its rows, datasets, headings, stated facts and claims (default: the NAGC paper's, built into nagc; see configs/paper-comparison.yaml)")
	compare := fs.String("compare", "", "comparison: paper (set the rows beside the NAGC paper's numbers) or none (the sweep alone); default: as the config's compare key recorded it")
	in := addInputFlags(fs)
	ff := addFigureFlags(fs)
	arg, err := parseOneArg(fs, args)
	if err != nil {
		return err
	}
	if err := in.apply(); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	fig, err := ff.settings(given)
	if err != nil {
		return err
	}
	restore, err := setDataFolder(*data)
	if err != nil {
		return err
	}
	defer restore()
	opt := report.Options{
		ResultsDir: arg,
		OutDir:     *out,
		Formats:    splitList(*formats),
		FreeRule:   *rule,
		Command:    "nagc report " + cliflag.Quote(args),
		Compare:    *compare,
		PaperFile:  *paperFile,
		SpecFile:   *specFile,
		LoadGraph:  in.loadGraph(stderr),
	}
	if !fig.IsZero() {
		opt.FigureSettings = fig
	}
	if opt.Formats == nil {
		opt.Formats = []string{}
	}
	switch f := strings.TrimSpace(*figures); {
	case !given["figures"]: // the default, or the config's figures formats
	case f == "" || f == "none":
		opt.NoFigures = true
	default:
		opt.Figures = splitList(f)
	}
	lock, err := results.LockRead(arg)
	if err != nil {
		return err
	}
	rep, err := report.Generate(opt)
	lock.Unlock()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d files to %s: %s\n", len(rep.Files), rep.Dir, filepath.Join(rep.Dir, report.ReportFile))
	for _, s := range rep.Skipped {
		fmt.Fprintln(stderr, "note:", s)
	}
	return nil
}

// figureFlags are the options of `nagc report` that set the sweep figures for a paper.
type figureFlags struct {
	fig          results.Figures
	title        *bool
	rows, params *string
}

// addFigureFlags registers the figure options of `nagc report` on fs.
func addFigureFlags(fs *flag.FlagSet) *figureFlags {
	f := &figureFlags{}
	fs.StringVar(&f.fig.Width, "figure-width", "", "figure width: column (3.3 in, the default), page (7 in) or a length (8cm, 3.5in, 240pt); figures are drawn for a paper: a column wide, 8 pt, no title, legend inside, unless these flags or the config's figures section say otherwise")
	fs.StringVar(&f.fig.Height, "figure-height", "", "figure height, a length (default: width / aspect)")
	fs.Float64Var(&f.fig.Aspect, "aspect", 0, "figure width / height (default 1.6)")
	fs.Float64Var(&f.fig.FontSize, "font-size", 0, "font size of every text of a figure, in points (default 8)")
	f.title = fs.Bool("title", false, "draw the figures' titles (a paper puts them in the caption)")
	fs.StringVar(&f.fig.Legend, "legend", "", "legend: inside (the corner hiding the fewest points), outside or none")
	fs.StringVar(&f.fig.Errors, "errors", "", "spread over restarts: bars, bands or none")
	fs.StringVar(&f.fig.Metric, "metric", "", "recorded metric the sensitivity figures and heatmaps plot: ari, nmi, acc, modularity, heldout_modularity, … (default: the first rule's measure)")
	f.rows = fs.String("rows", "", "rows that get sweep figures, comma-separated (default all)")
	f.params = fs.String("params", "", "swept parameters that get figures, comma-separated (default all)")
	fs.Float64Var(&f.fig.DPI, "dpi", 0, "PNG resolution of the paper figures (default 300)")
	return f
}

// settings returns the figure settings the options given (the flags' names) set, checked.
func (f *figureFlags) settings(given map[string]bool) (*results.Figures, error) {
	if given["title"] {
		f.fig.Title = f.title
	}
	if given["rows"] {
		f.fig.Rows = splitList(*f.rows)
	}
	if given["params"] {
		f.fig.Params = splitList(*f.params)
	}
	if err := f.fig.Check(); err != nil {
		return nil, fmt.Errorf("report: %v", err)
	}
	return &f.fig, nil
}

package render

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// FiguresFile is the page listing every figure of the report, grouped by dataset and
// kind.
const FiguresFile = "figures.md"

// PageFile returns the name of a dataset's page in the report folder: its rows table,
// its sensitivity and heatmap figures and its objective figure.
func (r *Results) PageFile(dataset string) string { return "sweep_" + r.slug(dataset) + ".md" }

// Kinds of the figures the renderer draws itself for each dataset, in the order of a
// dataset's page; any other kind is a comparison's figure, shown in REPORT.md.
var pageKinds = []struct{ kind, heading, count string }{
	{"sensitivity", "Sensitivity to each parameter", "sensitivity"},
	{"heatmap", "Heatmaps of pairs of parameters", "heatmap"},
	{"objective", "Objective against iteration", "objective"},
}

// onPage reports whether a figure of this kind is shown on its dataset's page (else in
// REPORT.md, with the comparison's sections).
func onPage(kind string) bool {
	for _, k := range pageKinds {
		if k.kind == kind {
			return true
		}
	}
	return false
}

// hasPage reports whether dataset d gets a page: every dataset with a run of the sweep.
func (r *Results) hasPage(d string) bool { return !r.noSweepSection(d) }

// figuresOf returns the report's figures about dataset d of the given kind, in drawing
// order.
func figuresOf(rep *Report, d, kind string) []*Figure {
	var out []*Figure
	for _, f := range rep.Figures {
		if f.Dataset == d && f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

// hasFiguresPage reports whether the report has a FiguresFile: when figures were asked
// for and some were drawn or noted as not drawn.
func (rep *Report) hasFiguresPage(opt Options) bool {
	return len(opt.Figures) > 0 && (len(rep.Figures) > 0 || len(rep.Skipped) > 0)
}

// writePages writes each dataset's page and, when figures were drawn, FiguresFile into
// opt.OutDir, adding their names to rep.Files.
func (rep *Report) writePages(opt Options, tables map[string]*Table) error {
	r := rep.Results
	for _, d := range r.Datasets {
		if !r.hasPage(d) {
			continue
		}
		var b bytes.Buffer
		writeDatasetPage(&b, rep, opt, d, tables)
		name := r.PageFile(d)
		if err := os.WriteFile(filepath.Join(opt.OutDir, name), b.Bytes(), 0o644); err != nil {
			return err
		}
		rep.Files = append(rep.Files, name)
	}
	if !rep.hasFiguresPage(opt) {
		return nil
	}
	var b bytes.Buffer
	writeFiguresPage(&b, rep)
	if err := os.WriteFile(filepath.Join(opt.OutDir, FiguresFile), b.Bytes(), 0o644); err != nil {
		return err
	}
	rep.Files = append(rep.Files, FiguresFile)
	return nil
}

// writeDatasetPage writes the page of dataset d: every row at its selected grid points,
// then its sensitivity figures, heatmaps and objective figure, and links to the
// comparison's figures on d (shown in REPORT.md).
func writeDatasetPage(b *bytes.Buffer, rep *Report, opt Options, d string, tables map[string]*Table) {
	r := rep.Results
	fmt.Fprintf(b, "# %s — %s\n\n", DatasetTitle(d), r.Title())
	fmt.Fprintf(b, "Part of [%s](%s): the whole sweep on %s.", ReportFile, ReportFile, DatasetTitle(d))
	if rep.hasFiguresPage(opt) {
		fmt.Fprintf(b, " Every figure of the report: [%s](%s).", FiguresFile, FiguresFile)
	}
	fmt.Fprintf(b, " Every grid point: [%s](%s).\n\n", GridFile, GridFile)
	if t := tables["rows_"+r.slug(d)]; t != nil {
		writeTable(b, t, opt, "Every row at its selected grid points", "")
	}
	for _, k := range pageKinds {
		figs := figuresOf(rep, d, k.kind)
		var skipped []string
		if k.kind == "objective" {
			for _, s := range rep.Skipped {
				if strings.HasPrefix(s, "objective figure") && strings.Contains(s, " on "+DatasetTitle(d)+":") {
					skipped = append(skipped, s)
				}
			}
		}
		if len(figs) == 0 && len(skipped) == 0 {
			continue
		}
		fmt.Fprintf(b, "## %s\n\n", k.heading)
		writeFigures(b, figs)
		writeSkipped(b, skipped, "")
	}
	var other []string
	for _, f := range rep.Figures {
		if f.Dataset == d && !onPage(f.Kind) {
			other = append(other, figureLink(f))
		}
	}
	if len(other) > 0 {
		fmt.Fprintf(b, "## Drawn with the comparison\n\nShown in [%s](%s): %s.\n", ReportFile, ReportFile, strings.Join(other, " · "))
	}
}

// figureLink links a figure's title to its first file (the PNG when there is one).
func figureLink(f *Figure) string {
	if len(f.Files) == 0 {
		return f.Title
	}
	target := f.Files[0]
	for _, file := range f.Files {
		if strings.HasSuffix(file, ".png") {
			target = file
			break
		}
	}
	return fmt.Sprintf("[%s](%s)", f.Title, target)
}

// writeFiguresPage writes FiguresFile: every figure, grouped by dataset and kind, each
// linking its files and the page that shows it, then the figures that were not drawn.
func writeFiguresPage(b *bytes.Buffer, rep *Report) {
	r := rep.Results
	fmt.Fprintf(b, "# Every figure — %s\n\n", r.Title())
	files := 0
	for _, f := range rep.Figures {
		files += len(f.Files)
	}
	fmt.Fprintf(b, "Part of [%s](%s): its %d figures (%d files), grouped by dataset and kind, each with its files "+
		"and the page that shows it.\n\n", ReportFile, ReportFile, len(rep.Figures), files)
	datasets := append([]string(nil), r.Datasets...)
	for _, f := range rep.Figures { // a comparison's figure on a dataset without runs
		datasets = appendNew(datasets, f.Dataset)
	}
	for _, d := range datasets {
		if !slices.ContainsFunc(rep.Figures, func(f *Figure) bool { return f.Dataset == d }) {
			continue
		}
		title := DatasetTitle(d)
		if d == "" {
			title = "Every dataset"
		}
		fmt.Fprintf(b, "## %s\n\n", title)
		var comparison, cd []*Figure // the comparison's figures, of any kind not on a page
		for _, f := range rep.Figures {
			switch {
			case f.Dataset == d && f.Kind == "cd":
				cd = append(cd, f)
			case f.Dataset == d && !onPage(f.Kind):
				comparison = append(comparison, f)
			}
		}
		writeFigureList(b, "Drawn with the comparison", ReportFile, comparison)
		writeFigureList(b, "Critical differences across datasets", ReportFile, cd)
		for _, k := range pageKinds {
			writeFigureList(b, k.heading, r.PageFile(d), figuresOf(rep, d, k.kind))
		}
	}
	if len(rep.Skipped) > 0 {
		b.WriteString("## Not drawn\n\n")
		for _, s := range rep.Skipped {
			fmt.Fprintf(b, "- %s\n", s)
		}
		b.WriteString("\n")
	}
}

// writeFigureList writes a group of figures of FiguresFile under heading: the page that
// shows them, and each figure's title with links to its files.
func writeFigureList(b *bytes.Buffer, heading, shownIn string, figs []*Figure) {
	if len(figs) == 0 {
		return
	}
	fmt.Fprintf(b, "### %s\n\nShown in [%s](%s).\n\n", heading, shownIn, shownIn)
	for _, f := range figs {
		fmt.Fprintf(b, "- %s: %s\n", f.Title, fileLinks(f))
	}
	b.WriteString("\n")
}

// writeDatasetIndex writes the section of REPORT.md that links each dataset's page (or
// says that the sweep did not run on it) and the page of every figure.
func writeDatasetIndex(b *bytes.Buffer, rep *Report, opt Options, tables map[string]*Table) {
	r := rep.Results
	var lines []string
	for _, d := range r.Datasets {
		if !r.hasPage(d) {
			if !r.timingOnly() { // a sweep ran, but not on this dataset
				lines = append(lines, fmt.Sprintf("- %s: no run of the sweep, only fits timed alone (section \"Fit times "+
					"(timed alone)\").", DatasetTitle(d)))
			}
			continue
		}
		line := fmt.Sprintf("- [%s](%s)", DatasetTitle(d), r.PageFile(d))
		if t := tables["rows_"+r.slug(d)]; t != nil {
			line += ": every row at its selected grid points"
			var links []string
			for _, f := range opt.Formats {
				links = append(links, fmt.Sprintf("[%s](%s.%s)", f, t.Name, f))
			}
			if len(links) > 0 {
				line += " (" + strings.Join(links, " · ") + ")"
			}
		}
		var counts []string
		for _, k := range pageKinds {
			if n := len(figuresOf(rep, d, k.kind)); n > 0 {
				counts = append(counts, fmt.Sprintf("%d %s", n, k.count))
			}
		}
		if len(counts) > 0 {
			line += "; figures: " + strings.Join(counts, ", ")
		}
		lines = append(lines, line+".")
	}
	if len(lines) == 0 {
		return
	}
	b.WriteString("## The whole sweep, per dataset\n\n" +
		"One page per dataset: every row at the grid points its rules select, with every parameter; the sensitivity " +
		"of every row to each parameter it sweeps; heatmaps of pairs of parameters; the objective against " +
		"iteration.\n\n")
	b.WriteString(strings.Join(lines, "\n") + "\n\n")
	if rep.hasFiguresPage(opt) {
		fmt.Fprintf(b, "Every figure of the report (%d), grouped by dataset and kind, with its files: [%s](%s).\n\n",
			len(rep.Figures), FiguresFile, FiguresFile)
	}
}

// writeFilesSection writes the last section of REPORT.md: a link to every file the
// report wrote but the figures' (listed in FiguresFile).
func writeFilesSection(b *bytes.Buffer, rep *Report) {
	figFiles := map[string]bool{}
	for _, f := range rep.Figures {
		for _, file := range f.Files {
			figFiles[file] = true
		}
	}
	b.WriteString("## Files\n\n")
	for _, f := range rep.Files {
		if !figFiles[f] {
			fmt.Fprintf(b, "[%s](%s) ", f, f)
		}
	}
	b.WriteString("\n")
	if len(figFiles) > 0 {
		fmt.Fprintf(b, "\nThe %d files of the figures are linked from [%s](%s).\n", len(figFiles), FiguresFile, FiguresFile)
	}
}

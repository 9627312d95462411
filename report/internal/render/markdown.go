package render

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/nagc-harness/nagc/experiments"
)

// writeReport writes REPORT.md, the index of the report: title, provenance and
// regeneration commands; with the paper's comparison, every table and figure of the paper
// in its order with a paragraph comparing it with the paper; then links to each
// dataset's page (its rows at their selected grid points and the figures of the whole
// sweep, writeDatasetPage), to the page of every figure (FiguresFile), to grid.csv and to
// the report's files.
func writeReport(b *bytes.Buffer, rep *Report, opt Options, tables map[string]*Table) {
	r := rep.Results
	fmt.Fprintf(b, "# %s\n\n", r.Title())
	cmp := r.comparer()
	switch {
	case cmp != nil:
		cmp.WriteIntro(b, r, opt)
	case r.timingOnly():
		writeTimingIntro(b, r, opt)
	default:
		writeSweepIntro(b, r, opt)
	}

	writeProvenance(b, rep, opt)

	figs := map[string][]*Figure{}
	for _, f := range rep.Figures {
		figs[f.Kind] = append(figs[f.Kind], f)
	}
	if cmp != nil {
		cmp.WriteSections(b, rep, opt, tables, figs)
	} else {
		if t := tables["datasets"]; t != nil {
			writeTable(b, t, opt, "Datasets", "")
		}
		if t := tables["runtime"]; t != nil {
			writeTable(b, t, opt, "Fit times (timed alone)", "")
		}
	}
	writeRanks(b, rep, opt, tables, figs["cd"])
	writeDatasetIndex(b, rep, opt, tables)
	if r.Compare || !r.timingOnly() {
		fmt.Fprintf(b, "## Every grid point\n\n[%s](%s) holds every grid point of every row on every dataset, one line per "+
			"metric: the parameters, the mean and population std over the finished restarts and their number n.\n\n", GridFile, GridFile)
	}
	if cmp != nil {
		cmp.WriteClosing(b, r)
	}
	b.Write(rep.searches.Bytes())
	writeFilesSection(b, rep)
}

// writeTimingIntro writes the opening paragraphs of a report of fits timed alone only.
func writeTimingIntro(b *bytes.Buffer, r *Results, opt Options) {
	tDone, tFailed := r.timedCounts()
	fmt.Fprintf(b, "Report of the fits timed alone recorded in `%s`: %d fits timed alone (%d done, %d failed) on %s; "+
		"rows %s. This report only reads recorded runs; nothing was re-run.\n\n",
		opt.ResultsDir, len(r.Timed), tDone, tFailed, datasetList(r.Datasets), strings.Join(r.TimedMethods(), ", "))
	fmt.Fprintf(b, "Every record comes from a config with timing: true, which runs its fits one at a time to time "+
		"them: the results hold no run of a sweep, so there is no rows table, selection rule, figure or grid point "+
		"here. The times are in the section \"Fit times (timed alone)\", and in `%s/runs.jsonl` (fit_seconds, "+
		"init_seconds, records with timed_alone: true).\n\n", opt.ResultsDir)
}

// writeSweepIntro writes the opening paragraphs of a report of the sweep alone: what was
// run and how the rows are selected.
func writeSweepIntro(b *bytes.Buffer, r *Results, opt Options) {
	total, done, failed := r.Counts()
	rows := ""
	if len(r.Methods) > 0 {
		rows = "; rows " + strings.Join(r.Methods, ", ")
	}
	fmt.Fprintf(b, "Report of the sweep from the recorded runs in `%s`: %d runs (%d done, %d failed) on %s%s. "+
		"This report only reads recorded runs; nothing was re-run.\n\n",
		opt.ResultsDir, total, done, failed, datasetList(r.Datasets), rows)
	if len(r.Timed) > 0 {
		fmt.Fprintf(b, "The results also hold %d fits timed alone (a config with timing: true): their times are "+
			"in the section \"Fit times (timed alone)\", and in `%s/runs.jsonl` (fit_seconds, init_seconds, records "+
			"with timed_alone: true); no other table counts them.\n\n",
			len(r.Timed), opt.ResultsDir)
	}
	b.WriteString(selectionParagraph(r) + "\n\n")
}

// selectionParagraph says which rules select the grid points of a report of the sweep
// alone, and on which datasets the labels were missing.
func selectionParagraph(r *Results) string {
	var labeled, unlabeled []string
	for _, d := range r.Datasets {
		if r.Labeled(d) {
			labeled = append(labeled, DatasetTitle(d))
		} else {
			unlabeled = append(unlabeled, DatasetTitle(d))
		}
	}
	s := "**Selection rules.** Each row is shown at the grid point chosen per dataset"
	if len(labeled) > 0 {
		s += fmt.Sprintf(" by %s — optimistic for every tuned row, since it reads the labels — and by %s", ruleText(PaperRule), ruleText(r.FreeRule))
	} else {
		s += " by " + ruleText(r.FreeRule)
	}
	s += ". Mean ± std are over the restarts of the chosen grid point (population std, ddof = 0)."
	if len(unlabeled) > 0 {
		s += fmt.Sprintf(" No run recorded ARI on %s (no labels): there, only the label-free rule selects, and the figures "+
			"plot its score.", strings.Join(unlabeled, ", "))
	}
	return s
}

// writeProvenance writes where the runs come from and how to regenerate the report.
func writeProvenance(b *bytes.Buffer, rep *Report, opt Options) {
	r := rep.Results
	b.WriteString("## Provenance\n\n")
	var configs, commits, machines, gos, hashes []string
	for _, p := range r.Provenance {
		configs = appendNew(configs, p.Config)
		hashes = appendNew(hashes, fmt.Sprintf("`%s` (sha256 `%s`)", p.Config, p.ConfigHash))
		commits = appendNew(commits, "`"+p.GitCommit+"`")
		machines = appendNew(machines, fmt.Sprintf("%s, %s, %d workers", p.Host, p.CPU, p.Workers))
		gos = appendNew(gos, p.GoVersion)
	}
	if len(r.Provenance) == 0 {
		b.WriteString("No provenance (sweeps.jsonl) was recorded in the results folder.\n\n")
	} else {
		fmt.Fprintf(b, "- sweeps (starts of `nagc run`): %d, first %s, last %s\n", len(r.Provenance),
			r.Provenance[0].Started.UTC().Format("2006-01-02 15:04 MST"), r.Provenance[len(r.Provenance)-1].Started.UTC().Format("2006-01-02 15:04 MST"))
		fmt.Fprintf(b, "- config: %s\n", strings.Join(hashes, "; "))
		fmt.Fprintf(b, "- git commit: %s\n", strings.Join(commits, ", "))
		fmt.Fprintf(b, "- machine: %s\n", strings.Join(machines, "; "))
		fmt.Fprintf(b, "- Go version: %s\n", strings.Join(gos, ", "))
		writePrograms(b, r.Records)
		writeLoadReports(b, r.Provenance[len(r.Provenance)-1])
	}
	total, done, failed := r.Counts()
	if r.timingOnly() && !r.Compare {
		b.WriteString("- runs of a sweep: none (every record was timed alone)\n")
	} else {
		fmt.Fprintf(b, "- runs: %d recorded, %d done, %d failed; %d grid points\n", total, done, failed, len(r.Points))
	}
	if len(r.Timed) > 0 {
		timedDone, timedFailed := r.timedCounts()
		readBy := "the runtime table"
		if !r.Compare {
			readBy = "the section \"Fit times (timed alone)\""
		}
		fmt.Fprintf(b, "- fits timed alone (a config with timing: true; read by %s only, not counted above): "+
			"%d recorded, %d done, %d failed\n", readBy, len(r.Timed), timedDone, timedFailed)
	}
	if failed > 0 {
		errs := map[string]int{}
		var order []string
		for _, rec := range r.Records {
			if rec.Status == experiments.StatusFailed {
				e := shorten(rec.Error, 100)
				if errs[e] == 0 {
					order = append(order, e)
				}
				errs[e]++
			}
		}
		for _, e := range order {
			fmt.Fprintf(b, "  - %d× %s\n", errs[e], e)
		}
	}
	if len(configs) == 0 {
		configs = []string{"CONFIG"}
	}
	b.WriteString("\nTo regenerate (the run resumes: recorded runs are skipped):\n\n```sh\n")
	for _, c := range configs {
		fmt.Fprintf(b, "nagc run %s --results %s\n", c, opt.ResultsDir)
	}
	fmt.Fprintf(b, "%s\n```\n\n", opt.Command)
}

// WriteTable writes a table section: links to its files, the comparison paragraph and
// the Markdown table.
func writeTable(b *bytes.Buffer, t *Table, opt Options, heading, paragraph string) {
	fmt.Fprintf(b, "## %s\n\n", heading)
	writeTableBody(b, t, opt, paragraph)
}

// writeTableBody writes links to a table's files, a paragraph (if any) and the Markdown
// table.
func writeTableBody(b *bytes.Buffer, t *Table, opt Options, paragraph string) {
	var links []string
	for _, f := range opt.Formats {
		links = append(links, fmt.Sprintf("[%s](%s.%s)", f, t.Name, f))
	}
	if len(links) > 0 {
		fmt.Fprintf(b, "Files: %s.\n\n", strings.Join(links, " · "))
	}
	if paragraph != "" {
		fmt.Fprintf(b, "%s\n\n", paragraph)
	}
	b.WriteString(t.Markdown())
	b.WriteString("\n")
}

// WriteFigures embeds each figure's PNG (or links its files) with its caption and facts.
func writeFigures(b *bytes.Buffer, figs []*Figure) {
	for _, f := range figs {
		fmt.Fprintf(b, "### %s\n\n", f.Title)
		for _, file := range f.Files {
			if strings.HasSuffix(file, ".png") {
				fmt.Fprintf(b, "![%s](%s)\n\n", f.Title, file)
			}
		}
		fmt.Fprintf(b, "%s Files: %s.\n\n", f.Caption, fileLinks(f))
		for _, fact := range f.Facts {
			fmt.Fprintf(b, "- %s\n", fact)
		}
		if len(f.Facts) > 0 {
			b.WriteString("\n")
		}
	}
}

// fileLinks links a figure's files: "[png](x.png) · [pdf](x.pdf)".
func fileLinks(f *Figure) string {
	var links []string
	for _, file := range f.Files {
		links = append(links, fmt.Sprintf("[%s](%s)", strings.TrimPrefix(filepathExt(file), "."), file))
	}
	return strings.Join(links, " · ")
}

func filepathExt(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i:]
	}
	return ""
}

// WriteSkipped lists the skipped figures whose note starts with prefix.
func writeSkipped(b *bytes.Buffer, skipped []string, prefix string) {
	for _, s := range skipped {
		if strings.HasPrefix(s, prefix) {
			fmt.Fprintf(b, "*Not drawn: %s*\n\n", s)
		}
	}
}

// DatasetList prints dataset names in the paper's spelling.
func datasetList(ds []string) string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = DatasetTitle(d)
	}
	return strings.Join(out, ", ")
}

// writeLoadReports lists, for each dataset of the sweep p, what its reader dropped, noted
// and warned about when the sweep read it (nothing for a clean read).
func writeLoadReports(b *bytes.Buffer, p experiments.Provenance) {
	for _, src := range p.Sources {
		l := src.Load
		if l == nil || len(l.Dropped) == 0 && len(l.Warnings) == 0 && len(l.Notes) == 0 {
			continue
		}
		fmt.Fprintf(b, "- loading %s:\n", src.Name)
		for _, d := range l.Dropped {
			fmt.Fprintf(b, "  - dropped %d: %s", d.Count, d.Reason)
			if len(d.Examples) > 0 {
				fmt.Fprintf(b, " (first: `%s`)", strings.Join(d.Examples, "`, `"))
			}
			b.WriteString("\n")
		}
		for _, w := range l.Warnings {
			fmt.Fprintf(b, "  - warning: %s\n", w)
		}
		for _, n := range l.Notes {
			fmt.Fprintf(b, "  - note: %s\n", n)
		}
	}
}

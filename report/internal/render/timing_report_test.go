package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/report/internal/reporttest"
	recorded "github.com/nagc-harness/nagc/results"

	"github.com/nagc-harness/nagc/datasets"
)

// TestGenerateTimingOnly renders the report of a folder holding only the fits of a user's
// timing config: the introduction says what is there (no "0 runs", no empty row list),
// the fit times are a section with md, tex and csv files, and the sections a sweep would
// fill (rows tables, selection, figures, grid points) are left out rather than empty.
func TestGenerateTimingOnly(t *testing.T) {
	dir := reporttest.WriteResultsDir(t, ownTimedFits(t), []recorded.Provenance{timingProvenance("mytiming", synthStats)})
	out := filepath.Join(t.TempDir(), "rep")
	rep, err := Generate(Options{ResultsDir: dir, OutDir: out, Figures: []string{FormatPNG},
		LoadGraph: func(string) (*datasets.Graph, error) { t.Error("a timing-only report loaded a graph"); return nil, nil }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	reporttest.CheckLinks(t, out, ReportFile, rep.Files)
	md := reporttest.ReadText(t, filepath.Join(out, ReportFile))
	for _, want := range []string{
		"# Sweep report: mytiming",
		"Report of the fits timed alone recorded in `" + dir + "`: 21 fits timed alone (18 done, 3 failed) on synthetic; " +
			"rows NAGC, NAGC w/o PU, JWNMF, BAGC, broken. This report only reads recorded runs; nothing was re-run.",
		"the results hold no run of a sweep, so there is no rows table",
		"- runs of a sweep: none (every record was timed alone)",
		"- fits timed alone (a config with timing: true; read by the section \"Fit times (timed alone)\" only, not counted above): 21 recorded, 18 done, 3 failed",
		"## Fit times (timed alone)\n\nFiles: [md](runtime.md) · [tex](runtime.tex) · [csv](runtime.csv).",
		"| NAGC | init=random iterations=100 k2=8 lambda=0.01 rho=0.95 | 3 | 0.0300 | 0.100 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("REPORT.md lacks %q:\n%s", want, md)
		}
	}
	for _, bad := range []string{"0 runs", "rows .", "## synthetic", "| Row | Selection", "Selection rules", "Every grid point",
		"Not drawn", "Prop.", "paper"} {
		if strings.Contains(md, bad) {
			t.Errorf("REPORT.md of a timing-only folder says %q:\n%s", bad, md)
		}
	}
	if len(rep.Skipped) > 0 || len(rep.Figures) > 0 {
		t.Errorf("figures %v, skipped %q: want none", rep.Figures, rep.Skipped)
	}
	for _, f := range []string{"runtime.md", "runtime.tex", "runtime.csv", "datasets.md"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "rows_synthetic.md")); err == nil {
		t.Error("a rows table with no row was written")
	}
	if tex := reporttest.ReadText(t, filepath.Join(out, "runtime.tex")); !strings.Contains(tex, `\multicolumn{5}{l}{\emph{synthetic}} \\`) ||
		!strings.Contains(tex, "JWNMF & defaults & 4 & 0.0550 & 0.300 \\\\") {
		t.Errorf("runtime.tex:\n%s", tex)
	}
	// tables.csv holds the fit times as runtime.csv does.
	var n int
	for _, row := range reporttest.ReadCSV(t, filepath.Join(out, AllTablesCSV)) {
		if row[0] == "runtime" {
			n++
			if row[1] == "synthetic" && row[2] == "JWNMF" && row[4] == MetricFitTime && (row[5] != SelAlone || row[6] != "0.055" || row[8] != "4") {
				t.Errorf("tables.csv JWNMF fit time: %q", row)
			}
		}
	}
	if want := len(reporttest.ReadCSV(t, filepath.Join(out, "runtime.csv"))) - 1; n != want || n == 0 {
		t.Errorf("tables.csv has %d runtime rows, runtime.csv %d", n, want)
	}
}

// TestGenerateSweepAndTiming renders the report of a folder into which a user's sweep and
// a timing config both ran (two `nagc run` into one --results, no compare: paper): the
// sweep's files are those of the sweep alone, byte for byte, and the fit times are added
// as a section of their own, with a note that the sweep's times do not compare. A timing
// config on a dataset the sweep did not run gets a line saying so, not an empty table.
func TestGenerateSweepAndTiming(t *testing.T) {
	sweep, sweepProv := unlabeledSweep(t)
	for _, tc := range []struct {
		name        string
		timedOn     []string
		sameFiles   []string
		wantSection []string
		noFiles     []string
	}{
		{
			name:      "same datasets",
			timedOn:   []string{"../own/x", "data/y"},
			sameFiles: []string{"rows_own-x.md", "rows_own-x.tex", "rows_own-x.csv", "rows_data-y.md", "grid.csv", "datasets.md", "datasets.tex", "datasets.csv"},
			wantSection: []string{"| **../own/x** | | | | |", "| **data/y** | | | | |",
				"| NAGC | init=random iterations=100 k2=k1 lambda=0.01 rho=0.95 | 5 | 0.0120 | 0.220 |"},
		},
		{
			name:      "a dataset timed only",
			timedOn:   []string{"../own/x", "data/z"},
			sameFiles: []string{"rows_own-x.md", "rows_own-x.tex", "rows_own-x.csv", "rows_data-y.md", "rows_data-y.csv", "grid.csv"},
			wantSection: []string{"| **data/z** | | | | |",
				"- data/z: no run of the sweep, only fits timed alone (section \"Fit times (timed alone)\").\n"},
			noFiles: []string{"rows_data-z.md", "rows_data-z.csv"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var timed []recorded.Record
			for _, d := range tc.timedOn {
				for _, rec := range ownTimedFits(t) {
					rec.Dataset, rec.RunID = d, d+rec.RunID
					timed = append(timed, rec)
				}
			}
			var stats []datasets.Stats // as the loader measured them for the sweep
			for _, d := range tc.timedOn {
				s := datasets.Stats{Name: d, N: 7, Edges: 9, M: 3, K: 2}
				for _, sw := range sweepProv[0].Datasets {
					if sw.Name == d {
						s = sw
					}
				}
				stats = append(stats, s)
			}
			prov := append(append([]recorded.Provenance{}, sweepProv...), timingProvenance("mytiming", stats...))
			// The sweep's provenance says the sweep ran 4 at a time.
			prov[0].Workers = 4
			alone := filepath.Join(t.TempDir(), "alone")
			both := filepath.Join(t.TempDir(), "both")
			for _, g := range []struct {
				out  string
				recs []recorded.Record
				prov []recorded.Provenance
			}{{alone, sweep, prov[:1]}, {both, append(append([]recorded.Record{}, sweep...), timed...), prov}} {
				rep, err := Generate(Options{ResultsDir: reporttest.WriteResultsDir(t, g.recs, g.prov), OutDir: g.out, NoFigures: true,
					Command: "nagc report RES"}, nil)
				if err != nil {
					t.Fatal(err)
				}
				reporttest.CheckLinks(t, g.out, ReportFile, rep.Files)
			}
			for _, f := range tc.sameFiles {
				if a, b := reporttest.ReadText(t, filepath.Join(alone, f)), reporttest.ReadText(t, filepath.Join(both, f)); a != b {
					t.Errorf("%s changed by the fits timed alone:\nsweep alone:\n%s\nwith them:\n%s", f, a, b)
				}
			}
			for _, f := range tc.noFiles {
				if _, err := os.Stat(filepath.Join(both, f)); err == nil {
					t.Errorf("%s written for a dataset the sweep did not run", f)
				}
			}
			md := reporttest.ReadText(t, filepath.Join(both, ReportFile))
			if _, err := os.Stat(filepath.Join(alone, "runtime.md")); err == nil || strings.Contains(reporttest.ReadText(t, filepath.Join(alone, ReportFile)), "Fit times") {
				t.Error("a fit-times table without fits timed alone")
			}
			for _, want := range append([]string{
				"# Sweep report: my sweep + mytiming",
				"on ../own/x, data/y", "; rows NAGC, my-sgc. ",
				"The results also hold 42 fits timed alone",
				"## Fit times (timed alone)",
				"The rows tables' fit (s) are means over the sweep's runs, timed 4 at a time with k-means starts shared " +
					"between grid points: they do not compare with these.",
				"[../own/x](sweep_own-x.md)",
				"## Every grid point",
			}, tc.wantSection...) {
				if !strings.Contains(md, want) {
					t.Errorf("REPORT.md lacks %q:\n%s", want, md)
				}
			}
			if page := reporttest.ReadText(t, filepath.Join(both, "sweep_own-x.md")); !strings.Contains(page,
				"| NAGC | best modularity (label-free) | init=kmeans iterations=40 lambda=0.01 rho=0.95 |") {
				t.Errorf("sweep_own-x.md lacks NAGC's row:\n%s", page)
			}
			if strings.Contains(md, "Prop.") || strings.Contains(md, "| paper") {
				t.Errorf("REPORT.md of a user's sweep names the paper's rows or columns:\n%s", md)
			}
			// tables.csv: the sweep's rows unchanged, then the fit times.
			var got, want []string
			for _, row := range reporttest.ReadCSV(t, filepath.Join(both, AllTablesCSV)) {
				if row[0] != "runtime" && row[0] != "datasets" {
					got = append(got, strings.Join(row, ","))
				}
			}
			for _, row := range reporttest.ReadCSV(t, filepath.Join(alone, AllTablesCSV)) {
				if row[0] != "datasets" {
					want = append(want, strings.Join(row, ","))
				}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("tables.csv's sweep rows changed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

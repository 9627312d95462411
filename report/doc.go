// Package report turns recorded runs (a results folder written by `nagc run`) into a
// report of the sweep, and sets it beside a published paper when the config asks.
//
// # The sweep
//
// Per dataset, every row of the config at the grid point each selection rule picks (with
// every parameter of that point), a sensitivity figure for every swept parameter of every
// row, heatmaps of pairs of swept parameters, the objective curves, and grid.csv with
// every grid point (mean, std and n per metric). It never runs a method: everything is
// read from runs.jsonl (metrics, fit times, objective curves, cluster labels) and
// sweeps.jsonl (provenance, the config's name and compare key, and the loader's dataset
// statistics). Results holds the aggregated runs and the selection; NewResults and
// LoadResults build it, Generate writes the whole report.
//
// Where the labels were recorded (some run has ARI), rows are selected by the paper's
// rule (best mean ARI over restarts, which reads the labels: never called label-free) and
// by a label-free rule (best mean modularity by default); without labels, by the
// label-free rule alone.
//
// # The paper
//
// When the config asks for it (compare: paper, recorded in sweeps.jsonl; or
// Options.Compare), the report first sets the rows named like the paper's beside its
// published numbers: its tables and figures in its order, each with a paragraph comparing
// it with the paper. Without it, no paper number, column or title appears. What the
// comparison needs of the paper is data, package report/paper: its numbers
// (configs/published-results.yaml) and a spec (configs/paper-comparison.yaml: rows and
// datasets in order, rows compared with its rows, headings, the stated facts drawn on its
// figures and checked against the runs, its speed claims). One builder makes every table
// of ours beside the paper's (ARI, ρ, modularity: rows × groups of ours, paper, Δ), and
// one the runtime table, from kinds of columns (the sweep's fit times, or fits timed
// alone by a config with timing: true where the results hold them). Every cell of the ARI
// and ρ tables off the paper by more than max(paper std, 0.02) carries a note on its Δ: a
// measured cause or "not explained" with what was tried, kept as data in offpaper.yaml.
// The files of this part are named paper_*.go.
//
// # Output
//
// Every table exists as Markdown, LaTeX (booktabs, a tabular ready to \input) and tidy
// CSV (one row per cell), written by package internal/texttable. Missing data never
// breaks a table: a cell without finished runs renders "—" with a note saying why.
// Figures are drawn with gonum.org/v1/plot as PNG and as PDF whose fonts are embedded as
// Unicode subsets (package internal/pdfcanvas), so that λ and ρ are in the text layer;
// their sizes, fonts, titles and plotted metric are Options.FigureSettings (a config's
// figures section), the report's own look without them. Files are named by
// slugs of the dataset and row names, and the whole report is written into a temporary
// folder first, so that a failure leaves none of it.
package report

// Package render writes the report of a sweep's records: tables, figures, grid.csv, REPORT.md.
//
// # The sweep
//
// Per dataset, every row of the config at the grid point each selection rule picks (with
// every parameter of that point), a sensitivity figure for every swept parameter of every
// row, heatmaps of pairs of swept parameters, the objective curves, and grid.csv with
// every grid point (mean, std and n per metric). It never runs a method: everything is
// read from runs.jsonl (metrics, fit times, objective curves, cluster labels) and
// sweeps.jsonl (provenance, the config's name and compare key, and the loader's dataset
// statistics). Results holds the aggregated runs and the selection; NewResults builds it,
// Generate reads a results folder and writes the whole report.
//
// Where the labels were recorded (some run has ARI), rows are selected by the paper's
// rule (best mean ARI over restarts, which reads the labels: never called label-free) and
// by a label-free rule (best mean modularity by default); without labels, by the
// label-free rule alone.
//
// # A comparison with a paper
//
// When the records or Options.Compare ask for it, the report first sets the rows beside a
// paper's published numbers. The sweep's renderer reaches the comparison only through the
// Comparer interface (Generate's cmp), which adds its tables, figures and sections of
// REPORT.md; Paper is the NAGC paper's, in the files named paper_*.go. Without it, no
// paper number, column or title appears. The renderer's tables and figures are in their
// reading order.
//
// What the comparison needs of the paper is data, package report/paper: its numbers
// (configs/published-results.yaml) and a spec (configs/paper-comparison.yaml: rows and
// datasets in order, rows compared with its rows, headings, the stated facts drawn on its
// figures and checked against the runs, its speed claims). The spec also orders the
// sweep's own rows and names its proposed row, so the renderer reads it too. One builder
// makes every table of ours beside the paper's (ARI, ρ, modularity: rows × groups of
// ours, paper, Δ), and one the runtime table, from kinds of columns (the sweep's fit
// times, or fits timed alone by a config with timing: true where the results hold them).
// Every cell of the ARI and ρ tables off the paper by more than max(paper std, 0.02)
// carries a note on its Δ: a measured cause or "not explained" with what was tried, kept
// as data in configs/offpaper.yaml. Paper's tables and figures come in the paper's order
// (the WebKB layout, then per dataset the λ and k2 sweeps of Prop.), each with a paragraph
// comparing it with the paper.
//
// # One package
//
// The comparison was once a package of its own, but it built every table, figure and
// paragraph with the renderer's selection, formatting, table and figure names (73 of
// them), and the renderer needed the paper's spec for its own row order and claims: the
// split was an API as wide as the renderer, in both directions. As one package, what
// package report calls is Generate, Options, Paper and ReportFile; the helpers both halves
// share (formatting, selection, table and figure builders) are unexported.
//
// # Output
//
// Every table exists as Markdown, LaTeX (booktabs, a tabular ready to \input) and tidy
// CSV (one row per cell), written by package internal/texttable. Missing data never
// breaks a table: a cell without finished runs renders "—" with a note saying why.
// Figures are drawn with package internal/paperplot as PNG and as
// PDF whose fonts are embedded as Unicode subsets (package internal/pdfcanvas), so that λ
// and ρ are in the text layer; their sizes, fonts, titles and plotted metric are
// Options.FigureSettings (a config's figures section), ready for a paper (a column wide,
// 8 pt, no title) without them. Files are named by
// slugs of the dataset and row names, and the whole report is written into a temporary
// folder first, so that a failure leaves none of it.
//
// REPORT.md is an index: the introduction, provenance, the datasets table and the
// comparison's sections (the paper's tables and figures), then links. Each dataset with
// a run of the sweep has its page, sweep_DATASET.md (Results.PageFile: its rows table,
// sensitivity figures, heatmaps and objective figure), and FiguresFile lists every
// figure by dataset and kind; every link of these pages points to a file of the report.
package render

// Package report writes the report of a sweep, beside the NAGC paper's when asked.
//
// Generate reads a results folder written by `nagc run` (runs.jsonl, sweeps.jsonl) and
// writes the report's tables, figures, grid.csv and REPORT.md; it never runs a method. Per dataset it shows every row at the grid point each selection
// rule picks (the paper's rule, best mean ARI, where labels were recorded; a label-free
// rule, best mean modularity by default), a sensitivity figure for every swept
// parameter, heatmaps of pairs of swept parameters, the objective curves, and grid.csv
// with every grid point. Tables are written as Markdown, LaTeX and tidy CSV; figures as
// PNG and as PDF with Unicode fonts. REPORT.md is the index; each dataset's rows and
// figures are on its page, sweep_DATASET.md, and figures.md lists every figure.
//
// When the config has compare: paper (or Options.Compare is "paper"), the report first
// sets the rows named like the paper's beside its published numbers, in its order, with
// a paragraph on each table and figure and a note on every cell off the paper. The
// paper's numbers and how the rows are set beside them are data (package report/paper:
// configs/published-results.yaml and configs/paper-comparison.yaml).
//
// The work is done by package report/internal/render: the renderer of sweep records
// (selection, tables, figures, REPORT.md) and the comparison with the paper, which the
// renderer reaches through its Comparer interface.
package report

// Package report turns recorded runs (a results folder written by `nagc run`) into a
// report of the sweep: per dataset, every row of the config at the grid point each
// selection rule picks (with every parameter of that point), a sensitivity figure for every
// swept parameter of every row, heatmaps of pairs of swept parameters, the objective
// curves, and grid.csv with every grid point (mean, std and n per metric). It never runs a
// method: everything is read from runs.jsonl (metrics, fit times, objective curves, cluster
// labels) and sweeps.jsonl (provenance, the config's name and compare key, and the loader's
// dataset statistics).
//
// Where the labels were recorded (some run has ARI), rows are selected by the paper's
// rule (best mean ARI over restarts, which reads the labels: never called label-free) and
// by a label-free rule (best mean modularity by default); without labels, by the
// label-free rule alone.
//
// When the config asks for it (compare: paper, recorded in sweeps.jsonl; or
// Options.Compare), the report first sets the rows named like the paper's beside the NAGC
// paper's published numbers: its tables and figures in its order, each with a paragraph
// comparing it with the paper. Without it, no paper number, column or title appears.
// Every cell of the ARI and ρ tables off the paper by more than max(paper std, 0.02)
// carries a note on its Δ: a measured cause or "not explained" with what was tried, kept
// as data in offpaper.yaml (offPaper) beside a paragraph per row where one is needed
// (BAGC's derivation). A row run with the authors' initialisation, which reads the
// labels, is compared with the paper's Prop. (PaperRows) and marked as reading the labels
// under every rule. The runtime table checks the paper's three speed claims at its timing
// setting k2 = k1 (SpeedClaims), with the fits timed alone by a config with timing: true
// where the results hold them (Results.Timed: read by that table only), else with the
// sweep's concurrently timed fits.
//
// Every table exists as Markdown, LaTeX (booktabs, a tabular ready to \input) and tidy
// CSV (one row per cell). Missing data never breaks a table: a cell without finished runs
// renders "—" with a note saying why. Figures are drawn with gonum.org/v1/plot as PNG and
// as PDF whose fonts are embedded as Unicode subsets (package internal/pdfcanvas), so that λ and ρ are in
// the text layer. Files are named by slugs of the dataset and row names, and the whole
// report is written into a temporary folder first, so that a failure leaves none of it.
package report

// Package report turns recorded runs (a results folder written by `nagc run`) into the
// tables and figures of the NAGC paper, each beside the paper's published numbers, and a
// REPORT.md that links them in the paper's order. It never runs a method: everything is
// read from runs.jsonl (metrics, fit times, objective curves, cluster labels) and
// sweeps.jsonl (provenance and the loader's dataset statistics).
//
// Every table exists as Markdown, LaTeX (booktabs, a tabular ready to \input) and tidy
// CSV (one row per cell). Grid points are selected per dataset and method by the paper's
// rule (best mean ARI over restarts, which reads the ground-truth labels) and, beside it,
// by a label-free rule (best mean modularity by default). Missing data never breaks a
// table: a cell without finished runs renders "—" with a note saying why.
//
// Figures are drawn with gonum.org/v1/plot as PNG and PDF.
package report

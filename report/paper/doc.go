// Package paper holds a published paper as data, for the report to set a sweep beside
// it.
//
// It holds the numbers the paper publishes (Published, read from a YAML file such as
// configs/published-results.yaml) and how a sweep is compared with it (Spec, read from a
// YAML file such as configs/paper-comparison.yaml): the rows and datasets of its tables
// in their order, the recorded rows compared with one of its rows, the headings of its
// tables and figures, what it states in its text (marks drawn on its figures, settings
// checked against the runs, quoted statements) and its speed claims.
//
// Nothing here reads runs or renders anything: package report does, driven by these
// values. Comparing a sweep with a second paper means writing these two YAML files, not
// Go. Default returns the NAGC paper's, embedded in the binary (package configs).
//
// Both files are checked when read. A fault is an *Error naming the file and line, e.g.
//
//	configs/paper-comparison.yaml:61: stated[2]: a mark needs a dataset
package paper

// Package command runs a user's program as a clustering method.
//
// A Method starts its Program once per fit, with no shell: the graph is written once as
// a NumPy .npz file in scipy's CSR layout (GraphFile), the fit's settings go to the
// program's standard input as one JSON object (Job), and the program writes one integer
// cluster id a line, one line per vertex, to the file Job.LabelsOut, and may write a
// JSON object of extra information to Job.InfoOut. Every way such a program can fail
// (not found, a non-zero exit, a time-out, too few or too many labels, a label that is
// not an integer, output over its size cap) is an error of the fit naming the fault, with
// the last lines the program printed; the process group of a program that times out, or
// whose fit is cancelled, is killed.
//
// docs/your-method.md describes the protocol for the writers of such programs.
package command

// Package results reads, merges and summarises what sweeps recorded.
//
// It holds the run records and sweep provenance of a results folder, its locks, shards
// and merge, and the aggregation of restarts into grid points with the selection rules
// that choose among them.
//
// A results folder holds RunsFile, one Record per finished run appended by the runner
// (package experiments) as it finishes, and SweepsFile, one Provenance per start of a
// sweep. Writers append under LockAppend, Merge and rescoring rewrite under LockRewrite,
// and readers take LockRead, so that nothing recorded is lost to a concurrent writer; a
// line torn by a kill is cut by RepairTorn before the next append.
//
// Aggregate groups the latest record of every run into PointStats (means and population
// standard deviations over restarts), Best and Summarize choose a grid point per dataset
// and method under each of SelectionRules, and ReadsLabels and PointStats.ReadsLabels say
// which choices read the ground-truth labels. Everything here reads records and
// provenance only: it imports no method and no config.
package results

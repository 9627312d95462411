// Package experiments turns a YAML experiment config into runs, executes them on a worker
// pool deterministically and resumably, records every run as one JSON line, and
// summarises recorded runs by the paper's and a label-free selection rule.
//
// A Config (ParseConfig, LoadConfig, OpenConfig for a shipped one) names datasets and
// method rows with their grids; Plan expands it into Runs, each with an id derived from
// its resolved settings and restart and a seed from the base seed, the dataset's content
// and the restart, never from the number of workers or shards. Execute runs them into a results folder: it plans the
// runs of its shard, skips those the folder's runs.jsonl already holds as done (resume),
// appends the sweep's Provenance to sweeps.jsonl, and fits the rest on a pool of
// workers, appending one Record per finished run. StatusOf, Merge and MergeGaps tell and
// join the shards of a sweep; Aggregate, Summarize and WriteSummaryCSV/WriteSummaryJSON
// choose and print the grid point each selection rule picks; Cluster fits one method
// once, scored as a run is.
//
// The config's keys are documented on Config, MethodSpec and DatasetEntry, and in the
// repository's docs/config.md; the selection rules on SelectARI and its siblings.
package experiments

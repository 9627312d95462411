// Package experiments turns a YAML experiment config into runs and executes them on a
// worker pool deterministically and resumably, recording every run in a results folder.
//
// A Config (ParseConfig, LoadConfig, OpenConfig for a shipped one) names datasets and
// method rows with their grids; Plan expands it into Runs, each with an id derived from
// its resolved settings and restart and a seed from the base seed, the dataset's content
// and the restart, never from the number of workers or shards. Execute runs them into a
// results folder: it plans the runs of its shard, skips those the folder's runs.jsonl
// already holds as done (resume), appends the sweep's results.Provenance to
// sweeps.jsonl, and fits the rest on a pool of workers, appending one results.Record per
// finished run. StatusOf and MergeGaps tell what the shards of a sweep lack against its
// plan; Cluster fits one method once, scored as a run is.
//
// What a results folder holds is read, merged, aggregated and summarised by package
// results, which knows no config and no method. The config's keys are documented on
// Config, MethodSpec and DatasetEntry, and in the repository's docs/config.md.
package experiments

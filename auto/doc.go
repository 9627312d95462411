// Package auto clusters an attributed graph without reading its labels, choosing the
// method and its settings by held-out modularity.
//
// It runs a fixed candidate set of methods and settings (a shipped config per budget,
// configs/auto-*.yaml), each run fitted a second time with a fifth of its edges held out,
// and picks the candidate whose clusterings best predict the held-out edges (the best
// mean held-out modularity, results.SelectHeldOut). The candidates are a preset of
// the search engine: each row of the budget's config is searched (sampler grid, rule
// heldout, halving where the row's grid lists iterations; presetConfig), so auto's runs
// are recorded, resumed and reported as any search's. Where the number of clusters is
// not given it is chosen the same way from a range. The rule and the candidate sets are
// versioned (Version, docs/auto.md): they were fixed before any new graph's labels were
// looked at, and a change to either is a new version.
//
// Labels, where the graph has them, are removed before anything runs (the runs see a
// label-free copy of the graph, so their seeds and records cannot depend on them) and are
// read only afterwards, to report the ARI of the clustering chosen.
package auto

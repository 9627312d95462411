// Package compare sets the rows of a sweep beside the NAGC paper's tables and figures.
//
// What the comparison needs of the paper is data, package report/paper: its numbers
// (configs/published-results.yaml) and a spec (configs/paper-comparison.yaml: rows and
// datasets in order, rows compared with its rows, headings, the stated facts drawn on its
// figures and checked against the runs, its speed claims). One builder makes every table
// of ours beside the paper's (ARI, ρ, modularity: rows × groups of ours, paper, Δ), and
// one the runtime table, from kinds of columns (the sweep's fit times, or fits timed
// alone by a config with timing: true where the results hold them). Every cell of the ARI
// and ρ tables off the paper by more than max(paper std, 0.02) carries a note on its Δ: a
// measured cause or "not explained" with what was tried, kept as data in configs/offpaper.yaml.
//
// Paper is the comparison (a render.Comparer): its tables and figures in the paper's
// order (the WebKB layout, then per dataset the λ and k2 sweeps of Prop.), each with a
// paragraph comparing it with the paper.
package compare
